//! The brief's example parses to exactly the expected values, and defaults apply.

mod common;

use std::collections::BTreeMap;

use common::*;
use reorderlab_scenario::*;
use reorderlab_sim::{Time, TimeDist};

#[test]
fn the_example_parses_to_the_expected_values() {
    let s = ok(EXAMPLE);
    let expected = Scenario {
        name: "one-sack-flow".into(),
        duration: Time::from_secs(60),
        seed: 1,
        measure: Measure {
            from: Time::from_secs(10),
            to: Time::from_secs(60),
            series_interval: None,
            reorder_threshold: 1024,
        },
        topology: Topology::Dumbbell(Dumbbell {
            bottleneck: LinkSpec {
                rate: 15_000_000,
                delay: Time::from_millis(10),
                queue: 250,
                aqm: Aqm::DropTail,
            },
            access: LinkSpec {
                rate: 100_000_000,
                delay: Time::from_millis(1),
                queue: 1000,
                aqm: Aqm::DropTail,
            },
            pairs: None,
            access_delays: None,
        }),
        flows: vec![FlowSpec {
            variant: "sack".into(),
            count: 1,
            mss: 1460,
            bytes: Some(5_000_000),
            start: TimeDist::Constant(Time::ZERO),
            delayed_ack: false,
            timestamps: false,
            sack: None,
            dsack: None,
            min_rto: Time::from_secs(1),
            max_rto: Time::from_secs(60),
            initial_window: 2,
            rwnd: Some(1_000_000),
            dupthresh: 3,
            newreno_timer: NewRenoTimer::Impatient,
            rwnd_ooo: RwndOoo::Inside,
            pair: None,
            cc: None,
            params: BTreeMap::new(),
            src: None,
            dst: None,
            reverse: false,
        }],
        impairments: vec![ImpairmentSpec {
            link: "bottleneck".into(),
            direction: Direction::Forward,
            kind: ImpairmentKind::Loss { probability: 0.01 },
        }],
        traffic: vec![],
        source: EXAMPLE.parse().unwrap(),
    };
    assert_eq!(s, expected);
    assert_eq!(s.total_flows(), 1);
    assert_eq!(s.pairs(), 1);
    assert_eq!(s.flow_pairs(), vec![0]);
}

#[test]
fn every_optional_key_set() {
    let text = r#"
name = "all"
duration = "2min"
seed = 42
[measure]
from = "5s"
to = "100s"
series_interval = "100ms"
[topology]
kind = "dumbbell"
pairs = 2
access_delays = ["1ms", "25ms"]
[topology.bottleneck]
rate = "10Mbps"
queue = 60
aqm = "red"
red = { min_th = 10, max_th = 30.5, max_p = 0.2, weight = 0.001, gentle = false }
[topology.access]
rate = "1Gbps"
aqm = "red"
[[flows]]
variant = "tdfr"
count = 3
mss = 536
start = "1.5s"
delayed_ack = true
timestamps = true
sack = false
dsack = true
min_rto = "200ms"
max_rto = "120s"
initial_window = 10
dupthresh = 5
pair = 1
cc = "highspeed"
params = { alpha = 1, beta = 0.7 }
[[impairments]]
link = "access:1"
direction = "reverse"
kind = "loss"
probability = 1
"#;
    let s = ok(text);
    assert_eq!(s.seed, 42);
    assert_eq!(
        s.measure,
        Measure {
            from: Time::from_secs(5),
            to: Time::from_secs(100),
            series_interval: Some(Time::from_millis(100)),
            reorder_threshold: 1024,
        }
    );
    let Topology::Dumbbell(d) = &s.topology else {
        panic!("expected a dumbbell, got {:?}", s.topology)
    };
    assert_eq!(d.pairs, Some(2));
    assert_eq!(
        d.access_delays,
        Some(vec![Time::from_millis(1), Time::from_millis(25)])
    );
    assert_eq!(d.access_delay(1), Time::from_millis(25));
    assert_eq!(
        d.bottleneck.aqm,
        Aqm::Red(Red {
            min_th: 10.0,
            max_th: 30.5,
            max_p: 0.2,
            weight: 0.001,
            gentle: false
        })
    );
    // aqm = "red" without a table takes the documented defaults.
    assert_eq!(d.access.aqm, Aqm::Red(Red::default()));
    assert_eq!(
        Red::default(),
        Red {
            min_th: 5.0,
            max_th: 15.0,
            max_p: 0.1,
            weight: 0.002,
            gentle: true
        }
    );
    let f = &s.flows[0];
    assert_eq!(f.variant, "tdfr");
    assert_eq!(f.count, 3);
    assert_eq!(f.mss, 536);
    assert_eq!(f.bytes, None);
    assert_eq!(f.start, TimeDist::Constant(Time::from_millis(1500)));
    assert!(f.delayed_ack && f.timestamps);
    assert_eq!((f.sack, f.dsack), (Some(false), Some(true)));
    assert_eq!(f.min_rto, Time::from_millis(200));
    assert_eq!(f.max_rto, Time::from_secs(120));
    assert_eq!(f.initial_window, 10);
    assert_eq!(f.rwnd, None);
    assert_eq!(f.dupthresh, 5);
    assert_eq!(f.pair, Some(1));
    assert_eq!(f.cc.as_deref(), Some("highspeed"));
    assert_eq!(
        f.params,
        BTreeMap::from([("alpha".to_string(), 1.0), ("beta".to_string(), 0.7)])
    );
    assert_eq!(
        s.impairments[0],
        ImpairmentSpec {
            link: "access:1".into(),
            direction: Direction::Reverse,
            kind: ImpairmentKind::Loss { probability: 1.0 },
        }
    );
    assert_eq!(s.total_flows(), 3);
    assert_eq!(s.pairs(), 2);
    assert_eq!(s.flow_pairs(), vec![1, 1, 1]);
}

#[test]
fn defaults_of_a_minimal_file() {
    let s = ok(MINIMAL);
    assert_eq!(s.seed, 1);
    assert_eq!(s.measure.from, Time::ZERO);
    assert_eq!(s.measure.to, Time::from_secs(60));
    let Topology::Dumbbell(d) = &s.topology else {
        panic!("expected a dumbbell, got {:?}", s.topology)
    };
    assert_eq!(d.bottleneck.queue, 100);
    assert_eq!(d.bottleneck.delay, Time::ZERO);
    assert_eq!(d.access.queue, 1000);
    assert!(s.impairments.is_empty());
}

#[test]
fn flows_without_a_pair_are_spread_over_pairs() {
    let text = format!("{MINIMAL}count = 3\n[[flows]]\nvariant = \"sack\"\ncount = 2\n");
    let s = ok(&text);
    assert_eq!(s.total_flows(), 5);
    assert_eq!(s.pairs(), 5);
    assert_eq!(s.flow_pairs(), vec![0, 1, 2, 3, 4]);
    let s = ok_with(&text, &["topology.pairs=2"]);
    assert_eq!(s.pairs(), 2);
    assert_eq!(s.flow_pairs(), vec![0, 1, 0, 1, 0]);
}

#[test]
fn canonical_text_is_independent_of_layout() {
    let a = ok(MINIMAL);
    // Same document, different key order and table syntax.
    let b = ok("duration = \"60s\"\nname = \"m\"\n[[flows]]\nvariant = \"newreno\"\n[topology]\naccess.rate = \"100Mbps\"\nbottleneck.rate = \"15Mbps\"\nkind = \"dumbbell\"\n");
    assert_eq!(a.canonical_text(), b.canonical_text());
    assert_eq!(a.source, b.source);
    let c = ok_with(MINIMAL, &["seed=2"]);
    assert_ne!(a.canonical_text(), c.canonical_text());
    // Overrides are part of the source that gets hashed.
    assert_eq!(c.source["seed"].as_integer(), Some(2));
}

#[test]
fn load_reads_a_file_and_names_it_in_errors() {
    let dir = std::env::temp_dir().join(format!("reorderlab-scenario-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.toml");
    std::fs::write(&good, EXAMPLE).unwrap();
    let s = load(&good, &["seed=9".to_string()], VARIANTS).unwrap();
    assert_eq!(s.seed, 9);

    let bad = dir.join("bad.toml");
    std::fs::write(&bad, example_with("mss = 1460", "mss = 0")).unwrap();
    let e = load(&bad, &[], VARIANTS).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: flows[0].mss: expected a positive integer number of bytes, got 0",
            bad.display()
        )
    );

    let missing = dir.join("missing.toml");
    let e = load(&missing, &[], VARIANTS).unwrap_err();
    assert!(matches!(e, ScenarioError::Io { .. }));
    assert!(e.to_string().starts_with(&format!(
        "{}: cannot read the scenario file: ",
        missing.display()
    )));
    assert!(e.problems().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
