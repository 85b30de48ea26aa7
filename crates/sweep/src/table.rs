//! The sweep's tables: `results.csv` (one row per run), `flows.csv` (one
//! row per run and flow) and `timing.csv` (one row per run: its wall time),
//! rebuilt from the run files in expansion order.
//!
//! results.csv and flows.csv start with the same columns: `run` (the run's
//! index in expansion order, from 0), `id` (its hash, the run file's name),
//! one column per swept key (named by the key, holding the value as written
//! on the command line) and `seed` (the seed the run used; left out when
//! `seed` is itself a swept key). Every number is written with Rust's
//! shortest round-trip formatting, so the same runs give byte-identical
//! files. Wall-clock time is in neither: it goes to timing.csv
//! ([`TIMING_COLUMNS`]); that file and the wall files it is built from are
//! the only files of a sweep directory that differ between two sweeps.

use crate::grid::RunSpec;
use reorderlab_metrics::{FlowReport, RunReport};

/// The per-run metric columns of results.csv, after the common ones.
pub const RESULT_COLUMNS: &[&str] = &[
    "flows",
    "goodput_bps_sum",
    "goodput_bps_mean",
    "goodput_jain",
    "throughput_bps_sum",
    "bytes_delivered",
    "segments_sent",
    "retransmissions",
    "spurious_retransmissions",
    "fast_retransmits",
    "spurious_fast_retransmits",
    "timeouts",
    "spurious_timeouts",
    "events",
    "duration_s",
];

/// The columns of timing.csv: the run's index and id, the events it
/// processed, and its wall-clock seconds (empty when its wall file is missing).
pub const TIMING_COLUMNS: &[&str] = &["run", "id", "events", "wall_s"];

/// One run as the tables see it.
pub struct Row<'a> {
    pub spec: &'a RunSpec,
    pub id: &'a str,
    pub report: &'a RunReport,
    /// Wall-clock seconds of the run, from its wall file (timing.csv only).
    pub wall_s: Option<f64>,
}

/// Jain's fairness index (Σx)² / (n·Σx²): 1 when all flows get the same, 1/n
/// when one gets everything. `None` for no flows or when every value is 0.
pub fn jain(xs: &[f64]) -> Option<f64> {
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    (!xs.is_empty() && sq > 0.0).then(|| sum * sum / (xs.len() as f64 * sq))
}

fn common_header(keys: &[&str]) -> Vec<String> {
    let mut h = vec!["run".to_string(), "id".to_string()];
    h.extend(keys.iter().map(|k| k.to_string()));
    if !keys.contains(&"seed") {
        h.push("seed".into());
    }
    h
}

fn common_fields(keys: &[&str], row: &Row<'_>) -> Vec<String> {
    let mut f = vec![row.spec.index.to_string(), row.id.to_string()];
    f.extend(row.spec.point.iter().map(|(_, v)| v.clone()));
    if !keys.contains(&"seed") {
        f.push(row.report.seed.to_string());
    }
    f
}

fn num(x: f64) -> String {
    format!("{x}")
}

/// The metric fields of one run, in [`RESULT_COLUMNS`] order.
pub fn result_fields(r: &RunReport) -> Vec<String> {
    let goodputs: Vec<f64> = r.flows.iter().map(|f| f.goodput_bps).collect();
    let n = r.flows.len();
    let sum_g: f64 = goodputs.iter().sum();
    let total = |g: fn(&FlowReport) -> u64| r.flows.iter().map(g).sum::<u64>().to_string();
    vec![
        n.to_string(),
        num(sum_g),
        if n == 0 {
            String::new()
        } else {
            num(sum_g / n as f64)
        },
        jain(&goodputs).map(num).unwrap_or_default(),
        num(r.flows.iter().map(|f| f.throughput_bps).sum()),
        total(|f| f.bytes_delivered),
        total(|f| f.segments_sent),
        total(|f| f.retransmissions),
        total(|f| f.spurious_retransmissions),
        total(|f| f.fast_retransmits),
        total(|f| f.spurious_fast_retransmits),
        total(|f| f.timeouts),
        total(|f| f.spurious_timeouts),
        r.events.to_string(),
        num(r.duration_s),
    ]
}

/// results.csv: a header and one row per run, in the order of `rows`.
pub fn results_csv(keys: &[&str], rows: &[Row<'_>]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut h = common_header(keys);
    h.extend(RESULT_COLUMNS.iter().map(|c| c.to_string()));
    w.write_record(&h)?;
    for row in rows {
        let mut f = common_fields(keys, row);
        f.extend(result_fields(row.report));
        w.write_record(&f)?;
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

/// timing.csv: a header ([`TIMING_COLUMNS`]) and one row per run, in the
/// order of `rows`.
pub fn timing_csv(rows: &[Row<'_>]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(TIMING_COLUMNS)?;
    for row in rows {
        w.write_record([
            row.spec.index.to_string(),
            row.id.to_string(),
            row.report.events.to_string(),
            row.wall_s.map(num).unwrap_or_default(),
        ])?;
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

/// A run's flows as `reorderlab run` writes them to flows.csv: the header
/// and one record per flow (the columns follow `FlowReport`'s fields).
fn flow_records(
    flows: &[FlowReport],
) -> Result<(csv::StringRecord, Vec<csv::StringRecord>), csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    if flows.is_empty() {
        w.serialize(FlowReport::default())?;
    }
    for f in flows {
        w.serialize(f)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    let mut r = csv::Reader::from_reader(bytes.as_slice());
    let header = r.headers()?.clone();
    let records = if flows.is_empty() {
        Vec::new()
    } else {
        r.records().collect::<Result<_, _>>()?
    };
    Ok((header, records))
}

/// flows.csv: a header and one row per (run, flow): the common columns, then
/// the columns of `reorderlab run`'s flows.csv (`id` renamed `flow`).
pub fn flows_csv(keys: &[&str], rows: &[Row<'_>]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let (flow_header, _) = flow_records(&[])?;
    let mut h = common_header(keys);
    h.extend(flow_header.iter().map(|c| {
        if c == "id" {
            "flow".to_string()
        } else {
            c.to_string()
        }
    }));
    w.write_record(&h)?;
    for row in rows {
        let common = common_fields(keys, row);
        let (_, records) = flow_records(&row.report.flows)?;
        for rec in records {
            let mut f = common.clone();
            f.extend(rec.iter().map(str::to_string));
            w.write_record(&f)?;
        }
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(seed: u64, goodputs: &[f64]) -> RunReport {
        RunReport {
            scenario: "t".into(),
            seed,
            duration_s: 5.0,
            events: 1234,
            flows: goodputs
                .iter()
                .enumerate()
                .map(|(i, &g)| FlowReport {
                    id: i as u32,
                    variant: "sack".into(),
                    goodput_bps: g,
                    retransmissions: 2,
                    spurious_retransmissions: 1,
                    srtt_s: Some(0.02),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn jain_index() {
        assert_eq!(jain(&[1.0, 1.0, 1.0]), Some(1.0));
        assert_eq!(jain(&[1.0, 0.0, 0.0, 0.0]), Some(0.25));
        assert_eq!(jain(&[]), None);
        assert_eq!(jain(&[0.0, 0.0]), None);
    }

    #[test]
    fn tables_have_the_documented_columns() {
        let spec = RunSpec {
            index: 3,
            point: vec![("topology.bottleneck.rate".into(), "10Mbps".into())],
            seed: Some(9),
            overrides: vec![],
        };
        let r = report(9, &[3e6, 1e6]);
        let rows = [Row {
            spec: &spec,
            id: "00000000deadbeef",
            report: &r,
            wall_s: Some(0.25),
        }];
        let keys = ["topology.bottleneck.rate"];
        let text = String::from_utf8(results_csv(&keys, &rows).unwrap()).unwrap();
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        assert!(
            header.starts_with("run,id,topology.bottleneck.rate,seed,flows,goodput_bps_sum,"),
            "{header}"
        );
        assert!(header.ends_with(",events,duration_s"), "{header}");
        assert!(!text.contains("wall"), "{text}");
        assert_eq!(
            lines.next().unwrap(),
            "3,00000000deadbeef,10Mbps,9,2,4000000,2000000,0.8,0,0,0,4,2,0,0,0,0,1234,5"
        );
        assert_eq!(lines.next(), None);

        let text = String::from_utf8(timing_csv(&rows).unwrap()).unwrap();
        assert_eq!(text, "run,id,events,wall_s\n3,00000000deadbeef,1234,0.25\n");

        let text = String::from_utf8(flows_csv(&keys, &rows).unwrap()).unwrap();
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        assert!(
            header.starts_with(
                "run,id,topology.bottleneck.rate,seed,flow,variant,bytes_delivered,goodput_bps,"
            ),
            "{header}"
        );
        assert_eq!(lines.clone().count(), 2);
        let first = lines.next().unwrap();
        assert!(
            first.starts_with("3,00000000deadbeef,10Mbps,9,0,sack,0,3000000.0,"),
            "{first}"
        );
    }

    #[test]
    fn a_swept_seed_is_not_repeated() {
        let spec = RunSpec {
            index: 0,
            point: vec![("seed".into(), "4".into())],
            seed: None,
            overrides: vec![],
        };
        let r = report(4, &[1.0]);
        let rows = [Row {
            spec: &spec,
            id: "x",
            report: &r,
            wall_s: None,
        }];
        let text = String::from_utf8(results_csv(&["seed"], &rows).unwrap()).unwrap();
        assert!(text.starts_with("run,id,seed,flows,"), "{text}");
    }

    #[test]
    fn timing_has_one_row_per_run_and_an_empty_cell_for_a_missing_wall_time() {
        let specs: Vec<RunSpec> = (0..2)
            .map(|i| RunSpec {
                index: i,
                point: vec![("seed".into(), i.to_string())],
                seed: None,
                overrides: vec![],
            })
            .collect();
        let r = report(4, &[1.0]);
        let rows = [
            Row {
                spec: &specs[0],
                id: "a",
                report: &r,
                wall_s: Some(1.5),
            },
            Row {
                spec: &specs[1],
                id: "b",
                report: &r,
                wall_s: None,
            },
        ];
        let text = String::from_utf8(timing_csv(&rows).unwrap()).unwrap();
        assert_eq!(text, "run,id,events,wall_s\n0,a,1234,1.5\n1,b,1234,\n");
    }
}
