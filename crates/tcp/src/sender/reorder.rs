//! Reordering defences that keep the duplicate-ACK clock: DSACK detection of
//! spurious fast retransmits (RFC 2883 Section 5, RFC 3708), Blanton and
//! Allman's dupthresh adaptations with the undo of the window cut,
//! time-delayed fast recovery (TD-FR), and TCP-DCR's delayed congestion
//! response (one RTT after the duplicate-ACK trigger).
//!
//! A recovery *episode* remembers the segments it retransmitted; when DSACKs
//! have reported every one of them as duplicated, the episode was spurious
//! (RFC 3708 Section 3): the original transmissions had arrived. Blanton and
//! Allman's senders then restore the congestion state (slow-starting back to
//! the window before the cut, TCP-PR paper footnote 2) and raise dupthresh.

use super::Sender;
use reorderlab_sim::Time;

/// How dupthresh reacts to a spurious fast retransmit (Blanton and Allman,
/// as described in TCP-PR Section II and RR-TCP Section 3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DupthreshPolicy {
    /// dupthresh stays at its configured value.
    Fixed,
    /// "increments the dupthresh by one every time a spurious
    /// retransmission is detected" (TCP-PR Section VI).
    Inc1,
    /// "increases the dupthresh such that the just observed spurious
    /// retransmission would not have occurred" (TCP-PR Section VI): one more
    /// than the duplicate ACKs that arrived for the hole.
    IncN,
    /// dupthresh = (1 - gain) * dupthresh + gain * (duplicate ACKs observed
    /// for the hole): "an exponentially weighted moving average of the number
    /// of DUPACKs received" (TCP-PR Section II).
    Ewma { gain: f64 },
}

/// Upper bound on an adapted dupthresh as a fraction of cwnd, so a large
/// dupthresh never stops fast retransmit altogether (Blanton and Allman's
/// limit of 0.9 cwnd, as reported in RR-TCP Section 3).
pub const DUPTHRESH_CWND_CAP: f64 = 0.9;

/// One loss-recovery episode, for DSACK-based spurious detection.
#[derive(Clone, Debug)]
struct Episode {
    /// SND.UNA at entry: the segment the fast retransmit resent.
    first: u64,
    /// RecoveryPoint of the episode.
    recover: u64,
    prior_cwnd: f64,
    /// Segments retransmitted in the episode, and those DSACKed since.
    retransmitted: Vec<u64>,
    dsacked: Vec<u64>,
    /// Duplicate ACKs that arrived for the hole at `first` before the
    /// cumulative ACK covered it (None while still counting).
    dupacks_seen: Option<u32>,
}

/// Most retransmissions an episode tracks; an episode with more is never
/// judged spurious (a heavy-loss episode is not reordering).
const EPISODE_MAX_RETRANSMISSIONS: usize = 64;

/// DSACK detection, dupthresh adaptation and TD-FR state.
#[derive(Clone, Debug)]
pub struct Reorder {
    pub policy: DupthreshPolicy,
    /// Undo the window cut of a recovery found spurious.
    pub undo: bool,
    /// Time-delayed fast recovery.
    pub td_fr: bool,
    /// TCP-DCR: retransmit and cut one RTT after the dupthresh trigger
    /// (Bhandarkar et al.; TCP-PR Section II; the high-speed paper Section II).
    pub dcr: bool,
    /// TCP-DCR: when the trigger came, and the flight then (FlightSizePrev:
    /// the cut is taken from it, not from the flight grown meanwhile, as
    /// RFC 4653 Section 3.4 does).
    dcr_trigger: Option<(Time, u32)>,
    /// The adapted dupthresh (fractional for the EWMA).
    pub dupthresh: f64,
    /// The configured dupthresh, restored on a timeout.
    pub base: f64,
    episode: Option<Episode>,
    /// Recovery episodes found spurious by DSACK.
    pub spurious_detected: u64,
    /// TD-FR: arrival of the first and the DupThresh-th duplicate ACK.
    first_dupack: Option<Time>,
    thresh_dupack: Option<Time>,
    /// TD-FR: when fast retransmit may start.
    pub td_deadline: Option<Time>,
}

impl Reorder {
    pub fn new(dupthresh: u32) -> Self {
        Reorder {
            policy: DupthreshPolicy::Fixed,
            undo: false,
            td_fr: false,
            dcr: false,
            dcr_trigger: None,
            dupthresh: dupthresh as f64,
            base: dupthresh as f64,
            episode: None,
            spurious_detected: 0,
            first_dupack: None,
            thresh_dupack: None,
            td_deadline: None,
        }
    }

    /// The dupthresh in force: the configured value, or the adapted one
    /// held between the configured value and 0.9 cwnd.
    pub fn effective(&self, cwnd: f64) -> u32 {
        if self.policy == DupthreshPolicy::Fixed {
            return self.base as u32;
        }
        let cap = (DUPTHRESH_CWND_CAP * cwnd).floor().max(self.base);
        self.dupthresh.round().clamp(self.base, cap) as u32
    }
}

impl Sender {
    /// The dupthresh in force (RFC 5681 Section 3.2, adapted by the policy).
    #[inline]
    pub fn dupthresh(&self) -> u32 {
        if let Some(n) = &self.ncr {
            // RFC 4653: DupThresh follows the flight size during Extended
            // Limited Transmit and is held through the recovery it starts.
            if n.active || self.in_recovery {
                return n.dupthresh;
            }
        }
        self.reorder.effective(self.cwnd)
    }

    /// A recovery starts: remember what it changes, to judge it later.
    pub(super) fn episode_start(&mut self, prior_cwnd: f64) {
        self.reorder.td_deadline = None;
        self.reorder.episode = Some(Episode {
            first: self.sb.una(),
            recover: self.sb.nxt(),
            prior_cwnd,
            retransmitted: Vec::new(),
            dsacked: Vec::new(),
            dupacks_seen: None,
        });
    }

    pub(super) fn episode_retransmit(&mut self, seg: u64) {
        if let Some(e) = self.reorder.episode.as_mut() {
            if seg >= e.first && seg < e.recover && !e.retransmitted.contains(&seg) {
                if e.retransmitted.len() >= EPISODE_MAX_RETRANSMISSIONS {
                    self.reorder.episode = None;
                } else {
                    e.retransmitted.push(seg);
                }
            }
        }
    }

    /// SND.UNA advanced: close the duplicate-ACK count of the episode's hole
    /// and clear TD-FR's wait.
    pub(super) fn reorder_on_new_ack(&mut self, new_una: u64, dupacks: u32) {
        if let Some(e) = self.reorder.episode.as_mut() {
            if e.dupacks_seen.is_none() && new_una > e.first {
                e.dupacks_seen = Some(dupacks);
            }
        }
        self.reorder.first_dupack = None;
        self.reorder.thresh_dupack = None;
        self.reorder.td_deadline = None;
        self.reorder.dcr_trigger = None;
    }

    /// A DSACK for `[lo, hi)` (segments): when every retransmission of the
    /// episode has been reported duplicated, the episode was spurious.
    pub(super) fn reorder_on_dsack(&mut self, lo: u64, hi: u64) {
        let Some(e) = self.reorder.episode.as_mut() else {
            return;
        };
        for s in lo..hi {
            if e.retransmitted.contains(&s) && !e.dsacked.contains(&s) {
                e.dsacked.push(s);
            }
        }
        if e.retransmitted.is_empty() || e.dsacked.len() < e.retransmitted.len() {
            return;
        }
        let e = self.reorder.episode.take().expect("episode");
        self.reorder.spurious_detected += 1;
        let seen = e.dupacks_seen.unwrap_or(self.dupacks) as f64;
        let r = &mut self.reorder;
        r.dupthresh = match r.policy {
            DupthreshPolicy::Fixed => r.dupthresh,
            DupthreshPolicy::Inc1 => r.dupthresh + 1.0,
            DupthreshPolicy::IncN => r.dupthresh.max(seen + 1.0),
            DupthreshPolicy::Ewma { gain } => (1.0 - gain) * r.dupthresh + gain * seen,
        };
        if r.undo {
            // Slow-start back to the window before the cut (TCP-PR paper
            // footnote 2, Blanton and Allman).
            self.ssthresh = self.ssthresh.max(e.prior_cwnd);
            if self.in_recovery && self.sb.una() >= e.recover {
                self.in_recovery = false;
            }
        }
    }

    /// A timeout: dupthresh goes back to its configured value (Blanton and
    /// Allman, RR-TCP Section 3) and the episode is not judged.
    pub(super) fn reorder_on_timeout(&mut self) {
        self.reorder.dupthresh = self.reorder.base;
        self.reorder.episode = None;
        self.reorder.td_deadline = None;
        self.reorder.first_dupack = None;
        self.reorder.thresh_dupack = None;
        self.reorder.dcr_trigger = None;
    }

    /// Whether a delayed response (TD-FR or DCR) lets loss recovery start
    /// now; otherwise the wait's deadline is armed.
    pub(super) fn delayed_response_allows(&mut self, now: Time) -> bool {
        if self.reorder.td_fr {
            return self.td_fr_allows(now);
        }
        if !self.reorder.dcr {
            return true;
        }
        let flight = self.sb.packets_out();
        let (t, _) = *self.reorder.dcr_trigger.get_or_insert((now, flight));
        let rtt = self.rtt.srtt.unwrap_or(Time::from_secs(1));
        if now >= t + rtt {
            self.reorder.td_deadline = None;
            true
        } else {
            self.reorder.td_deadline = Some(t + rtt);
            false
        }
    }

    /// FlightSize for the cut: DCR's flight at the trigger, else `flight`.
    pub(super) fn dcr_flight_for_cut(&mut self, flight: u32) -> u32 {
        match self.reorder.dcr_trigger.take() {
            Some((_, f)) if self.reorder.dcr => f,
            _ => flight,
        }
    }

    /// Records duplicate-ACK arrival times for TD-FR.
    pub(super) fn td_fr_on_dupack(&mut self, now: Time) {
        if self.dupacks == 1 || self.reorder.first_dupack.is_none() {
            self.reorder.first_dupack.get_or_insert(now);
        }
        if self.dupacks >= self.dupthresh() && self.reorder.thresh_dupack.is_none() {
            self.reorder.thresh_dupack = Some(now);
        }
    }

    /// TD-FR (Paxson; Blanton and Allman): fast retransmit only once
    /// max(RTT/2, DT) has passed since the first duplicate ACK, DT being the
    /// time between the first and the DupThresh-th duplicate ACK. Returns
    /// whether recovery may start now; otherwise arms the deadline.
    pub(super) fn td_fr_allows(&mut self, now: Time) -> bool {
        let first = *self.reorder.first_dupack.get_or_insert(now);
        let third = *self.reorder.thresh_dupack.get_or_insert(now);
        let half_rtt = self.rtt.srtt.map_or(Time::ZERO, |s| Time(s.0 / 2));
        let deadline = first + half_rtt.max(third - first);
        if now >= deadline {
            self.reorder.td_deadline = None;
            true
        } else {
            self.reorder.td_deadline = Some(deadline);
            false
        }
    }
}
