//! Dotted-path overrides: `KEY=VALUE` applied to the parsed document before validation.

use toml::{Table, Value};

use crate::units::quote;
use crate::Problem;

/// Deepest key path an override may name (keeps nesting, and so recursion
/// when the document is later dropped or printed, bounded).
const MAX_SEGMENTS: usize = 32;

/// Applies one `KEY=VALUE` override to `table`.
///
/// KEY is a dotted path; inside an array, a segment is an element index
/// (`flows.0.variant`). Missing intermediate tables are created. VALUE is a
/// TOML value when it parses as one (`7`, `0.02`, `true`, `"x"`, `[1, 2]`,
/// `{ min_th = 5 }`), otherwise the bare text as a string (`10Mbps`, `newreno`).
pub fn apply_override(table: &mut Table, spec: &str) -> Result<(), Problem> {
    let Some((key, value)) = spec.split_once('=') else {
        return Err(Problem {
            key: String::new(),
            message: format!(
                "expected an override of the form KEY=VALUE, like topology.bottleneck.rate=10Mbps, got {}",
                quote(spec)
            ),
        });
    };
    let key = key.trim();
    let segments: Vec<&str> = key.split('.').map(str::trim).collect();
    let problem = |message: String| Problem {
        key: key.escape_debug().to_string(),
        message: format!("in override {}: {message}", quote(spec)),
    };
    if segments.iter().any(|s| s.is_empty()) {
        return Err(problem(
            "expected a dotted key path, like flows.0.variant".to_string(),
        ));
    }
    if segments.len() > MAX_SEGMENTS {
        return Err(problem(format!(
            "expected a key path of at most {MAX_SEGMENTS} parts, got {}",
            segments.len()
        )));
    }
    let value = parse_value(value.trim());
    let mut root = Value::Table(std::mem::take(table));
    let result = set(&mut root, &segments, value);
    if let Value::Table(t) = root {
        *table = t;
    }
    result.map_err(problem)
}

/// A TOML value when `text` is one, else `text` as a string.
fn parse_value(text: &str) -> Value {
    text.parse::<Value>()
        .unwrap_or_else(|_| Value::String(text.to_string()))
}

fn article(type_str: &str) -> &'static str {
    match type_str {
        "integer" => "an integer",
        "array" => "an array",
        "string" => "a string",
        "float" => "a float",
        "boolean" => "a boolean",
        "datetime" => "a datetime",
        "table" => "a table",
        _ => "a value",
    }
}

fn set(root: &mut Value, segments: &[&str], value: Value) -> Result<(), String> {
    let mut node = root;
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let here = segments[..i].join(".");
        node = match node {
            Value::Table(t) => {
                if last {
                    t.insert(seg.to_string(), value);
                    return Ok(());
                }
                t.entry(seg.to_string())
                    .or_insert_with(|| Value::Table(Table::new()))
            }
            Value::Array(a) => {
                let len = a.len();
                let Some(index) = seg
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                    .then(|| seg.parse::<usize>().ok())
                    .flatten()
                else {
                    return Err(format!(
                        "'{here}' is an array; expected an element index like {here}.0, got '{}'",
                        seg.escape_debug()
                    ));
                };
                let Some(element) = a.get_mut(index) else {
                    return Err(format!(
                        "index {index} is past the end of '{here}', which has {len} element{}",
                        if len == 1 { "" } else { "s" }
                    ));
                };
                if last {
                    *element = value;
                    return Ok(());
                }
                element
            }
            other => {
                return Err(format!(
                    "'{here}' is {}, not a table or an array, so '{}' cannot be set",
                    article(other.type_str()),
                    segments.join(".").escape_debug()
                ))
            }
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Table {
        text.parse().expect("test document parses")
    }

    #[test]
    fn values_are_typed_when_they_parse_as_toml() {
        let mut t = Table::new();
        for spec in [
            "i=7",
            "f=0.02",
            "b=true",
            "q=\"7\"",
            "s=newreno",
            "r=10Mbps",
            "a=[1, 2]",
            "t={ min_th = 5 }",
            "e=",
            " spaced = 3 ",
        ] {
            apply_override(&mut t, spec).unwrap();
        }
        assert_eq!(t["i"], Value::Integer(7));
        assert_eq!(t["f"], Value::Float(0.02));
        assert_eq!(t["b"], Value::Boolean(true));
        assert_eq!(t["q"], Value::String("7".into()));
        assert_eq!(t["s"], Value::String("newreno".into()));
        assert_eq!(t["r"], Value::String("10Mbps".into()));
        assert_eq!(
            t["a"],
            Value::Array(vec![Value::Integer(1), Value::Integer(2)])
        );
        assert_eq!(t["t"]["min_th"], Value::Integer(5));
        assert_eq!(t["e"], Value::String(String::new()));
        assert_eq!(t["spaced"], Value::Integer(3));
    }

    #[test]
    fn path_through_a_scalar_is_a_problem() {
        let mut t = doc("seed = 1");
        let p = apply_override(&mut t, "seed.x=2").unwrap_err();
        assert_eq!(p.key, "seed.x");
        assert_eq!(
            p.message,
            "in override \"seed.x=2\": 'seed' is an integer, not a table or an array, so 'seed.x' cannot be set"
        );
        // The document is left as it was.
        assert_eq!(t, doc("seed = 1"));
    }

    #[test]
    fn non_numeric_index_into_an_array_is_a_problem() {
        let mut t = doc("[[flows]]\nvariant = \"sack\"");
        let p = apply_override(&mut t, "flows.first.variant=reno").unwrap_err();
        assert_eq!(p.key, "flows.first.variant");
        assert_eq!(
            p.message,
            "in override \"flows.first.variant=reno\": 'flows' is an array; expected an element index like flows.0, got 'first'"
        );
    }

    #[test]
    fn malformed_specs_are_problems() {
        let mut t = Table::new();
        let p = apply_override(&mut t, "seed").unwrap_err();
        assert_eq!(p.key, "");
        assert_eq!(
            p.message,
            "expected an override of the form KEY=VALUE, like topology.bottleneck.rate=10Mbps, got \"seed\""
        );
        let p = apply_override(&mut t, "a..b=1").unwrap_err();
        assert_eq!(p.key, "a..b");
        assert_eq!(
            p.message,
            "in override \"a..b=1\": expected a dotted key path, like flows.0.variant"
        );
        assert!(apply_override(&mut t, "=1").is_err());
        let deep = format!("{}=1", vec!["a"; 33].join("."));
        assert!(apply_override(&mut t, &deep)
            .unwrap_err()
            .message
            .contains("at most 32 parts"));
        assert!(t.is_empty());
    }
}
