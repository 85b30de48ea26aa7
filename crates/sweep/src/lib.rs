//! Parameter sweeps over a scenario: the machinery behind `reorderlab sweep`
//! (and the commands that reproduce a paper's figures).
//!
//! A [`Plan`] is a scenario file, `--set` overrides, a [`Grid`] of swept keys
//! and an optional number of seeds. [`Plan::prepare`] expands it into runs in
//! a fixed order ([`grid::expand`]: the cross product with the last key
//! varying fastest, then seeds) and validates every run's scenario before
//! anything runs. [`Sweep::execute`] runs them on a rayon pool of
//! `--jobs` threads and writes an output directory:
//!
//! ```text
//! DIR/sweep.json          the plan and every run's index, id and overrides
//! DIR/runs/<id>.json      one file per finished run: id, overrides, canonical
//!                         scenario text, and the RunReport (as summary.json)
//! DIR/runs/<id>.wall      the run's wall-clock seconds
//! DIR/results.csv         one row per run: swept keys, seed, flow-aggregated metrics
//! DIR/flows.csv           one row per run and flow: swept keys, seed, flows.csv columns
//! DIR/timing.csv          one row per run: run, id, events, wall_s
//! ```
//!
//! A run's id is the FNV-1a 64 hash of its scenario's canonical text after
//! overrides ([`hash`]). Each run file is written atomically (temporary file,
//! then rename) when its run finishes, after its wall file, and a run whose
//! file exists, parses and holds the same canonical text is not run again:
//! an interrupted sweep resumes where it stopped, and a sweep that extends an
//! earlier grid in the same directory reuses the runs it shares with it. The
//! tables are rebuilt from the run and wall files in expansion order after
//! every run is done. Every file is byte-identical whatever `--jobs` is and
//! however often the sweep was interrupted, except the wall files and
//! timing.csv: wall-clock time is kept out of everything else.
//!
//! Run files are keyed by the scenario only, not by the simulator's code:
//! after changing the simulator, sweep into a fresh directory.

pub mod exec;
pub mod grid;
pub mod hash;
pub mod store;
pub mod table;

pub use exec::{default_jobs, Options, Outcome, Plan, PreparedRun, Sweep, SweepError};
pub use grid::{expand, split_values, Axis, Grid, GridError, RunSpec, Seeds};
pub use hash::{fnv1a64, run_id};
pub use store::RunRecord;
