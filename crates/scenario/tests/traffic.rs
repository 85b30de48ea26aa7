//! `[[traffic]]`: CBR and web traffic, defaults and constraints.

mod common;

use common::*;
use reorderlab_scenario::*;
use reorderlab_sim::{Time, TimeDist};

fn traffic(topology: &str, body: &str) -> TrafficSpec {
    let s = ok(&on(topology, &format!("[[traffic]]\n{body}\n")));
    assert_eq!(s.traffic.len(), 1);
    s.traffic[0].clone()
}

fn bad(body: &str, key: &str, message: &str) {
    only_problem(
        &on(DUMBBELL, &format!("[[traffic]]\n{body}\n")),
        key,
        message,
    );
}

#[test]
fn cbr_minimal_takes_the_defaults() {
    assert_eq!(
        traffic(DUMBBELL, "kind = \"cbr\"\nrate = \"1Mbps\""),
        TrafficSpec::Cbr(Cbr {
            src: "S0".into(),
            dst: "D0".into(),
            rate: 1_000_000,
            packet_bytes: 1000,
            start: TimeDist::Constant(Time::ZERO),
            stop: None,
        })
    );
    // Elsewhere the default ends are the topology's first default endpoints.
    let TrafficSpec::Cbr(c) = traffic(
        "kind = \"chain\"\nbottleneck = { rate = \"1Mbps\" }",
        "kind = \"cbr\"\nrate = \"1Mbps\"",
    ) else {
        panic!("expected cbr")
    };
    assert_eq!((c.src.as_str(), c.dst.as_str()), ("S1", "S2"));
}

#[test]
fn cbr_explicit() {
    assert_eq!(
        traffic(
            "kind = \"parking-lot\"",
            "kind = \"cbr\"\nsrc = \"CS1\"\ndst = \"CD3\"\nrate = \"1.5Mbps\"\npacket_bytes = 1500\nstart = \"5s\"\nstop = \"50s\""
        ),
        TrafficSpec::Cbr(Cbr {
            src: "CS1".into(),
            dst: "CD3".into(),
            rate: 1_500_000,
            packet_bytes: 1500,
            start: TimeDist::Constant(Time::from_secs(5)),
            stop: Some(Time::from_secs(50)),
        })
    );
}

#[test]
fn cbr_constraints() {
    bad(
        "kind = \"cbr\"",
        "traffic[0].rate",
        "required key is missing; expected a rate with a unit, like rate = \"1Mbps\"",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\npacket_bytes = 27",
        "traffic[0].packet_bytes",
        "expected an integer number of bytes, at least 28 (IPv4 and UDP headers), got 27",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\npacket_bytes = 65536",
        "traffic[0].packet_bytes",
        "expected at most 65535 bytes (the IPv4 limit), got 65536",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\nstart = \"10s\"\nstop = \"10s\"",
        "traffic[0].stop",
        "expected a time after start (10s), got \"10s\"",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\nstop = 0",
        "traffic[0].stop",
        "expected a time after start (0s), got 0",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\nstart = \"60s\"",
        "traffic[0].start",
        "expected a start time before the end of the run (duration = 60s), got \"60s\"",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\nsrc = \"S0\"",
        "traffic[0].dst",
        "required key is missing; src and dst are given together, expected a node name, like dst = \"D\"",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\ndst = \"D0\"",
        "traffic[0].src",
        "required key is missing; src and dst are given together, expected a node name, like src = \"S\"",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\nsrc = \"S1\"\ndst = \"D0\"",
        "traffic[0].src",
        "unknown node \"S1\" (did you mean \"S0\"?); expected one of: R1, R2, S0, D0",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\nsrc = \"R1\"\ndst = \"R1\"",
        "traffic[0].dst",
        "expected a node other than src (\"R1\"), got \"R1\"",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\nsessions = 2",
        "traffic[0].sessions",
        "unknown key 'sessions'; expected one of: kind, src, dst, start, rate, packet_bytes, stop",
    );
}

#[test]
fn traffic_on_a_dumbbell_may_use_any_node() {
    // Unlike flows, traffic names its nodes on the dumbbell too (TCP-PR's web
    // servers at one router and clients at the other).
    let TrafficSpec::Cbr(c) = traffic(
        &format!("{DUMBBELL}\npairs = 2"),
        "kind = \"cbr\"\nrate = \"1Mbps\"\nsrc = \"R1\"\ndst = \"D1\"",
    ) else {
        panic!("expected cbr")
    };
    assert_eq!((c.src.as_str(), c.dst.as_str()), ("R1", "D1"));
}

#[test]
fn web_minimal_takes_the_defaults() {
    assert_eq!(
        traffic("kind = \"parking-lot\"", "kind = \"web\""),
        TrafficSpec::Web(Web {
            src: "S".into(),
            dst: "D".into(),
            pairs: 1,
            sessions: 10,
            variant: "sack".into(),
            mss: 1460,
            start: TimeDist::Constant(Time::ZERO),
            inter_page: TimeDist::Exponential {
                mean: Time::from_secs(1)
            },
            objects_per_page: [1, 1],
            inter_object: TimeDist::Exponential {
                mean: Time::from_millis(10)
            },
            object_size_mean: 40_000,
            object_size_shape: 1.2,
        })
    );
}

#[test]
fn web_explicit() {
    let t = traffic(
        "kind = \"parking-lot\"",
        r#"kind = "web"
src = "CS1"
dst = "CD1"
pairs = 2
sessions = 5
variant = "newreno"
mss = 536
start = "1s"
inter_page = { dist = "exponential", mean = "2s" }
objects_per_page = [1, 5]
inter_object = "20ms"
object_size_mean = "12KB"
object_size_shape = 1.5"#,
    );
    assert_eq!(
        t,
        TrafficSpec::Web(Web {
            src: "CS1".into(),
            dst: "CD1".into(),
            pairs: 2,
            sessions: 5,
            variant: "newreno".into(),
            mss: 536,
            start: TimeDist::Constant(Time::from_secs(1)),
            inter_page: TimeDist::Exponential {
                mean: Time::from_secs(2)
            },
            objects_per_page: [1, 5],
            inter_object: TimeDist::Constant(Time::from_millis(20)),
            object_size_mean: 12_000,
            object_size_shape: 1.5,
        })
    );
    assert_eq!(t.kind(), "web");
}

#[test]
fn web_constraints() {
    let cases: &[(&str, &str, &str)] = &[
        ("pairs = 0", "traffic[0].pairs", "expected a positive integer number of server-client pairs, got 0"),
        ("sessions = 0", "traffic[0].sessions", "expected a positive integer number of sessions per pair, got 0"),
        ("variant = \"vegas\"", "traffic[0].variant", "unknown TCP variant \"vegas\"; expected one of: newreno, sack, tdfr"),
        ("mss = 0", "traffic[0].mss", "expected a positive integer number of bytes, got 0"),
        ("objects_per_page = [3, 1]", "traffic[0].objects_per_page", "expected [min, max] with min no greater than max, got [3, 1]"),
        ("objects_per_page = [0, 1]", "traffic[0].objects_per_page[0]", "expected a positive integer number of objects, got 0"),
        ("objects_per_page = 1", "traffic[0].objects_per_page", "expected an inclusive range [min, max] of objects per page, like [1, 5], got 1"),
        ("object_size_mean = 0", "traffic[0].object_size_mean", "expected a positive size in bytes, got 0"),
        ("object_size_shape = 1", "traffic[0].object_size_shape", "expected a number greater than 1 (the Pareto mean is finite only then), got 1"),
        ("inter_page = { dist = \"pareto\" }", "traffic[0].inter_page.dist", "unknown distribution \"pareto\"; expected one of: normal, uniform, exponential, constant"),
        ("inter_object = -1", "traffic[0].inter_object", "expected a time like \"50ms\" or a distribution like { dist = \"normal\", mean = \"25ms\", sd = \"8ms\" }, got -1"),
        ("rate = \"1Mbps\"", "traffic[0].rate", "unknown key 'rate'; expected one of: kind, src, dst, start, pairs, sessions, variant, mss, inter_page, objects_per_page, inter_object, object_size_mean, object_size_shape"),
    ];
    for (extra, key, message) in cases {
        bad(&format!("kind = \"web\"\n{extra}"), key, message);
    }
}

#[test]
fn web_default_variant_must_be_known() {
    let text = on(DUMBBELL, "[[traffic]]\nkind = \"web\"\n").replace("\"sack\"", "\"newreno\"");
    let e = parse(&text, "t.toml", &[], &["newreno"]).unwrap_err();
    assert_eq!(
        e.problems(),
        &[p(
            "traffic[0].variant",
            "required key is missing: the default \"sack\" is not a known TCP variant; expected one of: newreno"
        )]
    );
}

#[test]
fn traffic_kind_and_shape() {
    bad(
        "kind = \"ftp\"",
        "traffic[0].kind",
        "unknown traffic kind \"ftp\"; expected one of: cbr, web",
    );
    bad(
        "kind = \"wb\"",
        "traffic[0].kind",
        "unknown traffic kind \"wb\" (did you mean \"web\"?); expected one of: cbr, web",
    );
    bad(
        "rate = \"1Mbps\"",
        "traffic[0].kind",
        "required key is missing; expected one of: cbr, web",
    );
    only_problem(
        &format!("traffic = 1\n{MINIMAL}"),
        "traffic",
        "expected an array of tables ([[traffic]]), got 1",
    );
    only_problem(
        &format!("traffic = [1]\n{MINIMAL}"),
        "traffic[0]",
        "expected a table, got 1",
    );
    // Every bad table is reported.
    let text = on(
        DUMBBELL,
        "[[traffic]]\nkind = \"cbr\"\n[[traffic]]\nkind = \"web\"\npairs = 0\n",
    );
    let keys: Vec<String> = problems(&text).into_iter().map(|p| p.key).collect();
    assert_eq!(keys, ["traffic[0].rate", "traffic[1].pairs"]);
}

/// `start` may be a distribution (start-time jitter) on flows, CBR and web
/// traffic; every draw must be able to fall before the end of the run.
#[test]
fn start_may_be_a_distribution() {
    let uniform = TimeDist::Uniform {
        min: Time::ZERO,
        max: Time::from_secs(1),
    };
    let jitter = "start = { dist = \"uniform\", min = \"0s\", max = \"1s\" }";
    let s = ok(&example_with("start = \"0s\"", jitter));
    assert_eq!(s.flows[0].start, uniform);
    let TrafficSpec::Cbr(c) = traffic(
        DUMBBELL,
        &format!("kind = \"cbr\"\nrate = \"1Mbps\"\n{jitter}"),
    ) else {
        panic!("expected cbr")
    };
    assert_eq!(c.start, uniform);
    let TrafficSpec::Web(w) = traffic(DUMBBELL, &format!("kind = \"web\"\n{jitter}")) else {
        panic!("expected web")
    };
    assert_eq!(w.start, uniform);
    only_problem(
        &example_with(
            "start = \"0s\"",
            "start = { dist = \"uniform\", min = \"0s\", max = \"60s\" }",
        ),
        "flows[0].start.max",
        "expected the latest start before the end of the run (duration = 60s), got 60s",
    );
    only_problem(
        &example_with(
            "start = \"0s\"",
            "start = { dist = \"exponential\", mean = \"2min\" }",
        ),
        "flows[0].start",
        "expected a start distribution whose mean is before the end of the run (duration = 60s), got exponential (mean 120s)",
    );
    only_problem(
        &example_with(
            "start = \"0s\"",
            "start = { dist = \"uniform\", min = \"1s\" }",
        ),
        "flows[0].start.max",
        "required key is missing; expected a time with a unit, like max = \"15s\"",
    );
    bad(
        "kind = \"cbr\"\nrate = \"1Mbps\"\nstart = { dist = \"uniform\", min = \"1s\", max = \"5s\" }\nstop = \"3s\"",
        "traffic[0].stop",
        "expected a time after the latest start (5s), got \"3s\"",
    );
}
