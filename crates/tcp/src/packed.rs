//! The compact form of an ACK while it is in flight.
//!
//! The packet pool gives every packet a payload slot as large as the
//! largest payload, and the largest is an [`AckSegment`] (120 bytes: four
//! SACK blocks of two 64-bit edges, optional timestamps). Most packets in
//! flight are data segments, so the pool spent most of its memory on room
//! they never use. [`PackedAck`] holds the same ACK in 72 bytes: SACK edges
//! as 32-bit offsets from the cumulative ACK (a block lies within a window
//! of it) and absent timestamps as a reserved value.

use crate::segment::{AckSegment, SackBlock, Seq, MAX_SACK_BLOCKS};
use reorderlab_sim::Time;

/// Marks an absent timestamp (no real clock reads `u64::MAX` ns).
const NO_TS: u64 = u64::MAX;

/// An [`AckSegment`], packed. [`PackedAck::pack`] refuses an ACK it
/// cannot hold exactly, so unpacking always gives back the same ACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackedAck {
    ack: Seq,
    rwnd: u64,
    ts_val: u64,
    ts_ecr: u64,
    /// Each block as (start − ack, end − start).
    sack: [(i32, u32); MAX_SACK_BLOCKS],
    sack_len: u8,
    dsack: bool,
}

impl PackedAck {
    /// Packs `a`, or `None` when a SACK edge lies 2^31 bytes or more from
    /// the cumulative ACK (or a timestamp is `u64::MAX` ns).
    pub fn pack(a: &AckSegment) -> Option<PackedAck> {
        let ts = |t: Option<Time>| match t {
            Some(t) if t.0 == NO_TS => None,
            Some(t) => Some(t.0),
            None => Some(NO_TS),
        };
        let mut sack = [(0, 0); MAX_SACK_BLOCKS];
        for (slot, b) in sack.iter_mut().zip(a.sack_blocks()) {
            let start = i32::try_from(b.start as i128 - a.ack as i128).ok()?;
            let len = u32::try_from(b.end.checked_sub(b.start)?).ok()?;
            *slot = (start, len);
        }
        Some(PackedAck {
            ack: a.ack,
            rwnd: a.rwnd,
            ts_val: ts(a.ts_val)?,
            ts_ecr: ts(a.ts_ecr)?,
            sack,
            sack_len: a.sack_len,
            dsack: a.dsack,
        })
    }

    /// The ACK that was packed.
    pub fn unpack(&self) -> AckSegment {
        let ts = |t: u64| (t != NO_TS).then_some(Time(t));
        let mut sack = [SackBlock::default(); MAX_SACK_BLOCKS];
        for (b, &(start, len)) in sack.iter_mut().zip(&self.sack[..self.sack_len as usize]) {
            let s = self.ack.wrapping_add_signed(start as i64);
            *b = SackBlock {
                start: s,
                end: s + len as u64,
            };
        }
        AckSegment {
            ack: self.ack,
            sack,
            sack_len: self.sack_len,
            dsack: self.dsack,
            ts_val: ts(self.ts_val),
            ts_ecr: ts(self.ts_ecr),
            rwnd: self.rwnd,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_packed_ack_is_72_bytes() {
        assert_eq!(std::mem::size_of::<PackedAck>(), 72);
    }

    proptest! {
        /// Whatever the ACK, packing either refuses it or gives it back
        /// exactly; it refuses only edges 2^31 bytes or more from the ACK.
        #[test]
        fn pack_then_unpack_is_exact(
            ack in 0u64..1 << 40,
            blocks in prop::collection::vec((-(1i64 << 32)..(1i64 << 32), 0u64..1 << 33), 0..=MAX_SACK_BLOCKS),
            dsack in any::<bool>(),
            ts in prop::option::of(0u64..u64::MAX),
            rwnd in any::<u64>(),
        ) {
            let mut a = AckSegment { ack, dsack, rwnd, ts_val: ts.map(Time), ts_ecr: ts.map(|t| Time(t / 2)), ..Default::default() };
            for &(off, len) in &blocks {
                let start = (ack as i64 + off).max(0) as u64;
                a.sack[a.sack_len as usize] = SackBlock { start, end: start + len };
                a.sack_len += 1;
            }
            let fits = a.sack_blocks().iter().all(|b| {
                let off = b.start as i128 - ack as i128;
                off >= i32::MIN as i128 && off <= i32::MAX as i128 && b.end - b.start <= u32::MAX as u64
            });
            match PackedAck::pack(&a) {
                Some(p) => {
                    prop_assert!(fits);
                    prop_assert_eq!(p.unpack(), a);
                }
                None => prop_assert!(!fits),
            }
        }
    }
}
