//! The `reorderlab` binary end to end: outputs, overrides, and bad input
//! getting a clear message and exit code 2.

mod common;
use common::*;
use std::path::Path;

const GOOD: &str = r#"
name = "cli-test"
duration = "5s"
seed = 3
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "15Mbps"
delay = "10ms"
queue = 250
[topology.access]
rate = "100Mbps"
delay = "1ms"
[[flows]]
variant = "sack"
bytes = "200KB"
[[flows]]
variant = "reno"
[[impairments]]
link = "bottleneck"
kind = "loss"
probability = 0.01
"#;

#[test]
fn run_writes_summary_json_and_flows_csv_with_the_documented_keys() {
    let d = tmpdir("run");
    let sc = write(&d, "good.toml", GOOD);
    let out = d.join("out");
    let o = run(&["run", &sc, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("sack") && table.contains("reno"), "{table}");
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    for k in ["scenario", "seed", "duration_s", "events", "flows", "links"] {
        assert!(s.get(k).is_some(), "summary.json lacks {k}");
    }
    // The wall time is printed, not written: summary.json holds only what
    // the scenario and seed determine.
    assert!(s.get("wall_s").is_none(), "summary.json has wall_s");
    assert!(table.contains(" s wall, "), "{table}");
    let f0 = &s["flows"][0];
    for k in [
        "id",
        "variant",
        "bytes_delivered",
        "goodput_bps",
        "throughput_bps",
        "segments_sent",
        "retransmissions",
        "spurious_retransmissions",
        "fast_retransmits",
        "spurious_fast_retransmits",
        "timeouts",
        "spurious_timeouts",
        "completion_time_s",
    ] {
        assert!(f0.get(k).is_some(), "flows[0] lacks {k}");
    }
    assert_eq!(f0["bytes_delivered"], 200_000);
    assert!(f0["completion_time_s"].is_f64());
    assert!(
        s["flows"][1]["completion_time_s"].is_null(),
        "bulk flow has no completion time"
    );
    for k in ["name", "direction", "utilization", "packets", "drops"] {
        assert!(s["links"][0].get(k).is_some(), "links[0] lacks {k}");
    }
    let csv = std::fs::read_to_string(out.join("flows.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "header + 2 flows:\n{csv}");
}

/// Every file in `dir`, by name, with its bytes.
fn files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn same_seed_same_bytes() {
    let d = tmpdir("det");
    let sc = write(&d, "good.toml", GOOD);
    let mut outs = Vec::new();
    for i in 0..2 {
        let out = d.join(format!("o{i}"));
        let o = run(&[
            "run",
            &sc,
            "--quiet",
            "--set",
            "measure.series_interval=0.5s",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        outs.push(files(&out));
    }
    let names: Vec<&str> = outs[0].keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "flows.csv",
            "reorder_density.csv",
            "series.csv",
            "summary.json"
        ]
    );
    for (name, bytes) in &outs[0] {
        assert!(
            outs[1].get(name) == Some(bytes),
            "{name} differs between two runs"
        );
    }
    assert_eq!(outs[0].len(), outs[1].len());
}

#[test]
fn set_and_seed_override_the_file() {
    let d = tmpdir("set");
    let sc = write(&d, "good.toml", GOOD);
    let out = d.join("out");
    let o = run(&[
        "run",
        &sc,
        "--quiet",
        "--seed",
        "9",
        "--set",
        "flows.0.variant=newreno",
        "--set",
        "topology.bottleneck.rate=10Mbps",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["seed"], 9);
    assert_eq!(s["flows"][0]["variant"], "newreno");
}

/// Each bad input exits 2 with a message naming the file, the key and the expectation.
#[test]
fn bad_input_gets_a_clear_error_and_exit_code_2() {
    let d = tmpdir("bad");
    let cases: &[(&str, &str, &[&str])] = &[
        ("malformed", "name = \"x\"\nduration = \"5s\n", &["line 2"]),
        (
            "unknown-key",
            &GOOD.replace("seed = 3", "seed = 3\nsped = 4"),
            &["sped", "unknown key"],
        ),
        (
            "unknown-variant",
            &GOOD.replace("variant = \"reno\"", "variant = \"renoo\""),
            &["flows[1].variant", "newreno"],
        ),
        (
            "rate",
            &GOOD.replace("rate = \"15Mbps\"", "rate = \"fast\""),
            &["topology.bottleneck.rate", "fast"],
        ),
        (
            "delay",
            &GOOD.replace("delay = \"10ms\"", "delay = \"-5ms\""),
            &["topology.bottleneck.delay"],
        ),
        (
            "mss",
            &GOOD.replace("bytes = \"200KB\"", "bytes = \"200KB\"\nmss = 0"),
            &["flows[0].mss"],
        ),
        (
            "probability",
            &GOOD.replace("probability = 0.01", "probability = 1.5"),
            &["impairments[0].probability"],
        ),
    ];
    for (tag, text, needles) in cases {
        let sc = write(&d, &format!("{tag}.toml"), text);
        for cmd in ["run", "validate"] {
            let o = run(
                &[cmd, &sc, "--out", d.join("never").to_str().unwrap()].as_slice()
                    [..if cmd == "run" { 4 } else { 2 }],
            );
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(
                o.status.code(),
                Some(2),
                "{tag} ({cmd}): exit {:?}, stderr: {err}",
                o.status.code()
            );
            assert!(
                err.contains(&format!("{tag}.toml")),
                "{tag}: message must name the file: {err}"
            );
            for n in *needles {
                assert!(err.contains(n), "{tag}: message must mention {n:?}: {err}");
            }
            assert!(!err.contains("panicked"), "{tag}: {err}");
        }
    }
    let o = run(&["run", d.join("missing.toml").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.toml"));
    let o = run(&["run", &write(&d, "ok.toml", GOOD), "--set", "flows.7.mss=5"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn validate_accepts_the_bundled_scenarios() {
    for e in std::fs::read_dir(repo().join("scenarios")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            let o = run(&["validate", p.to_str().unwrap()]);
            assert!(
                o.status.success(),
                "{}: {}",
                p.display(),
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

#[test]
fn variants_lists_every_baseline_with_its_source() {
    let o = run(&["variants", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    for n in ["reno", "newreno", "sack", "fack", "newreno-sack"] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .all(|x| !x["source"].as_str().unwrap().is_empty()));
    let o = run(&["variants"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("RFC 6675"));
}

#[test]
fn reproduce_lists_experiments_and_rejects_unknown_ids() {
    let o = run(&["reproduce", "--list"]);
    assert!(o.status.success());
    let list = String::from_utf8_lossy(&o.stdout);
    assert!(list.lines().count() >= 20, "{list}");
    assert!(
        list.lines().any(|l| l.starts_with("pr-fig15-10ms ")),
        "{list}"
    );
    for id in ["validation ", "linux-mirror ", "mathis "] {
        assert!(list.lines().any(|l| l.starts_with(id)), "{id}: {list}");
    }
    let o = run(&["reproduce", "pr-fig99"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("pr-fig13-30ms"),
        "the message lists the known ids"
    );
}

#[test]
fn a_closed_stdout_pipe_is_not_a_panic() {
    use std::process::Stdio;
    let mut child = bin()
        .args(["variants"])
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away at once
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}
