//! Every topology kind: a minimal example parses to the expected struct,
//! defaults apply, names are as documented, and each constraint is reported
//! with its exact key and message.

mod common;

use common::*;
use reorderlab_scenario::*;
use reorderlab_sim::Time;

fn ms(n: u64) -> Time {
    Time::from_millis(n)
}

fn droptail(rate: u64, delay: Time, queue: u32) -> LinkSpec {
    LinkSpec {
        rate,
        delay,
        queue,
        aqm: Aqm::DropTail,
    }
}

fn topology(body: &str) -> Topology {
    ok(&on(body, "")).topology
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

const KINDS: &str = "dumbbell, parking-lot, multipath, chain, wireless-infrastructure, wireless-multihop, multi-bottleneck, custom";

#[test]
fn parking_lot_defaults_and_explicit_values() {
    let t = topology("kind = \"parking-lot\"");
    assert_eq!(
        t,
        Topology::ParkingLot(ParkingLot {
            link: droptail(15_000_000, ms(10), 250),
            cross_rates: [5_000_000, 1_660_000, 2_500_000],
        })
    );
    let t = topology(
        "kind = \"parking-lot\"\nlink = { rate = \"10Mbps\", delay = \"5ms\", queue = 100, aqm = \"red\" }\ncross_rates = [\"1Mbps\", \"2Mbps\", \"3Mbps\"]",
    );
    assert_eq!(
        t,
        Topology::ParkingLot(ParkingLot {
            link: LinkSpec {
                rate: 10_000_000,
                delay: ms(5),
                queue: 100,
                aqm: Aqm::Red(Red::default()),
            },
            cross_rates: [1_000_000, 2_000_000, 3_000_000],
        })
    );
    // A partial link table keeps the other defaults.
    let Topology::ParkingLot(p) = topology("kind = \"parking-lot\"\nlink = { queue = 50 }") else {
        panic!("expected a parking lot")
    };
    assert_eq!(p.link, droptail(15_000_000, ms(10), 50));
}

#[test]
fn parking_lot_names() {
    let t = topology("kind = \"parking-lot\"");
    assert_eq!(
        t.link_names(),
        strings(&[
            "access-s",
            "bottleneck:1",
            "bottleneck:2",
            "bottleneck:3",
            "access-d",
            "cs1",
            "cs2",
            "cs3",
            "cd1",
            "cd2",
            "cd3",
            "bottlenecks"
        ])
    );
    assert_eq!(
        t.node_names(),
        strings(&["S", "D", "R1", "R2", "R3", "R4", "CS1", "CS2", "CS3", "CD1", "CD2", "CD3"])
    );
    assert_eq!(t.default_endpoints(), pairs(&[("S", "D")]));
}

#[test]
fn parking_lot_constraints() {
    only_problem(
        &on("kind = \"parking-lot\"\ncross_rates = [\"5Mbps\", \"1Mbps\"]", ""),
        "topology.cross_rates",
        "expected an array of three rates (the CS1->R1, CS2->R2 and CS3->R3 links), like [\"5Mbps\", \"1.66Mbps\", \"2.5Mbps\"], got an array of 2 elements",
    );
    only_problem(
        &on(
            "kind = \"parking-lot\"\ncross_rates = [\"5Mbps\", \"1.66\", \"2.5Mbps\"]",
            "",
        ),
        "topology.cross_rates[1]",
        "expected a rate with a unit, like \"15Mbps\", got \"1.66\"",
    );
    only_problem(
        &on("kind = \"parking-lot\"\nlink = { rate = \"0Mbps\" }", ""),
        "topology.link.rate",
        "expected a positive rate, got \"0Mbps\"",
    );
    only_problem(
        &on(
            "kind = \"parking-lot\"\nbottleneck = { rate = \"1Mbps\" }",
            "",
        ),
        "topology.bottleneck",
        "unknown key 'bottleneck'; expected one of: kind, link, cross_rates",
    );
}

#[test]
fn multipath_defaults_and_explicit_values() {
    assert_eq!(
        topology("kind = \"multipath\""),
        Topology::Multipath(Multipath {
            epsilon: 0.0,
            link_delay: ms(10),
            rate: 10_000_000,
            queue: 100,
            aqm: Aqm::DropTail,
            hops: vec![2, 3, 4],
        })
    );
    let t = topology(
        "kind = \"multipath\"\nepsilon = 500\nlink_delay = \"60ms\"\nrate = \"5Mbps\"\nqueue = 40\naqm = \"red\"\nred = { min_th = 5, max_th = 20 }\nhops = [1, 5]",
    );
    let Topology::Multipath(m) = &t else {
        panic!("expected multipath")
    };
    assert_eq!(m.epsilon, 500.0);
    assert_eq!(m.hops, vec![1, 5]);
    assert_eq!(
        m.link(),
        LinkSpec {
            rate: 5_000_000,
            delay: ms(60),
            queue: 40,
            aqm: Aqm::Red(Red {
                max_th: 20.0,
                ..Red::default()
            }),
        }
    );
    assert_eq!(
        t.link_names(),
        strings(&[
            "path0:0", "path1:0", "path1:1", "path1:2", "path1:3", "path1:4", "path0", "path1",
            "all"
        ])
    );
    assert_eq!(
        t.node_names(),
        strings(&["S", "D", "P1_1", "P1_2", "P1_3", "P1_4"])
    );
    assert_eq!(t.default_endpoints(), pairs(&[("S", "D")]));
}

#[test]
fn multipath_constraints() {
    let cases: &[(&str, &str, &str)] = &[
        ("hops = []", "topology.hops", "expected at least one path (one hop count per path), got an empty array"),
        ("hops = [2, 0]", "topology.hops[1]", "expected a positive integer number of links, got 0"),
        ("hops = 3", "topology.hops", "expected an array of hop counts, one per path, like [2, 3, 4], got 3"),
        ("hops = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", "topology.hops", "expected at most 16 paths, got 17"),
        ("epsilon = -1", "topology.epsilon", "expected a non-negative number, got -1"),
        ("epsilon = nan", "topology.epsilon", "expected a non-negative number, got nan"),
        ("queue = 0", "topology.queue", "expected a positive integer number of packets, got 0"),
        ("link_delay = 10", "topology.link_delay", "expected a time with a unit, like \"20ms\", got 10"),
        ("red = { min_th = 5 }", "topology.red", "RED parameters given but topology.aqm is \"droptail\"; set aqm = \"red\" or remove this table"),
        ("aqm = \"red\"\nqueue = 10", "topology.red.max_th", "expected at most the queue limit (10 packets), got 15.0 (the default, 3 * min_th)"),
    ];
    for (extra, key, message) in cases {
        only_problem(
            &on(&format!("kind = \"multipath\"\n{extra}"), ""),
            key,
            message,
        );
    }
    // Exactly 16 paths is fine.
    ok(&on(
        &format!(
            "kind = \"multipath\"\nhops = [{}]",
            vec!["1"; 16].join(", ")
        ),
        "",
    ));
}

#[test]
fn chain_derives_the_bottleneck_rate_from_max_window() {
    // RR-TCP: M = 50 packets, P = 50 ms one-way, R = 100 ms: S = 500 packets/s
    // of 1040 bytes = 4.16 Mbit/s.
    let t = topology("kind = \"chain\"\nmax_window = 50\nbottleneck = { delay = \"50ms\" }");
    assert_eq!(
        t,
        Topology::Chain(Chain {
            bottleneck: droptail(4_160_000, ms(50), 100),
            access: droptail(10_000_000, ms(1), 1000),
            max_window: Some(50),
            packet_bytes: 1040,
        })
    );
    // P = 200 ms (RR-TCP Table 3): 125 packets/s.
    let Topology::Chain(c) = topology(
        "kind = \"chain\"\nmax_window = 50\npacket_bytes = 1000\nbottleneck = { delay = \"200ms\" }",
    ) else {
        panic!("expected a chain")
    };
    assert_eq!(c.bottleneck.rate, 125 * 1000 * 8);
    // A given rate wins over the rule.
    let Topology::Chain(c) = topology(
        "kind = \"chain\"\nmax_window = 50\nbottleneck = { rate = \"1Mbps\", delay = \"50ms\" }",
    ) else {
        panic!("expected a chain")
    };
    assert_eq!(c.bottleneck.rate, 1_000_000);
    assert_eq!(c.max_window, Some(50));
    // Without max_window the rate is simply required.
    let Topology::Chain(c) = topology("kind = \"chain\"\nbottleneck = { rate = \"2Mbps\" }") else {
        panic!("expected a chain")
    };
    assert_eq!(
        (c.bottleneck.rate, c.max_window, c.packet_bytes),
        (2_000_000, None, 1040)
    );
}

#[test]
fn chain_names() {
    let t = topology("kind = \"chain\"\nbottleneck = { rate = \"2Mbps\" }");
    assert_eq!(
        t.link_names(),
        strings(&["access-1", "bottleneck", "access-2"])
    );
    assert_eq!(t.node_names(), strings(&["S1", "R1", "R2", "S2"]));
    assert_eq!(t.default_endpoints(), pairs(&[("S1", "S2")]));
}

#[test]
fn chain_constraints() {
    let cases: &[(&str, &str, &str)] = &[
        ("bottleneck = { delay = \"50ms\" }", "topology.bottleneck.rate", "required key is missing; expected a rate with a unit, like rate = \"4Mbps\", or topology.max_window to derive it (S = M / R)"),
        ("max_window = 50\nbottleneck = {}", "topology.bottleneck.delay", "expected a positive delay to derive the bottleneck rate from max_window (S = M / R with R = 2 * delay), got 0s (the default)"),
        ("max_window = 50\nbottleneck = { delay = 0 }", "topology.bottleneck.delay", "expected a positive delay to derive the bottleneck rate from max_window (S = M / R with R = 2 * delay), got 0"),
        ("max_window = 1\npacket_bytes = 41\nbottleneck = { delay = \"100000min\" }", "topology.max_window", "the bottleneck rate derived from it (M * packet_bytes * 8 / (2 * delay)) is below 1 bit/s; give topology.bottleneck.rate instead"),
        ("max_window = 0\nbottleneck = { delay = \"50ms\" }", "topology.max_window", "expected a positive integer number of packets, got 0"),
        ("max_window = 50\npacket_bytes = 40\nbottleneck = { delay = \"50ms\" }", "topology.packet_bytes", "expected an integer number of bytes, at least 41 (40 header bytes and some payload), got 40"),
        ("max_window = 50\npacket_bytes = 65536\nbottleneck = { delay = \"50ms\" }", "topology.packet_bytes", "expected at most 65535 bytes, got 65536"),
        ("max_window = 50", "topology.bottleneck", "required table is missing; expected a table with a delay and a rate (or topology.max_window to derive the rate), like { rate = \"4Mbps\", delay = \"50ms\" }"),
        ("bottleneck = { rate = \"2Mbps\" }\naccess = { rate = \"fast\" }", "topology.access.rate", "expected a rate with a unit, like \"15Mbps\", got \"fast\""),
    ];
    for (extra, key, message) in cases {
        only_problem(&on(&format!("kind = \"chain\"\n{extra}"), ""), key, message);
    }
}

#[test]
fn wireless_infrastructure() {
    let t = topology("kind = \"wireless-infrastructure\"");
    assert_eq!(
        t,
        Topology::WirelessInfrastructure(WirelessInfrastructure {
            wired: droptail(100_000_000, ms(10), 100),
            wired_hops: 2,
            wireless: droptail(2_000_000, ms(1), 50),
        })
    );
    assert_eq!(
        t.link_names(),
        strings(&["wired:0", "wired:1", "wireless", "wired"])
    );
    assert_eq!(t.node_names(), strings(&["S", "R1", "AP", "D"]));
    assert_eq!(t.default_endpoints(), pairs(&[("S", "D")]));
    let t = topology(
        "kind = \"wireless-infrastructure\"\nwired_hops = 1\nwireless = { rate = \"11Mbps\" }",
    );
    let Topology::WirelessInfrastructure(w) = &t else {
        panic!("expected wireless-infrastructure")
    };
    assert_eq!(w.wireless, droptail(11_000_000, ms(1), 50));
    assert_eq!(t.node_names(), strings(&["S", "AP", "D"]));
    only_problem(
        &on("kind = \"wireless-infrastructure\"\nwired_hops = 0", ""),
        "topology.wired_hops",
        "expected a positive integer number of wired links, got 0",
    );
    only_problem(
        &on("kind = \"wireless-infrastructure\"\nhops = 3", ""),
        "topology.hops",
        "unknown key 'hops'; expected one of: kind, wired, wired_hops, wireless",
    );
}

#[test]
fn wireless_multihop() {
    let t = topology("kind = \"wireless-multihop\"");
    assert_eq!(
        t,
        Topology::WirelessMultihop(WirelessMultihop {
            wireless: droptail(2_000_000, ms(1), 50),
            hops: 4,
        })
    );
    assert_eq!(
        t.link_names(),
        strings(&[
            "wireless:0",
            "wireless:1",
            "wireless:2",
            "wireless:3",
            "wireless"
        ])
    );
    assert_eq!(t.node_names(), strings(&["S", "W1", "W2", "W3", "D"]));
    assert_eq!(t.default_endpoints(), pairs(&[("S", "D")]));
    only_problem(
        &on("kind = \"wireless-multihop\"\nhops = 0", ""),
        "topology.hops",
        "expected a positive integer number of wireless links, got 0",
    );
    only_problem(
        &on(
            "kind = \"wireless-multihop\"\nwireless = { queue = -1 }",
            "",
        ),
        "topology.wireless.queue",
        "expected a positive integer number of packets, got -1",
    );
}

#[test]
fn multi_bottleneck_defaults_and_bdp_queue() {
    // 1 Gbit/s * 2 * 23 ms = 46 Mbit = 3833.3 packets of 1500 bytes, rounded up.
    let t = topology("kind = \"multi-bottleneck\"");
    assert_eq!(
        t,
        Topology::MultiBottleneck(MultiBottleneck {
            link: droptail(1_000_000_000, ms(23), 3834),
            access: droptail(10_000_000_000, ms(1), 10_000),
            routers: 5,
        })
    );
    assert_eq!(
        t.link_names(),
        strings(&[
            "R1-R2",
            "R2-R3",
            "R3-R4",
            "R4-R5",
            "access:H1",
            "access:H2",
            "access:H3",
            "access:H4",
            "access:H5",
            "core"
        ])
    );
    assert_eq!(
        t.node_names(),
        strings(&["R1", "R2", "R3", "R4", "R5", "H1", "H2", "H3", "H4", "H5"])
    );
    assert_eq!(t.default_endpoints(), pairs(&[("H1", "H5")]));
    // The default queue follows the link's own rate and delay; a given queue wins.
    let Topology::MultiBottleneck(m) = topology(
        "kind = \"multi-bottleneck\"\nrouters = 3\nlink = { rate = \"100Mbps\", delay = \"30ms\" }",
    ) else {
        panic!("expected multi-bottleneck")
    };
    assert_eq!(m.link.queue, 500); // 100e6 * 0.06 / 12000
    assert_eq!(m.routers, 3);
    let Topology::MultiBottleneck(m) =
        topology("kind = \"multi-bottleneck\"\nlink = { queue = 7 }")
    else {
        panic!("expected multi-bottleneck")
    };
    assert_eq!(m.link.queue, 7);
    // RED thresholds are checked against the computed queue.
    only_problem(
        &on(
            "kind = \"multi-bottleneck\"\nlink = { delay = 0, aqm = \"red\" }",
            "",
        ),
        "topology.link.red.max_th",
        "expected at most the queue limit (1 packets), got 15.0 (the default, 3 * min_th)",
    );
}

#[test]
fn multi_bottleneck_constraints() {
    only_problem(
        &on("kind = \"multi-bottleneck\"\nrouters = 1", ""),
        "topology.routers",
        "expected an integer number of routers, at least 2, got 1",
    );
    only_problem(
        &on(
            "kind = \"multi-bottleneck\"\nlink = { rate = \"1000000000Gbps\", delay = \"100000min\" }",
            "",
        ),
        "topology.link.queue",
        "required key is missing; the default, the bandwidth-delay product in 1500-byte packets, is above 4294967295 packets",
    );
}

const CUSTOM: &str = r#"kind = "custom"
nodes = ["A", "B", "C"]
[[topology.links]]
name = "ab"
a = "A"
b = "B"
rate = "10Mbps"
delay = "5ms"
[[topology.links]]
name = "bc"
a = "B"
b = "C"
rate = "1Mbps"
queue = 20
aqm = "red"
red = { min_th = 2, max_th = 6 }
"#;

#[test]
fn custom_topology() {
    let t = topology(CUSTOM);
    assert_eq!(
        t,
        Topology::Custom(Custom {
            nodes: strings(&["A", "B", "C"]),
            links: vec![
                CustomLink {
                    name: "ab".into(),
                    a: "A".into(),
                    b: "B".into(),
                    spec: droptail(10_000_000, ms(5), 100),
                },
                CustomLink {
                    name: "bc".into(),
                    a: "B".into(),
                    b: "C".into(),
                    spec: LinkSpec {
                        rate: 1_000_000,
                        delay: Time::ZERO,
                        queue: 20,
                        aqm: Aqm::Red(Red {
                            min_th: 2.0,
                            max_th: 6.0,
                            ..Red::default()
                        }),
                    },
                },
            ],
            multipath: vec![],
            endpoints: pairs(&[("A", "C")]),
        })
    );
    assert_eq!(t.link_names(), strings(&["ab", "bc"]));
    assert_eq!(t.node_names(), strings(&["A", "B", "C"]));
    assert_eq!(t.default_endpoints(), pairs(&[("A", "C")]));

    let text = CUSTOM.replace(
        "nodes = [\"A\", \"B\", \"C\"]",
        "nodes = [\"A\", \"B\", \"C\"]\nendpoints = [[\"B\", \"C\"], [\"C\", \"A\"]]",
    ) + "[[topology.links]]\nname = \"ac\"\na = \"A\"\nb = \"C\"\nrate = \"1Mbps\"\n\
         [[topology.multipath]]\nsrc = \"A\"\ndst = \"C\"\n\
         [[topology.multipath]]\nsrc = \"A\"\ndst = \"B\"\nepsilon = 2\n";
    let t = topology(&text);
    let Topology::Custom(c) = &t else {
        panic!("expected custom")
    };
    assert_eq!(
        c.multipath,
        vec![
            MultipathSpec {
                src: "A".into(),
                dst: "C".into(),
                epsilon: 0.0
            },
            MultipathSpec {
                src: "A".into(),
                dst: "B".into(),
                epsilon: 2.0
            },
        ]
    );
    assert_eq!(c.endpoints, pairs(&[("B", "C"), ("C", "A")]));
    assert_eq!(t.default_endpoints(), c.endpoints);
}

#[test]
fn custom_constraints() {
    // A - B - C, all connected.
    let link = |extra: &str| {
        format!("kind = \"custom\"\nnodes = [\"A\", \"B\", \"C\"]\n[[topology.links]]\nname = \"ab\"\na = \"A\"\nb = \"B\"\nrate = \"1Mbps\"\n[[topology.links]]\nname = \"bc\"\na = \"B\"\nb = \"C\"\nrate = \"1Mbps\"\n{extra}")
    };
    let cases: Vec<(String, &str, &str)> = vec![
        (link("").replace("nodes = [\"A\", \"B\", \"C\"]\n", ""), "topology.nodes", "required key is missing; expected an array of at least two node names, like nodes = [\"S\", \"R\", \"D\"]"),
        (link("").replace("[\"A\", \"B\", \"C\"]", "[\"A\"]"), "topology.nodes", "expected an array of at least two node names, got an array of 1 element"),
        (link("").replace("[\"A\", \"B\", \"C\"]", "\"A\""), "topology.nodes", "expected an array of node names, like [\"S\", \"R\", \"D\"], got \"A\""),
        (link("").replace("[\"A\", \"B\", \"C\"]", "[\"A\", \"B\", \"C\", \"A\"]"), "topology.nodes[3]", "duplicate node name \"A\"; topology.nodes[0] is already \"A\""),
        (link("").replace("[\"A\", \"B\", \"C\"]", "[\"A\", \"B\", \"\"]"), "topology.nodes[2]", "expected a non-empty string, got \"\""),
        (link("").replacen("b = \"B\"", "b = \"Q\"", 1), "topology.links[0].b", "unknown node \"Q\"; expected one of: A, B, C"),
        (link("").replacen("b = \"B\"", "b = \"A\"", 1), "topology.links[0].b", "expected a node other than a (\"A\"), got \"A\""),
        (link("").replacen("rate = \"1Mbps\"\n", "", 1), "topology.links[0].rate", "required key is missing; expected a rate with a unit, like rate = \"15Mbps\""),
        (link("colour = 1"), "topology.links[1].colour", "unknown key 'colour'; expected one of: name, a, b, rate, delay, queue, aqm, red"),
        (link("[[topology.links]]\nname = \"ab\"\na = \"A\"\nb = \"C\"\nrate = \"1Mbps\""), "topology.links[2].name", "duplicate link name \"ab\"; topology.links[0] is already named \"ab\""),
        ("kind = \"custom\"\nnodes = [\"A\", \"B\"]".into(), "topology.links", "required key is missing; expected at least one [[topology.links]] table, like { name = \"l1\", a = \"S\", b = \"D\", rate = \"10Mbps\" }"),
        ("kind = \"custom\"\nnodes = [\"A\", \"B\"]\nlinks = []".into(), "topology.links", "expected at least one [[topology.links]] table, got an empty array"),
        (link("[[topology.multipath]]\nsrc = \"A\"\ndst = \"A\""), "topology.multipath[0].dst", "expected a node other than src (\"A\"), got \"A\""),
        (link("[[topology.multipath]]\nsrc = \"A\"\ndst = \"B\"\n[[topology.multipath]]\nsrc = \"B\"\ndst = \"A\""), "topology.multipath[1].dst", "topology.multipath[0] already routes between \"B\" and \"A\" (in both directions)"),
        (link("[[topology.multipath]]\nsrc = \"A\"\ndst = \"B\"\nepsilon = -0.5"), "topology.multipath[0].epsilon", "expected a non-negative number, got -0.5"),
        (link("").replace("nodes = [\"A\", \"B\", \"C\"]", "nodes = [\"A\", \"B\", \"C\"]\nendpoints = [[\"A\", \"B\", \"C\"]]"), "topology.endpoints[0]", "expected a [src, dst] pair of node names, got an array of 3 elements"),
        (link("").replace("nodes = [\"A\", \"B\", \"C\"]", "nodes = [\"A\", \"B\", \"C\"]\nendpoints = [[\"A\", \"X\"]]"), "topology.endpoints[0][1]", "unknown node \"X\"; expected one of: A, B, C"),
        (link("").replace("nodes = [\"A\", \"B\", \"C\"]", "nodes = [\"A\", \"B\", \"C\"]\nendpoints = [[\"A\", \"A\"]]"), "topology.endpoints[0]", "expected two different nodes, got \"A\" twice"),
        (link("").replace("nodes = [\"A\", \"B\", \"C\"]", "nodes = [\"A\", \"B\", \"C\"]\nendpoints = []"), "topology.endpoints", "expected an array of [src, dst] node-name pairs, like [[\"S\", \"D\"]], got an empty array"),
    ];
    for (topo, key, message) in &cases {
        only_problem(&on(topo, ""), key, message);
    }
}

#[test]
fn custom_connectivity() {
    // A - B - C connected, Z isolated; the default endpoints are explicit (A -> C).
    let topo = |extra: &str| {
        format!("kind = \"custom\"\nnodes = [\"A\", \"B\", \"C\", \"Z\"]\n{extra}\n[[topology.links]]\nname = \"ab\"\na = \"A\"\nb = \"B\"\nrate = \"1Mbps\"\n[[topology.links]]\nname = \"bc\"\na = \"B\"\nb = \"C\"\nrate = \"1Mbps\"\n")
    };
    let ends = "endpoints = [[\"A\", \"C\"]]";
    ok(&on(&topo(ends), ""));
    only_problem(
        &on(
            &(topo(ends) + "[[topology.multipath]]\nsrc = \"A\"\ndst = \"Z\"\n"),
            "",
        ),
        "topology.multipath[0]",
        "no path between \"A\" and \"Z\" over topology.links",
    );
    only_problem(
        &on(&topo("endpoints = [[\"A\", \"C\"], [\"Z\", \"B\"]]"), ""),
        "topology.endpoints[1]",
        "no path from \"Z\" to \"B\" over topology.links",
    );
    only_problem(
        &on(&topo(ends), "src = \"A\"\ndst = \"Z\""),
        "flows[0].dst",
        "no path from \"A\" to \"Z\" over topology.links",
    );
    only_problem(
        &on(
            &topo(ends),
            "[[traffic]]\nkind = \"cbr\"\nrate = \"1Mbps\"\nsrc = \"Z\"\ndst = \"C\"",
        ),
        "traffic[0].dst",
        "no path from \"Z\" to \"C\" over topology.links",
    );
    // Without `endpoints`, the default is first node -> last node (A -> Z):
    // a problem only when a flow or traffic table relies on it.
    ok(&on(&topo(""), "src = \"A\"\ndst = \"C\""));
    only_problem(
        &on(&topo(""), ""),
        "topology.endpoints",
        "required key is missing: flows[0] uses the default endpoints, from the first node (\"A\") to the last (\"Z\"), but no path joins them over topology.links",
    );
    only_problem(
        &on(&topo(""), "src = \"A\"\ndst = \"C\"\n[[traffic]]\nkind = \"cbr\"\nrate = \"1Mbps\""),
        "topology.endpoints",
        "required key is missing: traffic[0] uses the default endpoints, from the first node (\"A\") to the last (\"Z\"), but no path joins them over topology.links",
    );
}

#[test]
fn dumbbell_names() {
    let s = ok(&on(&format!("{DUMBBELL}\npairs = 2"), ""));
    assert_eq!(
        s.topology.link_names(),
        strings(&[
            "bottleneck",
            "access:0",
            "access:1",
            "access-dst:0",
            "access-dst:1",
            "access"
        ])
    );
    assert_eq!(
        s.topology.node_names(),
        strings(&["R1", "R2", "S0", "S1", "D0", "D1"])
    );
    assert_eq!(
        s.topology.default_endpoints(),
        pairs(&[("S0", "D0"), ("S1", "D1")])
    );
    // Without `pairs`, the scenario counts one pair per flow.
    let s = ok(&on(DUMBBELL, "count = 3"));
    assert_eq!(s.topology.link_names().len(), 4);
    assert_eq!(s.link_names().len(), 8);
    assert_eq!(s.node_names().len(), 8);
    assert_eq!(
        s.default_endpoints(),
        pairs(&[("S0", "D0"), ("S1", "D1"), ("S2", "D2")])
    );
    assert_eq!(s.topology.check_link("access-dst:2", 3), Ok(()));
    assert!(s.topology.check_link("access-dst:3", 3).is_err());
}

#[test]
fn unknown_kind_lists_every_kind() {
    only_problem(
        &on("kind = \"mesh\"", ""),
        "topology.kind",
        &format!("unknown topology kind \"mesh\"; expected one of: {KINDS}"),
    );
    only_problem(
        &on("kind = \"multi_bottleneck\"", ""),
        "topology.kind",
        &format!(
            "unknown topology kind \"multi_bottleneck\" (did you mean \"multi-bottleneck\"?); expected one of: {KINDS}"
        ),
    );
}
