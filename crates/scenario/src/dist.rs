//! Distributions of durations: `"50ms"` (constant) or an inline table
//! `{ dist = "normal", mean = "25ms", sd = "8ms" }`, parsed to [`TimeDist`].

use reorderlab_sim::{Time, TimeDist};
use toml::{Table, Value};

use crate::units::{self, quote};
use crate::walk::{self, describe, shown, unknown, Ctx, Obj};

/// Every `dist` name this version understands.
pub(crate) const DIST_KINDS: &[&str] = &["normal", "uniform", "exponential", "constant"];

/// The expected form of a distribution, for messages.
pub(crate) const DIST_EXPECTED: &str =
    "expected a time like \"50ms\" or a distribution like { dist = \"normal\", mean = \"25ms\", sd = \"8ms\" }";

/// A distribution as written back in messages: `uniform 3s..15s`.
pub(crate) fn show(d: &TimeDist) -> String {
    match d {
        TimeDist::Constant(v) => format!("constant {v}"),
        TimeDist::Uniform { min, max } => format!("uniform {min}..{max}"),
        TimeDist::Normal { mean, sd } => format!("normal (mean {mean}, sd {sd})"),
        TimeDist::Exponential { mean } => format!("exponential (mean {mean})"),
    }
}

/// The largest time `d` can draw, when bounded.
pub(crate) fn upper(d: &TimeDist) -> Option<Time> {
    match *d {
        TimeDist::Constant(v) => Some(v),
        TimeDist::Uniform { max, .. } => Some(max),
        TimeDist::Normal { .. } | TimeDist::Exponential { .. } => None,
    }
}

/// Whether a draw can be positive (a distribution that is always zero cannot).
pub(crate) fn can_be_positive(d: &TimeDist) -> bool {
    match *d {
        TimeDist::Constant(v) => v > Time::ZERO,
        TimeDist::Uniform { max, .. } => max > Time::ZERO,
        TimeDist::Normal { mean, sd } => mean > Time::ZERO || sd > Time::ZERO,
        TimeDist::Exponential { mean } => mean > Time::ZERO,
    }
}

/// Parses the distribution `v` found at dotted path `path`.
pub(crate) fn value(path: &str, v: &Value, cx: &mut Ctx) -> Option<TimeDist> {
    let result = match v {
        Value::Table(t) => return table(path, t, cx),
        Value::String(s) if DIST_KINDS.contains(&s.as_str()) => {
            Err(format!("{DIST_EXPECTED}, got {}", quote(s)))
        }
        Value::String(s) => units::parse_time(s).map(TimeDist::Constant),
        Value::Integer(0) => Ok(TimeDist::Constant(Time::ZERO)),
        Value::Float(f) if *f == 0.0 => Ok(TimeDist::Constant(Time::ZERO)),
        _ => Err(format!("{DIST_EXPECTED}, got {}", describe(v))),
    };
    match result {
        Ok(d) => Some(d),
        Err(m) => {
            cx.problem(path, m);
            None
        }
    }
}

fn table(path: &str, t: &Table, cx: &mut Ctx) -> Option<TimeDist> {
    let mut o = Obj::new(path.to_string(), t);
    let kind = o.req(
        cx,
        "dist",
        &format!("expected one of: {}", DIST_KINDS.join(", ")),
        |v| match v {
            Value::String(s) if DIST_KINDS.contains(&s.as_str()) => Ok(s.clone()),
            Value::String(s) => Err(unknown("distribution", s, DIST_KINDS, quote)),
            _ => Err(format!(
                "expected one of: {}, got {}",
                DIST_KINDS.join(", "),
                describe(v)
            )),
        },
    )?;
    let time = |o: &mut Obj, cx: &mut Ctx, k: &'static str, example: &str| {
        o.req(
            cx,
            k,
            &format!("expected a time with a unit, like {k} = \"{example}\""),
            walk::time,
        )
    };
    let d = match kind.as_str() {
        "normal" => {
            let mean = time(&mut o, cx, "mean", "25ms");
            let sd = time(&mut o, cx, "sd", "8ms");
            (|| {
                Some(TimeDist::Normal {
                    mean: mean?,
                    sd: sd?,
                })
            })()
        }
        "uniform" => {
            let min = time(&mut o, cx, "min", "3s");
            let max = time(&mut o, cx, "max", "15s");
            match (min, max) {
                (Some(min), Some(max)) if max < min => {
                    cx.problem(
                        o.key("max"),
                        format!(
                            "expected a time no less than min ({min}), got {}",
                            shown(o.raw("max"), max)
                        ),
                    );
                    None
                }
                (Some(min), Some(max)) => Some(TimeDist::Uniform { min, max }),
                _ => None,
            }
        }
        "exponential" => {
            time(&mut o, cx, "mean", "10ms").map(|mean| TimeDist::Exponential { mean })
        }
        _ => time(&mut o, cx, "value", "50ms").map(TimeDist::Constant),
    };
    o.finish(cx);
    d
}

/// A required distribution under key `k`; `example` completes "like k = ...".
pub(crate) fn req(o: &mut Obj, cx: &mut Ctx, k: &'static str, example: &str) -> Option<TimeDist> {
    match o.get(k) {
        None => {
            cx.problem(
                o.key(k),
                format!("required key is missing; {DIST_EXPECTED}, like {k} = {example}"),
            );
            None
        }
        Some(v) => value(&o.key(k), v, cx),
    }
}

/// An optional distribution under key `k` with a default.
pub(crate) fn opt(
    o: &mut Obj,
    cx: &mut Ctx,
    k: &'static str,
    default: TimeDist,
) -> Option<TimeDist> {
    match o.get(k) {
        None => Some(default),
        Some(v) => value(&o.key(k), v, cx),
    }
}

/// A typical draw of `d`, for counting events: the mean (half the standard
/// deviation when that is larger, for a normal clipped at zero).
pub(crate) fn typical(d: &TimeDist) -> Time {
    match *d {
        TimeDist::Constant(v) => v,
        TimeDist::Uniform { min, max } => Time(min.0 / 2 + max.0 / 2),
        TimeDist::Normal { mean, sd } => mean.max(Time(sd.0 / 2)),
        TimeDist::Exponential { mean } => mean,
    }
}

/// Records a problem unless `d` (under key `k`) can draw a positive time.
pub(crate) fn check_positive(
    o: &Obj,
    cx: &mut Ctx,
    k: &str,
    d: Option<TimeDist>,
) -> Option<TimeDist> {
    let d = d?;
    if can_be_positive(&d) {
        Some(d)
    } else {
        cx.problem(
            o.key(k),
            format!(
                "expected a distribution that can draw a positive time, got {}",
                show(&d)
            ),
        );
        None
    }
}
