//! The `reorderlab` command line.

/// `println!` that ends the process quietly when standard output is a
/// closed pipe (`reorderlab ... | head`), instead of panicking.
macro_rules! outln {
    () => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout()) {
            $crate::stdout_failed(e)
        }
    }};
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($t)*) {
            $crate::stdout_failed(e)
        }
    }};
}

/// Standard output failed: a closed pipe is a normal end, anything else an error.
fn stdout_failed(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("reorderlab: cannot write to standard output: {e}");
    std::process::exit(1);
}

mod bench;
mod progress;
mod reproduce;
mod sweep;

use clap::{Parser, Subcommand};
use reorderlab_metrics::RunReport;
use reorderlab_scenario::Scenario;
use reorderlab_tcp::variant;
use reorderlab_world::{Limits, RunError};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit codes, for `--help` (README.md lists them too).
const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  success
  1  a file could not be written (results, sweep or reproduction files) or standard output failed
  2  bad input: a scenario file that cannot be read or is invalid, a bad --set, --seed or other argument
  3  run stopped by a limit: --max-events or --max-memory (raise the limit to go on)";

#[derive(Parser)]
#[command(
    name = "reorderlab",
    version,
    about = "Packet reordering, delay spikes and lossy links versus TCP senders: a packet-level simulator",
    after_help = EXIT_CODES_HELP
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a scenario: print a per-flow table, write summary.json, flows.csv,
    /// links.csv, reorder_density.csv and (with measure.series_interval)
    /// series.csv.
    #[command(after_help = RUN_HELP)]
    Run {
        /// Scenario file (TOML).
        scenario: PathBuf,
        /// Output directory [default: results/<name>].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Override the scenario's seed (0 ..= 9223372036854775807, as in the file).
        #[arg(long, value_parser = seed_arg)]
        seed: Option<u64>,
        /// Stop (exit 3) after this many events [default: 10000000000].
        #[arg(long, value_name = "N")]
        max_events: Option<u64>,
        /// Stop (exit 3) when the process's resident memory exceeds SIZE, like
        /// 32GiB [default: 16GiB, or 3/4 of the machine's memory if less].
        #[arg(long, value_name = "SIZE", value_parser = size_arg)]
        max_memory: Option<u64>,
        /// Override a key: --set topology.bottleneck.rate=10Mbps (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Print only the output directory: no table, no progress bar (the
        /// bar is shown on stderr only when stderr is a terminal).
        #[arg(long)]
        quiet: bool,
    },
    /// Check a scenario file exactly as `run`, `sweep` and `reproduce` do, and
    /// explain every problem (one line each: FILE: KEY: MESSAGE).
    #[command(after_help = VALIDATE_HELP)]
    Validate {
        /// Scenario file (TOML); docs/scenarios.md documents every key.
        scenario: PathBuf,
        /// Override a key before checking, as `run --set` does (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
    /// Print the scenario schema: JSON Schema (the default, also in
    /// docs/scenario.schema.json) or the generated tables of docs/scenarios.md.
    Schema {
        /// JSON Schema of a scenario file, for editors (taplo's `#:schema`).
        #[arg(long, conflicts_with = "markdown")]
        json: bool,
        /// The generated tables of docs/scenarios.md (variant parameters, bounds).
        #[arg(long)]
        markdown: bool,
    },
    /// List the TCP variants.
    Variants {
        /// Machine-readable output: every `cc` value and every variant with
        /// its defaults and parameters (the catalog docs/scenarios.md's
        /// variant tables are generated from).
        #[arg(long)]
        json: bool,
    },
    /// Run a scenario over a grid of overrides, in parallel; resumable.
    #[command(after_long_help = sweep::AFTER_HELP)]
    Sweep(sweep::SweepArgs),
    /// Run the standard benchmark workloads and report speed and memory.
    Bench(bench::BenchArgs),
    /// Reproduce a paper's experiment (or `all`): runs, figure, claims vs. measurements.
    Reproduce(reproduce::ReproduceArgs),
    /// Run one benchmark workload in this process (used by `bench`).
    #[command(name = "bench-one", hide = true)]
    BenchOne(bench::BenchOneArgs),
}

/// Exit code for bad user input (scenario errors, bad arguments).
const EXIT_INPUT: u8 = 2;
/// Exit code for failures writing output.
const EXIT_IO: u8 = 1;
/// Exit code for a run stopped by `--max-events` or `--max-memory`.
const EXIT_LIMIT: u8 = 3;

const RUN_HELP: &str = "\
Files written to the output directory (every figure covers [measure] from..to
except the whole-run totals: bytes_delivered, *_total, completion_time_s):
  summary.json         the run: per-flow and per-link figures, events processed
  flows.csv            one row per flow
  links.csv            one row per link direction: utilization, packets, drops, whether a bottleneck
  reorder_density.csv  RFC 5236 reorder density of each flow (non-empty bins)
  series.csv           cwnd, ssthresh, srtt and goodput samples (with measure.series_interval)

Exit codes:
  0  success
  1  the results could not be written
  2  bad input: the scenario file cannot be read or is invalid, or a bad argument
  3  stopped by --max-events or --max-memory; the message says which and how to raise it";

const VALIDATE_HELP: &str = "\
What is checked: the whole file against the schema of docs/scenarios.md
(every key, its type, unit and range; unknown keys are errors, with a
\"did you mean\" when one is close), the names of variants, `cc` values and
each variant's `params` ranges (`reorderlab variants --json`), the node and
link names of the topology, and the bounds on inputs that would exhaust
memory or never finish. `run`, `sweep`, `reproduce` and `bench` call the
same check, so a file that passes here runs.

Output: on success one line, FILE: ok (N flows, ...); otherwise every
problem, one per line, as FILE: KEY: MESSAGE, KEY a dotted path with
array elements numbered from 0:
  x.toml: flows[0].delayed_acks: unknown key 'delayed_acks' (did you mean 'delayed_ack'?); ...
  x.toml: topology.bottleneck.rate: expected a rate with a unit, like \"15Mbps\", got \"fast\"

Examples:
  reorderlab validate scenarios/one-sack-flow.toml
  reorderlab validate x.toml --set flows.0.variant=tcp-pr --set seed=7

Editors: `reorderlab schema --json` (docs/scenario.schema.json) is the
JSON Schema of a scenario file; a first line #:schema PATH gives
completion and checking in taplo-based editors.

Exit codes:
  0  the scenario is valid
  2  it is not (every problem is listed), or the file cannot be read, or a bad --set";

/// The largest seed: TOML's largest integer, so that every seed a command
/// line accepts can be written in a scenario file, and the other way round.
const MAX_SEED: u64 = i64::MAX as u64;

fn seed_arg(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n <= MAX_SEED => Ok(n),
        _ => Err(format!(
            "expected an integer from 0 to {MAX_SEED} (the largest integer a scenario file can hold)"
        )),
    }
}

fn size_arg(s: &str) -> Result<u64, String> {
    match reorderlab_scenario::units::parse_size(s) {
        Ok(0) => Err("expected a positive size".into()),
        Ok(n) => Ok(n),
        Err(m) => Err(m),
    }
}

fn load(path: &Path, set: &[String], seed: Option<u64>) -> Result<Scenario, ExitCode> {
    let mut overrides = set.to_vec();
    if let Some(s) = seed {
        overrides.push(format!("seed={s}"));
    }
    reorderlab_scenario::check_file(path, &overrides).map_err(|e| {
        eprintln!("{e}");
        ExitCode::from(EXIT_INPUT)
    })
}

fn fmt_rate(bps: f64) -> String {
    if bps >= 1e9 {
        format!("{:.3} Gb/s", bps / 1e9)
    } else if bps >= 1e6 {
        format!("{:.3} Mb/s", bps / 1e6)
    } else {
        format!("{:.1} kb/s", bps / 1e3)
    }
}

fn print_table(r: &RunReport) {
    outln!(
        "{} (seed {}): {} s simulated in {:.3} s wall, {} events ({:.1} M events/s)",
        r.scenario,
        r.seed,
        r.duration_s,
        r.wall_s,
        r.events,
        r.events as f64 / r.wall_s.max(1e-9) / 1e6
    );
    outln!(
        "goodput window {} s .. {} s",
        r.measure_from_s,
        r.measure_to_s
    );
    outln!(
        "{:>4}  {:<14} {:>14} {:>14} {:>9} {:>11} {:>11} {:>11} {:>10}",
        "flow",
        "variant",
        "goodput",
        "throughput",
        "segments",
        "retx(spur)",
        "fastrx(sp)",
        "rto(spur)",
        "done_s"
    );
    for f in &r.flows {
        outln!(
            "{:>4}  {:<14} {:>14} {:>14} {:>9} {:>11} {:>11} {:>11} {:>10}",
            f.id,
            f.variant,
            fmt_rate(f.goodput_bps),
            fmt_rate(f.throughput_bps),
            f.segments_sent,
            format!("{}({})", f.retransmissions, f.spurious_retransmissions),
            format!("{}({})", f.fast_retransmits, f.spurious_fast_retransmits),
            format!("{}({})", f.timeouts, f.spurious_timeouts),
            f.completion_time_s
                .map(|t| format!("{t:.3}"))
                .unwrap_or_else(|| "-".into()),
        );
    }
    for line in link_lines(&r.links) {
        outln!("{line}");
    }
}

/// The links of the terminal table: the bottlenecks (or, when the topology
/// names none, the busiest link direction) one line each, then one line
/// over every link direction; links.csv has them all.
fn link_lines(links: &[reorderlab_metrics::LinkReport]) -> Vec<String> {
    let line = |l: &reorderlab_metrics::LinkReport| {
        format!(
            "link {:<14} {:<8} utilization {:>6.2}%  packets {:>9}  drops {:>7}",
            l.name,
            l.direction,
            l.utilization * 100.0,
            l.packets,
            l.drops
        )
    };
    let busiest = links
        .iter()
        .max_by(|a, b| a.utilization.total_cmp(&b.utilization));
    let mut shown: Vec<&reorderlab_metrics::LinkReport> = links
        .iter()
        .filter(|l| l.bottleneck && (l.packets > 0 || l.drops > 0 || l.direction == "forward"))
        .collect();
    if shown.is_empty() {
        shown.extend(busiest);
    }
    let mut out: Vec<String> = shown.into_iter().map(line).collect();
    let packets: u64 = links.iter().map(|l| l.packets).sum();
    let drops: u64 = links.iter().map(|l| l.drops).sum();
    let imp: u64 = links.iter().map(|l| l.impairment_drops).sum();
    let active = links
        .iter()
        .filter(|l| l.packets > 0 || l.drops > 0)
        .count();
    out.push(format!(
        "all {} link directions ({} active): packets {}, drops {} ({} by impairments){}; each in links.csv",
        links.len(),
        active,
        packets,
        drops,
        imp,
        busiest.map_or_else(String::new, |b| format!(
            ", busiest {} {} at {:.2}%",
            b.name,
            b.direction,
            b.utilization * 100.0
        )),
    ));
    out
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_INPUT } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.cmd {
        Cmd::Run {
            scenario,
            out,
            seed,
            max_events,
            max_memory,
            set,
            quiet,
        } => {
            let sc = match load(&scenario, &set, seed) {
                Ok(s) => s,
                Err(c) => return c,
            };
            let defaults = Limits::defaults();
            let limits = Limits {
                max_events: max_events.or(defaults.max_events),
                max_memory: max_memory.or(defaults.max_memory),
            };
            let mut bar = progress::Progress::new(sc.duration, progress::wanted(quiet));
            let result =
                reorderlab_world::run_observed(&sc, limits, progress::EVERY, &mut |t, n| {
                    bar.update(t, n)
                });
            bar.finish();
            let (report, series) = match result {
                Ok(r) => r,
                Err(RunError::Build(e)) => {
                    eprintln!("{}: {e}", scenario.display());
                    return ExitCode::from(EXIT_INPUT);
                }
                Err(RunError::Limit(e)) => {
                    eprintln!("{}: {e}", scenario.display());
                    return ExitCode::from(EXIT_LIMIT);
                }
            };
            let dir = match out {
                Some(d) => d,
                None => match reorderlab_world::output::results_dir(Path::new("results"), &sc.name)
                {
                    Ok(d) => d,
                    Err(e) => {
                        eprintln!("{}: name: {e}", scenario.display());
                        return ExitCode::from(EXIT_INPUT);
                    }
                },
            };
            if let Err(e) = reorderlab_world::output::write_all(&dir, &report, &series) {
                eprintln!("{}: cannot write results: {e}", dir.display());
                return ExitCode::from(EXIT_IO);
            }
            if quiet {
                outln!("{}", dir.display());
            } else {
                print_table(&report);
                outln!("wrote {}", dir.display());
            }
            ExitCode::SUCCESS
        }
        Cmd::Validate { scenario, set } => match load(&scenario, &set, None) {
            Ok(sc) => {
                outln!(
                    "{}: ok ({} flows, {} impairments, {} topology, {} s)",
                    scenario.display(),
                    sc.total_flows(),
                    sc.impairments.len(),
                    sc.topology.kind(),
                    sc.duration.as_secs_f64()
                );
                ExitCode::SUCCESS
            }
            Err(c) => c,
        },
        Cmd::Schema { json: _, markdown } => {
            let text = if markdown {
                reorderlab_scenario::doc::markdown()
            } else {
                reorderlab_scenario::doc::json_schema()
            };
            outln!("{}", text.trim_end());
            ExitCode::SUCCESS
        }
        Cmd::Variants { json } => {
            if json {
                let v = reorderlab_scenario::doc::variants_json();
                outln!("{}", serde_json::to_string_pretty(&v).expect("json"));
            } else {
                for v in variant::VARIANTS {
                    outln!("{:<14} {}  [{}]", v.name, v.description, v.source);
                }
            }
            ExitCode::SUCCESS
        }
        Cmd::Sweep(a) => sweep::run(a),
        Cmd::Bench(a) => bench::run(a),
        Cmd::Reproduce(a) => reproduce::run(a),
        Cmd::BenchOne(a) => bench::run_one(a),
    }
}
