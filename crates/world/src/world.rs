//! The event loop: one global event list, the network's events, the flows'
//! timers, and the glue that hands segments between the network and the
//! sans-IO TCP endpoints.

use reorderlab_metrics::reordering::ReorderMeter;
use reorderlab_metrics::{
    DensityRow, FlowReport, GroundTruth, LinkReport, RunReport, TrafficReport,
};
use reorderlab_net::{LinkStats, NetEvent, NetOutput, Network, NodeId, Packet};
use reorderlab_scenario::Scenario;

use crate::limits::{resident_bytes, LimitHit, Limits, MEMORY_CHECK_EVERY};
use reorderlab_sim::{EventQueue, Rng, Time, TimerSlot, Wake};
use reorderlab_tcp::cc::CongestionControl;
use reorderlab_tcp::variant::Variant;
use reorderlab_tcp::{
    AckSegment, DataSegment, PackedAck, Receiver, ReceiverConfig, Sender, SenderConfig,
};
use reorderlab_traffic::cbr::Cbr;
use reorderlab_traffic::web::{ClosedLoopSession, WebNext};
use reorderlab_traffic::Transfer;
use std::collections::BTreeMap;

/// What a packet carries.
#[derive(Clone, Copy, Debug, Default)]
pub enum Payload {
    #[default]
    None,
    /// A data segment and its transmission number (for the ground truth).
    Data(DataSegment, u16),
    /// An ACK, packed so that the pool's slots stay small.
    Ack(PackedAck),
    /// An ACK too wide to pack (SACK edges 2 GB from its cumulative ACK),
    /// kept in [`World`]'s side table at this index.
    WideAck(u32),
    /// A CBR (UDP) packet of source `n`.
    Udp(u32),
}

/// Everything the event list can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Net(NetEvent),
    /// A flow's sender timer slot may be due.
    SenderTimer(u32),
    /// A flow's receiver (delayed-ACK) timer slot may be due.
    ReceiverTimer(u32),
    /// A flow opens.
    Start(u32),
    /// Start of the measurement window: take the baseline snapshot.
    MeasureStart,
    /// Take one time-series sample.
    Sample,
    /// CBR source `n` sends its next packet.
    Cbr(u32),
    /// Web session `n` requests its next page.
    WebPage(u32),
    /// Web session `n` requests the next object of its page.
    WebObject(u32),
}

impl From<NetEvent> for Event {
    #[inline]
    fn from(e: NetEvent) -> Event {
        Event::Net(e)
    }
}

/// Everything needed to create the endpoints of a flow.
#[derive(Clone, Debug)]
pub struct FlowSetup {
    pub variant: &'static Variant,
    pub cc: CongestionControl,
    pub params: BTreeMap<String, f64>,
    pub sender: SenderConfig,
    pub receiver: ReceiverConfig,
}

/// One TCP flow: its endpoints and what is known about it.
pub struct Flow {
    pub id: u32,
    pub variant: &'static str,
    pub src: NodeId,
    pub dst: NodeId,
    pub transfer: Transfer,
    pub mss: u32,
    pub sender: Sender,
    pub receiver: Receiver,
    stimer: TimerSlot,
    rtimer: TimerSlot,
    pub gt: GroundTruth,
    /// RFC 4737 / RFC 5236 metrics of first transmissions at the receiver.
    pub meter: Option<ReorderMeter>,
    /// When the last byte reached the receiving application.
    pub completed_at: Option<Time>,
    /// Wire bytes of data segments sent.
    pub wire_bytes_sent: u64,
    /// Counters at the start of the measurement window.
    base: FlowSnap,
    /// Counters at the end of the window.
    end: Option<FlowSnap>,
    /// Web session this flow carries an object for.
    web_session: Option<u32>,
    /// Finished web transfer: packets still in flight are ignored.
    retired: bool,
}

impl Flow {
    /// A flow from `setup`; `reorder_dt` is RFC 5236's DT for its meter.
    pub fn new(
        id: u32,
        setup: &FlowSetup,
        src: NodeId,
        dst: NodeId,
        transfer: Transfer,
        reorder_dt: u32,
        web: bool,
    ) -> Flow {
        let mut scfg = setup.sender.clone();
        scfg.total_bytes = transfer.bytes;
        Flow {
            id,
            variant: setup.variant.name,
            src,
            dst,
            transfer,
            mss: scfg.mss,
            sender: setup.variant.sender(scfg, setup.cc.clone(), &setup.params),
            receiver: Receiver::new(setup.receiver),
            stimer: TimerSlot::default(),
            rtimer: TimerSlot::default(),
            gt: GroundTruth::new(),
            meter: (!web).then(|| ReorderMeter::new(reorder_dt)),
            completed_at: None,
            wire_bytes_sent: 0,
            base: FlowSnap::default(),
            end: None,
            web_session: None,
            retired: false,
        }
    }
}

/// A flow's cumulative counters at one instant (a window boundary).
#[derive(Clone, Copy, Debug, Default)]
struct FlowSnap {
    delivered: u64,
    wire: u64,
    segments: u64,
    dsacks: u64,
}

impl Flow {
    fn snap(&self) -> FlowSnap {
        FlowSnap {
            delivered: self.receiver.delivered_bytes(),
            wire: self.wire_bytes_sent,
            segments: self.sender.stats.segments_sent,
            dsacks: self.sender.stats.dsacks,
        }
    }

    /// Opens (`true`) or closes the measurement window of the ground truth
    /// and the reordering meter.
    fn set_window(&mut self, open: bool) {
        self.gt.set_counting(open);
        if let Some(m) = self.meter.as_mut() {
            if open {
                m.begin_window();
            } else {
                m.end_window();
            }
        }
    }
}

/// A constant-bit-rate source and what became of its packets.
pub struct CbrSource {
    pub traffic: u32,
    pub gen: Cbr,
    pub src: NodeId,
    pub dst: NodeId,
    pub sent: u64,
    pub delivered: u64,
    pub delivered_bytes: u64,
    /// (sent, delivered, delivered bytes) at the window's start and end.
    base: (u64, u64, u64),
    end: Option<(u64, u64, u64)>,
}

impl CbrSource {
    fn snap(&self) -> (u64, u64, u64) {
        (self.sent, self.delivered, self.delivered_bytes)
    }

    pub fn new(traffic: u32, gen: Cbr, src: NodeId, dst: NodeId) -> Self {
        CbrSource {
            traffic,
            gen,
            src,
            dst,
            sent: 0,
            delivered: 0,
            delivered_bytes: 0,
            base: (0, 0, 0),
            end: None,
        }
    }
}

/// One web session (TCP-PR Section V) in the world: the traffic layer's
/// closed-loop session decides when pages and objects are requested; each
/// object becomes a finite TCP flow here.
pub struct WebSessionState {
    pub traffic: u32,
    pub session: ClosedLoopSession,
    setup: FlowSetup,
    pub src: NodeId,
    pub dst: NodeId,
    start: Time,
    rng: Rng,
    pub objects_started: u64,
    pub objects_completed: u64,
    pub bytes_delivered: u64,
    /// Completion times of finished objects, seconds.
    pub completion_s: Vec<f64>,
    /// (objects started, objects completed, bytes) at the window's start and end.
    base: (u64, u64, u64),
    end: Option<(u64, u64, u64)>,
}

impl WebSessionState {
    pub fn new(
        traffic: u32,
        session: ClosedLoopSession,
        setup: FlowSetup,
        src: NodeId,
        dst: NodeId,
        start: Time,
        rng: Rng,
    ) -> Self {
        WebSessionState {
            traffic,
            session,
            setup,
            src,
            dst,
            start,
            rng,
            objects_started: 0,
            objects_completed: 0,
            bytes_delivered: 0,
            completion_s: Vec::new(),
            base: (0, 0, 0),
            end: None,
        }
    }

    fn snap(&self) -> (u64, u64, u64) {
        (
            self.objects_started,
            self.objects_completed,
            self.bytes_delivered,
        )
    }
}

/// One time-series sample of one flow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeriesRow {
    pub time: Time,
    pub flow: u32,
    pub cwnd: f64,
    pub ssthresh: f64,
    pub srtt: Option<Time>,
    /// Goodput over the interval ending at `time`, bit/s.
    pub goodput_bps: f64,
    pub retransmissions: u64,
}

/// A link direction to report: its index and how to name it.
pub struct ReportedLink {
    pub link: reorderlab_net::LinkId,
    pub name: String,
    pub direction: &'static str,
    /// Named or grouped as a bottleneck ([`LinkReport::bottleneck`]).
    pub bottleneck: bool,
}

/// A built simulation, ready to run.
pub struct World {
    pub name: String,
    pub seed: u64,
    pub duration: Time,
    pub measure_from: Time,
    pub measure_to: Time,
    pub series_interval: Option<Time>,
    pub reorder_dt: u32,
    pub q: EventQueue<Event>,
    pub net: Network<Payload>,
    pub flows: Vec<Flow>,
    /// Flows declared in the scenario (the first ones); web objects follow.
    pub declared_flows: usize,
    pub cbrs: Vec<CbrSource>,
    pub web: Vec<WebSessionState>,
    pub reported_links: Vec<ReportedLink>,
    link_base: Vec<LinkStats>,
    link_end: Option<Vec<LinkStats>>,
    /// Inside the measurement window (flows created now start counting).
    window_open: bool,
    pub series: Vec<SeriesRow>,
    series_last: Vec<u64>,
    outs: Vec<NetOutput>,
    segs: Vec<DataSegment>,
    /// ACKs in flight that [`PackedAck`] cannot hold, and the free slots.
    wide_acks: Vec<AckSegment>,
    wide_free: Vec<u32>,
}

impl World {
    pub fn new(
        sc: &Scenario,
        mut net: Network<Payload>,
        flows: Vec<Flow>,
        cbrs: Vec<CbrSource>,
        mut web: Vec<WebSessionState>,
        reported_links: Vec<ReportedLink>,
    ) -> World {
        let mut q = EventQueue::new();
        net.start(&mut q);
        for f in &flows {
            q.schedule_timer(f.transfer.start, Event::Start(f.id));
        }
        for (i, c) in cbrs.iter().enumerate() {
            if let Some(t) = c.gen.send_time(0) {
                q.schedule_timer(t, Event::Cbr(i as u32));
            }
        }
        for (i, w) in web.iter_mut().enumerate() {
            let first = w.session.first_page(w.start, &mut w.rng);
            q.schedule_timer(first, Event::WebPage(i as u32));
        }
        if sc.measure.from > Time::ZERO {
            q.schedule_timer(sc.measure.from, Event::MeasureStart);
        }
        if let Some(iv) = sc.measure.series_interval {
            q.schedule_timer(iv, Event::Sample);
        }
        let mut flows = flows;
        if sc.measure.from > Time::ZERO {
            for f in &mut flows {
                f.set_window(false);
            }
        }
        let n = flows.len();
        let nl = net.links.len();
        World {
            name: sc.name.clone(),
            seed: sc.seed,
            duration: sc.duration,
            measure_from: sc.measure.from,
            measure_to: sc.measure.to,
            series_interval: sc.measure.series_interval,
            reorder_dt: sc.measure.reorder_threshold,
            q,
            net,
            declared_flows: n,
            flows,
            cbrs,
            web,
            reported_links,
            link_base: vec![LinkStats::default(); nl],
            link_end: None,
            window_open: sc.measure.from == Time::ZERO,
            series: Vec::new(),
            series_last: vec![0; n],
            outs: Vec::with_capacity(64),
            segs: Vec::with_capacity(64),
            wide_acks: Vec::new(),
            wide_free: Vec::new(),
        }
    }

    /// Runs to the end and reports. `wall_s` is filled in by the caller's clock.
    pub fn run(&mut self) -> RunReport {
        match self.run_limited(Limits::NONE) {
            Ok(r) => r,
            Err(e) => unreachable!("a run without limits stopped: {e}"),
        }
    }

    /// Runs to the end and reports, unless a limit of `limits` is hit first.
    pub fn run_limited(&mut self, limits: Limits) -> Result<RunReport, LimitHit> {
        self.run_observed(limits, u64::MAX, &mut |_, _| {})
    }

    /// As [`World::run_limited`], calling `observe(now, events)` every
    /// `every` events (the simulated time of the last event and the events
    /// processed so far), for a progress display. The hook shares the
    /// limits' check: the loop still compares one counter per event, so an
    /// observed run is as fast as any other; what `observe` does is its
    /// own cost. Observing changes nothing in the run or its report.
    pub fn run_observed(
        &mut self,
        limits: Limits,
        every: u64,
        observe: &mut dyn FnMut(Time, u64),
    ) -> Result<RunReport, LimitHit> {
        let started = std::time::Instant::now();
        let max_events = limits.max_events.unwrap_or(u64::MAX);
        let every = every.max(1);
        // One comparison per event: `check_at` is the next event count at
        // which a limit or the observer needs looking at.
        let mut next_mem = if limits.max_memory.is_some() {
            self.q.popped()
        } else {
            u64::MAX
        };
        let mut next_obs = self.q.popped().saturating_add(every);
        let mut check_at = next_mem.min(max_events).min(next_obs);
        while let Some(t) = self.q.peek_time() {
            if t > self.duration {
                break;
            }
            if self.q.popped() >= check_at {
                let popped = self.q.popped();
                if popped >= next_obs {
                    observe(self.q.now(), popped);
                    next_obs = popped.saturating_add(every);
                }
                if popped >= max_events {
                    return Err(LimitHit::Events {
                        limit: max_events,
                        at: self.q.now(),
                        duration: self.duration,
                    });
                }
                if let (Some(limit), true) = (limits.max_memory, popped >= next_mem) {
                    if let Some(used) = resident_bytes().filter(|u| *u > limit) {
                        return Err(LimitHit::Memory {
                            limit,
                            used,
                            at: self.q.now(),
                            duration: self.duration,
                        });
                    }
                    next_mem = popped.saturating_add(MEMORY_CHECK_EVERY);
                }
                check_at = next_mem.min(max_events).min(next_obs);
            }
            if t > self.measure_to && self.link_end.is_none() {
                self.snapshot_end();
            }
            let Some((now, ev)) = self.q.pop() else { break };
            self.dispatch(now, ev);
        }
        if self.link_end.is_none() {
            self.snapshot_end();
        }
        let mut r = self.report();
        r.wall_s = started.elapsed().as_secs_f64();
        Ok(r)
    }

    #[inline]
    fn dispatch(&mut self, now: Time, ev: Event) {
        match ev {
            Event::Net(ne) => self.net.handle(&mut self.q, now, ne),
            Event::SenderTimer(f) => {
                let fl = &mut self.flows[f as usize];
                if fl.retired {
                    return;
                }
                match fl.stimer.on_wake(now) {
                    Wake::Fire => {
                        self.segs.clear();
                        fl.sender.on_timer(now, &mut self.segs);
                        self.after_sender(now, f);
                    }
                    Wake::Rearm(t) => self.q.schedule_timer(t, Event::SenderTimer(f)),
                    Wake::Stale => {}
                }
            }
            Event::ReceiverTimer(f) => {
                let fl = &mut self.flows[f as usize];
                match fl.rtimer.on_wake(now) {
                    Wake::Fire => {
                        if let Some(ack) = fl.receiver.on_timer(now) {
                            self.send_ack(now, f, ack);
                        }
                        self.arm_receiver(f);
                    }
                    Wake::Rearm(t) => self.q.schedule_timer(t, Event::ReceiverTimer(f)),
                    Wake::Stale => {}
                }
            }
            Event::Start(f) => {
                let fl = &mut self.flows[f as usize];
                self.segs.clear();
                fl.sender.start(now, &mut self.segs);
                self.after_sender(now, f);
            }
            Event::MeasureStart => {
                for (i, l) in self.net.links.iter().enumerate() {
                    self.link_base[i] = l.stats;
                }
                self.window_open = true;
                for fl in &mut self.flows {
                    fl.base = fl.snap();
                    fl.set_window(true);
                }
                for c in &mut self.cbrs {
                    c.base = c.snap();
                }
                for w in &mut self.web {
                    w.base = w.snap();
                }
            }
            Event::Sample => self.sample(now),
            Event::Cbr(i) => {
                let c = &mut self.cbrs[i as usize];
                if let Some(t) = c.gen.next_send() {
                    debug_assert!(t <= now);
                    c.sent += 1;
                    let p = Packet::new(
                        c.src,
                        c.dst,
                        u32::MAX,
                        c.gen.packet_bytes(),
                        Payload::Udp(i),
                    );
                    if let Some(next) = c.gen.send_time(c.gen.sent()) {
                        self.q.schedule_timer(next, Event::Cbr(i));
                    }
                    self.net.send(&mut self.q, now, p);
                }
            }
            Event::WebPage(s) => {
                let w = &mut self.web[s as usize];
                let next = w.session.on_page(now, &mut w.rng);
                self.schedule_web(s, next);
            }
            Event::WebObject(s) => self.web_object(now, s),
        }
        // Timers and starts send too; collect what their packets met.
        self.drain_net(now);
    }

    fn snapshot_end(&mut self) {
        self.link_end = Some(self.net.links.iter().map(|l| l.stats).collect());
        self.window_open = false;
        for fl in &mut self.flows {
            fl.end = Some(fl.snap());
            fl.set_window(false);
        }
        for c in &mut self.cbrs {
            c.end = Some(c.snap());
        }
        for w in &mut self.web {
            w.end = Some(w.snap());
        }
    }

    /// Web session `s` requests one object: a new finite TCP flow.
    fn web_object(&mut self, now: Time, s: u32) {
        let id = self.flows.len() as u32;
        let w = &mut self.web[s as usize];
        let (bytes, next) = w.session.on_object(now, &mut w.rng);
        w.objects_started += 1;
        self.schedule_web(s, next);
        let w = &self.web[s as usize];
        let mut fl = Flow::new(
            id,
            &w.setup,
            w.src,
            w.dst,
            Transfer::finite(now, bytes),
            self.reorder_dt,
            true,
        );
        fl.web_session = Some(s);
        if !self.window_open {
            fl.set_window(false);
        }
        self.flows.push(fl);
        self.segs.clear();
        self.flows[id as usize].sender.start(now, &mut self.segs);
        self.after_sender(now, id);
    }

    /// A web object arrived in full: retire its flow; after the page's last
    /// object, the session thinks for an inter-page time.
    fn web_object_done(&mut self, now: Time, f: u32) {
        let fl = &mut self.flows[f as usize];
        fl.retired = true;
        let Some(s) = fl.web_session else { return };
        let took = (now - fl.transfer.start).as_secs_f64();
        let w = &mut self.web[s as usize];
        w.objects_completed += 1;
        w.completion_s.push(took);
        let next = w.session.on_object_done(now, &mut w.rng);
        self.schedule_web(s, next);
    }

    fn schedule_web(&mut self, s: u32, next: WebNext) {
        match next {
            WebNext::Page(t) => self.q.schedule_timer(t, Event::WebPage(s)),
            WebNext::Object(t) => self.q.schedule_timer(t, Event::WebObject(s)),
            WebNext::Wait => {}
        }
    }

    fn sample(&mut self, now: Time) {
        let Some(iv) = self.series_interval else {
            return;
        };
        for (i, fl) in self.flows.iter().take(self.declared_flows).enumerate() {
            let d = fl.receiver.delivered_bytes();
            let g = (d - self.series_last[i]) as f64 * 8.0 / iv.as_secs_f64();
            self.series_last[i] = d;
            self.series.push(SeriesRow {
                time: now,
                flow: fl.id,
                cwnd: fl.sender.cwnd,
                ssthresh: fl.sender.ssthresh,
                srtt: fl.sender.rtt.srtt,
                goodput_bps: g,
                retransmissions: fl.sender.stats.retransmissions,
            });
        }
        self.q.schedule_timer(now + iv, Event::Sample);
    }

    /// Handles what the network reported: deliveries to endpoints and
    /// drops. Handling a delivery may send packets that produce more
    /// outputs (a drop on entry, a zero-hop delivery): loop until none remain.
    #[inline]
    fn drain_net(&mut self, now: Time) {
        let mut outs = std::mem::take(&mut self.outs);
        loop {
            self.net.take_outputs(&mut outs);
            if outs.is_empty() {
                break;
            }
            for o in outs.drain(..) {
                match o {
                    NetOutput::Delivered(id) => {
                        let h = *self.net.pool.header(id);
                        match *self.net.pool.payload(id) {
                            Payload::Data(seg, k) => {
                                self.net.pool.free(id);
                                self.on_data_arrival(now, h.flow, &seg, k);
                            }
                            Payload::Ack(p) => {
                                self.net.pool.free(id);
                                self.on_ack_arrival(now, h.flow, &p.unpack());
                            }
                            Payload::WideAck(i) => {
                                self.net.pool.free(id);
                                let ack = self.wide_acks[i as usize];
                                self.wide_free.push(i);
                                self.on_ack_arrival(now, h.flow, &ack);
                            }
                            Payload::Udp(i) => {
                                let c = &mut self.cbrs[i as usize];
                                c.delivered += 1;
                                c.delivered_bytes += h.size as u64;
                                self.net.pool.free(id);
                            }
                            Payload::None => self.net.pool.free(id),
                        }
                    }
                    NetOutput::Dropped(id, _, _) => {
                        let p = self.net.pool.get(id);
                        self.net.pool.free(id);
                        match p.payload {
                            Payload::Data(seg, k) => {
                                let fl = &mut self.flows[p.flow as usize];
                                fl.gt.on_drop(seg.seq / fl.mss as u64, k);
                            }
                            Payload::WideAck(i) => self.wide_free.push(i),
                            _ => {}
                        }
                    }
                }
            }
        }
        self.outs = outs;
    }

    fn on_data_arrival(&mut self, now: Time, f: u32, seg: &DataSegment, k: u16) {
        let fl = &mut self.flows[f as usize];
        if fl.retired {
            return;
        }
        let mss = fl.mss as u64;
        fl.gt.on_arrive(seg.seq / mss, k);
        if k == 1 {
            if let Some(m) = fl.meter.as_mut() {
                m.on_arrival(seg.seq / mss);
            }
        }
        let r = fl.receiver.on_data(now, seg);
        if r.delivered > 0 {
            fl.gt.delivered_below(fl.receiver.rcv_nxt() / mss);
            if let Some(total) = fl.transfer.bytes {
                if fl.receiver.delivered_bytes() >= total && fl.completed_at.is_none() {
                    fl.completed_at = Some(now);
                    if fl.web_session.is_some() {
                        let delivered = fl.receiver.delivered_bytes();
                        if let Some(s) = fl.web_session {
                            self.web[s as usize].bytes_delivered += delivered;
                        }
                        if let Some(ack) = r.ack {
                            self.send_ack(now, f, ack);
                        }
                        self.web_object_done(now, f);
                        return;
                    }
                }
            }
        }
        if let Some(ack) = r.ack {
            self.send_ack(now, f, ack);
        }
        self.arm_receiver(f);
    }

    /// Puts the sender's segments on the wire and re-arms its timer.
    #[inline]
    fn after_sender(&mut self, now: Time, f: u32) {
        let fl = &mut self.flows[f as usize];
        let mss = fl.mss as u64;
        for seg in self.segs.drain(..) {
            let k = fl.gt.on_send(seg.seq / mss, seg.kind);
            let size = seg.wire_bytes();
            fl.wire_bytes_sent += size as u64;
            self.net.send(
                &mut self.q,
                now,
                Packet::new(fl.src, fl.dst, f, size, Payload::Data(seg, k)),
            );
        }
        if let Some(t) = fl.stimer.set(now, fl.sender.next_wakeup()) {
            self.q.schedule_timer(t, Event::SenderTimer(f));
        }
    }

    fn send_ack(&mut self, now: Time, f: u32, ack: AckSegment) {
        let fl = &self.flows[f as usize];
        let size = ack.wire_bytes();
        let (src, dst) = (fl.dst, fl.src);
        let payload = match PackedAck::pack(&ack) {
            Some(p) => Payload::Ack(p),
            None => Payload::WideAck(match self.wide_free.pop() {
                Some(i) => {
                    self.wide_acks[i as usize] = ack;
                    i
                }
                None => {
                    self.wide_acks.push(ack);
                    self.wide_acks.len() as u32 - 1
                }
            }),
        };
        self.net
            .send(&mut self.q, now, Packet::new(src, dst, f, size, payload));
    }

    fn on_ack_arrival(&mut self, now: Time, f: u32, ack: &AckSegment) {
        let fl = &mut self.flows[f as usize];
        if fl.retired {
            return;
        }
        self.segs.clear();
        fl.sender.on_ack(now, ack, &mut self.segs);
        self.after_sender(now, f);
    }

    fn arm_receiver(&mut self, f: u32) {
        let now = self.q.now();
        let fl = &mut self.flows[f as usize];
        if let Some(t) = fl.rtimer.set(now, fl.receiver.next_wakeup()) {
            self.q.schedule_timer(t, Event::ReceiverTimer(f));
        }
    }

    fn report(&mut self) -> RunReport {
        let window = (self.measure_to - self.measure_from)
            .as_secs_f64()
            .max(1e-12);
        let mut density = Vec::new();
        let flows = self
            .flows
            .iter_mut()
            .take(self.declared_flows)
            .map(|fl| {
                let (ratio, emax, emean) = match fl.meter.as_ref() {
                    Some(m) => {
                        for ((d, count), (_, freq)) in
                            m.density().into_iter().zip(m.density_normalized())
                        {
                            if count > 0 {
                                density.push(DensityRow {
                                    flow: fl.id,
                                    displacement: d,
                                    count,
                                    frequency: freq,
                                });
                            }
                        }
                        (m.reordered_ratio(), m.extent_max(), m.extent_mean())
                    }
                    None => (0.0, 0, 0.0),
                };
                let total = fl.gt.finish();
                let v = fl.gt.window;
                let end = fl.end.unwrap_or_else(|| fl.snap());
                FlowReport {
                    id: fl.id,
                    variant: fl.variant.to_string(),
                    bytes_delivered: fl.receiver.delivered_bytes(),
                    goodput_bps: (end.delivered - fl.base.delivered) as f64 * 8.0 / window,
                    throughput_bps: (end.wire - fl.base.wire) as f64 * 8.0 / window,
                    segments_sent: end.segments - fl.base.segments,
                    retransmissions: v.retransmissions,
                    spurious_retransmissions: v.spurious_retransmissions,
                    fast_retransmits: v.fast_retransmits,
                    spurious_fast_retransmits: v.spurious_fast_retransmits,
                    timeouts: v.timeouts,
                    spurious_timeouts: v.spurious_timeouts,
                    retransmissions_total: total.retransmissions,
                    spurious_retransmissions_total: total.spurious_retransmissions,
                    timeouts_total: total.timeouts,
                    completion_time_s: fl
                        .completed_at
                        .map(|t| (t - fl.transfer.start).as_secs_f64()),
                    dsacks_received: end.dsacks - fl.base.dsacks,
                    srtt_s: fl.sender.rtt.srtt.map(|t| t.as_secs_f64()),
                    final_cwnd: fl.sender.cwnd,
                    reordered_ratio: ratio,
                    reordering_extent_max: emax,
                    reordering_extent_mean: emean,
                }
            })
            .collect();
        let end = self
            .link_end
            .clone()
            .unwrap_or_else(|| self.net.links.iter().map(|l| l.stats).collect());
        let links = self
            .reported_links
            .iter()
            .map(|rl| {
                let i = rl.link.0 as usize;
                let (b, e) = (self.link_base[i], end[i]);
                LinkReport {
                    name: rl.name.clone(),
                    direction: rl.direction.to_string(),
                    utilization: (e.busy - b.busy).as_secs_f64() / window,
                    packets: e.packets - b.packets,
                    drops: e.drops() - b.drops(),
                    impairment_drops: e.impairment_drops - b.impairment_drops,
                    bottleneck: rl.bottleneck,
                }
            })
            .collect();
        RunReport {
            scenario: self.name.clone(),
            seed: self.seed,
            duration_s: self.duration.as_secs_f64(),
            measure_from_s: self.measure_from.as_secs_f64(),
            measure_to_s: self.measure_to.as_secs_f64(),
            wall_s: 0.0,
            events: self.q.popped(),
            flows,
            links,
            traffic: self.traffic_reports(window),
            reorder_density: density,
        }
    }

    fn traffic_reports(&self, window: f64) -> Vec<TrafficReport> {
        let mut out: Vec<TrafficReport> = Vec::new();
        for c in &self.cbrs {
            let (b, e) = (c.base, c.end.unwrap_or_else(|| c.snap()));
            out.push(TrafficReport {
                id: c.traffic,
                kind: "cbr".into(),
                packets_sent: e.0 - b.0,
                packets_delivered: e.1 - b.1,
                bytes_delivered: c.delivered_bytes,
                goodput_bps: (e.2 - b.2) as f64 * 8.0 / window,
                ..Default::default()
            });
        }
        let mut ids: Vec<u32> = self.web.iter().map(|w| w.traffic).collect();
        ids.dedup();
        for id in ids {
            let sessions: Vec<&WebSessionState> =
                self.web.iter().filter(|w| w.traffic == id).collect();
            // Objects completed in the window, and their completion times.
            let span = |w: &WebSessionState| (w.base, w.end.unwrap_or_else(|| w.snap()));
            let mut times: Vec<f64> = sessions
                .iter()
                .flat_map(|w| {
                    let (b, e) = span(w);
                    w.completion_s[b.1 as usize..e.1 as usize].iter().copied()
                })
                .collect();
            times.sort_by(f64::total_cmp);
            let bytes: u64 = sessions.iter().map(|w| w.bytes_delivered).sum();
            let sum = |k: fn(&(u64, u64, u64)) -> u64| -> u64 {
                sessions
                    .iter()
                    .map(|w| {
                        let (b, e) = span(w);
                        k(&e) - k(&b)
                    })
                    .sum()
            };
            out.push(TrafficReport {
                id,
                kind: "web".into(),
                sessions: sessions.len() as u32,
                objects_started: sum(|s| s.0),
                objects_completed: sum(|s| s.1),
                bytes_delivered: bytes,
                goodput_bps: sum(|s| s.2) as f64 * 8.0 / window,
                mean_completion_s: (!times.is_empty())
                    .then(|| times.iter().sum::<f64>() / times.len() as f64),
                median_completion_s: (!times.is_empty()).then(|| times[times.len() / 2]),
                ..Default::default()
            });
        }
        out.sort_by_key(|t| t.id);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reorderlab_net::PacketId;
    use reorderlab_tcp::SackBlock;

    /// An ACK whose SACK block lies 3 GB above its cumulative ACK cannot be
    /// packed: it travels in the side table and arrives intact.
    #[test]
    fn an_ack_too_wide_to_pack_travels_in_the_side_table() {
        let text = "name = \"w\"\nduration = \"1s\"\n[topology]\nkind = \"dumbbell\"\nbottleneck = { rate = \"10Mbps\", delay = \"10ms\" }\naccess = { rate = \"100Mbps\", delay = \"1ms\" }\n[[flows]]\nvariant = \"sack\"\nbytes = 1460\n";
        let names = reorderlab_tcp::variant::names();
        let sc = reorderlab_scenario::parse(text, "t.toml", &[], &names).expect("valid");
        let mut w = crate::build(&sc).expect("builds");
        let mut ack = AckSegment {
            ack: 1000,
            ..Default::default()
        };
        ack.push_sack(SackBlock {
            start: 3_000_000_000,
            end: 3_000_001_460,
        });
        assert!(PackedAck::pack(&ack).is_none());
        // The flow has ended: the ACK is delivered and dropped unread.
        w.flows[0].retired = true;
        w.send_ack(Time::ZERO, 0, ack);
        assert_eq!(w.net.pool.live(), 1);
        match w.net.pool.get(PacketId(0)).payload {
            Payload::WideAck(i) => assert_eq!(w.wide_acks[i as usize], ack),
            p => panic!("expected a wide ACK, got {p:?}"),
        }
        w.run();
        assert_eq!(w.net.pool.live(), 0, "delivered and freed");
        assert_eq!(w.wide_free, vec![0], "its side-table slot is free again");
    }

    /// Every packet in the pool has a payload slot this large: the packed
    /// ACK, the discriminant living in a niche of it.
    #[test]
    fn a_payload_slot_is_72_bytes() {
        assert_eq!(std::mem::size_of::<super::Payload>(), 72);
    }
}
