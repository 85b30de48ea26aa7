//! Metrics the experiments plot, computed from a run's report.

use reorderlab_metrics::RunReport;

/// Goodput of flow 0 in Mbit/s.
pub fn goodput_mbps(r: &RunReport, _: Option<&str>) -> f64 {
    r.flows.first().map_or(f64::NAN, |f| f.goodput_bps / 1e6)
}

/// Normalized throughput of every studied flow (TCP-PR paper Section V):
/// T_i = x_i / ((1/n) sum_j x_j), x_i the flow's goodput over the
/// measurement window (the paper's "data sent during the last 60 seconds";
/// delivered data is used, see the experiment notes).
pub fn normalized(r: &RunReport) -> Vec<(String, f64)> {
    let n = r.flows.len() as f64;
    let total: f64 = r.flows.iter().map(|f| f.goodput_bps).sum();
    if total <= 0.0 {
        return r
            .flows
            .iter()
            .map(|f| (f.variant.clone(), f64::NAN))
            .collect();
    }
    r.flows
        .iter()
        .map(|f| (f.variant.clone(), f.goodput_bps / (total / n)))
        .collect()
}

/// Normalized throughputs of the flows of `variant`.
fn normalized_of(r: &RunReport, variant: Option<&str>) -> Vec<f64> {
    normalized(r)
        .into_iter()
        .filter(|(v, _)| Some(v.as_str()) == variant)
        .map(|(_, t)| t)
        .collect()
}

/// Mean normalized throughput of the flows of `variant` (TCP-PR Section V).
pub fn mean_normalized(r: &RunReport, variant: Option<&str>) -> f64 {
    let t = normalized_of(r, variant);
    if t.is_empty() {
        return f64::NAN;
    }
    t.iter().sum::<f64>() / t.len() as f64
}

/// The coefficient of variation exactly as TCP-PR Section V prints it:
/// (1 / sum_I T_i) * sqrt(sum_I (T_i - mean_I T)^2), I the flows of `variant`.
pub fn cov_printed(r: &RunReport, variant: Option<&str>) -> f64 {
    let t = normalized_of(r, variant);
    if t.is_empty() {
        return f64::NAN;
    }
    let sum: f64 = t.iter().sum();
    let mean = sum / t.len() as f64;
    t.iter()
        .map(|x| (x - mean) * (x - mean))
        .sum::<f64>()
        .sqrt()
        / sum
}

/// Percent of packets dropped on the forward direction of the links whose
/// name starts with "bottleneck" (all of them on the parking lot).
pub fn bottleneck_drop_percent(r: &RunReport) -> f64 {
    let (mut drops, mut packets) = (0u64, 0u64);
    for l in r
        .links
        .iter()
        .filter(|l| l.name.starts_with("bottleneck") && l.direction == "forward")
    {
        drops += l.drops;
        packets += l.packets + l.drops;
    }
    if packets == 0 {
        f64::NAN
    } else {
        100.0 * drops as f64 / packets as f64
    }
}

/// Mean time between spurious loss detections of flow 0, in units of `rtt`
/// seconds (TCP-PR Section IV-A counts short-path RTTs between spurious
/// timeouts). NaN when there were none.
pub fn rtts_between_spurious(r: &RunReport, rtt: f64) -> f64 {
    let Some(f) = r.flows.first() else {
        return f64::NAN;
    };
    let n = f.spurious_fast_retransmits + f.spurious_timeouts;
    if n == 0 {
        return f64::NAN;
    }
    (r.measure_to_s - r.measure_from_s) / n as f64 / rtt
}
