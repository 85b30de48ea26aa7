//! Overrides: nested keys, array elements, bad indexes, typed values.

mod common;

use common::*;
use reorderlab_scenario::{apply_override, Aqm, ImpairmentKind, Problem, Topology};
use reorderlab_sim::Time;
use toml::{Table, Value};

#[test]
fn set_a_nested_key() {
    let s = ok_with(EXAMPLE, &["topology.bottleneck.rate=10Mbps", "seed=7"]);
    let Topology::Dumbbell(d) = &s.topology else {
        panic!("expected a dumbbell, got {:?}", s.topology)
    };
    assert_eq!(d.bottleneck.rate, 10_000_000);
    assert_eq!(s.seed, 7);
}

#[test]
fn missing_intermediate_tables_are_created() {
    let s = ok_with(
        EXAMPLE,
        &[
            "topology.bottleneck.aqm=red",
            "topology.bottleneck.red.min_th=10",
            "measure.series_interval=50ms",
        ],
    );
    let Topology::Dumbbell(d) = &s.topology else {
        panic!("expected a dumbbell, got {:?}", s.topology)
    };
    let Aqm::Red(red) = &d.bottleneck.aqm else {
        panic!("expected RED, got {:?}", d.bottleneck.aqm)
    };
    assert_eq!((red.min_th, red.max_th), (10.0, 30.0));
    assert_eq!(s.measure.series_interval, Some(Time::from_millis(50)));
}

#[test]
fn set_an_array_element_by_index() {
    let s = ok_with(
        EXAMPLE,
        &["flows.0.variant=newreno", "impairments.0.probability=0.02"],
    );
    assert_eq!(s.flows[0].variant, "newreno");
    assert_eq!(
        s.impairments[0].kind,
        ImpairmentKind::Loss { probability: 0.02 }
    );
    // A whole element can be replaced by an inline table.
    let s = ok_with(EXAMPLE, &["flows.0={ variant = \"tdfr\", mss = 536 }"]);
    assert_eq!((s.flows[0].variant.as_str(), s.flows[0].mss), ("tdfr", 536));
    assert_eq!(s.flows[0].bytes, None);
}

#[test]
fn index_past_the_end_is_a_problem_naming_the_key() {
    let mut t: Table = EXAMPLE.parse().unwrap();
    let before = t.clone();
    assert_eq!(
        apply_override(&mut t, "flows.1.variant=newreno"),
        Err(Problem {
            key: "flows.1.variant".into(),
            message: "in override \"flows.1.variant=newreno\": index 1 is past the end of 'flows', which has 1 element".into(),
        })
    );
    assert_eq!(t, before);
    // Through `parse`, the override problem is reported next to validation problems.
    let ps = problems_with(EXAMPLE, &["flows.3.mss=1", "flows.0.mss=0"]);
    assert_eq!(
        ps,
        vec![
            Problem {
                key: "flows.3.mss".into(),
                message: "in override \"flows.3.mss=1\": index 3 is past the end of 'flows', which has 1 element".into(),
            },
            Problem {
                key: "flows[0].mss".into(),
                message: "expected a positive integer number of bytes, got 0".into(),
            },
        ]
    );
}

#[test]
fn value_is_typed_as_integer_or_string() {
    let mut t: Table = EXAMPLE.parse().unwrap();
    apply_override(&mut t, "flows.0.mss=1000").unwrap();
    assert_eq!(t["flows"][0]["mss"], Value::Integer(1000));
    apply_override(&mut t, "flows.0.mss=\"1000\"").unwrap();
    assert_eq!(t["flows"][0]["mss"], Value::String("1000".into()));
    apply_override(&mut t, "flows.0.variant=newreno").unwrap();
    assert_eq!(t["flows"][0]["variant"], Value::String("newreno".into()));

    // The typed integer validates; the quoted string does not.
    ok_with(EXAMPLE, &["flows.0.mss=1000"]);
    assert_eq!(
        problems_with(EXAMPLE, &["flows.0.mss=\"1000\""]),
        vec![Problem {
            key: "flows[0].mss".into(),
            message: "expected a positive integer number of bytes, got \"1000\"".into(),
        }]
    );
    // A bare time stays a string and so parses as a time.
    let s = ok_with(EXAMPLE, &["duration=90s"]);
    assert_eq!(s.duration, Time::from_secs(90));
}

#[test]
fn later_overrides_win() {
    let s = ok_with(EXAMPLE, &["seed=2", "seed=3"]);
    assert_eq!(s.seed, 3);
}

#[test]
fn overriding_an_unknown_key_is_caught_by_validation() {
    let ps = problems_with(EXAMPLE, &["topology.bottleneck.rat=10Mbps"]);
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].key, "topology.bottleneck.rat");
    assert!(ps[0].message.contains("did you mean 'rate'?"));
}
