//! Names of a topology's nodes, links and link groups. Numbered families
//! (`access:<i>`, `S<i>`) are kept as ranges, so that checking a name against
//! a dumbbell of 2^32 pairs neither allocates nor loops; messages show long
//! families as `first, ..., last`.

use std::collections::BTreeMap;

use crate::units::quote;
use crate::walk::distance;

/// Families longer than this are shown as `first, ..., last`.
const SHOWN_IN_FULL: u64 = 3;

/// Most members of one family offered as "did you mean" candidates.
const CANDIDATES: u64 = 64;

/// One name or a numbered family of names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Pattern {
    /// Exactly this name.
    One(String),
    /// `{prefix}{n}` for `n` in `from..to`.
    Numbered { prefix: String, from: u64, to: u64 },
    /// `{prefix}{n}-{prefix}{n+1}` for `n` in `from..to` (a chain's hops).
    Hop { prefix: String, from: u64, to: u64 },
}

/// A decimal number written without leading zeros.
fn canonical_number(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || (s.len() > 1 && s.starts_with('0'))
    {
        return None;
    }
    s.parse().ok()
}

impl Pattern {
    fn one(s: impl Into<String>) -> Pattern {
        Pattern::One(s.into())
    }

    fn numbered(prefix: impl Into<String>, from: u64, to: u64) -> Pattern {
        Pattern::Numbered {
            prefix: prefix.into(),
            from,
            to,
        }
    }

    fn len(&self) -> u64 {
        match self {
            Pattern::One(_) => 1,
            Pattern::Numbered { from, to, .. } | Pattern::Hop { from, to, .. } => {
                to.saturating_sub(*from)
            }
        }
    }

    /// The `i`-th member (`i < len`).
    fn nth(&self, i: u64) -> String {
        match self {
            Pattern::One(s) => s.clone(),
            Pattern::Numbered { prefix, from, .. } => format!("{prefix}{}", from + i),
            Pattern::Hop { prefix, from, .. } => {
                let n = from + i;
                format!("{prefix}{n}-{prefix}{}", n + 1)
            }
        }
    }

    /// For a hop written backwards (`R3-R2`), the hop it reverses (`R2-R3`).
    fn reversed(&self, word: &str) -> Option<String> {
        let Pattern::Hop { prefix, .. } = self else {
            return None;
        };
        let (a, b) = word.split_once('-')?;
        let flipped = format!("{b}-{a}");
        (b.starts_with(prefix.as_str()) && self.contains(&flipped)).then_some(flipped)
    }

    fn contains(&self, word: &str) -> bool {
        match self {
            Pattern::One(s) => s == word,
            Pattern::Numbered { prefix, from, to } => word
                .strip_prefix(prefix.as_str())
                .and_then(canonical_number)
                .is_some_and(|n| (*from..*to).contains(&n)),
            Pattern::Hop { prefix, from, to } => (|| {
                let rest = word.strip_prefix(prefix.as_str())?;
                let (a, b) = rest.split_once('-')?;
                let a = canonical_number(a)?;
                let b = canonical_number(b.strip_prefix(prefix.as_str())?)?;
                Some((*from..*to).contains(&a) && a.checked_add(1) == Some(b))
            })()
            .unwrap_or(false),
        }
    }

    /// Every member, in order (allocates `len` strings).
    fn all(&self) -> impl Iterator<Item = String> + '_ {
        (0..self.len()).map(|i| self.nth(i))
    }

    /// Up to [`CANDIDATES`] members: the first half and the last half.
    fn candidates(&self) -> Vec<String> {
        let n = self.len();
        if n <= CANDIDATES {
            return self.all().collect();
        }
        let half = CANDIDATES / 2;
        (0..half).chain(n - half..n).map(|i| self.nth(i)).collect()
    }

    /// The members as shown in a message: all of them, or `first, ..., last`.
    fn shown(&self) -> Option<String> {
        match self.len() {
            0 => None,
            n if n <= SHOWN_IN_FULL => Some(self.all().collect::<Vec<_>>().join(", ")),
            n => Some(format!("{}, ..., {}", self.nth(0), self.nth(n - 1))),
        }
    }
}

fn show(patterns: &[&Pattern]) -> String {
    let parts: Vec<String> = patterns.iter().filter_map(|p| p.shown()).collect();
    if parts.is_empty() {
        "(none)".to_string()
    } else {
        parts.join(", ")
    }
}

/// The number a name ends with, if any.
fn trailing_number(s: &str) -> Option<u64> {
    let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    s[s.len() - digits..].parse().ok()
}

/// The candidate closest to `word` (edit distance at most 2, as for keys),
/// ties going to the longest common prefix ("S1" suggests "S0", not "R1"),
/// then to the nearest trailing number ("access:5" suggests "access:4").
fn closest<'k>(word: &str, candidates: &'k [String]) -> Option<&'k str> {
    let len = word.chars().count();
    let common = |c: &str| {
        word.chars()
            .zip(c.chars())
            .take_while(|(a, b)| a == b)
            .count()
    };
    let number = trailing_number(word);
    let gap = |c: &str| match (number, trailing_number(c)) {
        (Some(a), Some(b)) => a.abs_diff(b),
        _ => u64::MAX,
    };
    candidates
        .iter()
        .map(|c| (distance(word, c, 2), c.as_str()))
        .filter(|(d, _)| *d <= 2 && *d < len.max(1))
        .min_by_key(|(d, c)| (*d, std::cmp::Reverse(common(c)), gap(c)))
        .map(|(_, c)| c)
}

/// "unknown {what} "word" (did you mean "x"?); expected one of: ...".
fn unknown(what: &str, word: &str, patterns: &[&Pattern]) -> String {
    let candidates: Vec<String> = patterns.iter().flat_map(|p| p.candidates()).collect();
    let reversed = patterns.iter().find_map(|p| p.reversed(word));
    let hint = match (reversed, closest(word, &candidates)) {
        (Some(r), _) => format!(
            " (did you mean {} with direction = \"reverse\"? links are named in their forward direction)",
            quote(&r)
        ),
        (None, Some(s)) => format!(" (did you mean {}?)", quote(s)),
        (None, None) => String::new(),
    };
    format!(
        "unknown {what} {}{hint}; expected one of: {}",
        quote(word),
        show(patterns)
    )
}

/// The names one topology defines.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NameSpace {
    /// Links, in the order docs/scenarios.md lists them.
    pub links: Vec<Pattern>,
    /// Link groups.
    pub groups: Vec<Pattern>,
    /// Nodes.
    pub nodes: Vec<Pattern>,
    /// The first default (src, dst), when known.
    pub first_endpoint: Option<(String, String)>,
    /// Connected component of each node (custom topologies only): flows and
    /// traffic need their two nodes in the same component.
    pub components: Option<BTreeMap<String, usize>>,
}

impl NameSpace {
    fn new(
        links: Vec<Pattern>,
        groups: Vec<Pattern>,
        nodes: Vec<Pattern>,
        src: &str,
        dst: &str,
    ) -> Self {
        NameSpace {
            links,
            groups,
            nodes,
            first_endpoint: Some((src.to_string(), dst.to_string())),
            components: None,
        }
    }

    /// Dumbbell with `pairs` pairs.
    pub fn dumbbell(pairs: u32) -> Self {
        let p = u64::from(pairs);
        let mut ns = NameSpace::new(
            vec![
                Pattern::one("bottleneck"),
                Pattern::numbered("access:", 0, p),
                Pattern::numbered("access-dst:", 0, p),
            ],
            vec![Pattern::one("access")],
            vec![
                Pattern::one("R1"),
                Pattern::one("R2"),
                Pattern::numbered("S", 0, p),
                Pattern::numbered("D", 0, p),
            ],
            "S0",
            "D0",
        );
        if pairs == 0 {
            ns.first_endpoint = None;
        }
        ns
    }

    /// TCP-PR Fig. 3's parking lot.
    pub fn parking_lot() -> Self {
        let mut links = vec![
            Pattern::one("access-s"),
            Pattern::one("bottleneck:1"),
            Pattern::one("bottleneck:2"),
            Pattern::one("bottleneck:3"),
            Pattern::one("access-d"),
        ];
        links.extend(["cs1", "cs2", "cs3", "cd1", "cd2", "cd3"].map(Pattern::one));
        let nodes = [
            "S", "D", "R1", "R2", "R3", "R4", "CS1", "CS2", "CS3", "CD1", "CD2", "CD3",
        ]
        .map(Pattern::one)
        .to_vec();
        NameSpace::new(links, vec![Pattern::one("bottlenecks")], nodes, "S", "D")
    }

    /// Multipath mesh with one path per `hops` entry.
    pub fn multipath(hops: &[u32]) -> Self {
        let mut links = Vec::new();
        let mut groups = Vec::new();
        let mut nodes = vec![Pattern::one("S"), Pattern::one("D")];
        for (i, &h) in hops.iter().enumerate() {
            links.push(Pattern::numbered(format!("path{i}:"), 0, u64::from(h)));
            groups.push(Pattern::one(format!("path{i}")));
            nodes.push(Pattern::numbered(format!("P{i}_"), 1, u64::from(h)));
        }
        groups.push(Pattern::one("all"));
        NameSpace::new(links, groups, nodes, "S", "D")
    }

    /// RR-TCP's chain.
    pub fn chain() -> Self {
        NameSpace::new(
            ["access-1", "bottleneck", "access-2"]
                .map(Pattern::one)
                .to_vec(),
            Vec::new(),
            ["S1", "R1", "R2", "S2"].map(Pattern::one).to_vec(),
            "S1",
            "S2",
        )
    }

    /// Infrastructure wireless network with `wired_hops` wired links.
    pub fn wireless_infrastructure(wired_hops: u32) -> Self {
        let w = u64::from(wired_hops);
        NameSpace::new(
            vec![Pattern::numbered("wired:", 0, w), Pattern::one("wireless")],
            vec![Pattern::one("wired")],
            vec![
                Pattern::one("S"),
                Pattern::numbered("R", 1, w),
                Pattern::one("AP"),
                Pattern::one("D"),
            ],
            "S",
            "D",
        )
    }

    /// Multi-hop wireless chain of `hops` links.
    pub fn wireless_multihop(hops: u32) -> Self {
        let h = u64::from(hops);
        NameSpace::new(
            vec![Pattern::numbered("wireless:", 0, h)],
            vec![Pattern::one("wireless")],
            vec![
                Pattern::one("S"),
                Pattern::numbered("W", 1, h),
                Pattern::one("D"),
            ],
            "S",
            "D",
        )
    }

    /// Multi-bottleneck chain of `routers` routers.
    pub fn multi_bottleneck(routers: u32) -> Self {
        let r = u64::from(routers);
        NameSpace::new(
            vec![
                Pattern::Hop {
                    prefix: "R".into(),
                    from: 1,
                    to: r,
                },
                Pattern::numbered("access:H", 1, r + 1),
            ],
            vec![Pattern::one("core")],
            vec![
                Pattern::numbered("R", 1, r + 1),
                Pattern::numbered("H", 1, r + 1),
            ],
            "H1",
            &format!("H{routers}"),
        )
    }

    /// A custom topology: `nodes`, `links` as (name, a, b), and its first endpoint pair.
    pub fn custom(
        nodes: &[String],
        links: &[(String, String, String)],
        first_endpoint: Option<(String, String)>,
    ) -> Self {
        // Union-find over node indexes gives each node its component.
        let index: BTreeMap<&str, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut parent: Vec<usize> = (0..nodes.len()).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for (_, a, b) in links {
            if let (Some(&a), Some(&b)) = (index.get(a.as_str()), index.get(b.as_str())) {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra] = rb;
            }
        }
        let components = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), root(&mut parent, i)))
            .collect();
        NameSpace {
            links: links
                .iter()
                .map(|(n, _, _)| Pattern::one(n.clone()))
                .collect(),
            groups: Vec::new(),
            nodes: nodes.iter().map(|n| Pattern::one(n.clone())).collect(),
            first_endpoint,
            components: Some(components),
        }
    }

    fn link_patterns(&self) -> Vec<&Pattern> {
        self.links.iter().chain(&self.groups).collect()
    }

    /// Every link name, then every group name.
    pub fn link_names(&self) -> Vec<String> {
        self.link_patterns()
            .into_iter()
            .flat_map(|p| p.all())
            .collect()
    }

    /// Every node name.
    pub fn node_names(&self) -> Vec<String> {
        self.nodes.iter().flat_map(|p| p.all()).collect()
    }

    /// `Ok` when `name` is a link or a group, else a message listing them.
    pub fn check_link(&self, name: &str) -> Result<(), String> {
        let patterns = self.link_patterns();
        if patterns.iter().any(|p| p.contains(name)) {
            Ok(())
        } else {
            Err(unknown("link", name, &patterns))
        }
    }

    /// `Ok` when `name` is a node, else a message listing the nodes.
    pub fn check_node(&self, name: &str) -> Result<(), String> {
        if self.nodes.iter().any(|p| p.contains(name)) {
            Ok(())
        } else {
            let patterns: Vec<&Pattern> = self.nodes.iter().collect();
            Err(unknown("node", name, &patterns))
        }
    }

    /// Whether two (known) nodes are connected; always true except in custom topologies.
    pub fn connected(&self, a: &str, b: &str) -> bool {
        match &self.components {
            None => true,
            Some(c) => match (c.get(a), c.get(b)) {
                (Some(x), Some(y)) => x == y,
                _ => true,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_families_are_checked_without_materializing() {
        let ns = NameSpace::dumbbell(u32::MAX);
        assert!(ns.check_link("access:4294967294").is_ok());
        assert!(ns.check_link("access:4294967295").is_err());
        assert!(ns.check_link("access:01").is_err());
        assert!(ns.check_node("S17").is_ok());
        assert_eq!(
            ns.check_link("core").unwrap_err(),
            "unknown link \"core\"; expected one of: bottleneck, access:0, ..., access:4294967294, access-dst:0, ..., access-dst:4294967294, access"
        );
    }

    #[test]
    fn hops_and_suggestions() {
        let ns = NameSpace::multi_bottleneck(5);
        assert!(ns.check_link("R4-R5").is_ok());
        assert!(ns.check_link("R5-R6").is_err());
        assert!(ns.check_link("R2-R4").is_err());
        assert!(ns.check_link("R0-R1").is_err());
        assert_eq!(
            ns.check_link("R3-R2").unwrap_err(),
            "unknown link \"R3-R2\" (did you mean \"R2-R3\" with direction = \"reverse\"? links are named in their forward direction); expected one of: R1-R2, ..., R4-R5, access:H1, ..., access:H5, core"
        );
        // Only a real hop written backwards gets the direction hint.
        assert!(!ns.check_link("R9-R8").unwrap_err().contains("direction"));
        assert_eq!(ns.link_names().len(), 4 + 5 + 1);
        let ns = NameSpace::multi_bottleneck(u32::MAX);
        assert!(ns.check_link("R4294967294-R4294967295").is_ok());
    }

    #[test]
    fn custom_components() {
        let s = |x: &str| x.to_string();
        let ns = NameSpace::custom(
            &[s("A"), s("B"), s("C")],
            &[(s("ab"), s("A"), s("B"))],
            None,
        );
        assert!(ns.connected("A", "B"));
        assert!(!ns.connected("A", "C"));
    }
}
