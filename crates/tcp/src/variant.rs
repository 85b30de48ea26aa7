//! Variants: named presets that compose the sender's parts (loss recovery,
//! congestion control, options). The names are the scenario file's
//! `variant` values and what `reorderlab variants` lists.

use crate::cc::{CongestionControl, Reno};
use crate::sender::recovery::{NewReno, Rfc6675};
use crate::sender::spurious::DsackDetector;
use crate::sender::{
    loss::{Dcr, TdFr},
    DupThresh, DupthreshPolicy, LossDetection, Ncr, Recovery, Response, Sender, SenderConfig,
    Spurious, TcpPr,
};
use std::collections::BTreeMap;

/// A numeric parameter a variant accepts in a flow's `params` table.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    pub default: f64,
    /// Smallest and largest accepted values (inclusive, exclusive as documented).
    pub min: f64,
    pub max: f64,
    pub doc: &'static str,
}

/// A named sender preset.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// The `variant` value in scenario files.
    pub name: &'static str,
    /// One line for `reorderlab variants`.
    pub description: &'static str,
    /// The paper or RFC it comes from.
    pub source: &'static str,
    pub recovery: RecoveryKind,
    /// The flow negotiates SACK (RFC 2018) unless the scenario overrides it.
    pub sack: bool,
    /// The flow negotiates DSACK (RFC 2883) unless the scenario overrides it.
    pub dsack: bool,
    /// Parameters accepted in the flow's `params` table.
    pub params: &'static [Param],
}

impl Variant {
    /// The congestion control this variant uses unless the scenario's `cc` overrides it.
    pub fn default_cc(&self) -> CongestionControl {
        CongestionControl::Reno(Reno)
    }

    /// Checks a flow's `params` table: every key known, every value in range.
    pub fn check_params(&self, params: &BTreeMap<String, f64>) -> Result<(), (String, String)> {
        for (k, &v) in params {
            let Some(p) = self.params.iter().find(|p| p.name == k) else {
                let known: Vec<&str> = self.params.iter().map(|p| p.name).collect();
                let expected = if known.is_empty() {
                    "this variant takes no parameters".to_string()
                } else {
                    format!("expected one of: {}", known.join(", "))
                };
                return Err((
                    k.clone(),
                    format!(
                        "unknown parameter {k:?} for variant {:?}; {expected}",
                        self.name
                    ),
                ));
            };
            if !(v >= p.min && v <= p.max) {
                return Err((
                    k.clone(),
                    format!(
                        "expected {} between {} and {}, got {v}",
                        p.doc, p.min, p.max
                    ),
                ));
            }
        }
        Ok(())
    }

    fn param(&self, params: &BTreeMap<String, f64>, name: &str) -> f64 {
        params
            .get(name)
            .copied()
            .or_else(|| {
                self.params
                    .iter()
                    .find(|p| p.name == name)
                    .map(|p| p.default)
            })
            .unwrap_or(f64::NAN)
    }

    /// Builds this variant's sender from its parts.
    pub fn sender(
        &self,
        cfg: SenderConfig,
        cc: CongestionControl,
        params: &BTreeMap<String, f64>,
    ) -> Sender {
        let recovery = match self.recovery {
            RecoveryKind::Reno => Recovery::Reno,
            RecoveryKind::NewReno => Recovery::NewReno(NewReno::default()),
            RecoveryKind::Sack => Recovery::Sack(Rfc6675::default()),
            RecoveryKind::Fack => Recovery::Fack(Rfc6675::default()),
            RecoveryKind::NewRenoSack => Recovery::NewRenoSack(Rfc6675::default()),
            RecoveryKind::Retransmit => Recovery::Retransmit,
        };
        let dt = cfg.dupthresh;
        let adaptive = |policy| LossDetection::DupThresh(DupThresh::new(dt, policy));
        let (loss, response) = match self.name {
            "tcp-pr" | "tcp-pr-basic" => (
                LossDetection::TcpPr(TcpPr::new(
                    self.param(params, "alpha"),
                    self.param(params, "beta"),
                    self.name == "tcp-pr",
                )),
                Response::None,
            ),
            "ba-inc1" => (adaptive(DupthreshPolicy::Inc1), Response::SlowStartBack),
            "ba-incn" => (adaptive(DupthreshPolicy::IncN), Response::SlowStartBack),
            "ba-ewma" => (
                adaptive(DupthreshPolicy::Ewma {
                    gain: self.param(params, "gain"),
                }),
                Response::SlowStartBack,
            ),
            "td-fr" => (LossDetection::TdFr(TdFr::new(dt)), Response::None),
            "tcp-ncr" => (
                LossDetection::Ncr(Ncr::new(self.param(params, "careful") >= 0.5, dt)),
                Response::None,
            ),
            "tcp-dcr" => (LossDetection::Dcr(Dcr::new(dt)), Response::None),
            _ => (adaptive(DupthreshPolicy::Fixed), Response::None),
        };
        let spurious = Spurious {
            dsack: cfg.dsack.then(DsackDetector::default),
            response,
        };
        Sender::new(cfg, loss, recovery, spurious, cc)
    }
}

/// The recovery algorithm a variant uses (`sender::recovery`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryKind {
    Reno,
    NewReno,
    Sack,
    Fack,
    NewRenoSack,
    /// TCP-PR: no recovery phase; lost segments are resent as the window allows.
    Retransmit,
}

/// The EWMA gain of ba-ewma (unstated in the papers; 1/4 chosen here).
const EWMA_PARAMS: &[Param] = &[Param {
    name: "gain",
    default: 0.25,
    min: 0.0,
    max: 1.0,
    doc: "the EWMA gain",
}];

/// TCP-NCR's Extended Limited Transmit variant (RFC 4653 Section 3).
const DCR_PARAMS: &[Param] = &[Param {
    name: "careful",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    doc: "1 for Careful Limited Transmit (LT_F = 2/3), 0 for Aggressive (LT_F = 1/2)",
}];

/// TCP-PR's alpha and beta (TCP-PR Section IV: 0.999 and 3.0).
const PR_PARAMS: &[Param] = &[
    Param {
        name: "alpha",
        default: 0.999,
        min: 0.0,
        max: 1.0,
        doc: "alpha, srtt's decay per RTT (TCP-PR eq. 2),",
    },
    Param {
        name: "beta",
        default: 3.0,
        min: 1.0,
        max: 1000.0,
        doc: "beta, mxrtt = beta * srtt (TCP-PR eq. 1),",
    },
];

/// Every variant, in the order `reorderlab variants` lists them.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "reno",
        description: "fast retransmit and fast recovery, leaves recovery on the first new ACK",
        source: "RFC 5681",
        recovery: RecoveryKind::Reno,
        sack: false,
        dsack: false,
        params: &[],
    },
    Variant {
        name: "newreno",
        description: "Reno that stays in recovery until all data outstanding at loss is ACKed, retransmitting on partial ACKs",
        source: "RFC 6582",
        recovery: RecoveryKind::NewReno,
        sack: false,
        dsack: false,
        params: &[],
    },
    Variant {
        name: "sack",
        description: "conservative SACK-based loss recovery with pipe and NextSeg",
        source: "RFC 6675 (SACK RFC 2018, DSACK RFC 2883)",
        recovery: RecoveryKind::Sack,
        sack: true,
        dsack: true,
        params: &[],
    },
    Variant {
        name: "fack",
        description: "forward acknowledgment: unSACKed data below the highest SACK counts as left the network",
        source: "Mathis and Mahdavi, SIGCOMM 1996",
        recovery: RecoveryKind::Fack,
        sack: true,
        dsack: true,
        params: &[],
    },
    Variant {
        name: "newreno-sack",
        description: "RFC 6675 recovery that retransmits at least one segment on every partial ACK",
        source: "Eifel response paper, Section III-A",
        recovery: RecoveryKind::NewRenoSack,
        sack: true,
        dsack: true,
        params: &[],
    },
    Variant {
        name: "dsack-nm",
        description: "SACK that detects spurious retransmissions with DSACK and does nothing about them",
        source: "TCP-PR paper Section VI (DSACK-NM); RFC 2883, RFC 3708",
        recovery: RecoveryKind::Sack,
        sack: true,
        dsack: true,
        params: &[],
    },
    Variant {
        name: "ba-inc1",
        description: "SACK + limited transmit; on a DSACK-detected spurious fast retransmit, undo the cut and raise dupthresh by 1",
        source: "Blanton and Allman 2002, as in TCP-PR Section VI and RR-TCP Section 3",
        recovery: RecoveryKind::Sack,
        sack: true,
        dsack: true,
        params: &[],
    },
    Variant {
        name: "ba-incn",
        description: "as ba-inc1, but raise dupthresh to one more than the duplicate ACKs the reordered segment caused",
        source: "Blanton and Allman 2002, as in TCP-PR Section VI",
        recovery: RecoveryKind::Sack,
        sack: true,
        dsack: true,
        params: &[],
    },
    Variant {
        name: "ba-ewma",
        description: "as ba-inc1, but dupthresh is an EWMA of the duplicate ACKs spurious fast retransmits saw",
        source: "Blanton and Allman 2002, as in TCP-PR Sections II and VI",
        recovery: RecoveryKind::Sack,
        sack: true,
        dsack: true,
        params: EWMA_PARAMS,
    },
    Variant {
        name: "td-fr",
        description: "SACK whose fast retransmit waits max(RTT/2, DT) after the first duplicate ACK",
        source: "Paxson; Blanton and Allman 2002; TCP-PR Section II",
        recovery: RecoveryKind::Sack,
        sack: true,
        dsack: true,
        params: &[],
    },
    Variant {
        name: "tcp-dcr",
        description: "delayed congestion response: retransmit and cut one RTT after the duplicate-ACK trigger, sending new data meanwhile; any cc",
        source: "Bhandarkar et al. (TCP-DCR); TCP-PR Section II; high-speed paper Section II",
        recovery: RecoveryKind::Sack,
        sack: true,
        dsack: true,
        params: &[],
    },
    Variant {
        name: "tcp-ncr",
        description: "non-congestion robustness: DupThresh about a flight of SACKed data, Extended Limited Transmit meanwhile; any cc",
        source: "RFC 4653 (TCP-NCR)",
        recovery: RecoveryKind::Sack,
        sack: true,
        dsack: true,
        params: DCR_PARAMS,
    },
    Variant {
        name: "tcp-pr",
        description: "loss detected only by per-packet timers (mxrtt = beta * srtt), halving to cwnd(n)/2, with extreme-loss handling",
        source: "TCP-PR paper, Section III-B and Table III",
        recovery: RecoveryKind::Retransmit,
        sack: true,
        dsack: true,
        params: PR_PARAMS,
    },
    Variant {
        name: "tcp-pr-basic",
        description: "TCP-PR without extreme-loss handling: never returns to slow start",
        source: "TCP-PR paper, Section III-A and Table I",
        recovery: RecoveryKind::Retransmit,
        sack: true,
        dsack: true,
        params: PR_PARAMS,
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
