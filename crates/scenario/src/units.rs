//! Units in scenario files: times, bit rates and byte sizes.
//!
//! Numbers are read as exact decimals (never through floating point), so
//! `"0.1s"` is exactly 100,000,000 ns and `"1.5KiB"` exactly 1536 bytes.
//! Times and rates are rounded to the nearest nanosecond / bit per second;
//! sizes must come out as a whole number of bytes. Every error message says
//! what was expected and quotes what was found.

use reorderlab_sim::Time;

/// Time units and their length in nanoseconds.
const TIME_UNITS: &[(&str, u128)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("min", 60_000_000_000),
];

/// Rate units and their value in bits per second (decimal prefixes).
const RATE_UNITS: &[(&str, u128)] = &[
    ("bps", 1),
    ("kbps", 1_000),
    ("Kbps", 1_000),
    ("Mbps", 1_000_000),
    ("Gbps", 1_000_000_000),
];

/// Size units and their value in bytes (SI and IEC prefixes).
const SIZE_UNITS: &[(&str, u128)] = &[
    ("B", 1),
    ("kB", 1_000),
    ("KB", 1_000),
    ("KiB", 1 << 10),
    ("MB", 1_000_000),
    ("MiB", 1 << 20),
    ("GB", 1_000_000_000),
    ("GiB", 1 << 30),
];

/// Most fractional digits accepted in a number ("0.000000000000000001s").
const MAX_FRACTION_DIGITS: usize = 18;

/// Longest user text quoted verbatim in a message; longer text is cut.
const QUOTE_LIMIT: usize = 48;

/// Quotes user text for a one-line message: escaped, and cut when long.
pub fn quote(s: &str) -> String {
    let shown: String = s.chars().take(QUOTE_LIMIT).collect();
    let cut = if s.chars().nth(QUOTE_LIMIT).is_some() {
        "..."
    } else {
        ""
    };
    format!("\"{}{}\"", shown.escape_debug(), cut)
}

/// "1 pair", "2 pairs": a count with its noun.
pub(crate) fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Why a quantity did not parse.
enum Bad {
    /// Not `<number><unit>` at all.
    Malformed,
    /// A number without a unit where one is required.
    NoUnit,
    /// A leading minus sign.
    Negative,
    /// The unit is not in the table.
    UnknownUnit(String),
    /// Does not fit in 64 bits.
    TooLarge,
    /// More than [`MAX_FRACTION_DIGITS`] digits after the point.
    TooPrecise,
    /// Not a whole number of base units (sizes only).
    Fraction,
}

/// A non-negative decimal: `mantissa / 10^scale`.
struct Decimal {
    mantissa: u128,
    scale: u32,
}

fn decimal(num: &str) -> Result<Decimal, Bad> {
    let (int, frac) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return Err(Bad::Malformed);
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Bad::Malformed);
    }
    if frac.len() > MAX_FRACTION_DIGITS {
        return Err(Bad::TooPrecise);
    }
    let mut mantissa: u128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        mantissa = mantissa
            .checked_mul(10)
            .and_then(|m| m.checked_add(u128::from(b - b'0')))
            .ok_or(Bad::TooLarge)?;
    }
    // frac.len() <= 18, so the cast and 10^scale below cannot overflow.
    Ok(Decimal {
        mantissa,
        scale: frac.len() as u32,
    })
}

/// Parses `<number>[ ]<unit>` against `units`. A missing unit means the base
/// unit when `unit_required` is false, and is allowed for zero regardless.
/// `exact` rejects results that are not whole base units instead of rounding.
fn quantity(s: &str, units: &[(&str, u128)], unit_required: bool, exact: bool) -> Result<u64, Bad> {
    let t = s.trim();
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, t),
    };
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(end);
    let unit = unit.trim_start();
    let d = decimal(num)?;
    if negative {
        return Err(Bad::Negative);
    }
    let mult = if unit.is_empty() {
        if unit_required && d.mantissa != 0 {
            return Err(Bad::NoUnit);
        }
        1
    } else {
        match units.iter().find(|(name, _)| *name == unit) {
            Some((_, m)) => *m,
            None => return Err(Bad::UnknownUnit(unit.to_string())),
        }
    };
    let product = d.mantissa.checked_mul(mult).ok_or(Bad::TooLarge)?;
    let div = 10u128.pow(d.scale);
    if exact && product % div != 0 {
        return Err(Bad::Fraction);
    }
    let rounded = product.checked_add(div / 2).ok_or(Bad::TooLarge)? / div;
    u64::try_from(rounded).map_err(|_| Bad::TooLarge)
}

fn unit_names(units: &[(&str, u128)]) -> String {
    units
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| *n != "µs")
        .collect::<Vec<_>>()
        .join(", ")
}

/// The expected form of a time, for messages.
pub const TIME_EXPECTED: &str = "expected a time with a unit, like \"20ms\"";
/// The expected form of a rate, for messages.
pub const RATE_EXPECTED: &str = "expected a rate with a unit, like \"15Mbps\"";
/// The expected form of a size, for messages.
pub const SIZE_EXPECTED: &str = "expected a size in bytes, like 1500 or \"64KiB\"";

/// Parses a time such as `"20ms"`, `"1.5s"`, `"250us"`, `"10ns"`, `"2min"` or `"0"`.
pub fn parse_time(s: &str) -> Result<Time, String> {
    match quantity(s, TIME_UNITS, true, false) {
        Ok(ns) => Ok(Time(ns)),
        Err(Bad::Malformed | Bad::NoUnit | Bad::Fraction) => {
            Err(format!("{TIME_EXPECTED}, got {}", quote(s)))
        }
        Err(Bad::Negative) => Err(format!("expected a non-negative time, got {}", quote(s))),
        Err(Bad::UnknownUnit(u)) => Err(format!(
            "unknown time unit {} in {}; expected one of: {}",
            quote(&u),
            quote(s),
            unit_names(TIME_UNITS)
        )),
        Err(Bad::TooLarge) => Err(format!(
            "expected a time below 2^64 ns (about 584 years), got {}",
            quote(s)
        )),
        Err(Bad::TooPrecise) => Err(format!(
            "expected at most {MAX_FRACTION_DIGITS} digits after the decimal point, got {}",
            quote(s)
        )),
    }
}

/// Parses a positive rate in bits per second: `"15Mbps"`, `"1Gbps"`, `"10kbps"`, `"1500bps"`.
pub fn parse_rate(s: &str) -> Result<u64, String> {
    match quantity(s, RATE_UNITS, true, false) {
        Ok(0) | Err(Bad::Negative) => Err(format!("expected a positive rate, got {}", quote(s))),
        Ok(bps) => Ok(bps),
        Err(Bad::Malformed | Bad::NoUnit | Bad::Fraction) => {
            Err(format!("{RATE_EXPECTED}, got {}", quote(s)))
        }
        Err(Bad::UnknownUnit(u)) => Err(format!(
            "unknown rate unit {} in {}; expected one of: {}",
            quote(&u),
            quote(s),
            unit_names(RATE_UNITS)
        )),
        Err(Bad::TooLarge) => Err(format!(
            "expected a rate below 2^64 bit/s, got {}",
            quote(s)
        )),
        Err(Bad::TooPrecise) => Err(format!(
            "expected at most {MAX_FRACTION_DIGITS} digits after the decimal point, got {}",
            quote(s)
        )),
    }
}

/// Parses a size in bytes: `"1500"`, `"100B"`, `"40KB"` (40,000), `"64KiB"` (65,536), `"5MB"`, `"1GiB"`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    match quantity(s, SIZE_UNITS, false, true) {
        Ok(bytes) => Ok(bytes),
        Err(Bad::Malformed | Bad::NoUnit) => Err(format!("{SIZE_EXPECTED}, got {}", quote(s))),
        Err(Bad::Negative) => Err(format!("expected a non-negative size, got {}", quote(s))),
        Err(Bad::Fraction) => Err(format!(
            "expected a whole number of bytes, got {}",
            quote(s)
        )),
        Err(Bad::UnknownUnit(u)) => Err(format!(
            "unknown size unit {} in {}; expected one of: {}",
            quote(&u),
            quote(s),
            unit_names(SIZE_UNITS)
        )),
        Err(Bad::TooLarge) => Err(format!(
            "expected a size below 2^64 bytes, got {}",
            quote(s)
        )),
        Err(Bad::TooPrecise) => Err(format!(
            "expected at most {MAX_FRACTION_DIGITS} digits after the decimal point, got {}",
            quote(s)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_time_unit() {
        assert_eq!(parse_time("10ns"), Ok(Time(10)));
        assert_eq!(parse_time("250us"), Ok(Time::from_micros(250)));
        assert_eq!(parse_time("250µs"), Ok(Time::from_micros(250)));
        assert_eq!(parse_time("20ms"), Ok(Time::from_millis(20)));
        assert_eq!(parse_time("1.5s"), Ok(Time::from_millis(1500)));
        assert_eq!(parse_time("60s"), Ok(Time::from_secs(60)));
        assert_eq!(parse_time("2min"), Ok(Time::from_secs(120)));
        assert_eq!(parse_time("0"), Ok(Time::ZERO));
        assert_eq!(parse_time("0.0"), Ok(Time::ZERO));
        assert_eq!(parse_time("0s"), Ok(Time::ZERO));
        assert_eq!(parse_time(" 20 ms "), Ok(Time::from_millis(20)));
        assert_eq!(parse_time(".5s"), Ok(Time::from_millis(500)));
        assert_eq!(parse_time("5.s"), Ok(Time::from_secs(5)));
    }

    #[test]
    fn times_are_exact_decimals_rounded_to_the_nanosecond() {
        assert_eq!(parse_time("0.1s"), Ok(Time(100_000_000)));
        assert_eq!(parse_time("0.0004us"), Ok(Time(0)));
        assert_eq!(parse_time("0.0005us"), Ok(Time(1)));
        assert_eq!(parse_time("1.0000000015s"), Ok(Time(1_000_000_002)));
    }

    #[test]
    fn bad_times_say_what_was_expected() {
        assert_eq!(
            parse_time("20"),
            Err("expected a time with a unit, like \"20ms\", got \"20\"".into())
        );
        assert_eq!(
            parse_time("fast"),
            Err("expected a time with a unit, like \"20ms\", got \"fast\"".into())
        );
        assert_eq!(
            parse_time(""),
            Err("expected a time with a unit, like \"20ms\", got \"\"".into())
        );
        assert_eq!(
            parse_time("1.2.3s"),
            Err("expected a time with a unit, like \"20ms\", got \"1.2.3s\"".into())
        );
        assert_eq!(
            parse_time("-5ms"),
            Err("expected a non-negative time, got \"-5ms\"".into())
        );
        assert_eq!(
            parse_time("5h"),
            Err("unknown time unit \"h\" in \"5h\"; expected one of: ns, us, ms, s, min".into())
        );
        assert_eq!(
            parse_time("1e3ms"),
            Err(
                "unknown time unit \"e3ms\" in \"1e3ms\"; expected one of: ns, us, ms, s, min"
                    .into()
            )
        );
        assert_eq!(
            parse_time("18446744074s"),
            Err("expected a time below 2^64 ns (about 584 years), got \"18446744074s\"".into())
        );
        assert!(parse_time("18446744073s").is_ok());
        assert!(parse_time(&"9".repeat(80))
            .unwrap_err()
            .contains("below 2^64"));
        assert!(parse_time("0.0000000000000000001s")
            .unwrap_err()
            .starts_with("expected at most 18 digits"));
        assert!(parse_time("nan").is_err());
        assert!(parse_time("inf").is_err());
    }

    #[test]
    fn every_rate_unit() {
        assert_eq!(parse_rate("1500bps"), Ok(1500));
        assert_eq!(parse_rate("10kbps"), Ok(10_000));
        assert_eq!(parse_rate("10Kbps"), Ok(10_000));
        assert_eq!(parse_rate("15Mbps"), Ok(15_000_000));
        assert_eq!(parse_rate("1Gbps"), Ok(1_000_000_000));
        assert_eq!(parse_rate("2.5Mbps"), Ok(2_500_000));
        assert_eq!(parse_rate("1 Gbps"), Ok(1_000_000_000));
    }

    #[test]
    fn bad_rates_say_what_was_expected() {
        assert_eq!(
            parse_rate("fast"),
            Err("expected a rate with a unit, like \"15Mbps\", got \"fast\"".into())
        );
        assert_eq!(
            parse_rate("15"),
            Err("expected a rate with a unit, like \"15Mbps\", got \"15\"".into())
        );
        assert_eq!(
            parse_rate("0Mbps"),
            Err("expected a positive rate, got \"0Mbps\"".into())
        );
        assert_eq!(
            parse_rate("0"),
            Err("expected a positive rate, got \"0\"".into())
        );
        assert_eq!(
            parse_rate("-5Mbps"),
            Err("expected a positive rate, got \"-5Mbps\"".into())
        );
        assert_eq!(
            parse_rate("0.1bps"),
            Err("expected a positive rate, got \"0.1bps\"".into())
        );
        assert_eq!(
            parse_rate("10Mb"),
            Err("unknown rate unit \"Mb\" in \"10Mb\"; expected one of: bps, kbps, Kbps, Mbps, Gbps".into())
        );
        assert_eq!(
            parse_rate("99999999999Gbps"),
            Err("expected a rate below 2^64 bit/s, got \"99999999999Gbps\"".into())
        );
    }

    #[test]
    fn every_size_unit() {
        assert_eq!(parse_size("1500"), Ok(1500));
        assert_eq!(parse_size("100B"), Ok(100));
        assert_eq!(parse_size("40KB"), Ok(40_000));
        assert_eq!(parse_size("40kB"), Ok(40_000));
        assert_eq!(parse_size("64KiB"), Ok(65_536));
        assert_eq!(parse_size("5MB"), Ok(5_000_000));
        assert_eq!(parse_size("1MiB"), Ok(1_048_576));
        assert_eq!(parse_size("1GB"), Ok(1_000_000_000));
        assert_eq!(parse_size("1GiB"), Ok(1_073_741_824));
        assert_eq!(parse_size("1.5KiB"), Ok(1536));
        assert_eq!(parse_size("0"), Ok(0));
    }

    #[test]
    fn bad_sizes_say_what_was_expected() {
        assert_eq!(
            parse_size("big"),
            Err("expected a size in bytes, like 1500 or \"64KiB\", got \"big\"".into())
        );
        assert_eq!(
            parse_size("-5MB"),
            Err("expected a non-negative size, got \"-5MB\"".into())
        );
        assert_eq!(
            parse_size("1.5B"),
            Err("expected a whole number of bytes, got \"1.5B\"".into())
        );
        assert_eq!(
            parse_size("10Kb"),
            Err("unknown size unit \"Kb\" in \"10Kb\"; expected one of: B, kB, KB, KiB, MB, MiB, GB, GiB".into())
        );
        assert_eq!(
            parse_size("17179869184GiB"),
            Err("expected a size below 2^64 bytes, got \"17179869184GiB\"".into())
        );
    }

    #[test]
    fn quoting_escapes_and_truncates() {
        assert_eq!(quote("a\"b\nc"), "\"a\\\"b\\nc\"");
        let long = "x".repeat(100);
        assert_eq!(quote(&long), format!("\"{}...\"", "x".repeat(48)));
    }
}
