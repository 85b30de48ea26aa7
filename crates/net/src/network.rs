//! The network: nodes, link directions, static routes, and the handling of
//! the network's own events (a transmitter finishing, a packet arriving).
//!
//! The caller owns the event queue and the meaning of delivered packets; the
//! network only moves packet ids and reports what happened to them through
//! [`NetOutput`]s.

use crate::impair::{Impairment, Timed, TimedKind, Verdict};
use crate::link::{Link, LinkParams};
use crate::packet::{LinkId, NodeId, Packet, PacketId, Pool};
use rand::RngExt;
use reorderlab_sim::{EventQueue, Time};

/// An event of the network layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetEvent {
    /// The link's transmitter finished the packet it was sending.
    TxDone(LinkId),
    /// The head of the link's propagation pipe reaches the far end.
    Arrive(LinkId),
    /// A packet held back by a delay impairment reaches the far end.
    DelayedArrive(LinkId, PacketId),
    /// A timed impairment (swap, spike, rate change) is due.
    Timed(u32),
}

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropCause {
    /// Queue full, or dropped early by the AQM.
    Queue,
    /// An impairment (random loss, burst loss, ...).
    Impairment,
    /// No route to the destination.
    NoRoute,
}

/// What the network reports back to its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetOutput {
    /// The packet reached its destination node. The caller frees it.
    Delivered(PacketId),
    /// The packet was dropped on `link`. The caller frees it.
    Dropped(PacketId, LinkId, DropCause),
}

/// A node: its name and outgoing links.
pub struct Node {
    pub name: String,
    pub out: Vec<LinkId>,
}

/// Builds a network node by node and link by link, then computes routes.
#[derive(Default)]
pub struct NetworkBuilder {
    nodes: Vec<Node>,
    links: Vec<(String, NodeId, NodeId, LinkParams)>,
}

impl NetworkBuilder {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn node(&mut self, name: impl Into<String>) -> NodeId {
        self.nodes.push(Node {
            name: name.into(),
            out: Vec::new(),
        });
        NodeId(self.nodes.len() as u32 - 1)
    }
    /// Adds one link direction `from -> to`.
    pub fn link(
        &mut self,
        name: impl Into<String>,
        from: NodeId,
        to: NodeId,
        p: LinkParams,
    ) -> LinkId {
        let id = LinkId(self.links.len() as u32);
        self.links.push((name.into(), from, to, p));
        self.nodes[from.0 as usize].out.push(id);
        id
    }
    /// Adds both directions with the same parameters; returns (forward, reverse).
    pub fn duplex(&mut self, name: &str, a: NodeId, b: NodeId, p: LinkParams) -> (LinkId, LinkId) {
        (
            self.link(format!("{name}>"), a, b, p),
            self.link(format!("{name}<"), b, a, p),
        )
    }

    /// Finishes the network. `seed` derives each link's random stream.
    pub fn build<P: Copy + Default>(self, seed: u64) -> Network<P> {
        let links: Vec<Link> = self
            .links
            .into_iter()
            .enumerate()
            .map(|(i, (name, from, to, p))| {
                let rng =
                    reorderlab_sim::stream(seed, &[reorderlab_sim::rng::label("link"), i as u64]);
                Link::new(LinkId(i as u32), name, from, to, &p, rng)
            })
            .collect();
        let n = self.nodes.len();
        let next_hop = shortest_path_routes(n, &self.nodes, &links, DENSE_ROUTES_MAX);
        Network {
            pool: Pool::new(),
            links,
            nodes: self.nodes,
            next_hop,
            out: Vec::with_capacity(64),
            timed: Vec::new(),
            multipath: Vec::new(),
            has_multipath: vec![false; n],
        }
    }
}

/// Next hop by fewest hops, ties broken by lower total propagation delay,
/// then by lower link id, so routes are deterministic.
fn next_hops_to(
    dst: usize,
    nodes: &[Node],
    links: &[Link],
    cost: &mut [(u32, u64)],
    hop: &mut [u32],
) {
    // A Bellman-Ford-like relaxation on (hops, delay) towards `dst`; it
    // converges in about the network's diameter of passes.
    let n = nodes.len();
    cost.fill((u32::MAX, u64::MAX));
    hop.fill(u32::MAX);
    cost[dst] = (0, 0);
    for _ in 0..n {
        let mut changed = false;
        for (u, node) in nodes.iter().enumerate() {
            if u == dst {
                continue;
            }
            for &l in &node.out {
                let link = &links[l.0 as usize];
                let v = link.to.0 as usize;
                if cost[v].0 == u32::MAX {
                    continue;
                }
                let c = (cost[v].0 + 1, cost[v].1 + link.delay.0);
                if c < cost[u] {
                    cost[u] = c;
                    hop[u] = l.0;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Static routes. Small networks keep a full table (one lookup per hop).
/// Large ones are stored compactly: each node has a default next hop (its
/// most common one) and a sorted list of the destinations routed otherwise;
/// a host behind one access link has no exceptions at all, so a dumbbell of
/// N pairs needs O(N) entries instead of the O(N^2) of a full table (16 MB
/// for 1000 pairs).
#[derive(Clone, Debug)]
pub(crate) enum Routes {
    Dense {
        n: usize,
        hop: Vec<u32>,
    },
    Compact {
        default: Vec<u32>,
        exceptions: Vec<Vec<(u32, u32)>>,
    },
}

/// Largest full table kept (entries): 4 MiB of next hops.
const DENSE_ROUTES_MAX: usize = 1 << 20;

impl Routes {
    #[inline]
    fn get(&self, from: usize, to: usize) -> u32 {
        match self {
            Routes::Dense { n, hop } => hop[from * n + to],
            Routes::Compact {
                default,
                exceptions,
            } => {
                let ex = &exceptions[from];
                if !ex.is_empty() {
                    if let Ok(i) = ex.binary_search_by_key(&(to as u32), |e| e.0) {
                        return ex[i].1;
                    }
                }
                default[from]
            }
        }
    }
}

/// Next hop by fewest hops, ties broken by lower total propagation delay,
/// then by lower link id, so routes are deterministic.
fn shortest_path_routes(n: usize, nodes: &[Node], links: &[Link], dense_max: usize) -> Routes {
    let mut cost = vec![(u32::MAX, u64::MAX); n];
    let mut hop = vec![u32::MAX; n];
    if n * n <= dense_max {
        let mut table = vec![u32::MAX; n * n];
        for dst in 0..n {
            next_hops_to(dst, nodes, links, &mut cost, &mut hop);
            for u in 0..n {
                table[u * n + dst] = hop[u];
            }
        }
        return Routes::Dense { n, hop: table };
    }
    // Pass 1: how often each out-link (and "unreachable") is a node's next hop.
    let mut pos = vec![0u32; links.len()];
    for node in nodes {
        for (i, l) in node.out.iter().enumerate() {
            pos[l.0 as usize] = i as u32;
        }
    }
    let mut counts: Vec<Vec<u32>> = nodes.iter().map(|nd| vec![0; nd.out.len() + 1]).collect();
    for dst in 0..n {
        next_hops_to(dst, nodes, links, &mut cost, &mut hop);
        for u in 0..n {
            let k = if hop[u] == u32::MAX {
                nodes[u].out.len()
            } else {
                pos[hop[u] as usize] as usize
            };
            counts[u][k] += 1;
        }
    }
    let default: Vec<u32> = (0..n)
        .map(|u| {
            let c = &counts[u];
            let best = (0..c.len())
                .max_by_key(|&k| (c[k], std::cmp::Reverse(k)))
                .unwrap_or(0);
            nodes[u].out.get(best).map_or(u32::MAX, |l| l.0)
        })
        .collect();
    // Pass 2: the exceptions, in destination order (sorted).
    let mut exceptions: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    for dst in 0..n {
        next_hops_to(dst, nodes, links, &mut cost, &mut hop);
        for u in 0..n {
            if hop[u] != default[u] {
                exceptions[u].push((dst as u32, hop[u]));
            }
        }
    }
    for e in &mut exceptions {
        e.shrink_to_fit();
    }
    Routes::Compact {
        default,
        exceptions,
    }
}

/// The network with its packets.
pub struct Network<P> {
    pub pool: Pool<P>,
    pub links: Vec<Link>,
    pub nodes: Vec<Node>,
    /// Static next hops (u32::MAX: unreachable).
    next_hop: Routes,
    out: Vec<NetOutput>,
    /// Timed impairments, addressed by `NetEvent::Timed(index)`.
    pub timed: Vec<Timed>,
    /// Per-packet multipath routing entries (source, destination, paths).
    pub multipath: Vec<crate::multipath::Multipath>,
    /// Whether a node is the source of some multipath entry (skips the lookup otherwise).
    has_multipath: Vec<bool>,
}

impl<P: Copy + Default> Network<P> {
    /// The link a packet at `from` takes towards `to`.
    #[inline]
    pub fn route(&self, from: NodeId, to: NodeId) -> Option<LinkId> {
        let l = self.next_hop.get(from.0 as usize, to.0 as usize);
        (l != u32::MAX).then_some(LinkId(l))
    }

    pub fn link(&self, id: LinkId) -> &Link {
        &self.links[id.0 as usize]
    }
    pub fn link_mut(&mut self, id: LinkId) -> &mut Link {
        &mut self.links[id.0 as usize]
    }
    /// Attaches an impairment to a link direction.
    pub fn impair(&mut self, id: LinkId, imp: Impairment) {
        self.links[id.0 as usize].impairments.push(imp);
    }

    /// Adds a timed impairment; [`Network::start`] schedules it.
    pub fn add_timed(&mut self, t: Timed) -> u32 {
        self.timed.push(t);
        self.timed.len() as u32 - 1
    }

    /// Routes packets from `src` to `dst` per packet over `mp`'s paths.
    pub fn add_multipath(&mut self, mp: crate::multipath::Multipath) {
        self.has_multipath[mp.src.0 as usize] = true;
        self.multipath.push(mp);
    }

    /// Schedules the first event of every timed impairment.
    pub fn start<E: From<NetEvent> + Copy>(&mut self, q: &mut EventQueue<E>) {
        for (i, t) in self.timed.iter_mut().enumerate() {
            let first = match &mut t.kind {
                TimedKind::Swap(s) => Some(s.interval),
                TimedKind::RateChange(r) => Some(r.at),
                TimedKind::Spikes(s) => {
                    s.next_start = s.every.sample(&mut t.rng);
                    Some(s.next_start)
                }
            };
            if let Some(at) = first {
                q.schedule(at, NetEvent::Timed(i as u32).into());
            }
        }
    }

    /// Injects a packet at its source node.
    #[inline]
    pub fn send<E: From<NetEvent> + Copy>(
        &mut self,
        q: &mut EventQueue<E>,
        now: Time,
        mut pkt: Packet<P>,
    ) -> PacketId {
        pkt.path = u32::MAX;
        pkt.hop = 0;
        if self.has_multipath[pkt.src.0 as usize] {
            if let Some((i, mp)) = self
                .multipath
                .iter_mut()
                .enumerate()
                .find(|(_, m)| m.src == pkt.src && m.dst == pkt.dst)
            {
                pkt.path = ((i as u32) << 16) | mp.choose() as u32;
            }
        }
        let id = self.pool.alloc(pkt);
        self.forward(q, now, pkt.src, id);
        id
    }

    /// Takes the outputs produced since the last call.
    #[inline]
    pub fn take_outputs(&mut self, buf: &mut Vec<NetOutput>) {
        buf.clear();
        std::mem::swap(buf, &mut self.out);
    }

    #[inline]
    fn forward<E: From<NetEvent> + Copy>(
        &mut self,
        q: &mut EventQueue<E>,
        now: Time,
        at: NodeId,
        id: PacketId,
    ) {
        let pkt = self.pool.header_mut(id);
        let (dst, size) = (pkt.dst, pkt.size);
        if at == dst {
            self.out.push(NetOutput::Delivered(id));
            return;
        }
        let next = if pkt.path == u32::MAX {
            self.route(at, dst)
        } else {
            // Source-routed: follow the path chosen at the source, hop by hop.
            let mp = &self.multipath[(pkt.path >> 16) as usize];
            let hop = pkt.hop as usize;
            pkt.hop += 1;
            mp.paths[(pkt.path & 0xffff) as usize]
                .links
                .get(hop)
                .copied()
        };
        let Some(lid) = next else {
            self.out
                .push(NetOutput::Dropped(id, LinkId(u32::MAX), DropCause::NoRoute));
            return;
        };
        let link = &mut self.links[lid.0 as usize];
        // On the last link, warm the payload for the endpoint; elsewhere
        // the hint goes to slot 0 instead (a select, not a branch: which
        // hop is the last is unpredictable).
        self.pool
            .prefetch_payload(PacketId(if link.to == dst { id.0 } else { 0 }));
        if link.queue.is_empty() && link.paused == 0 && now >= link.busy_until {
            self.transmit(q, now, lid, id, size);
        } else if !link.queue.offer(now, id, size, link.ptc, &mut link.rng) {
            link.stats.queue_drops += 1;
            self.out.push(NetOutput::Dropped(id, lid, DropCause::Queue));
        } else if !link.start_scheduled && link.paused == 0 {
            link.start_scheduled = true;
            q.schedule(link.busy_until.max(now), NetEvent::TxDone(lid).into());
        }
    }

    /// Handles one network event.
    #[inline]
    pub fn handle<E: From<NetEvent> + Copy>(
        &mut self,
        q: &mut EventQueue<E>,
        now: Time,
        ev: NetEvent,
    ) {
        match ev {
            NetEvent::TxDone(lid) => self.tx_done(q, now, lid),
            NetEvent::Arrive(lid) => loop {
                // Every packet whose arrival time has come leaves the pipe;
                // the next one gets the link's single pending arrival event.
                let link = &mut self.links[lid.0 as usize];
                match link.pipe.front() {
                    Some(&(t, id)) if t <= now => {
                        link.pipe.pop_front();
                        let to = link.to;
                        self.forward(q, now, to, id);
                    }
                    Some(&(t, _)) => {
                        q.schedule(t, NetEvent::Arrive(lid).into());
                        break;
                    }
                    None => break,
                }
            },
            NetEvent::DelayedArrive(lid, id) => {
                let to = self.links[lid.0 as usize].to;
                self.forward(q, now, to, id);
            }
            NetEvent::Timed(i) => self.timed_event(q, now, i),
        }
    }

    fn timed_event<E: From<NetEvent> + Copy>(&mut self, q: &mut EventQueue<E>, now: Time, i: u32) {
        let Some(t) = self.timed.get_mut(i as usize) else {
            return;
        };
        let rng = &mut t.rng;
        match &mut t.kind {
            TimedKind::Swap(s) => {
                s.events += 1;
                let queue = &mut self.links[s.link.0 as usize].queue;
                let n = queue.len();
                if n >= 2 {
                    for _ in 0..s.swaps {
                        let a = rng.random_range(0..n);
                        let mut b = rng.random_range(0..n - 1);
                        if b >= a {
                            b += 1;
                        }
                        queue.swap(a, b);
                        s.performed += 1;
                    }
                }
                q.schedule(now + s.interval, NetEvent::Timed(i).into());
            }
            TimedKind::RateChange(r) => {
                let link = &mut self.links[r.link.0 as usize];
                link.rate_bps = r.rate_bps;
                link.ptc = r.rate_bps as f64 / (8.0 * 1500.0);
            }
            TimedKind::Spikes(s) => match s.active_until {
                None => {
                    let len = s.length.sample(rng);
                    let end = now + len;
                    s.active_until = Some(end);
                    s.history.push((now, end));
                    let (a, b) = s.links;
                    self.links[a.0 as usize].paused += 1;
                    self.links[b.0 as usize].paused += 1;
                    s.next_start = now + s.every.sample(rng);
                    q.schedule(end, NetEvent::Timed(i).into());
                }
                Some(_) => {
                    s.active_until = None;
                    let next = s.next_start.max(now);
                    let (a, b) = s.links;
                    q.schedule(next, NetEvent::Timed(i).into());
                    for l in [a, b] {
                        self.links[l.0 as usize].paused -= 1;
                        self.start_next(q, now, l);
                    }
                }
            },
        }
    }

    /// Starts transmitting the head of the queue if the transmitter is idle,
    /// or schedules the start for when it will be.
    fn start_next<E: From<NetEvent> + Copy>(
        &mut self,
        q: &mut EventQueue<E>,
        now: Time,
        lid: LinkId,
    ) {
        let link = &mut self.links[lid.0 as usize];
        if link.paused > 0 || link.start_scheduled || link.queue.is_empty() {
            return;
        }
        if now < link.busy_until {
            link.start_scheduled = true;
            q.schedule(link.busy_until, NetEvent::TxDone(lid).into());
            return;
        }
        if let Some((next, nsize)) = link.queue.pop(now) {
            self.transmit(q, now, lid, next, nsize);
            let link = &mut self.links[lid.0 as usize];
            if !link.queue.is_empty() && link.paused == 0 {
                link.start_scheduled = true;
                q.schedule(link.busy_until, NetEvent::TxDone(lid).into());
            }
        }
    }

    /// The transmitter was busy until now: start the head of the queue.
    fn tx_done<E: From<NetEvent> + Copy>(&mut self, q: &mut EventQueue<E>, now: Time, lid: LinkId) {
        self.links[lid.0 as usize].start_scheduled = false;
        self.start_next(q, now, lid);
    }

    /// Serializes a packet starting now. Its completion time is known, so the
    /// impairments judge it and it enters the pipe right away, timed as if at
    /// the end of its serialization.
    #[inline]
    fn transmit<E: From<NetEvent> + Copy>(
        &mut self,
        q: &mut EventQueue<E>,
        now: Time,
        lid: LinkId,
        id: PacketId,
        size: u32,
    ) {
        let link = &mut self.links[lid.0 as usize];
        let tx = link.tx_time(size);
        let done = now + tx;
        link.busy_until = done;
        link.stats.packets += 1;
        link.stats.bytes += size as u64;
        link.stats.busy += tx;
        let mut verdict = Verdict::Pass;
        for imp in link.impairments.iter_mut() {
            match imp.apply(done) {
                Verdict::Pass => {}
                Verdict::Drop => {
                    verdict = Verdict::Drop;
                    break;
                }
                Verdict::Delay(d) => {
                    verdict = match verdict {
                        Verdict::Delay(e) => Verdict::Delay(e + d),
                        _ => Verdict::Delay(d),
                    }
                }
            }
        }
        match verdict {
            Verdict::Pass => {
                let at = done + link.delay;
                if link.pipe.is_empty() {
                    q.schedule(at, NetEvent::Arrive(lid).into());
                }
                link.pipe.push_back((at, id));
            }
            Verdict::Drop => {
                link.stats.impairment_drops += 1;
                self.out
                    .push(NetOutput::Dropped(id, lid, DropCause::Impairment));
            }
            Verdict::Delay(extra) => {
                q.schedule(
                    done + link.delay + extra,
                    NetEvent::DelayedArrive(lid, id).into(),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::AqmSpec;

    fn p(rate: u64, delay_ms: u64, queue: u32) -> LinkParams {
        LinkParams {
            rate_bps: rate,
            delay: Time::from_millis(delay_ms),
            queue,
            aqm: AqmSpec::DropTail,
        }
    }

    fn run(net: &mut Network<u32>, q: &mut EventQueue<NetEvent>) -> Vec<(Time, u32)> {
        let mut got = Vec::new();
        let mut outs = Vec::new();
        while let Some((now, ev)) = q.pop() {
            net.handle(q, now, ev);
            net.take_outputs(&mut outs);
            for o in &outs {
                if let NetOutput::Delivered(id) = o {
                    got.push((now, net.pool.get(*id).payload));
                    net.pool.free(*id);
                }
            }
        }
        got
    }

    #[test]
    fn serialization_and_propagation_delays_add_up_across_hops() {
        let mut b = NetworkBuilder::new();
        let a = b.node("a");
        let r = b.node("r");
        let c = b.node("c");
        b.duplex("ar", a, r, p(8_000_000, 1, 10)); // 1500 B -> 1.5 ms
        b.duplex("rc", r, c, p(1_000_000, 10, 10)); // 1500 B -> 12 ms
        let mut net: Network<u32> = b.build(1);
        let mut q = EventQueue::new();
        let mut outs = Vec::new();
        for i in 0..3 {
            net.send(&mut q, Time::ZERO, Packet::new(a, c, 0, 1500, i));
        }
        net.take_outputs(&mut outs);
        assert!(outs.is_empty());
        let got = run(&mut net, &mut q);
        // First: 1.5 + 1 + 12 + 10 = 24.5 ms; later ones paced by the 12 ms bottleneck.
        assert_eq!(
            got,
            vec![
                (Time::from_micros(24_500), 0),
                (Time::from_micros(36_500), 1),
                (Time::from_micros(48_500), 2)
            ]
        );
    }

    #[test]
    fn queue_overflow_drops_and_counts() {
        let mut b = NetworkBuilder::new();
        let a = b.node("a");
        let c = b.node("c");
        let (fwd, _) = b.duplex("ac", a, c, p(1_000_000, 1, 2));
        let mut net: Network<u32> = b.build(1);
        let mut q = EventQueue::new();
        let mut outs = Vec::new();
        for i in 0..5 {
            net.send(&mut q, Time::ZERO, Packet::new(a, c, 0, 1000, i));
        }
        net.take_outputs(&mut outs);
        // One in transmission, two queued, two dropped.
        assert_eq!(
            outs.iter()
                .filter(|o| matches!(o, NetOutput::Dropped(_, l, DropCause::Queue) if *l == fwd))
                .count(),
            2
        );
        for o in &outs {
            if let NetOutput::Dropped(id, _, _) = o {
                net.pool.free(*id);
            }
        }
        let got = run(&mut net, &mut q);
        assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!(net.link(fwd).stats.queue_drops, 2);
        assert_eq!(net.link(fwd).stats.packets, 3);
        assert_eq!(net.pool.live(), 0);
    }

    #[test]
    fn routes_prefer_fewer_hops_then_lower_delay() {
        let mut b = NetworkBuilder::new();
        let a = b.node("a");
        let x = b.node("x");
        let y = b.node("y");
        let c = b.node("c");
        b.duplex("ax", a, x, p(1_000_000, 5, 10));
        let (ay, _) = b.duplex("ay", a, y, p(1_000_000, 1, 10));
        b.duplex("xc", x, c, p(1_000_000, 5, 10));
        b.duplex("yc", y, c, p(1_000_000, 1, 10));
        let net: Network<u32> = b.build(1);
        assert_eq!(net.route(a, c), Some(ay));
    }
}

#[cfg(test)]
mod route_tests {
    use super::*;
    use crate::link::AqmSpec;

    /// The compact table gives the same next hops as the full one.
    #[test]
    fn compact_routes_match_the_full_table() {
        let p = LinkParams {
            rate_bps: 1_000_000,
            delay: Time::from_millis(1),
            queue: 10,
            aqm: AqmSpec::DropTail,
        };
        let mut b = NetworkBuilder::new();
        let r1 = b.node("R1");
        let r2 = b.node("R2");
        b.duplex("bn", r1, r2, p);
        for i in 0..40 {
            let s = b.node(format!("S{i}"));
            let d = b.node(format!("D{i}"));
            b.duplex(&format!("a{i}"), s, r1, p);
            b.duplex(&format!("b{i}"), r2, d, p);
        }
        let net: Network<()> = b.build(1);
        let n = net.nodes.len();
        let dense = shortest_path_routes(n, &net.nodes, &net.links, usize::MAX);
        let compact = shortest_path_routes(n, &net.nodes, &net.links, 0);
        let Routes::Compact { exceptions, .. } = &compact else {
            panic!("threshold 0 must compact")
        };
        assert!(
            exceptions.iter().map(|e| e.len()).sum::<usize>() < 4 * n,
            "compact is linear in size here"
        );
        for u in 0..n {
            for d in 0..n {
                assert_eq!(compact.get(u, d), dense.get(u, d), "route {u} -> {d}");
            }
        }
    }
}
