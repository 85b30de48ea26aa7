//! Writes a run's files: summary.json, flows.csv, links.csv (one row per
//! link direction), reorder_density.csv (the RFC 5236 reorder density of
//! each flow, non-empty bins only) and, when sampled, series.csv.

use crate::world::SeriesRow;
use reorderlab_metrics::RunReport;
use std::io;
use std::path::{Path, PathBuf};

/// The default output directory of a run, `root/<name>`: `name` must be a
/// safe file name ([`reorderlab_scenario::is_safe_name`], which validation
/// enforces), so the directory is always directly inside `root`.
pub fn results_dir(root: &Path, name: &str) -> io::Result<PathBuf> {
    let mut parts = Path::new(name).components();
    let single = matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(_)), None)
    );
    if reorderlab_scenario::is_safe_name(name) && single {
        Ok(root.join(name))
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{name:?} is not a safe directory name (letters, digits, '-', '_', '.', not starting with '.')"),
        ))
    }
}

/// summary.json as pretty-printed JSON with a trailing newline.
pub fn summary_json(r: &RunReport) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("report serializes");
    s.push('\n');
    s
}

fn csv_err(e: csv::Error) -> io::Error {
    io::Error::other(e)
}

/// Writes summary.json, flows.csv, links.csv and (if any rows)
/// reorder_density.csv and series.csv into `dir`, and nothing anywhere
/// else: the file names are fixed.
pub fn write_all(dir: &Path, r: &RunReport, series: &[SeriesRow]) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("summary.json"), summary_json(r))?;
    let mut w = csv::Writer::from_path(dir.join("flows.csv")).map_err(csv_err)?;
    for f in &r.flows {
        w.serialize(f).map_err(csv_err)?;
    }
    w.flush()?;
    let mut w = csv::Writer::from_path(dir.join("links.csv")).map_err(csv_err)?;
    for l in &r.links {
        w.serialize(l).map_err(csv_err)?;
    }
    w.flush()?;
    if !r.reorder_density.is_empty() {
        let mut w = csv::Writer::from_path(dir.join("reorder_density.csv")).map_err(csv_err)?;
        for d in &r.reorder_density {
            w.serialize(d).map_err(csv_err)?;
        }
        w.flush()?;
    }
    if !series.is_empty() {
        let mut w = csv::Writer::from_path(dir.join("series.csv")).map_err(csv_err)?;
        w.write_record([
            "time_s",
            "flow",
            "cwnd",
            "ssthresh",
            "srtt_s",
            "goodput_bps",
            "retransmissions",
        ])
        .map_err(csv_err)?;
        for s in series {
            w.write_record([
                format!("{}", s.time.as_secs_f64()),
                s.flow.to_string(),
                format!("{:.3}", s.cwnd),
                if s.ssthresh.is_finite() {
                    format!("{:.3}", s.ssthresh)
                } else {
                    String::new()
                },
                s.srtt
                    .map(|t| format!("{:.6}", t.as_secs_f64()))
                    .unwrap_or_default(),
                format!("{:.1}", s.goodput_bps),
                s.retransmissions.to_string(),
            ])
            .map_err(csv_err)?;
        }
        w.flush()?;
    }
    Ok(())
}
