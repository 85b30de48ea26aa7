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
mod reproduce;
mod sweep;

use clap::{Parser, Subcommand};
use reorderlab_metrics::RunReport;
use reorderlab_scenario::Scenario;
use reorderlab_tcp::variant;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "reorderlab",
    version,
    about = "Packet reordering, delay spikes and lossy links versus TCP senders: a packet-level simulator"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a scenario: print a per-flow table, write summary.json and flows.csv.
    Run {
        /// Scenario file (TOML).
        scenario: PathBuf,
        /// Output directory [default: results/<name>].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Override the scenario's seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Override a key: --set topology.bottleneck.rate=10Mbps (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Print only the output directory, no table.
        #[arg(long)]
        quiet: bool,
    },
    /// Check a scenario file and explain every problem.
    Validate {
        scenario: PathBuf,
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
    /// List the TCP variants.
    Variants {
        /// Machine-readable output.
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

fn load(path: &Path, set: &[String], seed: Option<u64>) -> Result<Scenario, ExitCode> {
    let mut overrides = set.to_vec();
    if let Some(s) = seed {
        overrides.push(format!("seed={s}"));
    }
    let names = variant::names();
    reorderlab_scenario::load(path, &overrides, &names).map_err(|e| {
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
    for l in &r.links {
        if l.packets == 0 && l.drops == 0 {
            continue;
        }
        outln!(
            "link {:<14} {:<8} utilization {:>6.2}%  packets {:>9}  drops {:>7}",
            l.name,
            l.direction,
            l.utilization * 100.0,
            l.packets,
            l.drops
        );
    }
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
            set,
            quiet,
        } => {
            let sc = match load(&scenario, &set, seed) {
                Ok(s) => s,
                Err(c) => return c,
            };
            let (report, series) = match reorderlab_world::run(&sc) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("{}: {e}", scenario.display());
                    return ExitCode::from(EXIT_INPUT);
                }
            };
            let dir = out.unwrap_or_else(|| PathBuf::from("results").join(&sc.name));
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
        Cmd::Variants { json } => {
            if json {
                let v: Vec<_> = variant::VARIANTS
                    .iter()
                    .map(|v| {
                        serde_json::json!({
                            "name": v.name,
                            "description": v.description,
                            "source": v.source,
                            "sack": v.sack,
                            "dsack": v.dsack,
                        })
                    })
                    .collect();
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
