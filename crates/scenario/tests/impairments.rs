//! Impairment kinds, their defaults and constraints; distributions; link
//! names checked against the topology (links and groups).

mod common;

use common::*;
use reorderlab_scenario::*;
use reorderlab_sim::{Time, TimeDist};

fn ms(n: u64) -> Time {
    Time::from_millis(n)
}

/// A dumbbell scenario with one impairment whose table body is `body`.
fn with(body: &str) -> String {
    on(
        DUMBBELL,
        &format!("[[impairments]]\nlink = \"bottleneck\"\n{body}\n"),
    )
}

fn kind(body: &str) -> ImpairmentKind {
    let s = ok(&with(body));
    assert_eq!(s.impairments.len(), 1);
    s.impairments[0].kind.clone()
}

#[test]
fn delay() {
    assert_eq!(
        kind("kind = \"delay\"\nfraction = 0.02\ndelay = { dist = \"normal\", mean = \"100ms\", sd = \"33ms\" }"),
        ImpairmentKind::Delay {
            fraction: 0.02,
            delay: TimeDist::Normal {
                mean: ms(100),
                sd: ms(33)
            },
        }
    );
    only_problem(
        &with("kind = \"delay\"\nfraction = 1.5\ndelay = \"50ms\""),
        "impairments[0].fraction",
        "expected a fraction between 0 and 1, got 1.5",
    );
    only_problem(
        &with("kind = \"delay\"\ndelay = \"50ms\""),
        "impairments[0].fraction",
        "required key is missing; expected a fraction between 0 and 1, like fraction = 0.01",
    );
    only_problem(
        &with("kind = \"delay\"\nfraction = 0.1"),
        "impairments[0].delay",
        "required key is missing; expected a time like \"50ms\" or a distribution like { dist = \"normal\", mean = \"25ms\", sd = \"8ms\" }, like delay = { dist = \"normal\", mean = \"25ms\", sd = \"8ms\" }",
    );
    only_problem(
        &with("kind = \"delay\"\nfraction = 0.1\ndelay = \"50ms\"\nprobability = 0.1"),
        "impairments[0].probability",
        "unknown key 'probability'; expected one of: link, direction, kind, fraction, delay",
    );
}

#[test]
fn every_form_of_distribution() {
    let d = |text: &str| match kind(&format!("kind = \"delay\"\nfraction = 1\ndelay = {text}")) {
        ImpairmentKind::Delay { delay, .. } => delay,
        other => panic!("expected delay, got {other:?}"),
    };
    assert_eq!(d("\"50ms\""), TimeDist::Constant(ms(50)));
    assert_eq!(d("0"), TimeDist::Constant(Time::ZERO));
    assert_eq!(
        d("{ dist = \"constant\", value = \"50ms\" }"),
        TimeDist::Constant(ms(50))
    );
    assert_eq!(
        d("{ dist = \"normal\", mean = \"25ms\", sd = \"8ms\" }"),
        TimeDist::Normal {
            mean: ms(25),
            sd: ms(8)
        }
    );
    assert_eq!(
        d("{ dist = \"uniform\", min = \"3s\", max = \"15s\" }"),
        TimeDist::Uniform {
            min: Time::from_secs(3),
            max: Time::from_secs(15)
        }
    );
    // min = max is allowed.
    assert_eq!(
        d("{ dist = \"uniform\", min = \"3s\", max = \"3s\" }"),
        TimeDist::Uniform {
            min: Time::from_secs(3),
            max: Time::from_secs(3)
        }
    );
    assert_eq!(
        d("{ dist = \"exponential\", mean = \"10ms\" }"),
        TimeDist::Exponential { mean: ms(10) }
    );
}

#[test]
fn bad_distributions() {
    let bad = |text: &str, key: &str, message: &str| {
        only_problem(
            &with(&format!("kind = \"delay\"\nfraction = 1\ndelay = {text}")),
            key,
            message,
        );
    };
    bad(
        "{ dist = \"gaussian\", mean = \"1s\" }",
        "impairments[0].delay.dist",
        "unknown distribution \"gaussian\"; expected one of: normal, uniform, exponential, constant",
    );
    bad(
        "{ dist = \"unifrm\", min = \"1s\" }",
        "impairments[0].delay.dist",
        "unknown distribution \"unifrm\" (did you mean \"uniform\"?); expected one of: normal, uniform, exponential, constant",
    );
    bad(
        "{ mean = \"1s\" }",
        "impairments[0].delay.dist",
        "required key is missing; expected one of: normal, uniform, exponential, constant",
    );
    bad(
        "{ dist = 3 }",
        "impairments[0].delay.dist",
        "expected one of: normal, uniform, exponential, constant, got 3",
    );
    bad(
        "{ dist = \"normal\", mean = \"25ms\" }",
        "impairments[0].delay.sd",
        "required key is missing; expected a time with a unit, like sd = \"8ms\"",
    );
    bad(
        "{ dist = \"uniform\", min = \"15s\", max = \"3s\" }",
        "impairments[0].delay.max",
        "expected a time no less than min (15s), got \"3s\"",
    );
    bad(
        "{ dist = \"exponential\", mean = \"10ms\", sd = \"1ms\" }",
        "impairments[0].delay.sd",
        "unknown key 'sd'; expected one of: dist, mean",
    );
    bad(
        "{ dist = \"constant\" }",
        "impairments[0].delay.value",
        "required key is missing; expected a time with a unit, like value = \"50ms\"",
    );
    bad(
        "{ dist = \"normal\", mean = \"-1ms\", sd = \"1ms\" }",
        "impairments[0].delay.mean",
        "expected a non-negative time, got \"-1ms\"",
    );
    bad(
        "5",
        "impairments[0].delay",
        "expected a time like \"50ms\" or a distribution like { dist = \"normal\", mean = \"25ms\", sd = \"8ms\" }, got 5",
    );
    bad(
        "\"normal\"",
        "impairments[0].delay",
        "expected a time like \"50ms\" or a distribution like { dist = \"normal\", mean = \"25ms\", sd = \"8ms\" }, got \"normal\"",
    );
    bad(
        "\"fast\"",
        "impairments[0].delay",
        "expected a time with a unit, like \"20ms\", got \"fast\"",
    );
    // Both a missing key and an unknown one are reported.
    assert_eq!(
        problems(&with(
            "kind = \"delay\"\nfraction = 1\ndelay = { dist = \"constant\", vaule = \"1ms\" }"
        )),
        vec![
            p(
                "impairments[0].delay.value",
                "required key is missing; expected a time with a unit, like value = \"50ms\""
            ),
            p(
                "impairments[0].delay.vaule",
                "unknown key 'vaule' (did you mean 'value'?); expected one of: dist, value"
            ),
        ]
    );
}

#[test]
fn swap() {
    assert_eq!(
        kind("kind = \"swap\"\nswaps = 4"),
        ImpairmentKind::Swap {
            interval: Time::from_secs(1),
            swaps: 4
        }
    );
    assert_eq!(
        kind("kind = \"swap\"\nswaps = 1\ninterval = \"500ms\""),
        ImpairmentKind::Swap {
            interval: ms(500),
            swaps: 1
        }
    );
    only_problem(
        &with("kind = \"swap\""),
        "impairments[0].swaps",
        "required key is missing; expected a positive integer number of swaps per event, like swaps = 4",
    );
    only_problem(
        &with("kind = \"swap\"\nswaps = 0"),
        "impairments[0].swaps",
        "expected a positive integer number of swaps, got 0",
    );
    only_problem(
        &with("kind = \"swap\"\nswaps = 2\ninterval = 0"),
        "impairments[0].interval",
        "expected a positive time, got 0",
    );
}

#[test]
fn spikes() {
    assert_eq!(
        kind("kind = \"spikes\""),
        ImpairmentKind::Spikes {
            length: TimeDist::Uniform {
                min: Time::from_secs(3),
                max: Time::from_secs(15)
            },
            every: TimeDist::Uniform {
                min: Time::from_secs(20),
                max: Time::from_secs(40)
            },
        }
    );
    let s = ok(&with(
        "kind = \"spikes\"\nlength = \"5s\"\nevery = { dist = \"exponential\", mean = \"30s\" }",
    ));
    assert_eq!(
        s.impairments[0],
        ImpairmentSpec {
            link: "bottleneck".into(),
            direction: Direction::Forward,
            kind: ImpairmentKind::Spikes {
                length: TimeDist::Constant(Time::from_secs(5)),
                every: TimeDist::Exponential {
                    mean: Time::from_secs(30)
                },
            },
        }
    );
    for direction in ["forward", "reverse"] {
        only_problem(
            &with(&format!("kind = \"spikes\"\ndirection = \"{direction}\"")),
            "impairments[0].direction",
            "spikes suspend both directions of a link; remove 'direction'",
        );
    }
    only_problem(
        &with("kind = \"spikes\"\nlength = 0"),
        "impairments[0].length",
        "expected a distribution that can draw a positive time, got constant 0s",
    );
    only_problem(
        &with("kind = \"spikes\"\nevery = { dist = \"uniform\", min = 0, max = 0 }"),
        "impairments[0].every",
        "expected a distribution that can draw a positive time, got uniform 0s..0s",
    );
    // A normal with mean 0 but a positive spread can draw positive times.
    ok(&with(
        "kind = \"spikes\"\nlength = { dist = \"normal\", mean = 0, sd = \"1s\" }",
    ));
}

#[test]
fn rate_change() {
    assert_eq!(
        kind("kind = \"rate-change\"\nat = \"30s\"\nrate = \"1Mbps\""),
        ImpairmentKind::RateChange {
            at: Time::from_secs(30),
            rate: 1_000_000
        }
    );
    only_problem(
        &with("kind = \"rate-change\"\nat = \"60s\"\nrate = \"1Mbps\""),
        "impairments[0].at",
        "expected a time before the end of the run (duration = 60s), got \"60s\"",
    );
    only_problem(
        &with("kind = \"rate-change\"\nat = \"1s\""),
        "impairments[0].rate",
        "required key is missing; expected a rate with a unit, like rate = \"1Mbps\"",
    );
    only_problem(
        &with("kind = \"rate-change\"\nrate = \"1Mbps\""),
        "impairments[0].at",
        "required key is missing; expected a time with a unit, like at = \"30s\"",
    );
}

#[test]
fn burst_loss() {
    assert_eq!(
        kind("kind = \"burst-loss\"\nrate = 0.0002"),
        ImpairmentKind::BurstLoss {
            rate: 0.0002,
            length: TimeDist::Uniform {
                min: ms(300),
                max: ms(400)
            },
        }
    );
    assert_eq!(
        kind("kind = \"burst-loss\"\nrate = 0\nlength = \"1s\""),
        ImpairmentKind::BurstLoss {
            rate: 0.0,
            length: TimeDist::Constant(Time::from_secs(1)),
        }
    );
    only_problem(
        &with("kind = \"burst-loss\"\nrate = 2"),
        "impairments[0].rate",
        "expected a number of loss events per packet between 0 and 1, got 2",
    );
    only_problem(
        &with("kind = \"burst-loss\"\nrate = \"1Mbps\""),
        "impairments[0].rate",
        "expected a number of loss events per packet between 0 and 1, got \"1Mbps\"",
    );
}

#[test]
fn arq() {
    assert_eq!(
        kind("kind = \"arq\"\nframe_error = 0.1"),
        ImpairmentKind::Arq {
            frame_error: 0.1,
            retries: 3,
            attempt_delay: ms(5)
        }
    );
    assert_eq!(
        kind("kind = \"arq\"\nframe_error = 0.15\nretries = 0\nattempt_delay = \"2ms\""),
        ImpairmentKind::Arq {
            frame_error: 0.15,
            retries: 0,
            attempt_delay: ms(2)
        }
    );
    only_problem(
        &with("kind = \"arq\"\nframe_error = -0.1"),
        "impairments[0].frame_error",
        "expected a probability between 0 and 1, got -0.1",
    );
    only_problem(
        &with("kind = \"arq\"\nframe_error = 0.1\nretries = -1"),
        "impairments[0].retries",
        "expected a non-negative integer number of retries, got -1",
    );
    only_problem(
        &with("kind = \"arq\""),
        "impairments[0].frame_error",
        "required key is missing; expected a probability between 0 and 1, like frame_error = 0.1",
    );
}

#[test]
fn kind_names_round_trip() {
    for (body, name) in [
        ("kind = \"loss\"\nprobability = 0", "loss"),
        ("kind = \"delay\"\nfraction = 0\ndelay = 0", "delay"),
        ("kind = \"swap\"\nswaps = 1", "swap"),
        ("kind = \"spikes\"", "spikes"),
        (
            "kind = \"rate-change\"\nat = 0\nrate = \"1bps\"",
            "rate-change",
        ),
        ("kind = \"burst-loss\"\nrate = 0", "burst-loss"),
        ("kind = \"arq\"\nframe_error = 0", "arq"),
    ] {
        assert_eq!(kind(body).name(), name);
        assert!(IMPAIRMENT_KINDS.contains(&name));
    }
}

#[test]
fn unknown_link_lists_the_topology_link_names() {
    let imp = |link: &str| {
        format!("[[impairments]]\nlink = \"{link}\"\nkind = \"loss\"\nprobability = 0.1\n")
    };
    let cases: &[(&str, &str, &str)] = &[
        (
            "kind = \"parking-lot\"",
            "bottleneck",
            "unknown link \"bottleneck\" (did you mean \"bottlenecks\"?); expected one of: access-s, bottleneck:1, bottleneck:2, bottleneck:3, access-d, cs1, cs2, cs3, cd1, cd2, cd3, bottlenecks",
        ),
        (
            "kind = \"multipath\"",
            "path3:0",
            "unknown link \"path3:0\" (did you mean \"path0:0\"?); expected one of: path0:0, path0:1, path1:0, path1:1, path1:2, path2:0, ..., path2:3, path0, path1, path2, all",
        ),
        (
            "kind = \"chain\"\nbottleneck = { rate = \"1Mbps\" }",
            "access",
            "unknown link \"access\" (did you mean \"access-1\"?); expected one of: access-1, bottleneck, access-2",
        ),
        (
            "kind = \"wireless-infrastructure\"\nwired_hops = 5",
            "wired:5",
            "unknown link \"wired:5\" (did you mean \"wired:4\"?); expected one of: wired:0, ..., wired:4, wireless, wired",
        ),
        (
            "kind = \"wireless-multihop\"",
            "wifi",
            "unknown link \"wifi\"; expected one of: wireless:0, ..., wireless:3, wireless",
        ),
        (
            "kind = \"multi-bottleneck\"",
            "R3-R2",
            "unknown link \"R3-R2\" (did you mean \"R2-R3\" with direction = \"reverse\"? links are named in their forward direction); expected one of: R1-R2, ..., R4-R5, access:H1, ..., access:H5, core",
        ),
        (
            "kind = \"custom\"\nnodes = [\"A\", \"B\"]\nlinks = [{ name = \"wire\", a = \"A\", b = \"B\", rate = \"1Mbps\" }]",
            "wires",
            "unknown link \"wires\" (did you mean \"wire\"?); expected one of: wire",
        ),
    ];
    for (topo, link, message) in cases {
        only_problem(&on(topo, &imp(link)), "impairments[0].link", message);
    }
    // A dumbbell counts one pair per flow when `pairs` is not set.
    only_problem(
        &on(DUMBBELL, &format!("count = 5\n{}", imp("access:5"))),
        "impairments[0].link",
        "unknown link \"access:5\" (did you mean \"access:4\"?); expected one of: bottleneck, access:0, ..., access:4, access-dst:0, ..., access-dst:4, access",
    );
}

#[test]
fn links_and_groups_of_every_kind_are_accepted() {
    let imp = |link: &str| {
        format!("[[impairments]]\nlink = \"{link}\"\nkind = \"loss\"\nprobability = 0.1\n")
    };
    let cases: &[(&str, &[&str])] = &[
        (
            DUMBBELL,
            &["bottleneck", "access", "access:0", "access-dst:0"],
        ),
        (
            "kind = \"parking-lot\"",
            &[
                "access-s",
                "bottleneck:3",
                "access-d",
                "cs2",
                "cd3",
                "bottlenecks",
            ],
        ),
        (
            "kind = \"multipath\"",
            &["path0:1", "path2:3", "path1", "all"],
        ),
        (
            "kind = \"chain\"\nbottleneck = { rate = \"1Mbps\" }",
            &["access-1", "bottleneck", "access-2"],
        ),
        (
            "kind = \"wireless-infrastructure\"",
            &["wired:0", "wired:1", "wireless", "wired"],
        ),
        (
            "kind = \"wireless-multihop\"",
            &["wireless:0", "wireless:3", "wireless"],
        ),
        (
            "kind = \"multi-bottleneck\"",
            &["R1-R2", "R4-R5", "access:H1", "access:H5", "core"],
        ),
    ];
    for (topo, links) in cases {
        for link in *links {
            let s = ok(&on(topo, &imp(link)));
            assert_eq!(s.impairments[0].link, *link);
            assert!(s.link_names().contains(&link.to_string()), "{link}");
        }
    }
}
