//! DSACK detection of spurious fast retransmits (RFC 2883 Section 5, RFC
//! 3708): a recovery *episode* remembers the segments it retransmitted;
//! when DSACKs have reported every one of them as duplicated, the episode
//! was spurious (RFC 3708 Section 3): the original transmissions had arrived.

use super::{Checkpoint, SpuriousRecovery};
use crate::sender::state::SenderState;

/// One loss-recovery episode.
#[derive(Clone, Debug)]
struct Episode {
    /// SND.UNA at entry: the segment the fast retransmit resent.
    first: u64,
    /// RecoveryPoint of the episode.
    recover: u64,
    before: Checkpoint,
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

/// The detector: the episode under watch.
#[derive(Clone, Debug, Default)]
pub struct DsackDetector {
    episode: Option<Episode>,
}

impl DsackDetector {
    /// A recovery starts (before its cut): remember what it changes.
    pub fn on_recovery_start(&mut self, st: &SenderState) {
        self.episode = Some(Episode {
            first: st.sb.una(),
            recover: st.sb.nxt(),
            before: Checkpoint::take(st),
            retransmitted: Vec::new(),
            dsacked: Vec::new(),
            dupacks_seen: None,
        });
    }

    /// Segment `seg` was retransmitted.
    pub fn on_retransmit(&mut self, seg: u64) {
        if let Some(e) = self.episode.as_mut() {
            if seg >= e.first && seg < e.recover && !e.retransmitted.contains(&seg) {
                if e.retransmitted.len() >= EPISODE_MAX_RETRANSMISSIONS {
                    self.episode = None;
                } else {
                    e.retransmitted.push(seg);
                }
            }
        }
    }

    /// SND.UNA advanced to `new_una` after `dupacks` duplicate ACKs: close
    /// the duplicate-ACK count of the episode's hole.
    pub fn on_new_ack(&mut self, new_una: u64, dupacks: u32) {
        if let Some(e) = self.episode.as_mut() {
            if e.dupacks_seen.is_none() && new_una > e.first {
                e.dupacks_seen = Some(dupacks);
            }
        }
    }

    /// A DSACK for segments `[lo, hi)`: when every retransmission of the
    /// episode has been reported duplicated, the episode was spurious.
    pub fn on_dsack(&mut self, lo: u64, hi: u64, dupacks: u32) -> Option<SpuriousRecovery> {
        let e = self.episode.as_mut()?;
        for s in lo..hi {
            if e.retransmitted.contains(&s) && !e.dsacked.contains(&s) {
                e.dsacked.push(s);
            }
        }
        if e.retransmitted.is_empty() || e.dsacked.len() < e.retransmitted.len() {
            return None;
        }
        let e = self.episode.take()?;
        Some(SpuriousRecovery {
            before: e.before,
            recover: e.recover,
            dupacks_seen: e.dupacks_seen.unwrap_or(dupacks),
        })
    }

    /// A timeout: the episode is not judged.
    pub fn on_timeout(&mut self) {
        self.episode = None;
    }
}
