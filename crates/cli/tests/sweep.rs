//! `reorderlab sweep` and `reorderlab bench` end to end: byte-identical
//! tables and run files whatever --jobs is (wall times only in timing.csv),
//! kill-and-resume with exactly one row per run, no finished run redone and
//! a complete timing.csv, clear errors for bad grids, and the bench's output.

mod common;
use common::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant, SystemTime};

/// Two flows on a lossy dumbbell: a few simulated seconds, with
/// retransmissions, so the tables have something to differ in.
const SMALL: &str = r#"
name = "sweep-test"
duration = "3s"
seed = 3
[measure]
from = "1s"
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "10Mbps"
delay = "10ms"
queue = 50
[topology.access]
rate = "100Mbps"
delay = "1ms"
[[flows]]
variant = "sack"
count = 2
[[impairments]]
link = "bottleneck"
kind = "loss"
probability = 0.01
"#;

/// The run files in DIR/runs (name -> modification time), temporaries excluded.
fn run_files(out: &Path) -> BTreeMap<String, SystemTime> {
    let Ok(rd) = std::fs::read_dir(out.join("runs")) else {
        return BTreeMap::new();
    };
    rd.filter_map(|e| {
        let e = e.ok()?;
        let name = e.file_name().to_string_lossy().into_owned();
        (name.ends_with(".json") && !name.starts_with('.'))
            .then(|| (name, e.metadata().unwrap().modified().unwrap()))
    })
    .collect()
}

fn temporaries(out: &Path) -> Vec<String> {
    let mut v = Vec::new();
    for d in [out.to_path_buf(), out.join("runs")] {
        for e in std::fs::read_dir(d).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".tmp") {
                v.push(name);
            }
        }
    }
    v
}

/// The run files in DIR/runs (name -> bytes), temporaries and wall files excluded.
fn run_file_bytes(out: &Path) -> BTreeMap<String, Vec<u8>> {
    run_files(out)
        .into_keys()
        .map(|name| {
            let bytes = std::fs::read(out.join("runs").join(&name)).unwrap();
            (name, bytes)
        })
        .collect()
}

/// timing.csv's rows as (run, id, events, wall_s), checking its header.
fn timing_rows(out: &Path) -> Vec<(usize, String, u64, Option<f64>)> {
    let text = std::fs::read_to_string(out.join("timing.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("run,id,events,wall_s"), "{text}");
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 4, "{l}");
            let wall = (!f[3].is_empty()).then(|| f[3].parse::<f64>().unwrap());
            (
                f[0].parse().unwrap(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                wall,
            )
        })
        .collect()
}

/// timing.csv agrees with results.csv: one row per run, in the same order,
/// with the same ids and event counts; and results.csv has no wall time.
fn check_timing(out: &Path, results: &str) {
    let header: Vec<&str> = results.lines().next().unwrap().split(',').collect();
    assert!(!header.iter().any(|c| c.contains("wall")), "{header:?}");
    let events = header.iter().position(|&c| c == "events").unwrap();
    let expected: Vec<(usize, String, u64)> = results
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].parse().unwrap(),
                f[1].to_string(),
                f[events].parse().unwrap(),
            )
        })
        .collect();
    let got: Vec<(usize, String, u64)> = timing_rows(out)
        .into_iter()
        .map(|(run, id, ev, _)| (run, id, ev))
        .collect();
    assert_eq!(got, expected);
}

/// The `run` column of results.csv.
fn run_column(csv: &str) -> Vec<usize> {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn jobs_1_and_jobs_2_give_byte_identical_tables() {
    let d = tmpdir("jobs");
    let sc = write(&d, "s.toml", SMALL);
    let mut tables = Vec::new();
    for jobs in ["1", "2"] {
        let out = d.join(format!("out-{jobs}"));
        let o = run(&[
            "sweep",
            &sc,
            "--grid",
            "topology.bottleneck.rate=8Mbps,12Mbps",
            "--grid",
            "flows.0.variant=sack,newreno",
            "--seeds",
            "2",
            "--jobs",
            jobs,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(text(&o.stdout).contains("8 runs"), "{}", text(&o.stdout));
        let results = std::fs::read_to_string(out.join("results.csv")).unwrap();
        let flows = std::fs::read_to_string(out.join("flows.csv")).unwrap();
        check_timing(&out, &results);
        let timing = timing_rows(&out);
        assert!(
            timing.iter().all(|t| t.3.is_some_and(|w| w > 0.0)),
            "{timing:?}"
        );
        let runs = run_file_bytes(&out);
        assert_eq!(runs.len(), 8);
        for (name, bytes) in &runs {
            assert!(!text(bytes).contains("wall"), "{name} holds a wall time");
        }
        tables.push((results, flows, runs));
    }
    let (r1, f1, runs1) = &tables[0];
    let (r2, f2, runs2) = &tables[1];
    assert_eq!(f1, f2, "flows.csv differs between --jobs 1 and --jobs 2");
    assert_eq!(r1, r2, "results.csv differs between --jobs 1 and --jobs 2");
    assert!(
        runs1 == runs2,
        "run files differ between --jobs 1 and --jobs 2"
    );
    // One row per run, in expansion order: rate slowest, variant, then seeds 3, 4.
    assert_eq!(run_column(r1), (0..8).collect::<Vec<_>>());
    let header = r1.lines().next().unwrap();
    assert!(
        header.starts_with(
            "run,id,topology.bottleneck.rate,flows.0.variant,seed,flows,goodput_bps_sum,"
        ),
        "{header}"
    );
    let rows: Vec<Vec<&str>> = r1.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let keys: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r[2], r[3], r[4])).collect();
    assert_eq!(
        keys,
        [
            ("8Mbps", "sack", "3"),
            ("8Mbps", "sack", "4"),
            ("8Mbps", "newreno", "3"),
            ("8Mbps", "newreno", "4"),
            ("12Mbps", "sack", "3"),
            ("12Mbps", "sack", "4"),
            ("12Mbps", "newreno", "3"),
            ("12Mbps", "newreno", "4"),
        ]
    );
    // Different runs really differ, and flows.csv has two rows per run.
    let distinct: std::collections::BTreeSet<_> = rows.iter().map(|r| r[6]).collect();
    assert!(distinct.len() > 4, "goodputs barely differ: {distinct:?}");
    assert_eq!(f1.lines().count(), 1 + 8 * 2);
    let _ = std::fs::remove_dir_all(&d);
}

/// A sweep whose runs take a few tenths of a second each, so that it can be
/// killed part-way.
const SLOWER: &str = r#"
name = "sweep-kill"
duration = "12s"
seed = 1
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "300Mbps"
delay = "10ms"
queue = 600
[topology.access]
rate = "1Gbps"
delay = "1ms"
[[flows]]
variant = "sack"
count = 4
"#;

#[test]
fn a_killed_sweep_resumes_with_exactly_one_row_per_run_and_redoes_nothing() {
    let d = tmpdir("kill");
    let sc = write(&d, "s.toml", SLOWER);
    let out = d.join("out");
    let args = [
        "sweep",
        sc.as_str(),
        "--grid",
        "topology.bottleneck.rate=200Mbps,300Mbps,400Mbps",
        "--grid",
        "flows.0.variant=sack,newreno",
        "--seeds",
        "2",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    let mut child = bin()
        .args(args)
        .current_dir(repo())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut killed_midway = false;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "sweep failed before it could be killed");
            break;
        }
        let n = run_files(&out).len();
        if n >= 2 {
            child.kill().unwrap(); // SIGKILL
            child.wait().unwrap();
            killed_midway = n < 12;
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "sweep made no progress"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let before = run_files(&out);
    if killed_midway {
        assert!(before.len() < 12);
        assert!(
            !out.join("results.csv").exists(),
            "tables are only written once every run is done"
        );
    } else {
        eprintln!(
            "note: the sweep finished before it could be killed; only checking the final tables"
        );
    }
    // Every run file present after the kill is whole.
    for name in before.keys() {
        let bytes = std::fs::read(out.join("runs").join(name)).unwrap();
        let v: serde_json::Value =
            serde_json::from_slice(&bytes).expect("a run file is whole or absent");
        assert!(v["report"]["events"].as_u64().unwrap() > 0);
        // Its wall file was written before it.
        let wall = out.join("runs").join(name.replace(".json", ".wall"));
        let wall = std::fs::read_to_string(&wall).expect("a run file has its wall file");
        assert!(wall.trim().parse::<f64>().unwrap() > 0.0, "{wall:?}");
    }

    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(
        stdout.contains(&format!("{} run now", 12 - before.len()))
            && stdout.contains(&format!("{} reused", before.len())),
        "{stdout}"
    );
    let after = run_files(&out);
    assert_eq!(after.len(), 12, "{after:?}");
    for (name, mtime) in &before {
        assert_eq!(after.get(name), Some(mtime), "{name} was redone");
    }
    assert!(temporaries(&out).is_empty(), "{:?}", temporaries(&out));

    let results = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(
        run_column(&results),
        (0..12).collect::<Vec<_>>(),
        "{results}"
    );
    let ids: Vec<String> = results
        .lines()
        .skip(1)
        .map(|l| format!("{}.json", l.split(',').nth(1).unwrap()))
        .collect();
    let unique: std::collections::BTreeSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), 12);
    assert!(ids.iter().all(|id| after.contains_key(id)));
    let flows = std::fs::read_to_string(out.join("flows.csv")).unwrap();
    assert_eq!(flows.lines().count(), 1 + 12 * 4);
    // timing.csv is complete, the runs finished before the kill included.
    check_timing(&out, &results);
    let timing = std::fs::read(out.join("timing.csv")).unwrap();
    let rows = timing_rows(&out);
    assert!(
        rows.iter().all(|t| t.3.is_some_and(|w| w > 0.0)),
        "{rows:?}"
    );

    // Once more: nothing to do, the same bytes in every file.
    let o = run(&args);
    assert!(o.status.success());
    assert!(text(&o.stdout).contains("0 run now"), "{}", text(&o.stdout));
    assert_eq!(run_files(&out), after);
    assert_eq!(
        std::fs::read_to_string(out.join("results.csv")).unwrap(),
        results
    );
    assert_eq!(
        std::fs::read_to_string(out.join("flows.csv")).unwrap(),
        flows
    );
    assert_eq!(std::fs::read(out.join("timing.csv")).unwrap(), timing);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn extending_a_grid_reuses_the_runs_it_shares() {
    let d = tmpdir("extend");
    let sc = write(&d, "s.toml", SMALL);
    let out = d.join("out");
    let sweep = |rates: &str| {
        let o = run(&[
            "sweep",
            &sc,
            "--grid",
            rates,
            "--out",
            out.to_str().unwrap(),
            "--set",
            "duration=2s",
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    let s = sweep("topology.bottleneck.rate=8Mbps,12Mbps");
    assert!(s.contains("2 runs") && s.contains("0 reused"), "{s}");
    let s = sweep("topology.bottleneck.rate=8Mbps, 10Mbps ,12Mbps");
    assert!(
        s.contains("3 runs") && s.contains("1 run now") && s.contains("2 reused"),
        "{s}"
    );
    let results = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let rates: Vec<&str> = results
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap())
        .collect();
    assert_eq!(rates, ["8Mbps", "10Mbps", "12Mbps"]);
    check_timing(&out, &results);

    // A run whose wall file is gone is still reused; its timing cell is empty.
    let timing = timing_rows(&out);
    assert!(timing.iter().all(|t| t.3.is_some()), "{timing:?}");
    std::fs::remove_file(out.join("runs").join(format!("{}.wall", timing[1].1))).unwrap();
    let s = sweep("topology.bottleneck.rate=8Mbps,10Mbps,12Mbps");
    assert!(s.contains("0 run now") && s.contains("3 reused"), "{s}");
    assert_eq!(
        std::fs::read_to_string(out.join("results.csv")).unwrap(),
        results
    );
    let after = timing_rows(&out);
    assert_eq!(after[1].3, None, "{after:?}");
    assert_eq!(after[0], timing[0]);
    assert_eq!(after[2], timing[2]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_bad_grid_exits_2_naming_the_key_and_runs_nothing() {
    let d = tmpdir("bad");
    let sc = write(&d, "s.toml", SMALL);
    let out = d.join("out");
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--grid", "topology.bottleneck.rate=8Mbps,fast"],
            &["topology.bottleneck.rate", "\"fast\""],
        ),
        (&["--grid", "topology.bottleneck.rat=8Mbps"], &["rat"]),
        (&["--grid", "flows.0.mss"], &["KEY=V1,V2", "flows.0.mss"]),
        (
            &["--grid", "flows.0.mss=1000,,1200"],
            &["flows.0.mss", "empty"],
        ),
        (
            &["--grid", "seed=1,2", "--seeds", "2"],
            &["seed", "--seeds"],
        ),
        (&["--grid", "flows.7.mss=1000"], &["flows"]),
        (&["--seeds", "0"], &["--seeds"]),
        (&["--jobs", "0"], &["--jobs"]),
    ];
    for (extra, needles) in cases {
        let mut args = vec!["sweep", sc.as_str(), "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = run(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        for n in *needles {
            assert!(err.contains(n), "{extra:?}: {err:?} lacks {n:?}");
        }
        assert!(
            !out.exists(),
            "{extra:?}: nothing may run before every run validates"
        );
    }
    // Only the run with the bad value is named, with its grid point.
    let o = run(&[
        "sweep",
        &sc,
        "--out",
        out.to_str().unwrap(),
        "--grid",
        "flows.0.variant=sack,bogus,reno",
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("flows[0].variant") && err.contains("run 1: flows.0.variant=bogus"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bench_reports_the_measurements_as_json() {
    let o = run(&["bench", "--workload", "w1", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let w = &v["workloads"][0];
    assert_eq!(w["workload"], "W1");
    assert_eq!(w["flows"], 1);
    assert_eq!(w["sim_s"], 100.0);
    for k in [
        "real_time_factor",
        "events_per_s",
        "segments_delivered_per_s",
    ] {
        assert!(w[k].as_f64().unwrap() > 0.0, "{k}: {w}");
    }
    assert!(w["events"].as_u64().unwrap() > 100_000);
    assert!(w["peak_packets"].as_u64().unwrap() > 0);
    if cfg!(target_os = "linux") {
        assert!(w["peak_rss_bytes"].as_u64().unwrap() > 0);
    }
    let t = w["targets"].as_array().unwrap();
    assert!(
        t.iter()
            .any(|t| t["what"].as_str().unwrap().contains("1000x real time")),
        "{t:?}"
    );
    assert!(v["machine"]["cores"].as_u64().unwrap() >= 1);
    // W1's one flow fills its 15 Mbit/s bottleneck: the busiest link and
    // its utilization are reported beside the speed.
    assert_eq!(w["busiest_link"], "bottleneck forward");
    let u = w["utilization"].as_f64().unwrap();
    assert!(u > 0.9 && u <= 1.0, "{u}");

    // W5, the full 1 Gbit/s link, exists (one simulated second here).
    let o = run(&["bench-one", "W5", "--set", "duration=1s"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let m: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(
        (m["workload"].as_str(), m["flows"].as_u64()),
        (Some("W5"), Some(50))
    );
    assert_eq!(m["busiest_link"], "bottleneck forward");

    let o = run(&["bench", "--workload", "W9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("W1, W2, W3, W4, W5"),
        "{}",
        text(&o.stderr)
    );
}
