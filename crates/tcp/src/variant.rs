//! Variants: named presets that compose the sender's parts (loss recovery,
//! congestion control, options). The names are the scenario file's
//! `variant` values and what `reorderlab variants` lists.

use crate::cc::{CongestionControl, Reno};
use crate::sender::RecoveryAlgo;

/// A named sender preset.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// The `variant` value in scenario files.
    pub name: &'static str,
    /// One line for `reorderlab variants`.
    pub description: &'static str,
    /// The paper or RFC it comes from.
    pub source: &'static str,
    pub recovery: RecoveryAlgo,
    /// The flow negotiates SACK (RFC 2018) unless the scenario overrides it.
    pub sack: bool,
    /// The flow negotiates DSACK (RFC 2883) unless the scenario overrides it.
    pub dsack: bool,
}

impl Variant {
    /// The congestion control this variant uses unless the scenario's `cc` overrides it.
    pub fn default_cc(&self) -> CongestionControl {
        CongestionControl::Reno(Reno)
    }
}

/// Every variant, in the order `reorderlab variants` lists them.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "reno",
        description: "fast retransmit and fast recovery, leaves recovery on the first new ACK",
        source: "RFC 5681",
        recovery: RecoveryAlgo::Reno,
        sack: false,
        dsack: false,
    },
    Variant {
        name: "newreno",
        description: "Reno that stays in recovery until all data outstanding at loss is ACKed, retransmitting on partial ACKs",
        source: "RFC 6582",
        recovery: RecoveryAlgo::NewReno,
        sack: false,
        dsack: false,
    },
    Variant {
        name: "sack",
        description: "conservative SACK-based loss recovery with pipe and NextSeg",
        source: "RFC 6675 (SACK RFC 2018, DSACK RFC 2883)",
        recovery: RecoveryAlgo::Sack,
        sack: true,
        dsack: true,
    },
    Variant {
        name: "fack",
        description: "forward acknowledgment: unSACKed data below the highest SACK counts as left the network",
        source: "Mathis and Mahdavi, SIGCOMM 1996",
        recovery: RecoveryAlgo::Fack,
        sack: true,
        dsack: true,
    },
    Variant {
        name: "newreno-sack",
        description: "RFC 6675 recovery that retransmits at least one segment on every partial ACK",
        source: "Eifel response paper, Section III-A",
        recovery: RecoveryAlgo::NewRenoSack,
        sack: true,
        dsack: true,
    },
];

/// Looks a variant up by name.
pub fn find(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.name == name)
}

/// Every variant name.
pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}

/// Congestion-control algorithms a flow's `cc` key may name.
pub fn congestion_control(name: &str) -> Option<CongestionControl> {
    match name {
        "reno" => Some(CongestionControl::Reno(Reno)),
        _ => None,
    }
}

/// Every `cc` name.
pub const CC_NAMES: &[&str] = &["reno"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_findable() {
        let mut n = names();
        n.sort();
        n.dedup();
        assert_eq!(n.len(), VARIANTS.len());
        for v in VARIANTS {
            assert_eq!(find(v.name).map(|f| f.name), Some(v.name));
        }
        assert!(find("nope").is_none());
    }

    #[test]
    fn reno_family_does_not_use_sack() {
        assert!(!find("reno").unwrap().sack);
        assert!(!find("newreno").unwrap().sack);
        assert!(find("sack").unwrap().sack);
    }
}
