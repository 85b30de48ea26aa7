//! `reorderlab bench`: the standard workloads (benchmarks/workloads/), each
//! run in a child process of its own (`reorderlab bench-one W`) so that its
//! peak memory is its own, reported against the performance targets.
//!
//! The targets are reported, not asserted: the command fails only when a
//! workload cannot run. docs/performance.md shows the numbers.

use super::EXIT_IO;
use clap::Args;
use serde::{Deserialize, Serialize};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// A standard workload: its name and scenario (compiled in, so the binary
/// benchmarks the same thing from any directory).
struct Workload {
    name: &'static str,
    file: &'static str,
    text: &'static str,
}

const WORKLOADS: [Workload; 5] = [
    Workload {
        name: "W1",
        file: "benchmarks/workloads/w1.toml",
        text: include_str!("../../../benchmarks/workloads/w1.toml"),
    },
    Workload {
        name: "W2",
        file: "benchmarks/workloads/w2.toml",
        text: include_str!("../../../benchmarks/workloads/w2.toml"),
    },
    Workload {
        name: "W3",
        file: "benchmarks/workloads/w3.toml",
        text: include_str!("../../../benchmarks/workloads/w3.toml"),
    },
    Workload {
        name: "W4",
        file: "benchmarks/workloads/w4.toml",
        text: include_str!("../../../benchmarks/workloads/w4.toml"),
    },
    Workload {
        name: "W5",
        file: "benchmarks/workloads/w5.toml",
        text: include_str!("../../../benchmarks/workloads/w5.toml"),
    },
];

#[derive(Args)]
pub struct BenchArgs {
    /// Workload to run: W1, W2, W3, W4, W5 or all.
    #[arg(long, default_value = "all", value_name = "W1|W2|W3|W4|W5|all")]
    pub workload: String,
    /// Runs of each workload, each in a fresh process; the run with the
    /// median wall time is reported.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// Machine-readable output (JSON) on stdout.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct BenchOneArgs {
    /// Workload: W1, W2, W3, W4 or W5.
    pub workload: String,
    /// Override a key of the workload (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// What one child process measures (its stdout, as JSON).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measurement {
    pub workload: String,
    pub flows: u32,
    /// Simulated seconds.
    pub sim_s: f64,
    /// Wall seconds to build and run the world.
    pub wall_s: f64,
    pub events: u64,
    /// Data segments delivered to the receiving applications: Σ bytes_delivered / mss.
    pub segments_delivered: f64,
    /// Peak resident memory of the process (VmHWM), bytes; None off Linux.
    pub peak_rss_bytes: Option<u64>,
    /// Resident memory once the world was built, before it ran (VmRSS), bytes.
    pub built_rss_bytes: Option<u64>,
    /// Most packets (data and ACKs) alive at once: the packet pool's high-water mark.
    pub peak_packets: u64,
    /// The busiest link direction ("name direction") and the fraction of
    /// the run it spent transmitting: how loaded the simulated network was.
    #[serde(default)]
    pub busiest_link: String,
    #[serde(default)]
    pub utilization: f64,
}

impl Measurement {
    fn real_time_factor(&self) -> f64 {
        self.sim_s / self.wall_s.max(1e-9)
    }
    fn events_per_s(&self) -> f64 {
        self.events as f64 / self.wall_s.max(1e-9)
    }
    fn segments_per_s(&self) -> f64 {
        self.segments_delivered / self.wall_s.max(1e-9)
    }
    /// Memory the run added on top of the built world, per packet in flight at the peak.
    fn bytes_per_packet(&self) -> Option<f64> {
        let (peak, built) = (self.peak_rss_bytes?, self.built_rss_bytes?);
        (self.peak_packets > 0)
            .then(|| peak.saturating_sub(built) as f64 / self.peak_packets as f64)
    }
}

/// One target from the issue, checked against a measurement.
#[derive(Clone, Debug, Serialize)]
pub struct Target {
    pub what: String,
    pub measured: String,
    pub pass: bool,
}

const GIB: f64 = (1u64 << 30) as f64;
const MIB: f64 = (1u64 << 20) as f64;

fn targets(m: &Measurement) -> Vec<Target> {
    let mut t = Vec::new();
    let speed = |min: f64| Target {
        what: format!(">= {min}x real time"),
        measured: format!("{:.1}x", m.real_time_factor()),
        pass: m.real_time_factor() >= min,
    };
    match m.workload.as_str() {
        "W1" => t.push(speed(1000.0)),
        "W3" | "W5" => {
            t.push(speed(20.0));
            t.push(Target {
                what: ">= 2 M data segments delivered per wall second".into(),
                measured: format!("{:.2} M", m.segments_per_s() / 1e6),
                pass: m.segments_per_s() >= 2e6,
            });
        }
        "W4" => {
            t.push(speed(5.0));
            if let Some(p) = m.peak_rss_bytes {
                t.push(Target {
                    what: "peak memory < 1 GiB".into(),
                    measured: format!("{:.1} MiB", p as f64 / MIB),
                    pass: (p as f64) < GIB,
                });
            }
        }
        _ => {}
    }
    t
}

/// A field of /proc/self/status in bytes (Linux; None elsewhere).
fn proc_status_bytes(field: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len()..]
        .trim_start_matches(':')
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

fn find(name: &str) -> Option<&'static Workload> {
    WORKLOADS.iter().find(|w| w.name.eq_ignore_ascii_case(name))
}

fn names() -> String {
    WORKLOADS
        .iter()
        .map(|w| w.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `reorderlab bench-one W`: runs one workload in this process and prints a
/// [`Measurement`] as JSON.
pub fn run_one(a: BenchOneArgs) -> ExitCode {
    let Some(w) = find(&a.workload) else {
        eprintln!(
            "bench-one: unknown workload {:?}; expected one of: {}",
            a.workload,
            names()
        );
        return ExitCode::from(super::EXIT_INPUT);
    };
    let sc = match reorderlab_scenario::check(w.text, w.file, &a.set) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(super::EXIT_INPUT);
        }
    };
    let mss: Vec<u32> = sc
        .flows
        .iter()
        .flat_map(|f| std::iter::repeat_n(f.mss, f.count as usize))
        .collect();
    let started = Instant::now();
    let mut world = match reorderlab_world::build(&sc) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{}: {}: {}", w.file, e.key, e.message);
            return ExitCode::from(super::EXIT_INPUT);
        }
    };
    let built_rss_bytes = proc_status_bytes("VmRSS");
    let report = world.run();
    let wall_s = started.elapsed().as_secs_f64();
    let peak_rss_bytes = proc_status_bytes("VmHWM");
    let segments_delivered = report
        .flows
        .iter()
        .zip(&mss)
        .map(|(f, &m)| f.bytes_delivered as f64 / f64::from(m.max(1)))
        .sum();
    let busiest = report
        .links
        .iter()
        .max_by(|a, b| a.utilization.total_cmp(&b.utilization));
    let m = Measurement {
        busiest_link: busiest.map_or_else(String::new, |l| format!("{} {}", l.name, l.direction)),
        utilization: busiest.map_or(0.0, |l| l.utilization),
        workload: w.name.to_string(),
        flows: sc.total_flows(),
        sim_s: report.duration_s,
        wall_s,
        events: report.events,
        segments_delivered,
        peak_rss_bytes,
        built_rss_bytes,
        peak_packets: world.net.pool.capacity_used() as u64,
    };
    outln!("{}", serde_json::to_string(&m).expect("serializes"));
    ExitCode::SUCCESS
}

/// One workload's result: the median run and the targets.
#[derive(Serialize)]
struct WorkloadResult {
    workload: String,
    flows: u32,
    sim_s: f64,
    wall_s: f64,
    real_time_factor: f64,
    events_per_s: f64,
    segments_delivered_per_s: f64,
    peak_rss_bytes: Option<u64>,
    bytes_per_packet_in_flight: Option<f64>,
    peak_packets: u64,
    events: u64,
    busiest_link: String,
    utilization: f64,
    runs: Vec<Measurement>,
    targets: Vec<Target>,
}

#[derive(Serialize)]
struct Machine {
    cpu: String,
    cores: usize,
    memory_bytes: Option<u64>,
    os: &'static str,
    arch: &'static str,
}

fn machine() -> Machine {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let memory_bytes = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("MemTotal:"))
            .and_then(|l| {
                l["MemTotal:".len()..]
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
            .map(|kb| kb * 1024)
    });
    Machine {
        cpu,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        memory_bytes,
        os: std::env::consts::OS,
        arch: std::env::consts::ARCH,
    }
}

fn measure(exe: &std::path::Path, w: &Workload) -> Result<Measurement, String> {
    measure_with(exe, w, &[])
}

fn measure_with(exe: &std::path::Path, w: &Workload, set: &[&str]) -> Result<Measurement, String> {
    let mut args = vec!["bench-one", w.name];
    for s in set {
        args.extend(["--set", s]);
    }
    let out = Command::new(exe)
        .args(&args)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("{}: cannot start {}: {e}", w.name, exe.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{}: the benchmark process failed ({})",
            w.name, out.status
        ));
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("{}: unreadable measurement: {e}", w.name))
}

fn mib(b: Option<u64>) -> String {
    b.map_or_else(|| "-".into(), |b| format!("{:.1}", b as f64 / MIB))
}

pub fn run(a: BenchArgs) -> ExitCode {
    let chosen: Vec<&Workload> = if a.workload.eq_ignore_ascii_case("all") {
        WORKLOADS.iter().collect()
    } else {
        match find(&a.workload) {
            Some(w) => vec![w],
            None => {
                eprintln!(
                    "--workload: unknown workload {:?}; expected one of: {}, all",
                    a.workload,
                    names()
                );
                return ExitCode::from(super::EXIT_INPUT);
            }
        }
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("bench: cannot find the reorderlab executable: {e}");
            return ExitCode::from(EXIT_IO);
        }
    };
    let mut results = Vec::new();
    for w in chosen.iter().copied() {
        let mut runs = Vec::new();
        for i in 0..a.repeat {
            eprint!("bench: {} run {}/{} ... ", w.name, i + 1, a.repeat);
            match measure(&exe, w) {
                Ok(m) => {
                    eprintln!("{:.3} s", m.wall_s);
                    runs.push(m);
                }
                Err(e) => {
                    eprintln!();
                    eprintln!("{e}");
                    return ExitCode::from(EXIT_IO);
                }
            }
        }
        let mut by_wall: Vec<&Measurement> = runs.iter().collect();
        by_wall.sort_by(|x, y| x.wall_s.total_cmp(&y.wall_s));
        let m = by_wall[(by_wall.len() - 1) / 2].clone();
        results.push(WorkloadResult {
            workload: m.workload.clone(),
            flows: m.flows,
            sim_s: m.sim_s,
            wall_s: m.wall_s,
            real_time_factor: m.real_time_factor(),
            events_per_s: m.events_per_s(),
            segments_delivered_per_s: m.segments_per_s(),
            peak_rss_bytes: m.peak_rss_bytes,
            bytes_per_packet_in_flight: m.bytes_per_packet(),
            peak_packets: m.peak_packets,
            events: m.events,
            busiest_link: m.busiest_link.clone(),
            utilization: m.utilization,
            targets: targets(&m),
            runs,
        });
    }
    let machine = machine();
    if a.json {
        let v = serde_json::json!({
            "version": env!("CARGO_PKG_VERSION"),
            "machine": machine,
            "repeat": a.repeat,
            "workloads": results,
        });
        outln!("{}", serde_json::to_string_pretty(&v).expect("json"));
        return ExitCode::SUCCESS;
    }
    outln!(
        "machine: {} ({} cores, {} GiB), one core per run, median of {} run{}",
        machine.cpu,
        machine.cores,
        machine
            .memory_bytes
            .map_or_else(|| "?".into(), |b| format!("{:.1}", b as f64 / GIB)),
        a.repeat,
        if a.repeat == 1 { "" } else { "s" }
    );
    outln!(
        "{:<8} {:>6} {:>7} {:>9} {:>12} {:>10} {:>12} {:>6} {:>9} {:>10} {:>9}  {}",
        "workload",
        "flows",
        "sim s",
        "wall s",
        "x real time",
        "M events/s",
        "M data seg/s",
        "util",
        "peak MiB",
        "peak pkts",
        "B/pkt",
        "busiest link"
    );
    for r in &results {
        outln!(
            "{:<8} {:>6} {:>7} {:>9.3} {:>12.1} {:>10.2} {:>12.3} {:>5.1}% {:>9} {:>10} {:>9}  {}",
            r.workload,
            r.flows,
            r.sim_s,
            r.wall_s,
            r.real_time_factor,
            r.events_per_s / 1e6,
            r.segments_delivered_per_s / 1e6,
            r.utilization * 100.0,
            mib(r.peak_rss_bytes),
            r.peak_packets,
            r.bytes_per_packet_in_flight
                .map_or_else(|| "-".into(), |b| format!("{b:.0}")),
            r.busiest_link,
        );
    }
    outln!("targets:");
    for r in &results {
        for t in &r.targets {
            outln!(
                "  {:<4} {:<48} {:>12}  {}",
                r.workload,
                t.what,
                t.measured,
                if t.pass { "PASS" } else { "FAIL" }
            );
        }
    }
    // The B/pkt column divides all growth by the peak packets, per-flow
    // state included (W4: 1000 flows, 8 packets each), so it only bounds
    // the per-packet cost; the target is checked on the marginal cost.
    if chosen.iter().any(|w| w.name == "W3") {
        match marginal_bytes_per_packet(&exe) {
            Ok((b, p1, p2)) => outln!(
                "  W3   < 300 bytes per packet in flight (marginal)      {:>10.0} B  {}   (W3 without the impairment, queue 4167 vs 12501: {p1} vs {p2} packets)",
                b,
                if b < 300.0 { "PASS" } else { "FAIL" }
            ),
            Err(e) => eprintln!("bench: marginal memory: {e}"),
        }
    }
    ExitCode::SUCCESS
}

/// Memory per packet in flight measured as a slope: the same full 1 Gbit/s
/// link (W3 without its delay impairment) with its bandwidth-delay-product
/// queue and with three times that queue holds more packets at the peak and
/// nothing else more; the difference in memory growth (peak minus built
/// resident memory, median of three runs) over the difference in peak
/// packets is what one more packet in flight costs, per-flow state and
/// fixed allocations cancelling out.
fn marginal_bytes_per_packet(exe: &std::path::Path) -> Result<(f64, u64, u64), String> {
    let w = find("W3").ok_or("no W3")?;
    // Growth after the world is built (peak minus built resident memory),
    // so that the build's own variation cancels; median of three runs.
    let growth = |queue: &str| -> Result<(u64, u64), String> {
        let mut runs = Vec::new();
        for _ in 0..3 {
            let m = measure_with(exe, w, &["impairments.0.fraction=0", "duration=20s", queue])?;
            let (peak, built) = (
                m.peak_rss_bytes.ok_or("no VmHWM")?,
                m.built_rss_bytes.ok_or("no VmRSS")?,
            );
            runs.push((peak.saturating_sub(built), m.peak_packets));
        }
        runs.sort_unstable();
        Ok(runs[1])
    };
    let (ga, pa) = growth("topology.bottleneck.queue=4167")?;
    let (gb, pb) = growth("topology.bottleneck.queue=12501")?;
    if pb <= pa {
        return Err("the larger queue held no more packets".into());
    }
    Ok((gb.saturating_sub(ga) as f64 / (pb - pa) as f64, pa, pb))
}
