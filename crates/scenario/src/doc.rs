//! What is generated from the schema: the JSON Schema of a scenario file
//! (`docs/scenario.schema.json`) and the generated tables of
//! docs/scenarios.md (variants, variant parameters, `cc` values, bounds),
//! both printed by `reorderlab schema --json / --markdown`, and `reorderlab
//! variants --json` ([`variants_json`]): the variant tables and the JSON
//! come from the same catalog (the TCP crate's `VARIANTS` and `CC_NAMES`),
//! so they cannot drift. `tests/schema.rs` fails when
//! the checked-in copies are stale; `REORDERLAB_BLESS=1 cargo test -p
//! reorderlab-scenario --test schema` rewrites them.

use reorderlab_tcp::variant;

use crate::schema::defaults;

/// The JSON Schema of a scenario file, pretty-printed with a final newline.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(crate::file::File);
    let mut schema = serde_json::to_value(&schema).expect("a schema serializes");
    drop_null(&mut schema);
    let mut s = serde_json::to_string_pretty(&schema).expect("a schema serializes");
    s.push('\n');
    s
}

/// TOML has no null: an optional key is one that may be left out, so the
/// `null` that schemars allows for `Option` fields is taken out again.
fn drop_null(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            if let Some(Value::Array(types)) = m.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let t = types.remove(0);
                    m.insert("type".into(), t);
                }
            }
            if let Some(Value::Array(any)) = m.get_mut("anyOf") {
                any.retain(|s| s.get("type").is_none_or(|t| t != "null"));
                if any.len() == 1 {
                    if let Some(Value::Object(only)) = any.pop() {
                        m.remove("anyOf");
                        for (k, x) in only {
                            m.entry(k).or_insert(x);
                        }
                    }
                }
            }
            m.values_mut().for_each(drop_null);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_null),
        _ => {}
    }
}

/// Every generated section of docs/scenarios.md, by marker name.
pub fn sections() -> Vec<(&'static str, String)> {
    vec![
        ("variants", variants_table()),
        ("variant-params", variant_params()),
        ("bounds", bounds()),
    ]
}

/// The generated sections, each between its markers, as `schema --markdown` prints them.
pub fn markdown() -> String {
    sections()
        .into_iter()
        .map(|(name, body)| format!("{}\n{body}{}\n", begin(name), end(name)))
        .collect::<Vec<_>>()
        .join("\n")
}

fn begin(name: &str) -> String {
    format!("<!-- BEGIN GENERATED {name}: reorderlab schema --markdown; do not edit -->")
}

fn end(name: &str) -> String {
    format!("<!-- END GENERATED {name} -->")
}

/// `doc` with every generated section replaced by its current text; an
/// error names a section whose markers are missing.
pub fn update(doc: &str) -> Result<String, String> {
    let mut out = doc.to_string();
    for (name, body) in sections() {
        let (b, e) = (begin(name), end(name));
        let start = out
            .find(&b)
            .ok_or_else(|| format!("marker {b:?} is missing"))?
            + b.len();
        let stop = out[start..]
            .find(&e)
            .ok_or_else(|| format!("marker {e:?} is missing"))?
            + start;
        out.replace_range(start..stop, &format!("\n{body}"));
    }
    Ok(out)
}

fn num(x: f64) -> String {
    format!("{x}")
}

/// `reorderlab variants --json`: every `cc` value, and every variant with
/// its description, source, SACK and DSACK defaults, congestion control and
/// parameters (default and range).
pub fn variants_json() -> serde_json::Value {
    let variants: Vec<serde_json::Value> = variant::VARIANTS
        .iter()
        .map(|v| {
            let params: Vec<serde_json::Value> = v
                .params
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "name": p.name,
                        "default": p.default,
                        "min": p.min,
                        "max": p.max,
                        "doc": p.doc.trim_end_matches(','),
                    })
                })
                .collect();
            serde_json::json!({
                "name": v.name,
                "description": v.description,
                "source": v.source,
                "sack": v.sack,
                "dsack": v.dsack,
                "cc": v.default_cc().name(),
                "params": params,
            })
        })
        .collect();
    serde_json::json!({ "cc": variant::CC_NAMES, "variants": variants })
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// Every variant: what it is, its source, its defaults.
fn variants_table() -> String {
    let mut s = String::from(
        "| Variant | What it is | Source | SACK | DSACK | `cc` | `params` (default) |
|---|---|---|---|---|---|---|
",
    );
    for v in variant::VARIANTS {
        let params = if v.params.is_empty() {
            "none".to_string()
        } else {
            v.params
                .iter()
                .map(|p| format!("`{}` ({})", p.name, num(p.default)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | `{}` | {} |
",
            v.name,
            v.description,
            v.source,
            yes(v.sack),
            yes(v.dsack),
            v.default_cc().name(),
            params
        ));
    }
    s
}

fn variant_params() -> String {
    let mut s =
        String::from("| Variant | Key | Default | Range | Meaning |\n|---|---|---|---|---|\n");
    for v in variant::VARIANTS {
        for p in v.params {
            s.push_str(&format!(
                "| `{}` | `{}` | `{}` | {} … {} | {} |\n",
                v.name,
                p.name,
                num(p.default),
                num(p.min),
                num(p.max),
                p.doc.trim_end_matches(',')
            ));
        }
    }
    s.push_str(&format!(
        "\n`cc` values: {}.\n",
        variant::CC_NAMES
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    s
}

fn bounds() -> String {
    let rows: [(&str, String, &str); 10] = [
        ("`name`", "a safe file name".into(), "it names the output directory `results/<name>`; `\"../x\"` or `\"/x\"` would write elsewhere"),
        ("`measure.reorder_threshold`", format!("≤ {} packets", defaults::MAX_REORDER_THRESHOLD), "the reorder-density meter costs 24-32 bytes per packet of threshold per flow; no window displaces a packet further"),
        ("`measure.series_interval`", format!("≤ {} samples per flow (`duration` / interval)", defaults::MAX_SERIES_SAMPLES), "the series is kept in memory until the run ends"),
        ("`flows.initial_window`", format!("≤ {} segments", defaults::MAX_INITIAL_WINDOW), "RFC 6928 allows 10; every segment of a window is sender and scoreboard memory"),
        ("swap `interval`", format!("≤ {} swap events over the run (`duration` / `interval`)", defaults::MAX_TIMED_EVENTS), "each event is simulator work; a swap every nanosecond never finishes"),
        ("swap `swaps`", format!("≤ {} per event", defaults::MAX_SWAPS), "TCP-PR's K goes to 64; each swap is work inside one event"),
        ("spikes `every`", format!("≤ {} spikes over the run, counted with the mean of `every`", defaults::MAX_TIMED_EVENTS), "as for swaps"),
        ("arq `retries`", format!("≤ {}", defaults::MAX_ARQ_RETRIES), "802.11's retry limits are 4 and 7; a frame retried without end holds every frame behind it"),
        ("cbr `rate`", format!("≤ {} packets per second (`rate` / (8 × `packet_bytes`))", defaults::MAX_CBR_PACKET_RATE), "80 Gbit/s of 1000-byte packets, eight times the fastest link of any paper network; each packet is several events"),
        ("`seed`", format!("≤ {}", i64::MAX), "the largest integer TOML holds; `run --seed` and `sweep --seeds` follow the same rule"),
    ];
    let mut s = String::from("| Key | Bound | Why |\n|---|---|---|\n");
    for (k, b, why) in rows {
        s.push_str(&format!("| {k} | {b} | {why} |\n"));
    }
    s
}
