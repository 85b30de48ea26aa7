//! Metrics: per-flow and per-link counters, retransmission ground truth, time series, reordering metrics
