//! Each bad input yields a problem with exactly the expected key and message.

mod common;

use common::*;
use reorderlab_scenario::{parse, Problem};

fn p(key: &str, message: &str) -> Problem {
    Problem {
        key: key.into(),
        message: message.into(),
    }
}

#[test]
fn malformed_toml_names_line_and_column() {
    let text = example_with("duration = \"60s\"", "duration = \"60s");
    only_problem(
        &text,
        "",
        "invalid TOML at line 2, column 16: invalid basic string, expected `\"`",
    );
    let text = example_with("[topology.access]", "[topology.access");
    only_problem(
        &text,
        "",
        "invalid TOML at line 13, column 17: unclosed table, expected `]`",
    );
    // Columns count characters, not bytes.
    only_problem(
        "name = \"é\" x\n",
        "",
        "invalid TOML at line 1, column 12: unexpected key or value, expected newline, `#`",
    );
}

#[test]
fn error_display_is_file_key_message_per_line() {
    let e = parse(
        &example_with("mss = 1460", "mss = 0"),
        "examples/x.toml",
        &[],
        VARIANTS,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "examples/x.toml: flows[0].mss: expected a positive integer number of bytes, got 0"
    );
    let e = parse("x = ", "examples/x.toml", &[], VARIANTS).unwrap_err();
    assert_eq!(
        e.to_string(),
        "examples/x.toml: invalid TOML at line 1, column 5: string values must be quoted, expected literal string"
    );
}

#[test]
fn unknown_top_level_key() {
    only_problem(
        &format!("colour = 3\n{EXAMPLE}"),
        "colour",
        "unknown key 'colour'; expected one of: name, duration, seed, measure, topology, flows, impairments, traffic",
    );
    only_problem(
        &format!("sed = 3\n{EXAMPLE}"),
        "sed",
        "unknown key 'sed' (did you mean 'seed'?); expected one of: name, duration, seed, measure, topology, flows, impairments, traffic",
    );
}

#[test]
fn unknown_key_in_a_flow_with_a_suggestion() {
    only_problem(
        &example_with("mss = 1460", "mss = 1460\ndelayed_acks = true"),
        "flows[0].delayed_acks",
        "unknown key 'delayed_acks' (did you mean 'delayed_ack'?); expected one of: variant, count, mss, bytes, start, delayed_ack, timestamps, sack, dsack, min_rto, max_rto, initial_window, rwnd, dupthresh, newreno_timer, rwnd_ooo, pair, cc, params, src, dst, reverse",
    );
}

#[test]
fn unknown_key_in_a_link_and_odd_key_names_are_quoted() {
    only_problem(
        &example_with("queue = 250", "queue = 250\nrat = 1"),
        "topology.bottleneck.rat",
        "unknown key 'rat' (did you mean 'rate'?); expected one of: rate, delay, queue, aqm, red",
    );
    only_problem(
        &example_with("queue = 250", "queue = 250\n\"a b\\n\" = 1"),
        "topology.bottleneck.\"a b\\n\"",
        "unknown key 'a b\\n'; expected one of: rate, delay, queue, aqm, red",
    );
}

#[test]
fn rate_without_a_unit() {
    only_problem(
        &example_with("rate = \"15Mbps\"", "rate = \"fast\""),
        "topology.bottleneck.rate",
        "expected a rate with a unit, like \"15Mbps\", got \"fast\"",
    );
    only_problem(
        &example_with("rate = \"15Mbps\"", "rate = 15"),
        "topology.bottleneck.rate",
        "expected a rate with a unit, like \"15Mbps\", got 15",
    );
}

#[test]
fn negative_delay() {
    only_problem(
        &example_with("delay = \"10ms\"", "delay = \"-5ms\""),
        "topology.bottleneck.delay",
        "expected a non-negative time, got \"-5ms\"",
    );
}

#[test]
fn bare_number_time() {
    only_problem(
        &example_with("delay = \"10ms\"", "delay = 10"),
        "topology.bottleneck.delay",
        "expected a time with a unit, like \"20ms\", got 10",
    );
    // Zero needs no unit.
    ok(&example_with("delay = \"10ms\"", "delay = 0"));
    ok(&example_with("delay = \"10ms\"", "delay = \"0\""));
}

#[test]
fn zero_mss() {
    only_problem(
        &example_with("mss = 1460", "mss = 0"),
        "flows[0].mss",
        "expected a positive integer number of bytes, got 0",
    );
    only_problem(
        &example_with("mss = 1460", "mss = 65496"),
        "flows[0].mss",
        "expected at most 65495 bytes (65535 minus 40 bytes of IPv4 and TCP headers), got 65496",
    );
    only_problem(
        &example_with("mss = 1460", "mss = \"1460\""),
        "flows[0].mss",
        "expected a positive integer number of bytes, got \"1460\"",
    );
}

#[test]
fn probability_above_one() {
    only_problem(
        &example_with("probability = 0.01", "probability = 1.5"),
        "impairments[0].probability",
        "expected a probability between 0 and 1, got 1.5",
    );
    only_problem(
        &example_with("probability = 0.01", "probability = nan"),
        "impairments[0].probability",
        "expected a probability between 0 and 1, got nan",
    );
}

#[test]
fn unknown_variant_lists_the_known_ones() {
    only_problem(
        &example_with("variant = \"sack\"", "variant = \"vegas\""),
        "flows[0].variant",
        "unknown TCP variant \"vegas\"; expected one of: newreno, sack, tdfr",
    );
    only_problem(
        &example_with("variant = \"sack\"", "variant = \"newrno\""),
        "flows[0].variant",
        "unknown TCP variant \"newrno\" (did you mean \"newreno\"?); expected one of: newreno, sack, tdfr",
    );
}

#[test]
fn missing_duration() {
    only_problem(
        &example_with("duration = \"60s\"\n", ""),
        "duration",
        "required key is missing; expected a time with a unit, like duration = \"60s\"",
    );
}

#[test]
fn measurement_window_must_fit_the_run() {
    only_problem(
        &example_with("from = \"10s\"", "from = \"60s\""),
        "measure.from",
        "expected a time before the end of the run (duration = 60s), got \"60s\"",
    );
    only_problem(
        &example_with("from = \"10s\"", "from = \"10s\"\nto = \"61s\""),
        "measure.to",
        "expected a time no later than the end of the run (duration = 60s), got \"61s\"",
    );
    only_problem(
        &example_with("from = \"10s\"", "from = \"10s\"\nto = \"10s\""),
        "measure.to",
        "expected a time after measure.from (10s), got \"10s\"",
    );
}

#[test]
fn several_problems_are_all_reported_in_document_order() {
    let text = EXAMPLE
        .replace("duration = \"60s\"\n", "")
        .replace("rate = \"15Mbps\"", "rate = \"fast\"")
        .replace("mss = 1460", "mss = 0\nmsss = 1")
        .replace("probability = 0.01", "probability = 1.5");
    assert_eq!(
        problems(&text),
        vec![
            p(
                "duration",
                "required key is missing; expected a time with a unit, like duration = \"60s\""
            ),
            p(
                "topology.bottleneck.rate",
                "expected a rate with a unit, like \"15Mbps\", got \"fast\""
            ),
            p(
                "flows[0].mss",
                "expected a positive integer number of bytes, got 0"
            ),
            p(
                "flows[0].msss",
                "unknown key 'msss' (did you mean 'mss'?); expected one of: variant, count, mss, bytes, start, delayed_ack, timestamps, sack, dsack, min_rto, max_rto, initial_window, rwnd, dupthresh, newreno_timer, rwnd_ooo, pair, cc, params, src, dst, reverse"
            ),
            p(
                "impairments[0].probability",
                "expected a probability between 0 and 1, got 1.5"
            ),
        ]
    );
}

#[test]
fn missing_everything() {
    assert_eq!(
        problems(""),
        vec![
            p(
                "name",
                "required key is missing; expected a non-empty string, like name = \"one-sack-flow\""
            ),
            p(
                "duration",
                "required key is missing; expected a time with a unit, like duration = \"60s\""
            ),
            p(
                "topology",
                "required table is missing; expected a [topology] table with a kind, one of: dumbbell, parking-lot, multipath, chain, wireless-infrastructure, wireless-multihop, multi-bottleneck, custom"
            ),
            p(
                "flows",
                "required key is missing; expected at least one [[flows]] table, like [[flows]] variant = \"newreno\""
            ),
        ]
    );
}

#[test]
fn more_constraints() {
    let cases: &[(&str, &str, &str, &str)] = &[
        ("name = \"one-sack-flow\"", "name = \"\"", "name", "expected a non-empty string, got \"\""),
        ("duration = \"60s\"", "duration = \"0s\"", "duration", "expected a positive time, got \"0s\""),
        ("seed = 1", "seed = -1", "seed", "expected a non-negative integer, got -1"),
        ("queue = 250", "queue = 0", "topology.bottleneck.queue", "expected a positive integer number of packets, got 0"),
        ("aqm = \"droptail\"", "aqm = \"codel\"", "topology.bottleneck.aqm", "unknown AQM \"codel\"; expected one of: droptail, red"),
        ("kind = \"dumbbell\"", "kind = \"parking_lot\"", "topology.kind", "unknown topology kind \"parking_lot\" (did you mean \"parking-lot\"?); expected one of: dumbbell, parking-lot, multipath, chain, wireless-infrastructure, wireless-multihop, multi-bottleneck, custom"),
        ("count = 1", "count = 0", "flows[0].count", "expected a positive integer, got 0"),
        ("bytes = \"5MB\"", "bytes = 0", "flows[0].bytes", "expected a positive size in bytes, got 0"),
        ("bytes = \"5MB\"", "bytes = -3", "flows[0].bytes", "expected a non-negative size, got -3"),
        ("bytes = \"5MB\"", "bytes = 1.5e6", "flows[0].bytes", "expected a size in bytes, like 1500 or \"64KiB\", got 1500000.0"),
        ("rwnd = \"1MB\"", "rwnd = \"1.5B\"", "flows[0].rwnd", "expected a whole number of bytes, got \"1.5B\""),
        ("start = \"0s\"", "start = \"60s\"", "flows[0].start", "expected a start time before the end of the run (duration = 60s), got \"60s\""),
        ("delayed_ack = false", "delayed_ack = \"no\"", "flows[0].delayed_ack", "expected true or false, got \"no\""),
        ("min_rto = \"1s\"", "min_rto = 0", "flows[0].min_rto", "expected a positive time, got 0"),
        ("min_rto = \"1s\"", "min_rto = \"2min\"", "flows[0].max_rto", "expected a time no less than min_rto (120s), got 60s (the default)"),
        ("count = 1", "count = 1\npair = 1", "flows[0].pair", "expected a pair index below the number of pairs (1), got 1"),
        ("count = 1", "count = 1\nparams = { beta = \"x\" }", "flows[0].params.beta", "expected a finite number, got \"x\""),
        ("count = 1", "count = 1\nparams = 0.5", "flows[0].params", "expected a table of numbers, like params = { beta = 0.7 }, got 0.5"),
        ("link = \"bottleneck\"", "link = \"core\"", "impairments[0].link", "unknown link \"core\"; expected one of: bottleneck, access:0, access-dst:0, access"),
        ("link = \"bottleneck\"", "link = \"access:1\"", "impairments[0].link", "unknown link \"access:1\" (did you mean \"access:0\"?); expected one of: bottleneck, access:0, access-dst:0, access"),
        ("direction = \"forward\"", "direction = \"revrse\"", "impairments[0].direction", "unknown direction \"revrse\" (did you mean \"reverse\"?); expected one of: forward, reverse"),
        ("kind = \"loss\"", "kind = \"reorder\"", "impairments[0].kind", "unknown impairment kind \"reorder\"; expected one of: loss, delay, swap, spikes, rate-change, burst-loss, arq"),
        ("probability = 0.01\n", "", "impairments[0].probability", "required key is missing; expected a probability between 0 and 1, like probability = 0.01"),
        ("aqm = \"droptail\"", "aqm = \"droptail\"\nred = { min_th = 5 }", "topology.bottleneck.red", "RED parameters given but topology.bottleneck.aqm is \"droptail\"; set aqm = \"red\" or remove this table"),
    ];
    for (from, to, key, message) in cases {
        only_problem(&example_with(from, to), key, message);
    }
}

#[test]
fn red_parameters_are_checked() {
    let red = |extra: &str| {
        example_with(
            "aqm = \"droptail\"",
            &format!("aqm = \"red\"\nred = {{ {extra} }}"),
        )
    };
    ok(&red(
        "min_th = 5, max_th = 15, max_p = 0.1, weight = 0.002, gentle = true",
    ));
    only_problem(
        &red("min_th = 0"),
        "topology.bottleneck.red.min_th",
        "expected a positive number of packets, got 0",
    );
    only_problem(
        &red("min_th = 20, max_th = 10"),
        "topology.bottleneck.red.max_th",
        "expected more packets than min_th (20.0), got 10",
    );
    only_problem(
        &red("max_th = 251"),
        "topology.bottleneck.red.max_th",
        "expected at most the queue limit (250 packets), got 251",
    );
    only_problem(
        &red("min_th = 100"),
        "topology.bottleneck.red.max_th",
        "expected at most the queue limit (250 packets), got 300.0 (the default, 3 * min_th)",
    );
    only_problem(
        &red("max_p = 0"),
        "topology.bottleneck.red.max_p",
        "expected a number in (0, 1], got 0",
    );
    only_problem(
        &red("weight = 1.5"),
        "topology.bottleneck.red.weight",
        "expected a number in (0, 1], got 1.5",
    );
    only_problem(
        &red("gentle = 1"),
        "topology.bottleneck.red.gentle",
        "expected true or false, got 1",
    );
    only_problem(&red("minth = 5"), "topology.bottleneck.red.minth", "unknown key 'minth' (did you mean 'min_th'?); expected one of: min_th, max_th, max_p, weight, gentle");
    // Defaults against a small queue: max_th = 15 does not fit in 10 packets.
    only_problem(
        &example_with(
            "queue = 250\naqm = \"droptail\"",
            "queue = 10\naqm = \"red\"",
        ),
        "topology.bottleneck.red.max_th",
        "expected at most the queue limit (10 packets), got 15.0 (the default, 3 * min_th)",
    );
}

#[test]
fn access_delays_and_pairs() {
    let with = |topo: &str| {
        example_with(
            "kind = \"dumbbell\"",
            &format!("kind = \"dumbbell\"\n{topo}"),
        )
    };
    ok(&with("access_delays = [\"1ms\"]"));
    ok(&with("pairs = 3\naccess_delays = [\"1ms\", \"2ms\", 0]"));
    only_problem(
        &with("pairs = 2\naccess_delays = [\"1ms\"]"),
        "topology.access_delays",
        "expected one delay per pair (2 pairs), got 1 delay",
    );
    only_problem(&with("access_delays = [\"1ms\", \"2ms\"]"), "topology.access_delays", "expected one delay per pair (1 pair: one per flow, as topology.pairs is not set), got 2 delays");
    only_problem(
        &with("pairs = 2\naccess_delays = [\"1ms\", 3]"),
        "topology.access_delays[1]",
        "expected a time with a unit, like \"20ms\", got 3",
    );
    only_problem(
        &with("access_delays = \"1ms\""),
        "topology.access_delays",
        "expected an array of times, like [\"1ms\", \"20ms\"], got \"1ms\"",
    );
    only_problem(
        &with("pairs = 0"),
        "topology.pairs",
        "expected a positive integer number of sender/receiver pairs, got 0",
    );
}

#[test]
fn wrong_shapes() {
    only_problem(
        &format!("measure = 3\n{MINIMAL}"),
        "measure",
        "expected a table, got 3",
    );
    only_problem(
        &format!(
            "flows = 1\n{}",
            MINIMAL.replace("[[flows]]\nvariant = \"newreno\"\n", "")
        ),
        "flows",
        "expected an array of tables ([[flows]]), got 1",
    );
    only_problem(
        &format!(
            "flows = []\n{}",
            MINIMAL.replace("[[flows]]\nvariant = \"newreno\"\n", "")
        ),
        "flows",
        "expected at least one [[flows]] table, got an empty array",
    );
    only_problem(
        &format!(
            "flows = [1]\n{}",
            MINIMAL.replace("[[flows]]\nvariant = \"newreno\"\n", "")
        ),
        "flows[0]",
        "expected a table, got 1",
    );
    only_problem(
        &format!("impairments = 2\n{MINIMAL}"),
        "impairments",
        "expected an array of tables ([[impairments]]), got 2",
    );
    only_problem(&MINIMAL.replace("bottleneck = { rate = \"15Mbps\" }\n", ""), "topology.bottleneck", "required table is missing; expected a table with at least rate, like { rate = \"100Mbps\", delay = \"1ms\" }");
    only_problem(
        &MINIMAL.replace("kind = \"dumbbell\"\n", ""),
        "topology.kind",
        "required key is missing; expected one of: dumbbell, parking-lot, multipath, chain, wireless-infrastructure, wireless-multihop, multi-bottleneck, custom",
    );
    only_problem(
        &MINIMAL.replace("variant = \"newreno\"\n", "count = 2\n"),
        "flows[0].variant",
        "required key is missing; expected one of: newreno, sack, tdfr",
    );
}

#[test]
fn every_bad_flow_is_reported_not_just_the_first() {
    let text = format!(
        "{MINIMAL}mss = 0\n[[flows]]\nvariant = \"x\"\n[[flows]]\nvariant = \"sack\"\ncount = -1\n"
    );
    let keys: Vec<String> = problems(&text).into_iter().map(|p| p.key).collect();
    assert_eq!(keys, ["flows[0].mss", "flows[1].variant", "flows[2].count"]);
}

#[test]
fn an_empty_variant_list_says_so() {
    let e = parse(EXAMPLE, "t.toml", &[], &[]).unwrap_err();
    assert_eq!(
        e.problems(),
        &[p(
            "flows[0].variant",
            "unknown TCP variant \"sack\"; expected one of: (none)"
        )]
    );
}

#[test]
fn a_bad_link_does_not_hide_cross_checks() {
    let text = example_with("rate = \"15Mbps\"", "rate = \"fast\"")
        .replace("link = \"bottleneck\"", "link = \"access:4\"")
        .replace("count = 1", "count = 1\npair = 2");
    assert_eq!(
        problems(&text),
        vec![
            p("topology.bottleneck.rate", "expected a rate with a unit, like \"15Mbps\", got \"fast\""),
            p("flows[0].pair", "expected a pair index below the number of pairs (1), got 2"),
            p("impairments[0].link", "unknown link \"access:4\" (did you mean \"access:0\"?); expected one of: bottleneck, access:0, access-dst:0, access"),
        ]
    );
}
