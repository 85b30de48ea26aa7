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

/// The table shows the bottleneck and one line over all links, not a line
/// per link; links.csv has every link direction. stderr carries no
/// progress bar when it is not a terminal.
#[test]
fn a_large_dumbbell_prints_its_bottleneck_and_writes_every_link_to_links_csv() {
    let d = tmpdir("links");
    let sc = write(&d, "good.toml", GOOD);
    let out = d.join("out");
    let o = run(&[
        "run",
        &sc,
        "--set",
        "topology.pairs=20",
        "--set",
        "duration=1s",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let table = String::from_utf8_lossy(&o.stdout);
    let links: Vec<&str> = table.lines().filter(|l| l.starts_with("link ")).collect();
    assert_eq!(links.len(), 2, "{table}");
    assert!(links.iter().all(|l| l.contains("bottleneck")), "{table}");
    assert!(
        table.contains("all 82 link directions (") && table.contains("links.csv"),
        "{table}"
    );
    let csv = std::fs::read_to_string(out.join("links.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("name,direction,utilization,packets,drops,impairment_drops,bottleneck")
    );
    assert_eq!(lines.clone().count(), 82, "41 links x 2 directions:\n{csv}");
    assert_eq!(lines.filter(|l| l.ends_with(",true")).count(), 2);
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
            "links.csv",
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
        // What `run` used to reject and `validate` to accept: one path now.
        (
            "cc",
            &GOOD.replace("variant = \"reno\"", "variant = \"reno\"\ncc = \"bogus\""),
            &[
                "flows[1].cc",
                "unknown congestion control \"bogus\"",
                "reno",
            ],
        ),
        (
            "param-unknown",
            &GOOD.replace(
                "variant = \"reno\"",
                "variant = \"reno\"\nparams = { x = 1 }",
            ),
            &["flows[1].params.x", "unknown parameter"],
        ),
        (
            "pr-beta",
            &GOOD.replace(
                "variant = \"reno\"",
                "variant = \"tcp-pr\"\nparams = { beta = 0 }",
            ),
            &["flows[1].params.beta", "between 1 and 1000", "got 0"],
        ),
        (
            "pr-alpha",
            &GOOD.replace(
                "variant = \"reno\"",
                "variant = \"tcp-pr\"\nparams = { alpha = 2 }",
            ),
            &["flows[1].params.alpha", "between 0 and 1", "got 2"],
        ),
        (
            "name",
            &GOOD.replace("name = \"cli-test\"", "name = \"../../escape\""),
            &["name", "expected a file name", "results/<name>"],
        ),
        (
            "dt",
            &GOOD.replace("seed = 3", "seed = 3\n[measure]\nreorder_threshold = 4e9"),
            &["measure.reorder_threshold", "got 4000000000.0"],
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
    let all: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let v = &all["variants"];
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
        .all(|x| !x["source"].as_str().unwrap().is_empty() && x["cc"] == "reno"));
    // The cc values, and every parameter with its default and range.
    assert_eq!(all["cc"], serde_json::json!(["reno"]));
    let pr = v
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "tcp-pr")
        .unwrap();
    let beta = pr["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "beta")
        .unwrap();
    assert_eq!(
        (beta["default"].as_f64(), beta["min"].as_f64()),
        (Some(3.0), Some(1.0))
    );
    // docs/scenarios.md's variant table lists every name the JSON does.
    let doc = std::fs::read_to_string(repo().join("docs/scenarios.md")).unwrap();
    for n in &names {
        assert!(
            doc.contains(&format!("| `{n}` |")),
            "{n} missing from docs/scenarios.md"
        );
    }
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

/// The guard: a run stops at --max-events or --max-memory with exit code 3
/// and a message naming the limit and how to raise it.
#[test]
fn run_limits_stop_with_exit_code_3() {
    let d = tmpdir("limits");
    let sc = write(&d, "good.toml", GOOD);
    let out = d.join("out");
    let o = run(&[
        "run",
        &sc,
        "--max-events",
        "1000",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    for n in [
        "good.toml",
        "limit of 1000 events",
        "--max-events N",
        "stopped at simulated time",
    ] {
        assert!(err.contains(n), "{n:?} missing: {err}");
    }
    assert!(!out.exists(), "a stopped run writes nothing");
    let o = run(&[
        "run",
        &sc,
        "--max-memory",
        "1MB",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("--max-memory SIZE"), "{err}");
    let o = run(&["run", &sc, "--max-memory", "lots"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--max-memory"));
    // Raised limits let it finish.
    let o = run(&[
        "run",
        &sc,
        "--quiet",
        "--max-events",
        "100000000",
        "--max-memory",
        "64GiB",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// One rule for seeds on every path: an integer from 0 to 2^63 - 1.
#[test]
fn seeds_follow_one_rule_everywhere() {
    let d = tmpdir("seeds");
    let sc = write(&d, "good.toml", GOOD);
    for bad in ["18446744073709551615", "9223372036854775808"] {
        let o = run(&[
            "run",
            &sc,
            "--seed",
            bad,
            "--out",
            d.join("never").to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("9223372036854775807"),
            "{}",
            text(&o.stderr)
        );
        let o = run(&["validate", &sc, "--set", &format!("seed={bad}")]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(text(&o.stderr).contains("seed: expected a non-negative integer"));
    }
    let o = run(&["validate", &sc, "--set", "seed=9223372036854775807"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run(&[
        "sweep",
        &sc,
        "--set",
        "seed=9223372036854775807",
        "--seeds",
        "2",
        "--out",
        d.join("sw").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--seeds"), "{}", text(&o.stderr));
}

#[test]
fn help_documents_the_exit_codes_and_the_files() {
    let o = run(&["--help"]);
    let h = text(&o.stdout);
    for n in [
        "Exit codes:",
        "1  a file could not be written",
        "2  bad input",
        "3  run stopped by a limit",
    ] {
        assert!(h.contains(n), "{n:?} missing: {h}");
    }
    let h = text(&run(&["run", "--help"]).stdout);
    for n in [
        "reorder_density.csv",
        "--max-events",
        "--max-memory",
        "3  stopped by",
    ] {
        assert!(h.contains(n), "{n:?} missing: {h}");
    }
    let h = text(&run(&["validate", "--help"]).stdout);
    assert!(h.contains("exactly as `run`"), "{h}");
    for n in [
        "FILE: KEY: MESSAGE",
        "docs/scenarios.md",
        "--set",
        "did you mean",
        "2  ",
    ] {
        assert!(h.contains(n), "{n:?} missing from validate --help: {h}");
    }
}

/// A scenario name never makes `run` write outside results/.
#[test]
fn a_name_cannot_escape_the_results_directory() {
    let d = tmpdir("escape");
    for name in ["../../escape", "/tmp/reorderlab-abs-escape"] {
        let sc = write(
            &d,
            "e.toml",
            &GOOD.replace("name = \"cli-test\"", &format!("name = \"{name}\"")),
        );
        let o = run(&["run", &sc]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        assert!(text(&o.stderr).contains("name: expected a file name"));
    }
    assert!(!repo().join("../../escape").exists());
    assert!(!Path::new("/tmp/reorderlab-abs-escape").exists());
}
