//! The topologies of the five papers as [`Graph`]s. Names of nodes and
//! links are part of the scenario format (docs/scenarios.md).

use super::graph::{Graph, MultipathDecl};
use crate::link::LinkParams;

/// The dumbbell: pairs S<i> -> D<i> over R1 -> R2 ("bottleneck"); both access
/// links of pair i ("access:<i>" S<i>-R1, "access-dst:<i>" R2-D<i>) use
/// `access[i]`. Pair i's round-trip propagation delay is
/// 2 * (2 * access_i + bottleneck).
pub fn dumbbell(bottleneck: LinkParams, access: &[LinkParams]) -> Graph {
    let mut g = Graph::default();
    g.node("R1");
    g.node("R2");
    g.link("bottleneck", "R1", "R2", bottleneck);
    let mut group = Vec::new();
    for (i, a) in access.iter().enumerate() {
        let (s, d) = (g.node(format!("S{i}")), g.node(format!("D{i}")));
        g.link(format!("access:{i}"), &s, "R1", *a);
        g.link(format!("access-dst:{i}"), "R2", &d, *a);
        group.push(format!("access:{i}"));
        g.endpoints.push((s, d));
    }
    g.group("access", group);
    g
}

/// TCP-PR Fig. 3 (left): routers R1..R4 in a line (the three bottlenecks
/// R1->R2, R2->R3, R3->R4), S at R1 and D at R4, cross-traffic sources CS1..3
/// at R1..R3 and sinks CD1..3 at R2..R4. `link` is every 15 Mbit/s link;
/// `cross_rates` are the CS1->R1, CS2->R2, CS3->R3 links.
pub fn parking_lot(link: LinkParams, cross_rates: [u64; 3]) -> Graph {
    let mut g = Graph::default();
    for n in [
        "S", "D", "R1", "R2", "R3", "R4", "CS1", "CS2", "CS3", "CD1", "CD2", "CD3",
    ] {
        g.node(n);
    }
    g.link("access-s", "S", "R1", link);
    for i in 1..=3 {
        g.link(
            format!("bottleneck:{i}"),
            &format!("R{i}"),
            &format!("R{}", i + 1),
            link,
        );
    }
    g.link("access-d", "R4", "D", link);
    for i in 1..=3 {
        let cs = LinkParams {
            rate_bps: cross_rates[i - 1],
            ..link
        };
        g.link(format!("cs{i}"), &format!("CS{i}"), &format!("R{i}"), cs);
        g.link(
            format!("cd{i}"),
            &format!("R{}", i + 1),
            &format!("CD{i}"),
            link,
        );
    }
    g.group(
        "bottlenecks",
        (1..=3).map(|i| format!("bottleneck:{i}")).collect(),
    );
    g.endpoints.push(("S".into(), "D".into()));
    g
}

/// A mesh in the spirit of TCP-PR Fig. 14 (the figure is lost): S and D
/// joined by node-disjoint paths with `hops[i]` links each, every link with
/// the same parameters, so a path's delay grows with its hop count. Packets
/// between S and D (both ways) choose a path per packet with `epsilon`.
/// Links "path<i>:<j>", groups "path<i>" and "all".
pub fn multipath(link: LinkParams, hops: &[u32], epsilon: f64) -> Graph {
    let mut g = Graph::default();
    g.node("S");
    g.node("D");
    let mut all = Vec::new();
    for (i, &h) in hops.iter().enumerate() {
        let mut prev = "S".to_string();
        let mut members = Vec::new();
        for j in 0..h {
            let next = if j + 1 == h {
                "D".to_string()
            } else {
                g.node(format!("P{i}_{}", j + 1))
            };
            let name = format!("path{i}:{j}");
            g.link(name.clone(), &prev, &next, link);
            members.push(name.clone());
            all.push(name);
            prev = next;
        }
        g.group(format!("path{i}"), members);
    }
    g.group("all", all);
    g.endpoints.push(("S".into(), "D".into()));
    g.multipath.push(MultipathDecl {
        a: "S".into(),
        b: "D".into(),
        epsilon,
    });
    g
}

/// RR-TCP Fig. 2: S1 - R1 - R2 - S2, access links "access-1" and "access-2",
/// the "bottleneck" R1 -> R2.
pub fn chain(bottleneck: LinkParams, access: LinkParams) -> Graph {
    let mut g = Graph::default();
    for n in ["S1", "R1", "R2", "S2"] {
        g.node(n);
    }
    g.link("access-1", "S1", "R1", access);
    g.link("bottleneck", "R1", "R2", bottleneck);
    g.link("access-2", "R2", "S2", access);
    g.endpoints.push(("S1".into(), "S2".into()));
    g
}

/// TCP-NCL Fig. 3 (top, lost): S, `wired_hops` wired links ("wired:<i>",
/// group "wired") to an access point AP, then one "wireless" link to D.
pub fn wireless_infrastructure(wired: LinkParams, wired_hops: u32, wireless: LinkParams) -> Graph {
    let mut g = Graph::default();
    let mut prev = g.node("S");
    let mut members = Vec::new();
    for i in 0..wired_hops {
        let next = if i + 1 == wired_hops {
            g.node("AP")
        } else {
            g.node(format!("R{}", i + 1))
        };
        g.link(format!("wired:{i}"), &prev, &next, wired);
        members.push(format!("wired:{i}"));
        prev = next;
    }
    g.node("D");
    g.link("wireless", &prev, "D", wireless);
    g.group("wired", members);
    g.endpoints.push(("S".into(), "D".into()));
    g
}

/// TCP-NCL Fig. 3 (bottom, lost): S - W1 - ... - D over `hops` wireless links
/// "wireless:<i>" (group "wireless").
pub fn wireless_multihop(wireless: LinkParams, hops: u32) -> Graph {
    let mut g = Graph::default();
    let mut prev = g.node("S");
    let mut members = Vec::new();
    for i in 0..hops {
        let next = if i + 1 == hops {
            g.node("D")
        } else {
            g.node(format!("W{}", i + 1))
        };
        g.link(format!("wireless:{i}"), &prev, &next, wireless);
        members.push(format!("wireless:{i}"));
        prev = next;
    }
    g.group("wireless", members);
    g.endpoints.push(("S".into(), "D".into()));
    g
}

/// The high-speed paper's multi-bottleneck network (Figs. 10-11; the figure
/// is lost, the team's reading is in docs/paper-experiments.md): routers
/// R1..Rn in a chain ("R<i>-R<i+1>", group "core"), a host H<i> on each
/// ("access:H<i>", H<i> -> R<i>). Default endpoints H1 -> Hn.
pub fn multi_bottleneck(link: LinkParams, access: LinkParams, routers: u32) -> Graph {
    let mut g = Graph::default();
    for i in 1..=routers {
        g.node(format!("R{i}"));
        g.node(format!("H{i}"));
    }
    let mut core = Vec::new();
    for i in 1..routers {
        let name = format!("R{i}-R{}", i + 1);
        g.link(name.clone(), &format!("R{i}"), &format!("R{}", i + 1), link);
        core.push(name);
    }
    for i in 1..=routers {
        g.link(
            format!("access:H{i}"),
            &format!("H{i}"),
            &format!("R{i}"),
            access,
        );
    }
    g.group("core", core);
    g.endpoints.push(("H1".into(), format!("H{routers}")));
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::AqmSpec;
    use reorderlab_sim::Time;

    fn lp(rate: u64, ms: u64) -> LinkParams {
        LinkParams {
            rate_bps: rate,
            delay: Time::from_millis(ms),
            queue: 100,
            aqm: AqmSpec::DropTail,
        }
    }

    fn hops(t: &super::super::Topo<()>, a: &str, b: &str) -> Vec<String> {
        let (mut at, dst) = (t.node(a).unwrap(), t.node(b).unwrap());
        let mut out = Vec::new();
        while at != dst {
            let l = t.net.route(at, dst).unwrap();
            let name = t
                .links
                .iter()
                .find(|n| n.forward == l || n.reverse == l)
                .unwrap()
                .name
                .clone();
            out.push(name);
            at = t.net.link(l).to;
        }
        out
    }

    #[test]
    fn every_dumbbell_pair_routes_over_the_bottleneck_both_ways() {
        let t = dumbbell(lp(15_000_000, 10), &[lp(100_000_000, 1); 3])
            .build::<()>(1)
            .unwrap();
        for i in 0..3 {
            assert_eq!(
                hops(&t, &format!("S{i}"), &format!("D{i}")),
                [
                    format!("access:{i}"),
                    "bottleneck".into(),
                    format!("access-dst:{i}")
                ]
            );
            assert_eq!(
                hops(&t, &format!("D{i}"), &format!("S{i}")),
                [
                    format!("access-dst:{i}"),
                    "bottleneck".into(),
                    format!("access:{i}")
                ]
            );
        }
        assert_eq!(t.resolve("access").unwrap().len(), 3);
    }

    #[test]
    fn parking_lot_cross_traffic_crosses_the_stated_bottlenecks() {
        let t = parking_lot(lp(15_000_000, 10), [5_000_000, 1_660_000, 2_500_000])
            .build::<()>(1)
            .unwrap();
        assert_eq!(
            hops(&t, "S", "D"),
            [
                "access-s",
                "bottleneck:1",
                "bottleneck:2",
                "bottleneck:3",
                "access-d"
            ]
        );
        assert_eq!(hops(&t, "CS1", "CD1"), ["cs1", "bottleneck:1", "cd1"]);
        assert_eq!(
            hops(&t, "CS1", "CD3"),
            ["cs1", "bottleneck:1", "bottleneck:2", "bottleneck:3", "cd3"]
        );
        assert_eq!(hops(&t, "CS2", "CD2"), ["cs2", "bottleneck:2", "cd2"]);
        assert_eq!(hops(&t, "CS3", "CD3"), ["cs3", "bottleneck:3", "cd3"]);
        let cs2 = &t.resolve("cs2").unwrap()[0];
        assert_eq!(t.net.link(cs2.forward).rate_bps, 1_660_000);
    }

    #[test]
    fn multipath_mesh_has_disjoint_paths_of_the_given_lengths() {
        let t = multipath(lp(10_000_000, 10), &[2, 3, 4], 0.0)
            .build::<()>(1)
            .unwrap();
        let mp = &t.net.multipath[0];
        assert_eq!(
            mp.paths.iter().map(|p| p.hops).collect::<Vec<_>>(),
            vec![2, 3, 4]
        );
        assert_eq!(t.net.multipath.len(), 2, "both directions");
        assert_eq!(t.resolve("all").unwrap().len(), 9);
    }

    #[test]
    fn chains_and_wireless_route_end_to_end() {
        let t = chain(lp(4_000_000, 50), lp(10_000_000, 1))
            .build::<()>(1)
            .unwrap();
        assert_eq!(hops(&t, "S1", "S2"), ["access-1", "bottleneck", "access-2"]);
        let t = wireless_infrastructure(lp(100_000_000, 10), 2, lp(2_000_000, 1))
            .build::<()>(1)
            .unwrap();
        assert_eq!(hops(&t, "S", "D"), ["wired:0", "wired:1", "wireless"]);
        let t = wireless_multihop(lp(2_000_000, 1), 4)
            .build::<()>(1)
            .unwrap();
        assert_eq!(hops(&t, "S", "D").len(), 4);
        assert_eq!(t.resolve("wireless").unwrap().len(), 4);
        let t = multi_bottleneck(lp(1_000_000_000, 23), lp(10_000_000_000, 1), 5)
            .build::<()>(1)
            .unwrap();
        assert_eq!(
            hops(&t, "H5", "H1"),
            ["access:H5", "R4-R5", "R3-R4", "R2-R3", "R1-R2", "access:H1"]
        );
    }

    #[test]
    fn a_bad_graph_is_an_error_not_a_panic() {
        let mut g = chain(lp(1, 1), lp(1, 1));
        g.link("x", "S1", "nowhere", lp(1, 1));
        assert!(g.build::<()>(1).err().unwrap().contains("nowhere"));
        let mut g = chain(lp(1, 1), lp(1, 1));
        g.multipath.push(MultipathDecl {
            a: "S1".into(),
            b: "Q".into(),
            epsilon: 0.0,
        });
        assert!(g.build::<()>(1).is_err());
    }
}
