//! The event loop: one global event list, the network's events, the flows'
//! timers, and the glue that hands segments between the network and the
//! sans-IO TCP endpoints.

use reorderlab_metrics::{FlowReport, GroundTruth, LinkReport, RunReport};
use reorderlab_net::{LinkStats, NetEvent, NetOutput, Network, NodeId, Packet};
use reorderlab_sim::{EventQueue, Time, TimerSlot, Wake};
use reorderlab_tcp::{AckSegment, DataSegment, Receiver, Sender};
use reorderlab_traffic::Transfer;

/// What a packet carries.
#[derive(Clone, Copy, Debug, Default)]
pub enum Payload {
    #[default]
    None,
    /// A data segment and its transmission number (for the ground truth).
    Data(DataSegment, u16),
    Ack(AckSegment),
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
}

impl From<NetEvent> for Event {
    #[inline]
    fn from(e: NetEvent) -> Event {
        Event::Net(e)
    }
}

/// One TCP flow: its endpoints and what is known about it.
pub struct Flow {
    pub id: u32,
    pub variant: String,
    pub src: NodeId,
    pub dst: NodeId,
    pub transfer: Transfer,
    pub mss: u32,
    pub sender: Sender,
    pub receiver: Receiver,
    stimer: TimerSlot,
    rtimer: TimerSlot,
    pub gt: GroundTruth,
    /// When the last byte reached the receiving application.
    pub completed_at: Option<Time>,
    /// Wire bytes of data segments sent.
    pub wire_bytes_sent: u64,
    /// Snapshot at the start of the measurement window: (delivered, wire bytes).
    base: (u64, u64),
    /// Snapshot at the end of the window.
    end: Option<(u64, u64)>,
}

impl Flow {
    pub fn new(
        id: u32,
        variant: String,
        src: NodeId,
        dst: NodeId,
        transfer: Transfer,
        sender: Sender,
        receiver: Receiver,
    ) -> Flow {
        Flow {
            id,
            variant,
            src,
            dst,
            transfer,
            mss: sender.cfg.mss,
            sender,
            receiver,
            stimer: TimerSlot::default(),
            rtimer: TimerSlot::default(),
            gt: GroundTruth::new(),
            completed_at: None,
            wire_bytes_sent: 0,
            base: (0, 0),
            end: None,
        }
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
}

/// A built simulation, ready to run.
pub struct World {
    pub name: String,
    pub seed: u64,
    pub duration: Time,
    pub measure_from: Time,
    pub measure_to: Time,
    pub series_interval: Option<Time>,
    pub q: EventQueue<Event>,
    pub net: Network<Payload>,
    pub flows: Vec<Flow>,
    pub reported_links: Vec<ReportedLink>,
    link_base: Vec<LinkStats>,
    link_end: Option<Vec<LinkStats>>,
    pub series: Vec<SeriesRow>,
    series_last: Vec<u64>,
    outs: Vec<NetOutput>,
    segs: Vec<DataSegment>,
}

impl World {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: String,
        seed: u64,
        duration: Time,
        measure_from: Time,
        measure_to: Time,
        series_interval: Option<Time>,
        net: Network<Payload>,
        flows: Vec<Flow>,
        reported_links: Vec<ReportedLink>,
    ) -> World {
        let mut q = EventQueue::new();
        let mut net = net;
        net.start(&mut q);
        for f in &flows {
            q.schedule(f.transfer.start, Event::Start(f.id));
        }
        if measure_from > Time::ZERO {
            q.schedule(measure_from, Event::MeasureStart);
        }
        if let Some(iv) = series_interval {
            q.schedule(iv, Event::Sample);
        }
        let n = flows.len();
        let nl = net.links.len();
        World {
            name,
            seed,
            duration,
            measure_from,
            measure_to,
            series_interval,
            q,
            net,
            flows,
            reported_links,
            link_base: vec![LinkStats::default(); nl],
            link_end: None,
            series: Vec::new(),
            series_last: vec![0; n],
            outs: Vec::with_capacity(64),
            segs: Vec::with_capacity(64),
        }
    }

    /// Runs to the end and reports. `wall_s` is filled in by the caller's clock.
    pub fn run(&mut self) -> RunReport {
        let started = std::time::Instant::now();
        while let Some(t) = self.q.peek_time() {
            if t > self.duration {
                break;
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
        r
    }

    #[inline]
    fn dispatch(&mut self, now: Time, ev: Event) {
        match ev {
            Event::Net(ne) => self.net.handle(&mut self.q, now, ne),
            Event::SenderTimer(f) => {
                let fl = &mut self.flows[f as usize];
                match fl.stimer.on_wake(now) {
                    Wake::Fire => {
                        self.segs.clear();
                        fl.sender.on_timer(now, &mut self.segs);
                        self.after_sender(now, f);
                    }
                    Wake::Rearm(t) => self.q.schedule(t, Event::SenderTimer(f)),
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
                    Wake::Rearm(t) => self.q.schedule(t, Event::ReceiverTimer(f)),
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
                for fl in &mut self.flows {
                    fl.base = (fl.receiver.delivered_bytes(), fl.wire_bytes_sent);
                }
            }
            Event::Sample => self.sample(now),
        }
        // Timers and starts send too; collect what their packets met.
        self.drain_net(now);
    }

    fn snapshot_end(&mut self) {
        self.link_end = Some(self.net.links.iter().map(|l| l.stats).collect());
        for fl in &mut self.flows {
            fl.end = Some((fl.receiver.delivered_bytes(), fl.wire_bytes_sent));
        }
    }

    fn sample(&mut self, now: Time) {
        let Some(iv) = self.series_interval else {
            return;
        };
        for (i, fl) in self.flows.iter().enumerate() {
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
        self.q.schedule(now + iv, Event::Sample);
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
                        let p = *self.net.pool.get(id);
                        self.net.pool.free(id);
                        match p.payload {
                            Payload::Data(seg, k) => self.on_data_arrival(now, p.flow, &seg, k),
                            Payload::Ack(ack) => self.on_ack_arrival(now, p.flow, &ack),
                            Payload::None => {}
                        }
                    }
                    NetOutput::Dropped(id, _, _) => {
                        let p = *self.net.pool.get(id);
                        self.net.pool.free(id);
                        if let Payload::Data(seg, k) = p.payload {
                            let fl = &mut self.flows[p.flow as usize];
                            fl.gt.on_drop(seg.seq / fl.mss as u64, k);
                        }
                    }
                }
            }
        }
        self.outs = outs;
    }

    fn on_data_arrival(&mut self, now: Time, f: u32, seg: &DataSegment, k: u16) {
        let fl = &mut self.flows[f as usize];
        let mss = fl.mss as u64;
        fl.gt.on_arrive(seg.seq / mss, k);
        let r = fl.receiver.on_data(now, seg);
        if r.delivered > 0 {
            fl.gt.delivered_below(fl.receiver.rcv_nxt() / mss);
            if let Some(total) = fl.transfer.bytes {
                if fl.receiver.delivered_bytes() >= total && fl.completed_at.is_none() {
                    fl.completed_at = Some(now);
                }
            }
        }
        if let Some(ack) = r.ack {
            self.send_ack(now, f, ack);
        }
        self.arm_receiver(f);
    }

    fn on_ack_arrival(&mut self, now: Time, f: u32, ack: &AckSegment) {
        let fl = &mut self.flows[f as usize];
        self.segs.clear();
        fl.sender.on_ack(now, ack, &mut self.segs);
        self.after_sender(now, f);
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
        if let Some(t) = fl.stimer.set(fl.sender.next_wakeup()) {
            self.q.schedule(t, Event::SenderTimer(f));
        }
    }

    fn send_ack(&mut self, now: Time, f: u32, ack: AckSegment) {
        let fl = &self.flows[f as usize];
        let size = ack.wire_bytes();
        let (src, dst) = (fl.dst, fl.src);
        self.net.send(
            &mut self.q,
            now,
            Packet::new(src, dst, f, size, Payload::Ack(ack)),
        );
    }

    fn arm_receiver(&mut self, f: u32) {
        let fl = &mut self.flows[f as usize];
        if let Some(t) = fl.rtimer.set(fl.receiver.next_wakeup()) {
            self.q.schedule(t, Event::ReceiverTimer(f));
        }
    }

    fn report(&mut self) -> RunReport {
        let window = (self.measure_to - self.measure_from)
            .as_secs_f64()
            .max(1e-12);
        let flows = self
            .flows
            .iter_mut()
            .map(|fl| {
                let v = fl.gt.finish();
                let end = fl
                    .end
                    .unwrap_or((fl.receiver.delivered_bytes(), fl.wire_bytes_sent));
                FlowReport {
                    id: fl.id,
                    variant: fl.variant.clone(),
                    bytes_delivered: fl.receiver.delivered_bytes(),
                    goodput_bps: (end.0 - fl.base.0) as f64 * 8.0 / window,
                    throughput_bps: (end.1 - fl.base.1) as f64 * 8.0 / window,
                    segments_sent: fl.sender.stats.segments_sent,
                    retransmissions: v.retransmissions,
                    spurious_retransmissions: v.spurious_retransmissions,
                    fast_retransmits: v.fast_retransmits,
                    spurious_fast_retransmits: v.spurious_fast_retransmits,
                    timeouts: v.timeouts,
                    spurious_timeouts: v.spurious_timeouts,
                    completion_time_s: fl
                        .completed_at
                        .map(|t| (t - fl.transfer.start).as_secs_f64()),
                    dsacks_received: fl.sender.stats.dsacks,
                    srtt_s: fl.sender.rtt.srtt.map(|t| t.as_secs_f64()),
                    final_cwnd: fl.sender.cwnd,
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
        }
    }
}
