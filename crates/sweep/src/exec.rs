//! Planning (expand, validate every run before any starts) and execution
//! (parallel, resumable) of a sweep.

use crate::grid::{expand, Grid, RunSpec, Seeds};
use crate::hash::run_id;
use crate::store::{self, RunRecord};
use crate::table::{self, Row};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use reorderlab_scenario::{defaults, Scenario, ScenarioError};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What to sweep.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Plan {
    /// The scenario file.
    pub scenario: PathBuf,
    /// `--set` overrides, applied first in every run.
    pub set: Vec<String>,
    /// The grid.
    pub grid: Grid,
    /// `--seeds N`: run every grid point with N seeds starting at the
    /// scenario's own seed.
    pub seeds: Option<u64>,
}

/// How to execute.
#[derive(Clone, Debug)]
pub struct Options {
    /// Runs executed at once (threads of the pool), at least 1.
    pub jobs: usize,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jobs: default_jobs(),
            progress: false,
        }
    }
}

/// All cores (`std::thread::available_parallelism`), or 1 if unknown.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Why a sweep stopped.
#[derive(Debug)]
pub enum SweepError {
    /// Bad input (grid, overrides, scenario): nothing was run. One line per problem.
    Input(Vec<String>),
    /// The output directory could not be written.
    Io(String),
    /// Some runs failed (the others' results are saved; a rerun retries only
    /// the failed ones). One line per failed run.
    Failed(Vec<String>),
}

impl fmt::Display for SweepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SweepError::Input(lines) | SweepError::Failed(lines) => {
                write!(f, "{}", lines.join("\n"))
            }
            SweepError::Io(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for SweepError {}

/// One run, validated, with its identity.
#[derive(Clone, Debug)]
pub struct PreparedRun {
    pub spec: RunSpec,
    /// [`run_id`] of `canonical`.
    pub id: String,
    /// The scenario's canonical text after overrides.
    pub canonical: String,
    pub scenario: Scenario,
}

/// A plan whose runs all validated.
#[derive(Clone, Debug)]
pub struct Sweep {
    pub plan: Plan,
    pub runs: Vec<PreparedRun>,
}

/// What an execution did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Runs in the sweep (rows of results.csv).
    pub runs: usize,
    /// Distinct runs (runs whose scenarios are identical after overrides share one).
    pub distinct: usize,
    /// Distinct runs whose results were already in `runs/` and were reused.
    pub reused: usize,
    /// Distinct runs executed now.
    pub ran: usize,
}

/// The scenario's seed after the `--set` overrides (the default seed when it
/// has none; any problem is left for validation to report).
fn base_seed(text: &str, set: &[String]) -> u64 {
    let Ok(mut table) = text.parse::<toml::Table>() else {
        return defaults::SEED;
    };
    for s in set {
        let _ = reorderlab_scenario::apply_override(&mut table, s);
    }
    match table.get("seed") {
        Some(toml::Value::Integer(i)) => u64::try_from(*i).unwrap_or(defaults::SEED),
        _ => defaults::SEED,
    }
}

/// "a=1, b=x, seed 3" for messages.
fn describe(spec: &RunSpec) -> String {
    let mut parts: Vec<String> = spec.point.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if let Some(s) = spec.seed {
        parts.push(format!("seed {s}"));
    }
    parts.join(", ")
}

/// At most this many distinct problems are listed.
const MAX_PROBLEMS: usize = 50;

impl Plan {
    /// Expands the grid and validates every run's scenario (through
    /// [`reorderlab_scenario::check`], as `run` and `validate` do), before anything runs.
    pub fn prepare(&self) -> Result<Sweep, SweepError> {
        let file = self.scenario.display().to_string();
        let text = std::fs::read_to_string(&self.scenario).map_err(|source| {
            SweepError::Input(vec![ScenarioError::Io {
                file: file.clone(),
                source,
            }
            .to_string()])
        })?;
        let seeds = match self.seeds {
            None => None,
            Some(0) => {
                return Err(SweepError::Input(vec![
                    "--seeds: expected at least 1 seed, got 0".into(),
                ]))
            }
            Some(_) if self.grid.has_key("seed") => {
                return Err(SweepError::Input(vec![
                    "--grid seed: cannot be combined with --seeds; use one or the other".into(),
                ]))
            }
            Some(n) => {
                let base = base_seed(&text, &self.set);
                // Every seed must be one a scenario file can hold (TOML's largest integer).
                if base
                    .checked_add(n - 1)
                    .is_none_or(|last| last > i64::MAX as u64)
                {
                    return Err(SweepError::Input(vec![format!(
                        "--seeds: the seeds {base} .. {base} + {} go past the largest seed, {}",
                        n - 1,
                        i64::MAX
                    )]));
                }
                Some(Seeds { base, count: n })
            }
        };
        let specs = expand(&self.set, &self.grid, seeds)
            .map_err(|e| SweepError::Input(vec![e.to_string()]))?;
        let labelled = !self.grid.axes.is_empty() || seeds.is_some();
        let total = specs.len();
        // Problem line -> (first run showing it, how many runs show it), in order of appearance.
        let mut problems: Vec<(String, RunSpec, usize)> = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut runs = Vec::with_capacity(specs.len());
        for spec in specs {
            match reorderlab_scenario::check(&text, &file, &spec.overrides) {
                Ok(scenario) => {
                    let canonical = scenario.canonical_text();
                    runs.push(PreparedRun {
                        id: run_id(&canonical),
                        canonical,
                        scenario,
                        spec,
                    });
                }
                Err(e) => {
                    for line in e.to_string().lines() {
                        match seen.get(line) {
                            Some(&i) => problems[i].2 += 1,
                            None => {
                                seen.insert(line.to_string(), problems.len());
                                problems.push((line.to_string(), spec.clone(), 1));
                            }
                        }
                    }
                }
            }
        }
        if problems.is_empty() {
            return Ok(Sweep {
                plan: self.clone(),
                runs,
            });
        }
        let n = problems.len();
        let mut lines: Vec<String> = problems
            .into_iter()
            .take(MAX_PROBLEMS)
            .map(|(line, first, count)| {
                if !labelled {
                    line
                } else if count == total {
                    format!("{line} (every run)")
                } else {
                    let more = if count > 1 {
                        format!(
                            ", and {} more run{}",
                            count - 1,
                            if count > 2 { "s" } else { "" }
                        )
                    } else {
                        String::new()
                    };
                    format!("{line} (run {}: {}{more})", first.index, describe(&first))
                }
            })
            .collect();
        if n > MAX_PROBLEMS {
            lines.push(format!("... and {} more problems", n - MAX_PROBLEMS));
        }
        Err(SweepError::Input(lines))
    }
}

/// `DIR/sweep.json`: what the directory's tables were made from.
#[derive(Serialize)]
struct Manifest<'a> {
    plan: &'a Plan,
    runs: Vec<ManifestRun<'a>>,
}

#[derive(Serialize)]
struct ManifestRun<'a> {
    run: usize,
    id: &'a str,
    overrides: &'a [String],
}

fn io_err(what: &Path) -> impl Fn(std::io::Error) -> SweepError + '_ {
    move |e| SweepError::Io(format!("{}: {e}", what.display()))
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

impl Sweep {
    /// The scenario name (of the first run).
    pub fn name(&self) -> &str {
        self.runs
            .first()
            .map_or("sweep", |r| r.scenario.name.as_str())
    }

    /// The swept keys, in axis order (the tables' key columns).
    pub fn keys(&self) -> Vec<&str> {
        self.plan.grid.axes.iter().map(|a| a.key.as_str()).collect()
    }

    /// Runs the sweep into `dir`. Checks that the world of every run not
    /// already in `dir/runs/` builds (nothing runs otherwise), writes
    /// `sweep.json`, executes those runs on a pool of `opts.jobs` threads
    /// (as soon as a run finishes, its wall time is written atomically as
    /// `runs/<id>.wall`, then its result as `runs/<id>.json`), then rebuilds
    /// `results.csv`, `flows.csv` and `timing.csv` from those files. Runs
    /// whose scenarios are identical after overrides run once.
    pub fn execute(&self, dir: &Path, opts: &Options) -> Result<Outcome, SweepError> {
        // Distinct runs in expansion order; skip those already done.
        let mut seen: HashSet<&str> = HashSet::new();
        let distinct: Vec<&PreparedRun> = self
            .runs
            .iter()
            .filter(|r| seen.insert(r.id.as_str()))
            .collect();
        let todo: Vec<&PreparedRun> = distinct
            .iter()
            .copied()
            .filter(|r| store::load_record(dir, &r.id, &r.canonical).is_none())
            .collect();
        let reused = distinct.len() - todo.len();

        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.jobs.max(1))
            .thread_name(|i| format!("sweep-{i}"))
            .stack_size(8 << 20)
            .build()
            .map_err(|e| SweepError::Io(format!("cannot start {} threads: {e}", opts.jobs)))?;

        // Every world must build before any run starts.
        let build_problems: Vec<String> = pool.install(|| {
            todo.par_iter()
                .filter_map(|r| match reorderlab_world::build(&r.scenario) {
                    Ok(_) => None,
                    Err(e) => Some(format!(
                        "{}: {}: {} (run {}: {})",
                        self.plan.scenario.display(),
                        e.key,
                        e.message,
                        r.spec.index,
                        describe(&r.spec)
                    )),
                })
                .collect()
        });
        if !build_problems.is_empty() {
            return Err(SweepError::Input(build_problems));
        }

        let runs_dir = store::runs_dir(dir);
        std::fs::create_dir_all(&runs_dir).map_err(io_err(&runs_dir))?;
        store::remove_stale_temps(&runs_dir).map_err(io_err(&runs_dir))?;
        store::remove_stale_temps(dir).map_err(io_err(dir))?;
        let manifest = Manifest {
            plan: &self.plan,
            runs: self
                .runs
                .iter()
                .map(|r| ManifestRun {
                    run: r.spec.index,
                    id: &r.id,
                    overrides: &r.spec.overrides,
                })
                .collect(),
        };
        let path = dir.join("sweep.json");
        let mut text = serde_json::to_string_pretty(&manifest)
            .map_err(|e| SweepError::Io(format!("{}: {e}", path.display())))?;
        text.push('\n');
        store::write_atomic(&path, text.as_bytes()).map_err(io_err(&path))?;

        let bar = if opts.progress {
            ProgressBar::with_draw_target(Some(todo.len() as u64), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} runs (eta {eta}) {msg}",
            )
            .expect("valid template"),
        );
        bar.set_prefix("sweep");
        if reused > 0 {
            bar.set_message(format!("{reused} reused"));
        }
        let next = AtomicUsize::new(0);
        let failures: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
        let jobs = opts.jobs.max(1).min(todo.len().max(1));
        pool.scope(|s| {
            for _ in 0..jobs {
                s.spawn(|_| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(r) = todo.get(i) else { break };
                    let result =
                        catch_unwind(AssertUnwindSafe(|| reorderlab_world::run(&r.scenario)));
                    let err = match result {
                        Ok(Ok((report, _series))) => {
                            // The wall file first: a run file never lacks one.
                            let wall = store::write_wall(dir, &r.id, report.wall_s)
                                .map_err(|e| (store::wall_path(dir, &r.id), e));
                            let rec = RunRecord {
                                id: r.id.clone(),
                                overrides: r.spec.overrides.clone(),
                                canonical: r.canonical.clone(),
                                report,
                            };
                            wall.and_then(|()| {
                                store::write_record(dir, &rec)
                                    .map_err(|e| (store::record_path(dir, &r.id), e))
                            })
                            .err()
                            .map(|(path, e)| format!("cannot write {}: {e}", path.display()))
                        }
                        Ok(Err(e)) => Some(format!("{}: {}", e.key, e.message)),
                        Err(p) => Some(format!("panicked: {}", panic_message(p.as_ref()))),
                    };
                    if let Some(e) = err {
                        failures.lock().expect("no poisoning").push((
                            r.spec.index,
                            format!(
                                "run {} ({}) [{}]: {e}",
                                r.spec.index,
                                describe(&r.spec),
                                r.id
                            ),
                        ));
                    }
                    bar.inc(1);
                });
            }
        });
        bar.finish_and_clear();
        let mut failures = failures.into_inner().expect("no poisoning");
        if !failures.is_empty() {
            failures.sort();
            return Err(SweepError::Failed(
                failures.into_iter().map(|(_, m)| m).collect(),
            ));
        }
        self.write_tables(dir)?;
        Ok(Outcome {
            runs: self.runs.len(),
            distinct: distinct.len(),
            reused,
            ran: todo.len(),
        })
    }

    /// Rebuilds `results.csv` and `flows.csv` from the run files and
    /// `timing.csv` from the wall files, in expansion order (each written
    /// atomically). A missing or unreadable wall file leaves its run's
    /// `wall_s` cell empty.
    pub fn write_tables(&self, dir: &Path) -> Result<(), SweepError> {
        let mut records: HashMap<&str, (RunRecord, Option<f64>)> = HashMap::new();
        for r in &self.runs {
            if records.contains_key(r.id.as_str()) {
                continue;
            }
            let rec = store::load_record(dir, &r.id, &r.canonical).ok_or_else(|| {
                SweepError::Io(format!(
                    "{}: missing or unreadable run file for run {}",
                    store::record_path(dir, &r.id).display(),
                    r.spec.index
                ))
            })?;
            records.insert(&r.id, (rec, store::load_wall(dir, &r.id)));
        }
        let rows: Vec<Row<'_>> = self
            .runs
            .iter()
            .map(|r| {
                let (rec, wall_s) = &records[r.id.as_str()];
                Row {
                    spec: &r.spec,
                    id: &r.id,
                    report: &rec.report,
                    wall_s: *wall_s,
                }
            })
            .collect();
        let keys = self.keys();
        for (name, bytes) in [
            ("results.csv", table::results_csv(&keys, &rows)),
            ("flows.csv", table::flows_csv(&keys, &rows)),
            ("timing.csv", table::timing_csv(&rows)),
        ] {
            let path = dir.join(name);
            let bytes = bytes.map_err(|e| SweepError::Io(format!("{}: {e}", path.display())))?;
            store::write_atomic(&path, &bytes).map_err(io_err(&path))?;
        }
        Ok(())
    }
}
