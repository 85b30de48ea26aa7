//! Flow endpoints: `src`, `dst` and `reverse`, `Scenario::flow_endpoints`
//! on every kind, and `measure.reorder_threshold`.

mod common;

use common::*;

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn dumbbell_reverse_flows_run_from_d_to_s() {
    // Two flows each way over the same two pairs.
    let s = ok(&on(
        &format!("{DUMBBELL}\npairs = 2"),
        "count = 2\n[[flows]]\nvariant = \"newreno\"\ncount = 2\nreverse = true\n",
    ));
    assert_eq!(s.flow_pairs(), vec![0, 1, 0, 1]);
    assert_eq!(
        s.flow_endpoints(),
        pairs(&[("S0", "D0"), ("S1", "D1"), ("D0", "S0"), ("D1", "S1")])
    );
    assert!(!s.flows[0].reverse && s.flows[1].reverse);
    assert_eq!(
        (s.flows[1].src.as_ref(), s.flows[1].dst.as_ref()),
        (None, None)
    );
    // With an explicit pair.
    let s = ok(&on(
        &format!("{DUMBBELL}\npairs = 3"),
        "pair = 2\nreverse = true\n",
    ));
    assert_eq!(s.flow_endpoints(), pairs(&[("D2", "S2")]));
}

#[test]
fn other_kinds_use_default_endpoints_or_src_and_dst() {
    let s = ok(&on(
        "kind = \"parking-lot\"",
        "count = 2\n[[flows]]\nvariant = \"sack\"\nsrc = \"CS1\"\ndst = \"CD3\"\n[[flows]]\nvariant = \"sack\"\nreverse = true\n",
    ));
    assert_eq!(
        s.flow_endpoints(),
        pairs(&[("S", "D"), ("S", "D"), ("CS1", "CD3"), ("D", "S")])
    );
    assert_eq!(s.flows[1].src.as_deref(), Some("CS1"));
    assert_eq!(s.flows[1].dst.as_deref(), Some("CD3"));

    let s = ok(&on("kind = \"multi-bottleneck\"", "[[flows]]\nvariant = \"sack\"\nsrc = \"H3\"\ndst = \"H2\"\n[[flows]]\nvariant = \"sack\"\nreverse = true\n"));
    assert_eq!(
        s.flow_endpoints(),
        pairs(&[("H1", "H5"), ("H3", "H2"), ("H5", "H1")])
    );
    for (topo, ends) in [
        ("kind = \"multipath\"", ("S", "D")),
        (
            "kind = \"chain\"\nbottleneck = { rate = \"1Mbps\" }",
            ("S1", "S2"),
        ),
        ("kind = \"wireless-infrastructure\"", ("S", "D")),
        ("kind = \"wireless-multihop\"", ("S", "D")),
    ] {
        let s = ok(&on(topo, "reverse = true"));
        assert_eq!(s.flow_endpoints(), pairs(&[(ends.1, ends.0)]), "{topo}");
    }
}

#[test]
fn custom_default_endpoints_are_used_round_robin() {
    let topo = r#"kind = "custom"
nodes = ["A", "B", "C"]
endpoints = [["A", "C"], ["B", "C"]]
links = [
  { name = "ab", a = "A", b = "B", rate = "1Mbps" },
  { name = "bc", a = "B", b = "C", rate = "1Mbps" },
]"#;
    let s = ok(&on(
        topo,
        "count = 3\n[[flows]]\nvariant = \"sack\"\nsrc = \"C\"\ndst = \"A\"\n[[flows]]\nvariant = \"sack\"\nreverse = true\n",
    ));
    assert_eq!(s.pairs(), 2);
    assert_eq!(
        s.flow_endpoints(),
        pairs(&[("A", "C"), ("B", "C"), ("A", "C"), ("C", "A"), ("C", "A")])
    );
    // Without `endpoints`: first node -> last node.
    let s = ok(&on(
        &topo.replace("endpoints = [[\"A\", \"C\"], [\"B\", \"C\"]]\n", ""),
        "count = 2",
    ));
    assert_eq!(s.flow_endpoints(), pairs(&[("A", "C"), ("A", "C")]));
}

#[test]
fn endpoint_constraints() {
    let lot = "kind = \"parking-lot\"";
    let cases: &[(&str, &str, &str, &str)] = &[
        (DUMBBELL, "src = \"S0\"\ndst = \"D0\"", "flows[0].src", "the dumbbell places flows by pair; use pair (and reverse) instead of src and dst"),
        (DUMBBELL, "dst = \"D0\"", "flows[0].dst", "the dumbbell places flows by pair; use pair (and reverse) instead of src and dst"),
        (lot, "pair = 0", "flows[0].pair", "pair applies only to the dumbbell; on a parking-lot topology, choose the nodes with src and dst"),
        (lot, "src = \"S\"", "flows[0].dst", "required key is missing; src and dst are given together, expected a node name, like dst = \"D\""),
        (lot, "dst = \"D\"", "flows[0].src", "required key is missing; src and dst are given together, expected a node name, like src = \"S\""),
        (lot, "src = \"CS4\"\ndst = \"D\"", "flows[0].src", "unknown node \"CS4\" (did you mean \"CS3\"?); expected one of: S, D, R1, R2, R3, R4, CS1, CS2, CS3, CD1, CD2, CD3"),
        (lot, "src = \"S\"\ndst = \"S\"", "flows[0].dst", "expected a node other than src (\"S\"), got \"S\""),
        (lot, "src = \"S\"\ndst = \"D\"\nreverse = true", "flows[0].reverse", "reverse swaps the default endpoints; with src and dst given, write them in the direction the data flows"),
        (lot, "src = \"\"\ndst = \"D\"", "flows[0].src", "expected a non-empty string, got \"\""),
        (lot, "reverse = 1", "flows[0].reverse", "expected true or false, got 1"),
        ("kind = \"multipath\"\nhops = [3, 2]", "src = \"S\"\ndst = \"P1_2\"", "flows[0].dst", "unknown node \"P1_2\" (did you mean \"P1_1\"?); expected one of: S, D, P0_1, P0_2, P1_1"),
        ("kind = \"wireless-multihop\"\nhops = 10", "src = \"W10\"\ndst = \"D\"", "flows[0].src", "unknown node \"W10\" (did you mean \"W1\"?); expected one of: S, W1, ..., W9, D"),
    ];
    for (topo, flow, key, message) in cases {
        only_problem(&on(topo, flow), key, message);
    }
    // Explicit endpoints are fine on every kind but the dumbbell.
    ok(&on(
        "kind = \"multipath\"\nhops = [3, 2]",
        "src = \"P0_2\"\ndst = \"P1_1\"",
    ));
    ok(&on(
        "kind = \"wireless-infrastructure\"",
        "src = \"AP\"\ndst = \"R1\"",
    ));
}

#[test]
fn reorder_threshold() {
    assert_eq!(ok(MINIMAL).measure.reorder_threshold, 1024);
    let s = ok(&format!("{MINIMAL}[measure]\nreorder_threshold = 1\n"));
    assert_eq!(s.measure.reorder_threshold, 1);
    only_problem(
        &format!("{MINIMAL}[measure]\nreorder_threshold = 0\n"),
        "measure.reorder_threshold",
        "expected a positive integer number of packets, got 0",
    );
    only_problem(
        &format!("{MINIMAL}[measure]\nreorder_treshold = 2\n"),
        "measure.reorder_treshold",
        "unknown key 'reorder_treshold' (did you mean 'reorder_threshold'?); expected one of: from, to, series_interval, reorder_threshold",
    );
}
