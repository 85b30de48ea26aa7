//! The network's impairments and multipath routing, driven through the
//! public API with a plain event loop.

use reorderlab_net::impair::{
    Impairment, ImpairmentKind, RandomDelay, Spikes, Swap, Timed, TimedKind,
};
use reorderlab_net::multipath::Multipath;
use reorderlab_net::{
    AqmSpec, LinkParams, NetEvent, NetOutput, Network, NetworkBuilder, NodeId, Packet,
};
use reorderlab_sim::{stream, EventQueue, Time, TimeDist};

fn lp(rate: u64, delay_ms: u64, queue: u32) -> LinkParams {
    LinkParams {
        rate_bps: rate,
        delay: Time::from_millis(delay_ms),
        queue,
        aqm: AqmSpec::DropTail,
    }
}

/// Runs until `until`, returning (arrival time, payload) of delivered packets.
fn run(net: &mut Network<u32>, q: &mut EventQueue<NetEvent>, until: Time) -> Vec<(Time, u32)> {
    let mut got = Vec::new();
    let mut outs = Vec::new();
    while let Some(t) = q.peek_time() {
        if t > until {
            break;
        }
        let (now, ev) = q.pop().unwrap();
        net.handle(q, now, ev);
        net.take_outputs(&mut outs);
        for o in &outs {
            match *o {
                NetOutput::Delivered(id) => {
                    got.push((now, net.pool.get(id).payload));
                    net.pool.free(id);
                }
                NetOutput::Dropped(id, _, _) => net.pool.free(id),
            }
        }
    }
    got
}

fn two_nodes(p: LinkParams) -> (Network<u32>, NodeId, NodeId) {
    let mut b = NetworkBuilder::new();
    let a = b.node("a");
    let c = b.node("c");
    b.duplex("ac", a, c, p);
    (b.build(1), a, c)
}

fn inversions(order: &[u32]) -> usize {
    order.windows(2).filter(|w| w[1] < w[0]).count()
}

#[test]
fn delayed_packets_are_overtaken_by_later_ones() {
    let (mut net, a, c) = two_nodes(lp(10_000_000, 5, 10_000));
    let l = net.route(a, c).unwrap();
    let d = RandomDelay::new(0.2, TimeDist::Constant(Time::from_millis(20)));
    net.impair(
        l,
        Impairment::new(ImpairmentKind::Delay(d), stream(1, &[7])),
    );
    let mut q = EventQueue::new();
    // One 1250-byte packet per millisecond (exactly the link rate).
    for i in 0..2000u32 {
        q.schedule(Time::from_millis(i as u64), NetEvent::Timed(u32::MAX));
        let _ = i;
    }
    let mut sent = 0u32;
    let mut got = Vec::new();
    let mut outs = Vec::new();
    while let Some((now, ev)) = q.pop() {
        if ev == NetEvent::Timed(u32::MAX) {
            net.send(&mut q, now, Packet::new(a, c, 0, 1250, sent));
            sent += 1;
        } else {
            net.handle(&mut q, now, ev);
        }
        net.take_outputs(&mut outs);
        for o in &outs {
            if let NetOutput::Delivered(id) = *o {
                got.push((now, net.pool.get(id).payload));
                net.pool.free(id);
            }
        }
    }
    assert_eq!(got.len(), 2000, "delay must not lose packets");
    let order: Vec<u32> = got.iter().map(|g| g.1).collect();
    assert!(
        inversions(&order) > 300,
        "delayed packets should be overtaken: {} inversions",
        inversions(&order)
    );
    // Every packet arrives 1 ms (serialization) + 5 ms, or 20 ms later than that.
    for &(t, i) in &got {
        let base = Time::from_millis(i as u64 + 6);
        assert!(
            t == base || t == base + Time::from_millis(20),
            "packet {i} at {t}"
        );
    }
}

#[test]
fn swap_event_swaps_exactly_k_pairs_when_the_queue_is_long_enough() {
    // 1 Mbit/s link, 1000-byte packets (8 ms each); 300 packets queued at once.
    let (mut net, a, c) = two_nodes(lp(1_000_000, 1, 250));
    let l = net.route(a, c).unwrap();
    let idx = net.add_timed(Timed {
        kind: TimedKind::Swap(Swap::new(l, Time::from_secs(1), 4)),
        rng: stream(1, &[3]),
    });
    let mut q = EventQueue::new();
    net.start(&mut q);
    for i in 0..300u32 {
        net.send(&mut q, Time::ZERO, Packet::new(a, c, 0, 1000, i));
    }
    let got = run(&mut net, &mut q, Time::from_secs(3));
    let TimedKind::Swap(s) = &net.timed[idx as usize].kind else {
        unreachable!()
    };
    // At 1 s the queue holds 250 - 125 = 125 packets, at 2 s 0: one event swapped.
    assert_eq!(s.events, 3);
    assert_eq!(
        s.performed, 4,
        "exactly K swaps in the one event with a queue"
    );
    let order: Vec<u32> = got.iter().map(|g| g.1).collect();
    assert!(
        (1..=8).contains(&inversions(&order)),
        "{} inversions",
        inversions(&order)
    );
}

#[test]
fn spikes_stop_both_directions_and_follow_the_configured_distributions() {
    let (mut net, a, c) = two_nodes(lp(10_000_000, 1, 100_000));
    let (f, r) = (net.route(a, c).unwrap(), net.route(c, a).unwrap());
    let secs = Time::from_secs;
    let sp = Spikes::new(
        (f, r),
        TimeDist::Uniform {
            min: secs(3),
            max: secs(15),
        },
        TimeDist::Uniform {
            min: secs(20),
            max: secs(40),
        },
    );
    let idx = net.add_timed(Timed {
        kind: TimedKind::Spikes(sp),
        rng: stream(1, &[4]),
    });
    let mut q = EventQueue::new();
    net.start(&mut q);
    // A packet each way every 10 ms for 1000 s.
    for i in 0..100_000u64 {
        let t = Time::from_millis(10 * i);
        q.schedule(
            t,
            NetEvent::DelayedArrive(
                reorderlab_net::LinkId(u32::MAX),
                reorderlab_net::PacketId(0),
            ),
        );
    }
    let mut got = Vec::new();
    let mut outs = Vec::new();
    let mut n = 0u32;
    // Spikes recur forever: stop after the traffic (1000 s) has drained.
    while let Some((now, ev)) = q.pop() {
        if now > Time::from_secs(1100) {
            break;
        }
        if let NetEvent::DelayedArrive(l, _) = ev {
            if l.0 == u32::MAX {
                net.send(&mut q, now, Packet::new(a, c, 0, 500, n));
                net.send(&mut q, now, Packet::new(c, a, 1, 500, n));
                n += 1;
                continue;
            }
        }
        net.handle(&mut q, now, ev);
        net.take_outputs(&mut outs);
        for o in &outs {
            if let NetOutput::Delivered(id) = *o {
                got.push((now, net.pool.get(id).flow));
                net.pool.free(id);
            }
        }
    }
    let TimedKind::Spikes(s) = &net.timed[idx as usize].kind else {
        unreachable!()
    };
    assert!(
        s.history.len() >= 20,
        "{} spikes in 1000 s",
        s.history.len()
    );
    for w in s.history.windows(2) {
        let gap = w[1].0 - w[0].0;
        assert!(gap >= secs(20) && gap <= secs(40), "start-to-start {gap}");
    }
    for &(start, end) in &s.history {
        let len = end - start;
        assert!(len >= secs(3) && len <= secs(15), "length {len}");
        // Nothing is delivered in either direction between start + (last
        // packet on the wire: serialization 0.4 ms + 1 ms) and end + 1 ms.
        let quiet_from = start + Time::from_millis(2);
        let quiet_to = end + Time::from_millis(1);
        let during: Vec<_> = got
            .iter()
            .filter(|(t, _)| *t > quiet_from && *t < quiet_to)
            .collect();
        assert!(
            during.is_empty(),
            "{} deliveries during the spike {start}..{end}",
            during.len()
        );
    }
    assert_eq!(got.len(), 200_000, "queued packets wait, none lost");
}

#[test]
fn rate_change_takes_effect_at_its_time() {
    let (mut net, a, c) = two_nodes(lp(8_000_000, 0, 100));
    let l = net.route(a, c).unwrap();
    net.add_timed(Timed {
        kind: TimedKind::RateChange(reorderlab_net::impair::RateChange {
            link: l,
            at: Time::from_secs(1),
            rate_bps: 80_000,
        }),
        rng: stream(1, &[5]),
    });
    let mut q = EventQueue::new();
    net.start(&mut q);
    net.send(&mut q, Time::ZERO, Packet::new(a, c, 0, 1000, 0));
    let got = run(&mut net, &mut q, Time::from_secs(1));
    assert_eq!(got, vec![(Time::from_millis(1), 0)]);
    run(&mut net, &mut q, Time::from_secs(2)); // apply the change
    let now = Time::from_secs(2);
    net.send(&mut q, now, Packet::new(a, c, 0, 1000, 1));
    let got = run(&mut net, &mut q, Time::from_secs(5));
    assert_eq!(
        got,
        vec![(now + Time::from_millis(100), 1)],
        "1000 bytes at 80 kbit/s take 100 ms"
    );
}

/// S and D joined by three disjoint paths of 2, 3 and 4 hops.
fn three_paths() -> (Network<u32>, NodeId, NodeId) {
    let mut b = NetworkBuilder::new();
    let s = b.node("S");
    let d = b.node("D");
    let p = lp(100_000_000, 1, 5000);
    let chain = |hops: usize, b: &mut NetworkBuilder| {
        let mut prev = s;
        for h in 0..hops - 1 {
            let r = b.node(format!("R{hops}{h}"));
            b.duplex(&format!("l{hops}{h}"), prev, r, p);
            prev = r;
        }
        b.duplex(&format!("l{hops}d"), prev, d, p);
    };
    chain(2, &mut b);
    chain(3, &mut b);
    chain(4, &mut b);
    (b.build(1), s, d)
}

#[test]
fn multipath_epsilon_spans_minimum_hop_to_uniform() {
    for (eps, expect) in [
        (500.0, [1.0, 0.0, 0.0]),
        (0.0, [1.0 / 3.0; 3]),
        (1.0, [0.665, 0.245, 0.09]),
    ] {
        let (net, s, d) = three_paths();
        let mut mp = Multipath::new(&net.nodes, &net.links, s, d, eps, stream(1, &[9])).unwrap();
        assert_eq!(
            mp.paths.iter().map(|p| p.hops).collect::<Vec<_>>(),
            vec![2, 3, 4]
        );
        for _ in 0..30_000 {
            mp.choose();
        }
        for (i, e) in expect.iter().enumerate() {
            let f = mp.counts[i] as f64 / 30_000.0;
            assert!(
                (f - e).abs() < 0.015,
                "epsilon {eps}: path {i} share {f}, expected {e}"
            );
        }
    }
}

#[test]
fn multipath_packets_follow_their_paths_and_arrive_out_of_order() {
    let (mut net, s, d) = three_paths();
    let mp = Multipath::new(&net.nodes, &net.links, s, d, 0.0, stream(1, &[9])).unwrap();
    net.add_multipath(mp);
    let mut q = EventQueue::new();
    for i in 0..3000u32 {
        net.send(
            &mut q,
            Time::from_micros(100 * i as u64),
            Packet::new(s, d, 0, 1000, i),
        );
    }
    let got = run(&mut net, &mut q, Time::from_secs(10));
    assert_eq!(got.len(), 3000);
    let order: Vec<u32> = got.iter().map(|g| g.1).collect();
    assert!(inversions(&order) > 100, "{}", inversions(&order));
    // Path delays are 2, 3 and 4 ms plus serialization: arrivals are never earlier than 2 ms.
    let counts = &net.multipath[0].counts;
    assert_eq!(counts.iter().sum::<u64>(), 3000);
}
