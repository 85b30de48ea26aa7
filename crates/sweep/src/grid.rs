//! The grid of a sweep and its expansion into runs.
//!
//! A grid is an ordered list of axes, each a dotted scenario key (as for
//! `--set`) with the values to try. It expands to the cross product in a
//! fixed order: the first axis varies slowest and the last fastest, like
//! nested loops written in the order the axes were given; with `--seeds N`
//! the seed is an innermost loop below the last axis.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Most runs one sweep may expand to (a guard against typing a grid whose
/// cross product would never finish or not fit in memory).
pub const MAX_RUNS: usize = 1_000_000;

/// One swept key and its values, in the order given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    /// Dotted key path, as for `--set` (`topology.bottleneck.rate`, `flows.0.variant`).
    pub key: String,
    /// The values, as written (each one is applied as `KEY=VALUE`).
    pub values: Vec<String>,
}

/// An ordered list of axes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    /// The axes in the order given; the last one varies fastest.
    pub axes: Vec<Axis>,
}

/// A malformed `--grid` spec or an impossible grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridError {
    /// The key concerned (empty when the spec has no key).
    pub key: String,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "--grid: {}", self.message)
        } else {
            write!(f, "--grid {}: {}", self.key, self.message)
        }
    }
}

impl std::error::Error for GridError {}

impl Grid {
    /// Parses `--grid` specs (`KEY=V1,V2,...`), in order.
    pub fn parse<S: AsRef<str>>(specs: &[S]) -> Result<Grid, GridError> {
        let mut g = Grid::default();
        for s in specs {
            g.push_spec(s.as_ref())?;
        }
        Ok(g)
    }

    /// Adds one `KEY=V1,V2,...` axis.
    pub fn push_spec(&mut self, spec: &str) -> Result<(), GridError> {
        let Some((key, values)) = spec.split_once('=') else {
            return Err(GridError {
                key: String::new(),
                message: format!(
                    "expected KEY=V1,V2,..., like topology.bottleneck.rate=10Mbps,20Mbps, got {spec:?}"
                ),
            });
        };
        let key = key.trim();
        let values = split_values(values).map_err(|message| GridError {
            key: key.to_string(),
            message,
        })?;
        self.push(key, values)
    }

    /// Adds an axis.
    pub fn push(&mut self, key: &str, values: Vec<String>) -> Result<(), GridError> {
        let err = |message: String| GridError {
            key: key.to_string(),
            message,
        };
        if key.is_empty()
            || key
                .split('&')
                .any(|k| k.trim().is_empty() || k.split('.').any(|s| s.trim().is_empty()))
        {
            return Err(GridError {
                key: String::new(),
                message: format!(
                    "expected a dotted key path before '=', like flows.0.variant, got {key:?}"
                ),
            });
        }
        if values.is_empty() {
            return Err(err("expected at least one value".into()));
        }
        if self.axes.iter().any(|a| a.key == key) {
            return Err(err(
                "key given twice; put all its values in one --grid".into()
            ));
        }
        self.axes.push(Axis {
            key: key.to_string(),
            values,
        });
        if self.points().is_none() {
            self.axes.pop();
            return Err(err(format!(
                "the grid would have more than {MAX_RUNS} points"
            )));
        }
        Ok(())
    }

    /// Number of grid points (the product of the axes' lengths; 1 for an
    /// empty grid), or `None` past [`MAX_RUNS`].
    pub fn points(&self) -> Option<usize> {
        self.axes
            .iter()
            .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
            .filter(|&n| n <= MAX_RUNS)
    }

    /// Whether an axis sweeps `key`.
    pub fn has_key(&self, key: &str) -> bool {
        self.axes.iter().any(|a| a.key == key)
    }

    /// The values of grid point `i` (0-based, in expansion order), one per axis.
    pub fn point(&self, mut i: usize) -> Vec<(String, String)> {
        let mut out = vec![(String::new(), String::new()); self.axes.len()];
        for (slot, a) in out.iter_mut().zip(&self.axes).rev() {
            let n = a.values.len();
            *slot = (a.key.clone(), a.values[i % n].clone());
            i /= n;
        }
        out
    }
}

/// Splits `V1,V2,...` at the commas that are not inside brackets, braces or
/// quotes, so that TOML arrays and inline tables can be values:
/// `[1, 2],[3, 4]` is two values, `{ min_th = 5, max_th = 15 }` one.
/// Values are trimmed; an empty value is an error.
pub fn split_values(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut depth: i32 = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut cur = String::new();
    for c in s.chars() {
        if let Some(q) = quote {
            cur.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' && q == '"' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                cur.push(c);
            }
            '[' | '{' => {
                depth += 1;
                cur.push(c);
            }
            ']' | '}' => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("unbalanced '{c}' in {s:?}"));
                }
                cur.push(c);
            }
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
            }
            _ => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("unterminated quote in {s:?}"));
    }
    if depth != 0 {
        return Err(format!("unbalanced brackets in {s:?}"));
    }
    out.push(cur);
    let out: Vec<String> = out.into_iter().map(|v| v.trim().to_string()).collect();
    if let Some(i) = out.iter().position(|v| v.is_empty()) {
        return Err(format!(
            "value {} of {s:?} is empty; expected V1,V2,... with no empty value",
            i + 1
        ));
    }
    Ok(out)
}

/// `--seeds N`: run every grid point with seeds `base, base+1, ..., base+N-1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seeds {
    /// The first seed: the scenario's own seed (after `--set`).
    pub base: u64,
    /// How many seeds, at least 1.
    pub count: u64,
}

/// One run of a sweep: which grid point and seed, and the overrides that make it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSpec {
    /// Position in expansion order, from 0 (the `run` column of the CSVs).
    pub index: usize,
    /// The grid point: (key, value) for every axis, in axis order.
    pub point: Vec<(String, String)>,
    /// The seed set by `--seeds`, if any.
    pub seed: Option<u64>,
    /// Applied in order: the user's `--set`s, then `KEY=VALUE` for each axis,
    /// then `seed=S` with `--seeds`.
    pub overrides: Vec<String>,
}

/// Expands `grid` (and `seeds`) into runs, in the fixed order described in
/// the module documentation. `set` are the user's `--set` overrides, applied
/// first in every run.
pub fn expand(
    set: &[String],
    grid: &Grid,
    seeds: Option<Seeds>,
) -> Result<Vec<RunSpec>, GridError> {
    let too_many = || GridError {
        key: String::new(),
        message: format!("the sweep would have more than {MAX_RUNS} runs"),
    };
    let points = grid.points().ok_or_else(too_many)?;
    let per_point = match seeds {
        Some(s) => usize::try_from(s.count).map_err(|_| too_many())?,
        None => 1,
    };
    let total = points
        .checked_mul(per_point)
        .filter(|&n| n <= MAX_RUNS)
        .ok_or_else(too_many)?;
    let mut runs = Vec::with_capacity(total);
    for p in 0..points {
        let point = grid.point(p);
        for k in 0..per_point {
            let mut overrides = set.to_vec();
            // A key `a&b` sets every listed key to the value (linked axes,
            // e.g. the flow counts of two protocols moving together).
            overrides.extend(
                point
                    .iter()
                    .flat_map(|(key, v)| key.split('&').map(move |k| format!("{}={v}", k.trim()))),
            );
            let seed = seeds.map(|s| s.base.wrapping_add(k as u64));
            if let Some(s) = seed {
                overrides.push(format!("seed={s}"));
            }
            runs.push(RunSpec {
                index: runs.len(),
                point: point.clone(),
                seed,
                overrides,
            });
        }
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn linked_keys_set_every_key_to_the_value() {
        let mut g = Grid::default();
        g.push("flows.0.count&flows.1.count", v(&["2", "4"]))
            .unwrap();
        let runs = expand(&[], &g, None).unwrap();
        assert_eq!(
            runs[1].overrides,
            v(&["flows.0.count=4", "flows.1.count=4"])
        );
        assert!(g.push("a&", v(&["1"])).is_err());
    }

    #[test]
    fn values_split_at_top_level_commas_only() {
        assert_eq!(
            split_values("10Mbps, 20Mbps,30Mbps").unwrap(),
            v(&["10Mbps", "20Mbps", "30Mbps"])
        );
        assert_eq!(
            split_values("[1, 2],[3,4]").unwrap(),
            v(&["[1, 2]", "[3,4]"])
        );
        assert_eq!(
            split_values("{ min_th = 5, max_th = 15 },{min_th=10}").unwrap(),
            v(&["{ min_th = 5, max_th = 15 }", "{min_th=10}"])
        );
        assert_eq!(
            split_values(r#""a,b",'c,d',e"#).unwrap(),
            v(&[r#""a,b""#, "'c,d'", "e"])
        );
        assert_eq!(
            split_values(r#""a\",b",c"#).unwrap(),
            v(&[r#""a\",b""#, "c"])
        );
        assert!(split_values("1,,2").unwrap_err().contains("empty"));
        assert!(split_values("").is_err());
        assert!(split_values("[1,2").is_err());
        assert!(split_values("1]").is_err());
        assert!(split_values("\"open").is_err());
    }

    #[test]
    fn bad_specs_name_the_key() {
        let e = Grid::parse(&["topology.bottleneck.rate"]).unwrap_err();
        assert!(e.to_string().contains("KEY=V1,V2"), "{e}");
        let e = Grid::parse(&["flows.0.mss=1,,2"]).unwrap_err();
        assert_eq!(e.key, "flows.0.mss");
        assert!(e.to_string().starts_with("--grid flows.0.mss: "), "{e}");
        let e = Grid::parse(&["seed=1,2", "seed=3"]).unwrap_err();
        assert_eq!(e.key, "seed");
        assert!(e.message.contains("twice"));
        assert!(Grid::parse(&["=1,2"]).is_err());
        assert!(Grid::parse(&["a..b=1"]).is_err());
    }

    #[test]
    fn expansion_is_the_cross_product_last_key_fastest_then_seeds() {
        let g = Grid::parse(&["a=1,2", "b=x,y,z"]).unwrap();
        assert_eq!(g.points(), Some(6));
        let runs = expand(&v(&["c=0"]), &g, Some(Seeds { base: 7, count: 2 })).unwrap();
        assert_eq!(runs.len(), 12);
        let got: Vec<String> = runs.iter().map(|r| r.overrides.join(" ")).collect();
        let want = [
            "c=0 a=1 b=x seed=7",
            "c=0 a=1 b=x seed=8",
            "c=0 a=1 b=y seed=7",
            "c=0 a=1 b=y seed=8",
            "c=0 a=1 b=z seed=7",
            "c=0 a=1 b=z seed=8",
            "c=0 a=2 b=x seed=7",
            "c=0 a=2 b=x seed=8",
            "c=0 a=2 b=y seed=7",
            "c=0 a=2 b=y seed=8",
            "c=0 a=2 b=z seed=7",
            "c=0 a=2 b=z seed=8",
        ];
        assert_eq!(got, want);
        for (i, r) in runs.iter().enumerate() {
            assert_eq!(r.index, i);
        }
        assert_eq!(
            runs[5].point,
            vec![("a".into(), "1".into()), ("b".into(), "z".into())]
        );
        assert_eq!(runs[5].seed, Some(8));
    }

    #[test]
    fn an_empty_grid_is_one_run_and_seeds_multiply_it() {
        let g = Grid::default();
        let runs = expand(&[], &g, None).unwrap();
        assert_eq!(runs.len(), 1);
        assert!(runs[0].overrides.is_empty() && runs[0].point.is_empty());
        let runs = expand(&[], &g, Some(Seeds { base: 1, count: 3 })).unwrap();
        let seeds: Vec<_> = runs.iter().map(|r| r.seed.unwrap()).collect();
        assert_eq!(seeds, [1, 2, 3]);
    }

    #[test]
    fn huge_grids_are_refused() {
        let many: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        let mut g = Grid::default();
        g.push("a", many.clone()).unwrap();
        g.push("b", many.clone()).unwrap();
        let e = g.push("c", many).unwrap_err();
        assert!(e.message.contains("more than"), "{e}");
        assert!(expand(&[], &g, Some(Seeds { base: 0, count: 2 })).is_err());
    }
}
