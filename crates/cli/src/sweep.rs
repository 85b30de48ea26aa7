//! `reorderlab sweep`: a scenario over a grid of overrides, in parallel,
//! resumable (the machinery is the `reorderlab-sweep` crate).

use super::{EXIT_INPUT, EXIT_IO};
use clap::Args;
use reorderlab_sweep::{Grid, Options, Plan, SweepError};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Shown after `reorderlab sweep --help`.
pub const AFTER_HELP: &str = "\
Runs are the cross product of the --grid values (the first --grid varies slowest, \
the last fastest), then the seeds. A value may itself contain commas inside \
brackets, braces or quotes: --grid 'topology.access_delays=[\"1ms\", \"2ms\"],[\"5ms\", \"5ms\"]'.

Output directory:
  runs/<id>.json   one file per finished run (id = FNV-1a 64 of the scenario after overrides)
  runs/<id>.wall   its wall-clock seconds
  results.csv      one row per run: run, id, the swept keys, seed, metrics aggregated over flows
  flows.csv        one row per run and flow: run, id, the swept keys, seed, the columns of `run`'s flows.csv
  timing.csv       one row per run: run, id, events, wall_s (wall-clock seconds; empty if runs/<id>.wall is missing)
  sweep.json       the plan and every run's overrides

Rerunning the same command after an interruption runs only the missing runs. \
Every file is byte-identical whatever --jobs is and however often the sweep was \
interrupted, except timing.csv and the .wall files: they hold the wall-clock times.";

#[derive(Args)]
pub struct SweepArgs {
    /// Scenario file (TOML).
    pub scenario: PathBuf,
    /// A swept key and its values, KEY=V1,V2,... (KEY as for --set). Repeatable:
    /// the cross product is run, the last --grid varying fastest.
    #[arg(long = "grid", value_name = "KEY=V1,V2,...")]
    pub grid: Vec<String>,
    /// Run every grid point with N seeds: the scenario's seed, seed+1, ..., seed+N-1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub seeds: Option<u64>,
    /// Runs at once [default: all cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub jobs: Option<u64>,
    /// Output directory [default: results/<name>-sweep]. Finished runs found
    /// there are reused, so rerunning an interrupted sweep resumes it.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override a key in every run, before the grid's values (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// No progress bar; print only the output directory.
    #[arg(long)]
    pub quiet: bool,
}

fn report(e: &SweepError) -> ExitCode {
    eprintln!("{e}");
    match e {
        SweepError::Input(_) => ExitCode::from(EXIT_INPUT),
        SweepError::Io(_) => ExitCode::from(EXIT_IO),
        SweepError::Failed(lines) => {
            eprintln!(
                "{} run{} failed; the others are saved, and rerunning the same command retries only the failed ones",
                lines.len(),
                if lines.len() == 1 { "" } else { "s" }
            );
            ExitCode::from(EXIT_IO)
        }
    }
}

pub fn run(a: SweepArgs) -> ExitCode {
    let grid = match Grid::parse(&a.grid) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(EXIT_INPUT);
        }
    };
    let plan = Plan {
        scenario: a.scenario,
        set: a.set,
        grid,
        seeds: a.seeds,
    };
    let sweep = match plan.prepare() {
        Ok(s) => s,
        Err(e) => return report(&e),
    };
    let dir = match a.out {
        Some(d) => d,
        None => match reorderlab_world::output::results_dir(
            std::path::Path::new("results"),
            &format!("{}-sweep", sweep.name()),
        ) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("sweep: {e}");
                return ExitCode::from(super::EXIT_INPUT);
            }
        },
    };
    let opts = Options {
        jobs: a
            .jobs
            .map_or_else(reorderlab_sweep::default_jobs, |j| j as usize),
        progress: !a.quiet && std::io::stderr().is_terminal(),
    };
    let started = Instant::now();
    let outcome = match sweep.execute(&dir, &opts) {
        Ok(o) => o,
        Err(e) => return report(&e),
    };
    if a.quiet {
        outln!("{}", dir.display());
    } else {
        outln!(
            "{} runs ({} distinct: {} run now on {} thread{}, {} reused) in {:.1} s",
            outcome.runs,
            outcome.distinct,
            outcome.ran,
            opts.jobs,
            if opts.jobs == 1 { "" } else { "s" },
            outcome.reused,
            started.elapsed().as_secs_f64()
        );
        outln!(
            "wrote {}, {} and {}",
            dir.join("results.csv").display(),
            dir.join("flows.csv").display(),
            dir.join("timing.csv").display()
        );
    }
    ExitCode::SUCCESS
}
