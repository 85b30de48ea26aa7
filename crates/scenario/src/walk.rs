//! Hand-walking a `toml::Table`: typed getters that record a [`Problem`]
//! instead of stopping, and unknown-key detection with suggestions.

use reorderlab_sim::Time;
use toml::{Table, Value};

use crate::units::{self, quote};
use crate::Problem;

/// Collects problems while the walk goes on.
#[derive(Default)]
pub(crate) struct Ctx {
    pub problems: Vec<Problem>,
}

impl Ctx {
    pub fn problem(&mut self, key: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem {
            key: key.into(),
            message: message.into(),
        });
    }
}

/// How a value looks, for "got ..." in messages: one line, never long.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) if f.is_nan() => "nan".into(),
        Value::Float(f) if f.is_infinite() => {
            if *f > 0.0 {
                "inf".into()
            } else {
                "-inf".into()
            }
        }
        Value::Float(f) => format!("{f:?}"),
        Value::Boolean(b) => b.to_string(),
        Value::Datetime(d) => format!("the date-time {d}"),
        Value::Array(a) if a.is_empty() => "an empty array".into(),
        Value::Array(_) => "an array".into(),
        Value::Table(_) => "a table".into(),
    }
}

/// A key as it appears in a dotted path: bare when TOML allows, else quoted.
pub(crate) fn segment(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        quote(k)
    }
}

/// Levenshtein distance in characters (strsim), or `limit + 1` when the
/// lengths alone put it past `limit`.
pub(crate) fn distance(a: &str, b: &str, limit: usize) -> usize {
    if a.chars().count().abs_diff(b.chars().count()) > limit {
        return limit + 1;
    }
    strsim::levenshtein(a, b)
}

/// The known name closest to `word` within edit distance 2, if any.
pub(crate) fn suggest<'k>(word: &str, known: &[&'k str]) -> Option<&'k str> {
    let len = word.chars().count();
    known
        .iter()
        .map(|k| (distance(word, k, 2), *k))
        .filter(|(d, _)| *d <= 2 && *d < len.max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// "unknown X 'word' (did you mean 'y'?); expected one of: a, b".
pub(crate) fn unknown(what: &str, word: &str, known: &[&str], q: fn(&str) -> String) -> String {
    let hint = match suggest(word, known) {
        Some(s) => format!(" (did you mean {}?)", q(s)),
        None => String::new(),
    };
    let list = if known.is_empty() {
        "(none)".to_string()
    } else {
        known.join(", ")
    };
    format!("unknown {what} {}{hint}; expected one of: {list}", q(word))
}

/// Single-quoted, escaped: how key names appear in messages.
pub(crate) fn squote(s: &str) -> String {
    let q = quote(s);
    format!("'{}'", &q[1..q.len() - 1])
}

/// Walks the array of tables under key `k` of `o` (`[[k]]`), calling `item`
/// on each table in order with its index; an element that is not a table is
/// a problem and yields `None`. The outer `None` means the key itself is
/// unusable: not an array, or, when `required` gives the hint to print,
/// missing or empty. Without `required` a missing key is an empty list.
pub(crate) fn each_table<'a, T>(
    o: &mut Obj<'a>,
    cx: &mut Ctx,
    k: &'static str,
    required: Option<&str>,
    mut item: impl FnMut(&'a Table, usize, &mut Ctx) -> Option<T>,
) -> Option<Vec<Option<T>>> {
    let key = o.key(k);
    match o.get(k) {
        None => match required {
            Some(hint) => {
                cx.problem(key, format!("required key is missing; {hint}"));
                None
            }
            None => Some(Vec::new()),
        },
        Some(Value::Array(a)) if a.is_empty() && required.is_some() => {
            cx.problem(
                key.clone(),
                format!("expected at least one [[{key}]] table, got an empty array"),
            );
            None
        }
        Some(Value::Array(a)) => Some(
            a.iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::Table(t) => item(t, i, cx),
                    _ => {
                        cx.problem(
                            format!("{key}[{i}]"),
                            format!("expected a table, got {}", describe(v)),
                        );
                        None
                    }
                })
                .collect(),
        ),
        Some(v) => {
            cx.problem(
                key.clone(),
                format!(
                    "expected an array of tables ([[{key}]]), got {}",
                    describe(v)
                ),
            );
            None
        }
    }
}

/// A table being walked: records which keys the schema asked for, so that
/// whatever is left over can be reported as unknown.
pub(crate) struct Obj<'a> {
    path: String,
    table: &'a Table,
    asked: Vec<&'static str>,
}

impl<'a> Obj<'a> {
    pub fn new(path: String, table: &'a Table) -> Self {
        Obj {
            path,
            table,
            asked: Vec::new(),
        }
    }

    /// Declares schema keys up front, fixing their order in "expected one of" lists.
    pub fn expect(&mut self, keys: &[&'static str]) {
        for k in keys {
            if !self.asked.contains(k) {
                self.asked.push(k);
            }
        }
    }

    /// Dotted path of key `k` in this table.
    pub fn key(&self, k: &str) -> String {
        if self.path.is_empty() {
            k.to_string()
        } else {
            format!("{}.{k}", self.path)
        }
    }

    /// Looks up a schema key (marking it known).
    pub fn get(&mut self, k: &'static str) -> Option<&'a Value> {
        if !self.asked.contains(&k) {
            self.asked.push(k);
        }
        self.table.get(k)
    }

    /// A required key: a problem when missing (`hint` says what to write) or invalid.
    pub fn req<T>(
        &mut self,
        cx: &mut Ctx,
        k: &'static str,
        hint: &str,
        f: impl FnOnce(&Value) -> Result<T, String>,
    ) -> Option<T> {
        match self.get(k) {
            None => {
                cx.problem(self.key(k), format!("required key is missing; {hint}"));
                None
            }
            Some(v) => self.check(cx, k, v, f),
        }
    }

    /// An optional key with a default; `None` only when present and invalid.
    pub fn opt<T>(
        &mut self,
        cx: &mut Ctx,
        k: &'static str,
        default: T,
        f: impl FnOnce(&Value) -> Result<T, String>,
    ) -> Option<T> {
        match self.get(k) {
            None => Some(default),
            Some(v) => self.check(cx, k, v, f),
        }
    }

    /// An optional key without a default: `Some(None)` when absent, `None` when invalid.
    pub fn maybe<T>(
        &mut self,
        cx: &mut Ctx,
        k: &'static str,
        f: impl FnOnce(&Value) -> Result<T, String>,
    ) -> Option<Option<T>> {
        match self.get(k) {
            None => Some(None),
            Some(v) => self.check(cx, k, v, f).map(Some),
        }
    }

    fn check<T>(
        &self,
        cx: &mut Ctx,
        k: &str,
        v: &Value,
        f: impl FnOnce(&Value) -> Result<T, String>,
    ) -> Option<T> {
        match f(v) {
            Ok(t) => Some(t),
            Err(m) => {
                cx.problem(self.key(k), m);
                None
            }
        }
    }

    /// An optional sub-table: `Some(None)` when absent, `None` when not a table.
    pub fn table(&mut self, cx: &mut Ctx, k: &'static str) -> Option<Option<&'a Table>> {
        match self.get(k) {
            None => Some(None),
            Some(Value::Table(t)) => Some(Some(t)),
            Some(v) => {
                cx.problem(
                    self.key(k),
                    format!("expected a table, got {}", describe(v)),
                );
                None
            }
        }
    }

    /// The raw value of a key, without marking it known.
    pub fn raw(&self, k: &str) -> Option<&'a Value> {
        self.table.get(k)
    }

    /// Reports every key the schema did not ask for.
    pub fn finish(self, cx: &mut Ctx) {
        for k in self.table.keys() {
            if !self.asked.contains(&k.as_str()) {
                cx.problem(
                    self.key(&segment(k)),
                    unknown("key", k, &self.asked, squote),
                );
            }
        }
    }
}

/// "got X" for a value that may have come from a default.
pub(crate) fn shown(raw: Option<&Value>, value: impl std::fmt::Display) -> String {
    match raw {
        Some(v) => describe(v),
        None => format!("{value} (the default)"),
    }
}

pub(crate) fn time(v: &Value) -> Result<Time, String> {
    match v {
        Value::String(s) => units::parse_time(s),
        Value::Integer(0) => Ok(Time::ZERO),
        Value::Float(f) if *f == 0.0 => Ok(Time::ZERO),
        _ => Err(format!("{}, got {}", units::TIME_EXPECTED, describe(v))),
    }
}

pub(crate) fn positive_time(v: &Value) -> Result<Time, String> {
    match time(v)? {
        Time::ZERO => Err(format!("expected a positive time, got {}", describe(v))),
        t => Ok(t),
    }
}

pub(crate) fn rate(v: &Value) -> Result<u64, String> {
    match v {
        Value::String(s) => units::parse_rate(s),
        _ => Err(format!("{}, got {}", units::RATE_EXPECTED, describe(v))),
    }
}

pub(crate) fn size(v: &Value) -> Result<u64, String> {
    match v {
        Value::String(s) => units::parse_size(s),
        Value::Integer(n) => {
            u64::try_from(*n).map_err(|_| format!("expected a non-negative size, got {n}"))
        }
        _ => Err(format!("{}, got {}", units::SIZE_EXPECTED, describe(v))),
    }
}

pub(crate) fn positive_size(v: &Value) -> Result<u64, String> {
    match size(v)? {
        0 => Err(format!(
            "expected a positive size in bytes, got {}",
            describe(v)
        )),
        n => Ok(n),
    }
}

pub(crate) fn string(v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        _ => Err(format!("expected a string, got {}", describe(v))),
    }
}

pub(crate) fn nonempty_string(v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
        _ => Err(format!("expected a non-empty string, got {}", describe(v))),
    }
}

pub(crate) fn boolean(v: &Value) -> Result<bool, String> {
    match v {
        Value::Boolean(b) => Ok(*b),
        _ => Err(format!("expected true or false, got {}", describe(v))),
    }
}

/// An integer in `[min, max]`: below `min` or not an integer says "expected
/// {what}", above `max` says "expected at most {max}{unit}".
pub(crate) fn int<T: TryFrom<i64>>(
    v: &Value,
    min: i64,
    max: i64,
    what: &str,
    unit: &str,
) -> Result<T, String> {
    match v {
        Value::Integer(n) if *n > max => Err(format!("expected at most {max}{unit}, got {n}")),
        Value::Integer(n) if *n >= min => {
            T::try_from(*n).map_err(|_| format!("expected {what}, got {n}"))
        }
        _ => Err(format!("expected {what}, got {}", describe(v))),
    }
}

/// A finite number; integers are accepted.
pub(crate) fn number(v: &Value) -> Result<f64, String> {
    match v {
        Value::Integer(n) => Ok(*n as f64),
        Value::Float(f) if f.is_finite() => Ok(*f),
        _ => Err(format!("expected a finite number, got {}", describe(v))),
    }
}

pub(crate) fn probability(v: &Value) -> Result<f64, String> {
    match number(v) {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "expected a probability between 0 and 1, got {}",
            describe(v)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(distance("rat", "rate", 2), 1);
        assert_eq!(distance("kitten", "sitting", 5), 3);
        assert_eq!(distance("", "abc", 5), 3);
        assert!(distance("a", "abcdef", 2) > 2);
    }

    #[test]
    fn suggestions_only_when_close() {
        let known = ["rate", "delay", "queue", "aqm", "red"];
        assert_eq!(suggest("rat", &known), Some("rate"));
        assert_eq!(suggest("dealy", &known), Some("delay"));
        assert_eq!(suggest("bandwidth", &known), None);
        // A one-letter key is within distance 2 of many names; suggest none.
        assert_eq!(suggest("x", &known), None);
    }

    #[test]
    fn describe_is_one_line() {
        assert_eq!(describe(&Value::String("a\nb".into())), "\"a\\nb\"");
        assert_eq!(describe(&Value::Float(1.0)), "1.0");
        assert_eq!(describe(&Value::Float(f64::NAN)), "nan");
        assert_eq!(describe(&Value::Table(Table::new())), "a table");
    }
}
