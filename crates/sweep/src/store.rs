//! Run files: `DIR/runs/<id>.json`, one per finished run, written atomically,
//! and beside each its wall time, `DIR/runs/<id>.wall`.
//!
//! A run file holds only what the scenario determines (the report without
//! its wall time), so it is byte-identical from one sweep to the next. The
//! wall time is kept apart, as one number in seconds and a newline, so that
//! timing.csv can be rebuilt for runs finished before an interruption. It is
//! written before the run file: a run whose run file exists has its wall
//! file too, unless that was deleted by hand (its timing.csv cell is then
//! empty).

use reorderlab_metrics::RunReport;
use serde::{Deserialize, Serialize};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a run file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The run's id ([`crate::hash::run_id`] of `canonical`).
    pub id: String,
    /// The overrides that produced this run (`--set`s, grid values, seed).
    pub overrides: Vec<String>,
    /// The scenario's canonical text after overrides: what the id hashes.
    pub canonical: String,
    /// The run's report, as `reorderlab run` writes it to summary.json.
    pub report: RunReport,
}

/// `DIR/runs`.
pub fn runs_dir(dir: &Path) -> PathBuf {
    dir.join("runs")
}

/// `DIR/runs/<id>.json`.
pub fn record_path(dir: &Path, id: &str) -> PathBuf {
    runs_dir(dir).join(format!("{id}.json"))
}

/// `DIR/runs/<id>.wall`: the run's wall-clock seconds.
pub fn wall_path(dir: &Path, id: &str) -> PathBuf {
    runs_dir(dir).join(format!("{id}.wall"))
}

/// Writes run `id`'s wall time atomically (shortest round-trip decimal).
pub fn write_wall(dir: &Path, id: &str, wall_s: f64) -> io::Result<()> {
    write_atomic(&wall_path(dir, id), format!("{wall_s}\n").as_bytes())
}

/// Run `id`'s wall time, if its wall file exists and holds a finite number
/// of seconds, not negative.
pub fn load_wall(dir: &Path, id: &str) -> Option<f64> {
    let text = std::fs::read_to_string(wall_path(dir, id)).ok()?;
    let s: f64 = text.trim().parse().ok()?;
    (s.is_finite() && s >= 0.0).then_some(s)
}

/// The finished run `id` if its file exists, parses, and is for exactly
/// `canonical` (guards against a hash collision and a hand-edited file).
pub fn load_record(dir: &Path, id: &str, canonical: &str) -> Option<RunRecord> {
    let bytes = std::fs::read(record_path(dir, id)).ok()?;
    let r: RunRecord = serde_json::from_slice(&bytes).ok()?;
    (r.id == id && r.canonical == canonical).then_some(r)
}

/// Writes a run file atomically: readers see either no file or the whole one.
pub fn write_record(dir: &Path, r: &RunRecord) -> io::Result<()> {
    let mut text = serde_json::to_string_pretty(r).map_err(io::Error::other)?;
    text.push('\n');
    write_atomic(&record_path(dir, &r.id), text.as_bytes())
}

/// Suffix of temporary files; [`remove_stale_temps`] deletes them.
pub const TEMP_SUFFIX: &str = ".tmp";

/// Writes `bytes` to `path` atomically: to a temporary file in the same
/// directory, flushed to disk, then renamed over `path` (a rename within one
/// file system is atomic on POSIX). A process killed meanwhile leaves at
/// most a `.<name>.<pid>.<n>.tmp` file, never a partial `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{name}.{}.{}{TEMP_SUFFIX}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Deletes temporary files left in `dir` by a killed writer. Only one sweep
/// may use an output directory at a time.
pub fn remove_stale_temps(dir: &Path) -> io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for e in entries {
        let e = e?;
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') && name.ends_with(TEMP_SUFFIX) {
            let _ = std::fs::remove_file(e.path());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmpdir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "reorderlab-sweep-store-{}-{tag}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(runs_dir(&d)).unwrap();
        d
    }

    #[test]
    fn records_round_trip_and_are_only_reused_for_the_same_canonical_text() {
        let d = tmpdir("roundtrip");
        let r = RunRecord {
            id: "00000000000000aa".into(),
            overrides: vec!["seed=3".into()],
            canonical: "seed = 3\n".into(),
            report: RunReport {
                scenario: "x".into(),
                seed: 3,
                ..Default::default()
            },
        };
        assert!(load_record(&d, &r.id, &r.canonical).is_none());
        write_record(&d, &r).unwrap();
        assert_eq!(load_record(&d, &r.id, &r.canonical), Some(r.clone()));
        assert!(load_record(&d, &r.id, "seed = 4\n").is_none());
        // A truncated file (as from a writer without the atomic rename) is not reused.
        let p = record_path(&d, &r.id);
        let text = std::fs::read(&p).unwrap();
        std::fs::write(&p, &text[..text.len() / 2]).unwrap();
        assert!(load_record(&d, &r.id, &r.canonical).is_none());
        // No temporary file is left behind by successful writes.
        let names: Vec<_> = std::fs::read_dir(runs_dir(&d))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, [format!("{}.json", r.id)]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn run_files_carry_no_wall_time_and_older_files_with_one_still_load() {
        let d = tmpdir("nowall");
        let mut r = RunRecord {
            id: "00000000000000bb".into(),
            overrides: vec![],
            canonical: "seed = 1\n".into(),
            report: RunReport {
                scenario: "x".into(),
                seed: 1,
                events: 10,
                wall_s: 1.5,
                ..Default::default()
            },
        };
        write_record(&d, &r).unwrap();
        let text = std::fs::read_to_string(record_path(&d, &r.id)).unwrap();
        assert!(!text.contains("wall"), "{text}");
        r.report.wall_s = 0.0; // not stored, so it reads back as 0
        assert_eq!(load_record(&d, &r.id, &r.canonical), Some(r.clone()));
        // A run file written when reports still carried wall_s.
        let old = text.replace("\"events\": 10,", "\"wall_s\": 0.25,\n    \"events\": 10,");
        assert_ne!(old, text);
        std::fs::write(record_path(&d, &r.id), old).unwrap();
        assert_eq!(load_record(&d, &r.id, &r.canonical), Some(r));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn wall_files_round_trip_and_bad_ones_read_as_missing() {
        let d = tmpdir("wall");
        let id = "00000000000000cc";
        assert_eq!(load_wall(&d, id), None);
        write_wall(&d, id, 0.123456789).unwrap();
        assert_eq!(
            std::fs::read_to_string(wall_path(&d, id)).unwrap(),
            "0.123456789\n"
        );
        assert_eq!(load_wall(&d, id), Some(0.123456789));
        for bad in ["", "x\n", "-1\n", "NaN\n", "inf\n"] {
            std::fs::write(wall_path(&d, id), bad).unwrap();
            assert_eq!(load_wall(&d, id), None, "{bad:?}");
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn stale_temporaries_are_removed_and_other_files_kept() {
        let d = tmpdir("stale");
        let rd = runs_dir(&d);
        std::fs::write(rd.join(".abc.json.123.0.tmp"), "partial").unwrap();
        std::fs::write(rd.join("abc.json"), "{}").unwrap();
        remove_stale_temps(&rd).unwrap();
        let names: Vec<_> = std::fs::read_dir(&rd)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["abc.json"]);
        let _ = std::fs::remove_dir_all(&d);
    }
}
