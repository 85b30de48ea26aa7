//! TCP-PR paper (Bohacek et al., `../shared/papers/tcp-pr.txt`): queue swaps
//! (Fig. 13), multipath routing (Figs. 15-16), fairness with SACK (Figs.
//! 4-12) and the worst case for spurious timeouts (Section IV-A).
//!
//! Where the paper leaves a parameter open, the choice is named in the
//! experiment's notes (docs/paper-experiments.md lists the gaps).

use super::metrics::*;
use crate::plot::Style;
use crate::{Claim, Curve, Experiment, Results, Verdict, XAxis};

fn ident(x: f64) -> f64 {
    x
}

fn log1p10(x: f64) -> f64 {
    (1.0 + x).log10()
}

fn variant_curves(vs: &[&str]) -> Vec<Curve> {
    vs.iter()
        .map(|v| Curve {
            label: v.to_string(),
            set: vec![format!("flows.0.variant={v}")],
        })
        .collect()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Mean over all x of `curve` relative to the mean over all x of `reference`.
fn ratio_overall(r: &Results, curve: &str, reference: &str) -> Option<f64> {
    Some(r.over_all(curve)?.mean / r.over_all(reference)?.mean)
}

fn pct(x: f64) -> String {
    format!("{:+.1}%", 100.0 * (x - 1.0))
}

const SWAP_VARIANTS: &[&str] = &[
    "tcp-pr", "sack", "dsack-nm", "ba-inc1", "ba-incn", "ba-ewma", "td-fr",
];
const MP_VARIANTS: &[&str] = &[
    "tcp-pr", "sack", "dsack-nm", "ba-inc1", "ba-incn", "ba-ewma", "td-fr", "tcp-dcr",
];
const DUPTHRESH_SCHEMES: &[&str] = &["sack", "dsack-nm", "ba-inc1", "ba-incn", "ba-ewma"];

fn swaps_base(delay_ms: u32) -> String {
    format!(
        r#"# TCP-PR Fig. 13: one flow, a single 15 Mbit/s bottleneck with a
# 250-packet drop-tail queue in which K pairs of packets are swapped every
# second. The bottleneck's one-way propagation delay is {delay_ms} ms.
name = "pr-fig13"
duration = "200s"
seed = 1
[measure]
from = "20s"
[topology]
kind = "dumbbell"
[topology.bottleneck]
rate = "15Mbps"
delay = "{delay_ms}ms"
queue = 250
[topology.access]
rate = "100Mbps"
delay = "0ms"
[[flows]]
variant = "tcp-pr"
[[impairments]]
link = "bottleneck"
kind = "swap"
interval = "1s"
swaps = 1
"#
    )
}

fn sack_close_to_others(r: &Results) -> (String, Verdict) {
    let others: Vec<f64> = DUPTHRESH_SCHEMES[1..]
        .iter()
        .chain(["td-fr", "tcp-pr"].iter())
        .filter_map(|v| r.over_all(v).map(|s| s.mean))
        .collect();
    let Some(sack) = r.over_all("sack") else {
        return ("no SACK runs".into(), Verdict::Inconclusive);
    };
    if others.is_empty() {
        return ("no other curves".into(), Verdict::Inconclusive);
    }
    let mean = others.iter().sum::<f64>() / others.len() as f64;
    let d = sack.mean / mean;
    let v = if (d - 1.0).abs() <= 0.05 {
        Verdict::Agrees
    } else {
        Verdict::Disagrees
    };
    (
        format!(
            "SACK's mean goodput over all K is {} relative to the mean of the other algorithms",
            pct(d)
        ),
        v,
    )
}

fn pr_flat_in_k(r: &Results) -> (String, Verdict) {
    let ys: Vec<f64> = r
        .xs()
        .iter()
        .filter_map(|x| r.at("tcp-pr", x).map(|s| s.mean))
        .collect();
    if ys.len() < 2 {
        return ("fewer than two K values".into(), Verdict::Inconclusive);
    }
    let (lo, hi) = ys.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |a, &y| {
        (a.0.min(y), a.1.max(y))
    });
    let spread = (hi - lo) / hi;
    let v = if spread <= 0.10 {
        Verdict::Agrees
    } else {
        Verdict::Disagrees
    };
    (
        format!(
            "TCP-PR's goodput varies by {:.1}% across K ({:.3} to {:.3} Mb/s)",
            100.0 * spread,
            lo,
            hi
        ),
        v,
    )
}

fn most_methods_25pct_below_pr(r: &Results) -> (String, Verdict) {
    let mut parts = Vec::new();
    let mut in_band = 0;
    let mut n = 0;
    for v in DUPTHRESH_SCHEMES {
        if let Some(d) = ratio_overall(r, v, "tcp-pr") {
            parts.push(format!("{v} {}", pct(d)));
            n += 1;
            if (0.60..=0.90).contains(&d) {
                in_band += 1;
            }
        }
    }
    if let Some(d) = ratio_overall(r, "td-fr", "tcp-pr") {
        parts.push(format!("td-fr {}", pct(d)));
    }
    if n == 0 {
        return ("no runs".into(), Verdict::Inconclusive);
    }
    let v = if 2 * in_band > n {
        Verdict::Agrees
    } else {
        Verdict::Disagrees
    };
    (
        format!(
            "relative to TCP-PR over all K: {} ({in_band} of {n} dupthresh schemes 10-40% below)",
            parts.join(", ")
        ),
        v,
    )
}

fn swaps(delay_ms: u32, id: &'static str, source: &'static str, claims: Vec<Claim>) -> Experiment {
    Experiment {
        id,
        title: if delay_ms < 100 { "throughput vs. packet swaps per swap event, 30 ms" } else { "throughput vs. packet swaps per swap event, 180 ms" },
        source,
        base: swaps_base(delay_ms),
        curves: variant_curves(SWAP_VARIANTS),
        variant_curves: vec![],
        x: XAxis {
            key: "impairments.0.swaps".into(),
            label: "packet swaps per swap event (K)".into(),
            full: strs(&["1", "2", "4", "8", "16", "32", "64"]),
            quick: strs(&["1", "8", "64"]),
            position: ident,
            log: true,
        },
        seeds: (5, 2),
        full_set: vec![],
        quick_set: strs(&["duration=40s", "measure.from=10s"]),
        y_label: "goodput (Mb/s)",
        metric: goodput_mbps,
        x_measured: None,
        style: Style::Lines,
        reference: None,
        extras: Default::default(),
        claims,
        notes: vec![
            "The bottleneck rate (15 Mbit/s), the run length (200 s, goodput over 20-200 s) and the K values are ours: the paper does not state them.",
            "'30 ms / 180 ms propagation delay' is read as the bottleneck link's one-way delay, as an ns-2 link delay (round trip 60 / 360 ms).",
            "Swapped packets are two distinct packets drawn uniformly from the queue; an event with fewer than two queued packets swaps nothing.",
            "K starts at 1: the scenario schema needs at least one swap per event.",
        ],
    }
}

fn multipath_base(delay_ms: u32) -> String {
    format!(
        r#"# TCP-PR Figs. 14-15: one flow over a mesh of node-disjoint paths of
# 2, 3 and 4 links (our construction: the figure is lost), every link
# 10 Mbit/s with a 100-packet queue and {delay_ms} ms one-way delay; packets
# choose a path per packet with probability ~ exp(-epsilon * extra hops).
name = "pr-multipath"
duration = "100s"
seed = 1
[measure]
from = "20s"
[topology]
kind = "multipath"
epsilon = 0.0
link_delay = "{delay_ms}ms"
hops = [2, 3, 4]
[[flows]]
variant = "tcp-pr"
"#
    )
}

fn all_equal_single_path(r: &Results) -> (String, Verdict) {
    let x = "500";
    let ys: Vec<(String, f64)> = r
        .curves()
        .into_iter()
        .filter_map(|c| r.at(&c, x).map(|s| (c, s.mean)))
        .collect();
    if ys.len() < 2 {
        return ("epsilon = 500 not run".into(), Verdict::Inconclusive);
    }
    let (lo, hi) = ys.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |a, y| {
        (a.0.min(y.1), a.1.max(y.1))
    });
    let spread = (hi - lo) / hi;
    let v = if spread <= 0.10 {
        Verdict::Agrees
    } else {
        Verdict::Disagrees
    };
    (
        format!(
            "at epsilon = 500 goodputs span {:.3} to {:.3} Mb/s ({:.1}% spread)",
            lo,
            hi,
            100.0 * spread
        ),
        v,
    )
}

fn others_collapse_at_zero(r: &Results) -> (String, Verdict) {
    let Some(pr) = r.at("tcp-pr", "0") else {
        return ("epsilon = 0 not run".into(), Verdict::Inconclusive);
    };
    let mut parts = Vec::new();
    let mut collapsed = 0;
    for v in DUPTHRESH_SCHEMES {
        if let Some(s) = r.at(v, "0") {
            let d = s.mean / pr.mean;
            parts.push(format!("{v} {:.0}%", 100.0 * d));
            collapsed += (d < 0.5) as usize;
        }
    }
    let v = if collapsed * 2 > parts.len() {
        Verdict::Agrees
    } else {
        Verdict::Disagrees
    };
    (
        format!(
            "at epsilon = 0, as a share of TCP-PR's {:.2} Mb/s: {}",
            pr.mean,
            parts.join(", ")
        ),
        v,
    )
}

fn tdfr_dcr_reasonable_small_delay(r: &Results) -> (String, Verdict) {
    let Some(pr) = r.at("tcp-pr", "0") else {
        return ("epsilon = 0 not run".into(), Verdict::Inconclusive);
    };
    let mut parts = Vec::new();
    let mut ok = true;
    for v in ["td-fr", "tcp-dcr"] {
        match r.at(v, "0") {
            Some(s) => {
                let d = s.mean / pr.mean;
                parts.push(format!("{v} {:.0}% of TCP-PR", 100.0 * d));
                ok &= d >= 0.5;
            }
            None => return (format!("{v} not run"), Verdict::Inconclusive),
        }
    }
    (
        format!("at epsilon = 0: {}", parts.join(", ")),
        if ok {
            Verdict::Agrees
        } else {
            Verdict::Disagrees
        },
    )
}

fn tdfr_dcr_suffer_long_delay(r: &Results) -> (String, Verdict) {
    let Some(pr) = r.at("tcp-pr", "0") else {
        return ("epsilon = 0 not run".into(), Verdict::Inconclusive);
    };
    let mut parts = Vec::new();
    let mut ok = true;
    for v in ["td-fr", "tcp-dcr"] {
        match r.at(v, "0") {
            Some(s) => {
                let d = s.mean / pr.mean;
                parts.push(format!("{v} {:.0}% of TCP-PR", 100.0 * d));
                ok &= d < 0.5;
            }
            None => return (format!("{v} not run"), Verdict::Inconclusive),
        }
    }
    (
        format!("at epsilon = 0 with 60 ms links: {}", parts.join(", ")),
        if ok {
            Verdict::Agrees
        } else {
            Verdict::Disagrees
        },
    )
}

fn dcr_worse_with_delay(r: &Results) -> (String, Verdict) {
    let a = r.at("tcp-dcr 10ms", "0");
    let b = r.at("tcp-dcr 60ms", "0");
    match (a, b) {
        (Some(a), Some(b)) => {
            let v = if b.mean < 0.75 * a.mean {
                Verdict::Agrees
            } else {
                Verdict::Disagrees
            };
            (
                format!(
                    "TCP-DCR at epsilon = 0: {:.3} Mb/s with 10 ms links, {:.3} Mb/s with 60 ms",
                    a.mean, b.mean
                ),
                v,
            )
        }
        _ => (
            "10 ms and 60 ms curves needed".into(),
            Verdict::Inconclusive,
        ),
    }
}

fn multipath(
    delay_ms: u32,
    id: &'static str,
    source: &'static str,
    claims: Vec<Claim>,
) -> Experiment {
    Experiment {
        id,
        title: if delay_ms < 30 { "throughput vs. epsilon, multipath, 10 ms links" } else { "throughput vs. epsilon, multipath, 60 ms links" },
        source,
        base: multipath_base(delay_ms),
        curves: variant_curves(MP_VARIANTS),
        variant_curves: vec![],
        x: XAxis {
            key: "topology.epsilon".into(),
            label: "log10(1 + epsilon)".into(),
            full: strs(&["0", "0.5", "1", "2", "3", "5", "500"]),
            quick: strs(&["0", "1", "500"]),
            position: log1p10,
            log: false,
        },
        seeds: (3, 2),
        full_set: vec![],
        quick_set: strs(&["duration=30s", "measure.from=10s"]),
        y_label: "goodput (Mb/s)",
        metric: goodput_mbps,
        x_measured: None,
        style: Style::Lines,
        reference: None,
        extras: Default::default(),
        claims,
        notes: vec![
            "Fig. 14 is lost: the mesh (three node-disjoint paths of 2, 3 and 4 links) and the path-choice family p ~ exp(-epsilon * extra hops) are ours; epsilon = 0 and 500 have the paper's meaning.",
            "ACKs are routed over the same multipath family as data.",
            "Runs without background traffic; the paper shows both and does not say which figure is which.",
        ],
    }
}

fn fairness_base(
    rate: &str,
    rtt_ms: u32,
    queue: u32,
    aqm: &str,
    a: &str,
    b: &str,
    web: bool,
) -> String {
    // Round trip = 2 * (access + bottleneck + access): 1 ms access links.
    let bottleneck_ms = rtt_ms as f64 / 2.0 - 2.0;
    let red = if aqm == "red" {
        let min_th = (queue as f64 / 12.0).max(2.0).round();
        format!("red = {{ min_th = {min_th}, max_th = {}, max_p = 0.1, weight = 0.002, gentle = true }}\n", (3.0 * min_th).min(queue as f64))
    } else {
        String::new()
    };
    let web = if web {
        "[[traffic]]\nkind = \"web\"\nsrc = \"R1\"\ndst = \"R2\"\npairs = 5\nsessions = 10\n"
    } else {
        ""
    };
    format!(
        r#"# TCP-PR Section V: equal numbers of {a} and {b} bulk flows on a
# {rate} dumbbell, {rtt_ms} ms round-trip propagation delay ({bottleneck_ms} ms
# one way on the bottleneck, 1 ms on each access link), a {queue}-packet
# {aqm} queue. Normalized throughput over the last 60 s. Each flow starts
# at a time drawn uniformly in [0 s, 1 s], so that identical flows are not
# phase-locked.
name = "pr-fairness"
duration = "120s"
seed = 1
[measure]
from = "60s"
[topology]
kind = "dumbbell"
pairs = 1
[topology.bottleneck]
rate = "{rate}"
delay = "{bottleneck_ms}ms"
queue = {queue}
aqm = "{aqm}"
{red}[topology.access]
rate = "1Gbps"
delay = "1ms"
queue = 10000
[[flows]]
variant = "{a}"
count = 8
pair = 0
start = {{ dist = "uniform", min = "0s", max = "1s" }}
[[flows]]
variant = "{b}"
count = 8
pair = 0
start = {{ dist = "uniform", min = "0s", max = "1s" }}
{web}"#
    )
}

fn reno_sack_share(r: &Results) -> (String, Verdict) {
    let (m, _) = both_near_one(r);
    (m, Verdict::Informational)
}

fn both_near_one(r: &Results) -> (String, Verdict) {
    let curves = r.curves();
    let mut parts = Vec::new();
    let mut ok = true;
    for c in &curves {
        if let Some(s) = r.over_all(c) {
            parts.push(format!("{c} {:.3} ± {:.3}", s.mean, s.ci95));
            ok &= (s.mean - 1.0).abs() <= 0.15;
        }
    }
    if parts.is_empty() {
        return ("no runs".into(), Verdict::Inconclusive);
    }
    (
        format!(
            "mean normalized throughput over all flow counts: {}",
            parts.join(", ")
        ),
        if ok {
            Verdict::Agrees
        } else {
            Verdict::Disagrees
        },
    )
}

#[allow(clippy::too_many_arguments)]
fn fairness(
    id: &'static str,
    title: &'static str,
    source: &'static str,
    rate: &str,
    rtt_ms: u32,
    queue: u32,
    aqm: &str,
    pair: (&'static str, &'static str),
    web: bool,
) -> Experiment {
    Experiment {
        id,
        title,
        source,
        base: fairness_base(rate, rtt_ms, queue, aqm, pair.0, pair.1, web),
        curves: vec![],
        variant_curves: vec![pair.0, pair.1],
        x: XAxis {
            key: "flows.0.count&flows.1.count".into(),
            label: "flows of each protocol".into(),
            full: strs(&["1", "2", "4", "8", "16", "32"]),
            quick: strs(&["2", "8"]),
            position: ident,
            log: false,
        },
        seeds: (5, 1),
        full_set: vec![],
        quick_set: strs(&["duration=40s", "measure.from=20s"]),
        y_label: "mean normalized throughput",
        metric: mean_normalized,
        x_measured: None,
        style: Style::Lines,
        reference: None,
        extras: Default::default(),
        claims: vec![Claim {
            paper: "\"the two versions of TCP-PR and TCP-SACK compete fairly over a wide range of traffic conditions\" (tcp-pr.txt:229): both means near 1",
            check: both_near_one,
        }],
        notes: vec![
            "Flow start times are ours: the paper does not state them, and flows of one protocol started at the same instant stay phase-locked (identical rows, and under drop-tail identical results for every seed), which an ns-2 experiment with independently started flows would not be; every flow starts at a time drawn uniformly in [0 s, 1 s] (start-time jitter), from its own random stream.",
            "Flow counts, run length (120 s, the last 60 s measured), access links and RED parameters (min_th = queue/12, at least 2, max_th = 3 min_th, max_p 0.1, w_q 0.002, gentle) are ours: the paper does not state them.",
            "The normalized throughput uses delivered data (goodput); the paper's x_i is 'the total data sent', which would also count retransmissions.",
            "TCP-PR is the extreme-loss version (Table III), SACK the RFC 6675 sender; all flows share one sender node and one receiver node, as in the paper.",
            "Web background (Fig. 9): the paper's parameters (5 pairs x 10 sessions, 1 s think time, Pareto 40 KB objects) offer far more than the 'around 10% of the total traffic' the paper reports; the model is closed-loop (a session thinks after its page arrives), as ns-2's default, and is not scaled down to match.",
            "Agreement is judged as both protocols' means within 15% of 1.",
        ],
    }
}

fn cov_similar(r: &Results) -> (String, Verdict) {
    let a = r.over_all("tcp-pr");
    let b = r.over_all("sack");
    match (a, b) {
        (Some(a), Some(b)) => {
            let d = a.mean / b.mean;
            let v = if (0.5..=2.0).contains(&d) {
                Verdict::Agrees
            } else {
                Verdict::Disagrees
            };
            (
                format!(
                    "mean CoV: TCP-PR {:.4}, SACK {:.4} (ratio {:.2})",
                    a.mean, b.mean, d
                ),
                v,
            )
        }
        _ => ("no runs".into(), Verdict::Inconclusive),
    }
}

fn sack_more_at_beta_one(r: &Results) -> (String, Verdict) {
    let b1 = r
        .curves()
        .iter()
        .filter_map(|c| r.at(c, "1").map(|s| s.mean))
        .collect::<Vec<_>>();
    let b3 = r
        .curves()
        .iter()
        .filter_map(|c| r.at(c, "3").map(|s| s.mean))
        .collect::<Vec<_>>();
    if b1.is_empty() || b3.is_empty() {
        return ("beta = 1 and 3 needed".into(), Verdict::Inconclusive);
    }
    let m1 = b1.iter().sum::<f64>() / b1.len() as f64;
    let m3 = b3.iter().sum::<f64>() / b3.len() as f64;
    let v = if m1 > m3 && (m3 - 1.0).abs() <= 0.1 {
        Verdict::Agrees
    } else {
        Verdict::Disagrees
    };
    (
        format!("SACK's mean normalized throughput: {m1:.3} at beta = 1, {m3:.3} at beta = 3"),
        v,
    )
}

fn spacing_at_least_k(r: &Results) -> (String, Verdict) {
    let k = 3f64.ln() / -(0.99f64.ln());
    let ys: Vec<f64> = r
        .xs()
        .iter()
        .filter_map(|x| r.at("alpha 0.99", x).map(|s| s.mean))
        .filter(|y| y.is_finite())
        .collect();
    if ys.is_empty() {
        return (
            "no spurious drop detections at all".into(),
            Verdict::Inconclusive,
        );
    }
    let min = ys.iter().cloned().fold(f64::INFINITY, f64::min);
    let v = if min >= 0.8 * k {
        Verdict::Agrees
    } else {
        Verdict::Disagrees
    };
    (format!("alpha = 0.99: the smallest mean spacing over the long-path probabilities is {min:.0} short-path RTTs; log(beta)/-log(alpha) = {k:.0}"), v)
}

/// Claims shared by both panels of a figure.
const PR_FLAT_IN_K: Claim = Claim {
    paper: "\"the throughput achieved by TCP-PR is nearly independent of the number of packet swaps\" (tcp-pr.txt:295)",
    check: pr_flat_in_k,
};
const ALL_EQUAL_SINGLE_PATH: Claim = Claim {
    paper: "\"for epsilon = 500 (single-path routing), all methods achieve the same throughput\" (tcp-pr.txt:313)",
    check: all_equal_single_path,
};
const OTHERS_COLLAPSE: Claim = Claim {
    paper: "\"For epsilon = 0 ... most protocols other than TCP-PR suffer drastic decreases in throughput\" (tcp-pr.txt:313)",
    check: others_collapse_at_zero,
};

/// Every TCP-PR experiment.
pub fn experiments() -> Vec<Experiment> {
    let mut v = vec![
        swaps(
            30,
            "pr-fig13-30ms",
            "TCP-PR Fig. 13 (left)",
            vec![
                Claim { paper: "\"even TCP-SACK ... achieves a throughput that is merely 1.5% smaller than the other algorithms\" (tcp-pr.txt:295)", check: sack_close_to_others },
                PR_FLAT_IN_K,
            ],
        ),
        swaps(
            180,
            "pr-fig13-180ms",
            "TCP-PR Fig. 13 (right)",
            vec![
                Claim { paper: "\"most methods only achieve a throughput that is 25% smaller than TCP-PR and TD-FR\" (tcp-pr.txt:295)", check: most_methods_25pct_below_pr },
                PR_FLAT_IN_K,
            ],
        ),
        multipath(
            10,
            "pr-fig15-10ms",
            "TCP-PR Fig. 15 (left)",
            vec![
                ALL_EQUAL_SINGLE_PATH,
                OTHERS_COLLAPSE,
                Claim { paper: "\"TD-FR and TCP-DCR ... still achieve a reasonable throughput for small values of epsilon when the propagation delay is small\" (tcp-pr.txt:313)", check: tdfr_dcr_reasonable_small_delay },
            ],
        ),
        multipath(
            60,
            "pr-fig15-60ms",
            "TCP-PR Fig. 15 (right)",
            vec![
                ALL_EQUAL_SINGLE_PATH,
                OTHERS_COLLAPSE,
                Claim { paper: "\"TD-FR and TCP-DCR still suffer a large decrease in throughput when the propagation delay is increased\" (tcp-pr.txt:313)", check: tdfr_dcr_suffer_long_delay },
            ],
        ),
    ];
    // Fig. 16: TCP-PR and TCP-DCR against epsilon at several link delays.
    let mut fig16 = multipath(10, "pr-fig16", "TCP-PR Fig. 16", vec![Claim { paper: "TCP-DCR \"still suffer[s] a large decrease in throughput when the propagation delay is increased\" (tcp-pr.txt:313)", check: dcr_worse_with_delay }]);
    fig16.title = "TCP-PR and TCP-DCR vs. epsilon at 10, 30 and 60 ms links";
    fig16.curves = ["tcp-pr", "tcp-dcr"]
        .iter()
        .flat_map(|v| {
            [10, 30, 60].into_iter().map(move |d| Curve {
                label: format!("{v} {d}ms"),
                set: vec![
                    format!("flows.0.variant={v}"),
                    format!("topology.link_delay={d}ms"),
                ],
            })
        })
        .collect();
    v.push(fig16);

    // Figs. 4-10: fairness. Left and right panels are separate experiments.
    let pr_sack = ("tcp-pr", "sack");
    let reno_sack = ("reno", "sack");
    v.push(fairness(
        "pr-fig4-left",
        "TCP-PR vs SACK fairness, RED, 15 Mb/s, 200 ms, 250 pkts",
        "TCP-PR Fig. 4 (left)",
        "15Mbps",
        200,
        250,
        "red",
        pr_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig4-right",
        "TCP-PR vs SACK fairness, RED, 15 Mb/s, 20 ms, 25 pkts",
        "TCP-PR Fig. 4 (right)",
        "15Mbps",
        20,
        25,
        "red",
        pr_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig5-left",
        "TCP-PR vs SACK fairness, drop-tail, 15 Mb/s, 200 ms, 250 pkts",
        "TCP-PR Fig. 5 (left)",
        "15Mbps",
        200,
        250,
        "droptail",
        pr_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig5-right",
        "TCP-PR vs SACK fairness, drop-tail, 15 Mb/s, 20 ms, 250 pkts",
        "TCP-PR Fig. 5 (right)",
        "15Mbps",
        20,
        250,
        "droptail",
        pr_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig6-left",
        "Reno vs SACK fairness, drop-tail, 15 Mb/s, 20 ms, 250 pkts",
        "TCP-PR Fig. 6 (left)",
        "15Mbps",
        20,
        250,
        "droptail",
        reno_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig6-right",
        "Reno vs SACK fairness, RED, 15 Mb/s, 20 ms, 250 pkts",
        "TCP-PR Fig. 6 (right)",
        "15Mbps",
        20,
        250,
        "red",
        reno_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig7-left",
        "TCP-PR vs SACK fairness, drop-tail, 1.5 Mb/s, 20 ms, 25 pkts",
        "TCP-PR Fig. 7 (left)",
        "1.5Mbps",
        20,
        25,
        "droptail",
        pr_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig7-right",
        "TCP-PR vs SACK fairness, RED, 1.5 Mb/s, 20 ms, 25 pkts",
        "TCP-PR Fig. 7 (right)",
        "1.5Mbps",
        20,
        25,
        "red",
        pr_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig8-left",
        "Reno vs SACK fairness, drop-tail, 1.5 Mb/s, 20 ms, 25 pkts",
        "TCP-PR Fig. 8 (left)",
        "1.5Mbps",
        20,
        25,
        "droptail",
        reno_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig8-right",
        "Reno vs SACK fairness, RED, 1.5 Mb/s, 20 ms, 25 pkts",
        "TCP-PR Fig. 8 (right)",
        "1.5Mbps",
        20,
        25,
        "red",
        reno_sack,
        false,
    ));
    v.push(fairness(
        "pr-fig9-left",
        "TCP-PR vs SACK with web background, drop-tail, 15 Mb/s, 20 ms",
        "TCP-PR Fig. 9 (left)",
        "15Mbps",
        20,
        250,
        "droptail",
        pr_sack,
        true,
    ));
    v.push(fairness(
        "pr-fig9-right",
        "TCP-PR vs SACK with web background, RED, 15 Mb/s, 20 ms",
        "TCP-PR Fig. 9 (right)",
        "15Mbps",
        20,
        250,
        "red",
        pr_sack,
        true,
    ));
    for e in v
        .iter_mut()
        .filter(|e| e.variant_curves.first() == Some(&"reno"))
    {
        e.claims = vec![Claim {
            paper: "Figs. 6 and 8 show TCP-Reno against TCP-SACK \"for comparison purposes\" (tcp-pr.txt:229): how unequally two standard TCPs share the link",
            check: reno_sack_share,
        }];
    }
    for (id, title, source, aqm) in [
        (
            "pr-fig10-left",
            "TCP-PR vs SACK on the parking lot with web cross traffic, drop-tail",
            "TCP-PR Fig. 10 (left)",
            "droptail",
        ),
        (
            "pr-fig10-right",
            "TCP-PR vs SACK on the parking lot with web cross traffic, RED",
            "TCP-PR Fig. 10 (right)",
            "red",
        ),
    ] {
        let mut e = fairness(id, title, source, "15Mbps", 20, 250, aqm, pr_sack, false);
        e.base = parking_lot_base(aqm);
        e.notes.push("Parking lot: every link 15 Mbit/s with 10 ms one way (the paper's 'round-trip propagation delay of 20ms' per link), queue 250; web cross traffic on the six CS->CD connections (8 server-client pairs, 10 sessions each).");
        v.push(e);
    }

    // Fig. 11: CoV vs drop rate, bandwidth decreasing.
    let mut fig11 = fairness(
        "pr-fig11-left",
        "coefficient of variation vs. drop rate, dumbbell",
        "TCP-PR Fig. 11 (left)",
        "15Mbps",
        20,
        250,
        "droptail",
        pr_sack,
        false,
    );
    fig11.x = XAxis {
        key: "topology.bottleneck.rate".into(),
        label: "percent of packets dropped at the bottleneck".into(),
        full: strs(&["15Mbps", "10Mbps", "5Mbps", "3Mbps", "2Mbps", "1Mbps"]),
        quick: strs(&["15Mbps", "2Mbps"]),
        position: ident,
        log: false,
    };
    fig11.full_set = strs(&["flows.0.count=16", "flows.1.count=16"]);
    fig11.quick_set = strs(&[
        "flows.0.count=8",
        "flows.1.count=8",
        "duration=40s",
        "measure.from=20s",
    ]);
    fig11.seeds = (10, 2);
    fig11.metric = cov_printed;
    fig11.y_label = "coefficient of variation (as printed in Section V)";
    fig11.x_measured = Some(bottleneck_drop_percent);
    fig11.style = Style::Scatter;
    fig11.claims = vec![Claim { paper: "\"the mean and variance of the throughput for TCP-PR and TCP-SACK are similar\" (tcp-pr.txt:245)", check: cov_similar }];
    fig11.notes = vec![
        "Loss is raised by lowering the bottleneck rate (the paper's method); the rates and the 16 + 16 flows are ours.",
        "CoV is the paper's printed formula (1 / sum T_i) sqrt(sum (T_i - mean T)^2), which is std/mean divided by sqrt(n).",
        "Agreement is judged as the two mean CoVs within a factor of 2.",
    ];
    // The parking-lot panel: the three bottlenecks slowed together.
    let mut fig11r = fig11.clone();
    fig11r.id = "pr-fig11-right";
    fig11r.title = "coefficient of variation vs. drop rate, parking lot with web cross traffic";
    fig11r.source = "TCP-PR Fig. 11 (right)";
    fig11r.base = parking_lot_base("droptail");
    fig11r.x.key = "topology.link.rate".into();
    fig11r.x.quick = strs(&["15Mbps", "5Mbps"]);
    fig11r.notes.push("Parking lot: every 15 Mbit/s link is slowed together (the CS links keep their rates); web cross traffic as in Fig. 10.");
    v.push(fig11);
    v.push(fig11r);

    // Fig. 12: SACK's mean normalized throughput against TCP-PR over alpha and beta.
    let mut fig12 = fairness(
        "pr-fig12-left",
        "SACK vs TCP-PR over alpha and beta, dumbbell",
        "TCP-PR Fig. 12 (left)",
        "15Mbps",
        20,
        250,
        "droptail",
        pr_sack,
        false,
    );
    fig12.variant_curves = vec![];
    fig12.curves = ["0.99", "0.999", "0.9999"]
        .iter()
        .map(|a| Curve {
            label: format!("alpha {a}"),
            set: vec![format!("flows.0.params.alpha={a}")],
        })
        .collect();
    fig12.x = XAxis {
        key: "flows.0.params.beta".into(),
        label: "TCP-PR beta".into(),
        full: strs(&["1", "1.5", "2", "3", "5", "10"]),
        quick: strs(&["1", "3", "10"]),
        position: ident,
        log: false,
    };
    fig12.full_set = strs(&["flows.0.count=32", "flows.1.count=32"]);
    fig12.quick_set = strs(&[
        "flows.0.count=8",
        "flows.1.count=8",
        "duration=40s",
        "measure.from=20s",
    ]);
    fig12.seeds = (3, 1);
    fig12.metric = |r, _| mean_normalized(r, Some("sack"));
    fig12.y_label = "SACK mean normalized throughput";
    fig12.claims = vec![Claim { paper: "\"for beta = 1, TCP-SACK exhibits higher throughput. However, for beta larger than 1, both implementations achieve nearly identical performance\" (tcp-pr.txt:247)", check: sack_more_at_beta_one }];
    fig12.notes = vec!["The alpha and beta grids are ours (the paper names beta = 1, 10 and 1 < beta < 5); 32 + 32 flows as in the paper."];
    let mut fig12r = fig12.clone();
    fig12r.id = "pr-fig12-right";
    fig12r.title = "SACK vs TCP-PR over alpha and beta, parking lot with web cross traffic";
    fig12r.source = "TCP-PR Fig. 12 (right)";
    fig12r.base = parking_lot_base("droptail");
    fig12r.notes.push("Parking lot with the web cross traffic of Fig. 10; the 32 + 32 flows run S -> D across all three bottlenecks.");
    v.push(fig12);
    v.push(fig12r);

    v.push(worst_case());
    v
}

fn parking_lot_base(aqm: &str) -> String {
    let red = if aqm == "red" {
        "red = { min_th = 20, max_th = 60, max_p = 0.1, weight = 0.002, gentle = true }\n"
    } else {
        ""
    };
    let mut s = format!(
        r#"# TCP-PR Fig. 10: TCP-PR and SACK flows S -> D across the parking lot's
# three bottlenecks with web cross traffic on CS1->CD1, CS1->CD2, CS1->CD3,
# CS2->CD2, CS2->CD3 and CS3->CD3.
name = "pr-parking-lot"
duration = "120s"
seed = 1
[measure]
from = "60s"
[topology]
kind = "parking-lot"
[topology.link]
rate = "15Mbps"
delay = "10ms"
queue = 250
aqm = "{aqm}"
{red}[[flows]]
variant = "tcp-pr"
count = 8
[[flows]]
variant = "sack"
count = 8
"#
    );
    for (src, dst, pairs) in [
        ("CS1", "CD1", 2),
        ("CS1", "CD2", 1),
        ("CS1", "CD3", 1),
        ("CS2", "CD2", 1),
        ("CS2", "CD3", 1),
        ("CS3", "CD3", 2),
    ] {
        s.push_str(&format!("[[traffic]]\nkind = \"web\"\nsrc = \"{src}\"\ndst = \"{dst}\"\npairs = {pairs}\nsessions = 10\n"));
    }
    s
}

/// Section IV-A: the worst case for spurious timeouts on Fig. 1's two-path
/// network.
fn worst_case() -> Experiment {
    let base = r#"# TCP-PR Section IV-A / Fig. 1: a sender and a receiver joined by a short
# path (2 links of 5 ms, a 5-packet queue: RTT_min = 20-26 ms) and a long
# path (3 links of 30 ms: a packet or an ACK on it makes the RTT 100 ms >
# beta * RTT_min = 60-78 ms);
# each packet and each ACK takes the long path with probability
# e^-eps / (1 + e^-eps) (one extra hop).
name = "pr-worst-case"
duration = "600s"
seed = 1
[measure]
from = "60s"
[topology]
kind = "custom"
nodes = ["S", "A", "B1", "B2", "D"]
endpoints = [["S", "D"]]
[[topology.links]]
name = "short-1"
a = "S"
b = "A"
rate = "10Mbps"
delay = "5ms"
queue = 5
[[topology.links]]
name = "short-2"
a = "A"
b = "D"
rate = "10Mbps"
delay = "5ms"
queue = 1000
[[topology.links]]
name = "long-1"
a = "S"
b = "B1"
rate = "10Mbps"
delay = "30ms"
queue = 1000
[[topology.links]]
name = "long-2"
a = "B1"
b = "B2"
rate = "10Mbps"
delay = "30ms"
queue = 1000
[[topology.links]]
name = "long-3"
a = "B2"
b = "D"
rate = "10Mbps"
delay = "30ms"
queue = 1000
[[topology.multipath]]
src = "S"
dst = "D"
epsilon = 6.9
[[flows]]
variant = "tcp-pr"
params = { alpha = 0.99, beta = 3.0 }
"#;
    Experiment {
        id: "pr-worst-case",
        title: "RTTs between spurious timeouts on the two-path network vs. long-path probability",
        source: "TCP-PR Section IV-A, Fig. 1",
        base: base.to_string(),
        curves: vec![Curve { label: "alpha 0.99".into(), set: vec![] }],
        variant_curves: vec![],
        x: XAxis {
            key: "topology.multipath.0.epsilon".into(),
            label: "epsilon (long-path probability e^-eps / (1 + e^-eps))".into(),
            full: strs(&["6", "7", "8", "9", "10"]),
            quick: strs(&["8", "10"]),
            position: ident,
            log: false,
        },
        seeds: (5, 1),
        full_set: vec![],
        quick_set: strs(&["duration=120s", "measure.from=20s"]),
        y_label: "short-path RTTs between spurious drop detections",
        metric: |r, _| rtts_between_spurious(r, 0.020),
        x_measured: None,
        style: Style::Lines,
        reference: Some(("log(beta) / -log(alpha) = 109".into(), 3f64.ln() / -(0.99f64.ln()))),
        extras: Default::default(),
        claims: vec![Claim {
            paper: "a spurious timeout needs beta * RTT_min < RTT_max and at least log(beta) / -log(alpha) short-path RTTs since the last long-path sample (tcp-pr.txt:159-168)",
            check: spacing_at_least_k,
        }],
        notes: vec![
            "alpha = 0.99 (K = 109 RTTs) instead of the paper's 0.999 (K = 1098 RTTs) keeps the runs short; the bound scales with K.",
            "A 5-packet queue on the short path keeps RTT_min within 20-26 ms while the flow is limited by the network, not by the receiver: TCP-PR's cwnd keeps growing on every ACK when it is receiver-window limited, and srtt's decay per RTT (alpha^(ACKs per RTT / cwnd)) then stalls, which would hide the effect.",
            "Long-path packets must be rarer than one per K RTTs for every one of them to cause a spurious timeout: at about 20 packets per RTT that needs epsilon above about 7.7; below, srtt never decays far enough and there are few or none.",
            "Spurious drop detections are counted by the ground truth (the original was not lost).",
        ],
    }
}
