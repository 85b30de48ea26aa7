//! The papers' experiments as data, and the machinery that reproduces them.
//!
//! An [`Experiment`] is a base scenario, the curves of its figure (each a
//! set of overrides, or the variants sharing one run), an x axis swept
//! through the sweep machinery, a number of seeds, the metric, and the
//! paper's claims. [`reproduce`] runs it in parallel with resumable caching
//! (run files keyed by the scenario's hash), then writes every run to
//! `runs.csv`, the figure as PNG and SVG, and a markdown section that puts
//! each claim of the paper next to what was measured, with 95% confidence
//! intervals over seeds.

pub mod experiments;
pub mod plot;
pub mod stats;

use reorderlab_metrics::RunReport;
use reorderlab_sweep::{Grid, Options, Plan, SweepError};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One curve of a figure: a label and the overrides that make it.
#[derive(Clone, Debug)]
pub struct Curve {
    pub label: String,
    pub set: Vec<String>,
}

/// The swept x axis.
#[derive(Clone, Debug)]
pub struct XAxis {
    /// Dotted scenario key swept.
    pub key: String,
    /// Axis label of the figure.
    pub label: String,
    /// Values in full and in quick mode.
    pub full: Vec<String>,
    pub quick: Vec<String>,
    /// Maps a value to its position on the plot (e.g. log10(1 + x) for an
    /// axis that includes 0).
    pub position: fn(f64) -> f64,
    /// A logarithmic axis (values > 0; the figure also turns one on by
    /// itself for positive values spanning 30x or more).
    pub log: bool,
}

/// What a measured claim came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Agrees,
    Disagrees,
    /// Not enough data (e.g. quick mode lacks the points the claim needs).
    Inconclusive,
    /// The paper shows the figure without a claim to check.
    Informational,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees",
            Verdict::Disagrees => "DISAGREES",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Informational => "for comparison (no claim)",
        }
    }
}

/// A claim of the paper and how to check it against the results.
#[derive(Clone)]
pub struct Claim {
    /// The paper's words, with the line in `../shared/papers/`.
    pub paper: &'static str,
    /// Returns what was measured, in words and numbers, and the verdict.
    pub check: fn(&Results) -> (String, Verdict),
}

/// Metric of one run for one curve (the variant name for per-variant curves).
pub type Metric = fn(&RunReport, Option<&str>) -> f64;

/// A published series to set beside the curves (e.g. goodput measured on a
/// real stack): a label and a value per x value (the x axis' strings).
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    pub label: String,
    pub values: Vec<(String, f64)>,
}

impl Reference {
    /// The reference's value at x value `x`.
    pub fn at(&self, x: &str) -> Option<f64> {
        self.values.iter().find(|v| v.0 == x).map(|v| v.1)
    }
}

/// What an experiment may add to the plain figure-and-claims layout:
/// reference series with ratio columns and explained gaps, and a metric
/// that needs the curve and the x value.
#[derive(Clone, Default)]
pub struct Extras {
    /// Drawn dashed with their own markers and tabled below the curves.
    pub references: Vec<Reference>,
    /// The reference a curve is compared with (its ratio row and gaps);
    /// `None` for a curve without a comparable reference.
    pub compare: Option<fn(&str) -> Option<String>>,
    /// Relative difference from the reference beyond which a (curve, x)
    /// cell is a gap needing an explanation (0.2 for 20%).
    pub gap: f64,
    /// Why a gap exists: (curve, x, ours / reference) to the mechanism.
    pub explain: Option<fn(&str, &str, f64) -> String>,
    /// Metric computed with the curve and the x value in hand (e.g. a ratio
    /// to a model of both); replaces `Experiment::metric` when set.
    pub metric_at: Option<fn(&RunReport, &Curve, &str) -> f64>,
}

/// An experiment of a paper.
#[derive(Clone)]
pub struct Experiment {
    pub id: &'static str,
    /// One line for `reproduce --list`.
    pub title: &'static str,
    /// Which figure or section of which paper.
    pub source: &'static str,
    /// The base scenario (TOML).
    pub base: String,
    /// Curves made by overrides (one sweep each); empty with `variant_curves`.
    pub curves: Vec<Curve>,
    /// Curves made by the variants sharing each run (fairness figures).
    pub variant_curves: Vec<&'static str>,
    pub x: XAxis,
    /// Seeds per point in full and in quick mode.
    pub seeds: (u64, u64),
    /// Overrides for every run in full and in quick mode (durations...).
    pub full_set: Vec<String>,
    pub quick_set: Vec<String>,
    pub y_label: &'static str,
    pub metric: Metric,
    /// When set, the plotted x of a run is measured from it (e.g. drop rate).
    pub x_measured: Option<fn(&RunReport) -> f64>,
    pub style: plot::Style,
    /// A horizontal reference line (label, y) drawn as its own curve.
    pub reference: Option<(String, f64)>,
    pub claims: Vec<Claim>,
    /// Choices made where the paper is silent, and known differences.
    pub notes: Vec<&'static str>,
    /// References, gaps and curve-aware metrics (empty for most experiments).
    pub extras: Extras,
}

/// Experiments documented together in one generated page
/// (`reorderlab reproduce ID --doc PAGE`).
#[derive(Clone, Debug)]
pub struct Group {
    pub id: &'static str,
    /// The page's title.
    pub title: &'static str,
    /// Markdown between the title and the sections: the method.
    pub intro: &'static str,
    /// Experiment ids, in page order.
    pub members: Vec<&'static str>,
}

/// One run's contribution: a curve's metric at an x value for a seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub curve: String,
    pub x: String,
    /// Position on the plot.
    pub x_pos: f64,
    pub seed: u64,
    pub y: f64,
    pub run_id: String,
}

/// All points of an experiment, with helpers for claims.
#[derive(Clone, Debug, Default)]
pub struct Results {
    pub points: Vec<Point>,
    pub quick: bool,
}

impl Results {
    /// Summary over seeds of `curve` at x value `x`.
    pub fn at(&self, curve: &str, x: &str) -> Option<stats::Summary> {
        let ys: Vec<f64> = self
            .points
            .iter()
            .filter(|p| p.curve == curve && p.x == x)
            .map(|p| p.y)
            .collect();
        (!ys.is_empty()).then(|| stats::summarize(&ys))
    }
    /// Summary of `curve` over all x and seeds.
    pub fn over_all(&self, curve: &str) -> Option<stats::Summary> {
        let ys: Vec<f64> = self
            .points
            .iter()
            .filter(|p| p.curve == curve)
            .map(|p| p.y)
            .collect();
        (!ys.is_empty()).then(|| stats::summarize(&ys))
    }
    /// The x values present, in first-appearance order.
    pub fn xs(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for p in &self.points {
            if !v.contains(&p.x) {
                v.push(p.x.clone());
            }
        }
        v
    }
    pub fn curves(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for p in &self.points {
            if !v.contains(&p.curve) {
                v.push(p.curve.clone());
            }
        }
        v
    }
}

/// How to reproduce.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub quick: bool,
    pub jobs: usize,
    pub progress: bool,
}

/// Why a reproduction failed.
#[derive(Debug)]
pub enum ReproError {
    UnknownExperiment(String),
    Sweep(String, SweepError),
    Io(String),
}

impl std::fmt::Display for ReproError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReproError::UnknownExperiment(id) => {
                let ids: Vec<&str> = experiments::groups()
                    .iter()
                    .map(|g| g.id)
                    .chain(experiments::all().iter().map(|e| e.id))
                    .collect();
                write!(
                    f,
                    "unknown experiment {id:?}; expected one of: all, {}",
                    ids.join(", ")
                )
            }
            ReproError::Sweep(id, e) => write!(f, "{id}: {e}"),
            ReproError::Io(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for ReproError {}

fn io(path: &Path) -> impl Fn(std::io::Error) -> ReproError + '_ {
    move |e| ReproError::Io(format!("{}: {e}", path.display()))
}

/// Finds experiments by id ("all" for every one).
pub fn select(id: &str) -> Result<Vec<Experiment>, ReproError> {
    let all = experiments::all();
    if id == "all" {
        return Ok(all);
    }
    if let Some(g) = experiments::groups().into_iter().find(|g| g.id == id) {
        return Ok(g
            .members
            .iter()
            .filter_map(|m| all.iter().find(|e| e.id == *m).cloned())
            .collect());
    }
    let found: Vec<Experiment> = all.into_iter().filter(|e| e.id == id).collect();
    if found.is_empty() {
        Err(ReproError::UnknownExperiment(id.to_string()))
    } else {
        Ok(found)
    }
}

/// Runs one experiment into `out/<id>/` and returns its markdown section.
pub fn reproduce(e: &Experiment, out: &Path, opts: &RunOptions) -> Result<String, ReproError> {
    let dir = out.join(e.id);
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let scenario = dir.join("scenario.toml");
    std::fs::write(&scenario, &e.base).map_err(io(&scenario))?;
    let mode_set = if opts.quick {
        &e.quick_set
    } else {
        &e.full_set
    };
    let xs = if opts.quick { &e.x.quick } else { &e.x.full };
    let seeds = if opts.quick { e.seeds.1 } else { e.seeds.0 };
    let curves: Vec<Curve> = if e.curves.is_empty() {
        vec![Curve {
            label: String::new(),
            set: Vec::new(),
        }]
    } else {
        e.curves.clone()
    };

    let mut results = Results {
        points: Vec::new(),
        quick: opts.quick,
    };
    for (ci, c) in curves.iter().enumerate() {
        let mut grid = Grid::default();
        grid.push(&e.x.key, xs.clone())
            .map_err(|g| ReproError::Sweep(e.id.into(), SweepError::Input(vec![g.to_string()])))?;
        let plan = Plan {
            scenario: scenario.clone(),
            set: mode_set.iter().chain(c.set.iter()).cloned().collect(),
            grid,
            seeds: Some(seeds),
        };
        let sweep = plan
            .prepare()
            .map_err(|s| ReproError::Sweep(e.id.into(), s))?;
        let cdir = dir.join(format!("curve-{ci}"));
        sweep
            .execute(
                &cdir,
                &Options {
                    jobs: opts.jobs,
                    progress: opts.progress,
                },
            )
            .map_err(|s| ReproError::Sweep(e.id.into(), s))?;
        for r in &sweep.runs {
            let Some(rec) = reorderlab_sweep::store::load_record(&cdir, &r.id, &r.canonical) else {
                return Err(ReproError::Io(format!(
                    "{}: run {} has no result",
                    cdir.display(),
                    r.id
                )));
            };
            let xval = r
                .spec
                .point
                .first()
                .map(|p| p.1.clone())
                .unwrap_or_default();
            let seed = r.spec.seed.unwrap_or(r.scenario.seed);
            let x_pos = match e.x_measured {
                Some(f) => f(&rec.report),
                None => (e.x.position)(xval.parse::<f64>().unwrap_or(f64::NAN)),
            };
            let labels: Vec<(String, Option<&str>)> = if e.variant_curves.is_empty() {
                vec![(c.label.clone(), None)]
            } else {
                e.variant_curves
                    .iter()
                    .map(|v| (v.to_string(), Some(*v)))
                    .collect()
            };
            for (label, v) in labels {
                let y = match e.extras.metric_at {
                    Some(f) => f(&rec.report, c, &xval),
                    None => (e.metric)(&rec.report, v),
                };
                results.points.push(Point {
                    curve: label,
                    x: xval.clone(),
                    x_pos,
                    seed,
                    y,
                    run_id: r.id.clone(),
                });
            }
        }
    }
    write_runs_csv(&dir.join("runs.csv"), &results)?;
    let fig = figure(e, &results);
    plot::write(&fig, &dir.join(e.id))
        .map_err(|m| ReproError::Io(format!("{}: plot: {m}", dir.display())))?;
    let md = section(e, &results, opts);
    let readme = dir.join("README.md");
    std::fs::write(&readme, &md).map_err(io(&readme))?;
    Ok(md)
}

fn write_runs_csv(path: &Path, r: &Results) -> Result<(), ReproError> {
    let mut w = csv::Writer::from_path(path)
        .map_err(|e| ReproError::Io(format!("{}: {e}", path.display())))?;
    let err = |e: csv::Error| ReproError::Io(format!("{}: {e}", path.display()));
    w.write_record(["curve", "x", "x_plotted", "seed", "y", "run"])
        .map_err(err)?;
    for p in &r.points {
        w.write_record([
            p.curve.clone(),
            p.x.clone(),
            format!("{}", p.x_pos),
            p.seed.to_string(),
            format!("{}", p.y),
            p.run_id.clone(),
        ])
        .map_err(err)?;
    }
    w.flush().map_err(io(path))
}

/// The figure: mean over seeds with 95% CI per (curve, x), or every run's
/// point when x is measured.
pub fn figure(e: &Experiment, r: &Results) -> plot::Figure {
    let mut series: Vec<plot::Series> = Vec::new();
    for c in r.curves() {
        let points = if e.x_measured.is_some() {
            r.points
                .iter()
                .filter(|p| p.curve == c)
                .map(|p| (p.x_pos, p.y, f64::NAN))
                .collect()
        } else {
            let mut by_x: BTreeMap<String, (f64, Vec<f64>)> = BTreeMap::new();
            let mut order = Vec::new();
            for p in r.points.iter().filter(|p| p.curve == c) {
                if !by_x.contains_key(&p.x) {
                    order.push(p.x.clone());
                }
                by_x.entry(p.x.clone())
                    .or_insert((p.x_pos, Vec::new()))
                    .1
                    .push(p.y);
            }
            order
                .iter()
                .map(|x| {
                    let (pos, ys) = &by_x[x];
                    let s = stats::summarize(ys);
                    (*pos, s.mean, s.ci95)
                })
                .collect()
        };
        series.push(plot::Series {
            label: if c.is_empty() {
                e.y_label.to_string()
            } else {
                c.clone()
            },
            points,
            reference: false,
        });
    }
    for rf in &e.extras.references {
        let points: Vec<(f64, f64, f64)> = r
            .xs()
            .iter()
            .filter_map(|x| {
                let y = rf.at(x)?;
                let pos = r.points.iter().find(|p| &p.x == x)?.x_pos;
                Some((pos, y, f64::NAN))
            })
            .collect();
        if !points.is_empty() {
            series.push(plot::Series {
                label: rf.label.clone(),
                points,
                reference: true,
            });
        }
    }
    if let Some((label, y)) = &e.reference {
        let xs: Vec<f64> = r
            .points
            .iter()
            .map(|p| p.x_pos)
            .filter(|x| x.is_finite())
            .collect();
        let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |a, &x| {
            (a.0.min(x), a.1.max(x))
        });
        if lo.is_finite() {
            series.push(plot::Series {
                label: label.clone(),
                points: vec![(lo, *y, f64::NAN), (hi, *y, f64::NAN)],
                reference: true,
            });
        }
    }
    plot::Figure {
        title: format!("{} ({})", e.id, e.source),
        x_label: e.x.label.clone(),
        y_label: e.y_label.to_string(),
        series,
        style: e.style,
        y_from_zero: true,
        x_log: e.x.log,
    }
}

fn fmt_num(x: f64) -> String {
    if !x.is_finite() {
        "n/a".into()
    } else if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else if x.abs() >= 1.0 {
        format!("{x:.3}")
    } else {
        format!("{x:.4}")
    }
}

/// The markdown section: setup, the table of means and CIs, each claim with
/// what we measured, and the notes.
pub fn section(e: &Experiment, r: &Results, opts: &RunOptions) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## {}: {}\n", e.id, e.title);
    let _ = writeln!(s, "Source: {}.  ", e.source);
    let seeds = if opts.quick { e.seeds.1 } else { e.seeds.0 };
    let _ = writeln!(
        s,
        "Mode: {} ({} seed{} per point; overrides {}).  ",
        if opts.quick {
            "**quick** (shortened: not for conclusions)"
        } else {
            "full"
        },
        seeds,
        if seeds == 1 { "" } else { "s" },
        {
            let set = if opts.quick {
                &e.quick_set
            } else {
                &e.full_set
            };
            if set.is_empty() {
                "none".to_string()
            } else {
                format!("`{}`", set.join("`, `"))
            }
        }
    );
    let _ = writeln!(s, "Command: `reorderlab reproduce {}{}`; figure `{}.png` / `{}.svg`, every run in `runs.csv`.\n", e.id, if opts.quick { " --quick" } else { "" }, e.id, e.id);
    let _ = writeln!(s, "![{}]({}.png)\n", e.id, e.id);
    if e.x_measured.is_none() {
        let _ = writeln!(
            s,
            "{} (mean ± 95% CI over seeds) by {}:\n",
            e.y_label, e.x.label
        );
        let xs = r.xs();
        let _ = writeln!(s, "| curve | {} |", xs.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(xs.len()));
        for c in r.curves() {
            let cells: Vec<String> = xs
                .iter()
                .map(|x| match r.at(&c, x) {
                    Some(m) if m.ci95.is_finite() => {
                        format!("{} ± {}", fmt_num(m.mean), fmt_num(m.ci95))
                    }
                    Some(m) => fmt_num(m.mean),
                    None => "-".into(),
                })
                .collect();
            let _ = writeln!(
                s,
                "| {} | {} |",
                if c.is_empty() { "-" } else { &c },
                cells.join(" | ")
            );
        }
        for rf in &e.extras.references {
            let cells: Vec<String> = xs
                .iter()
                .map(|x| rf.at(x).map_or("-".into(), fmt_num))
                .collect();
            let _ = writeln!(s, "| *{}* | {} |", rf.label, cells.join(" | "));
        }
        let _ = writeln!(s);
        comparison(&mut s, e, r);
    } else {
        let _ = writeln!(
            s,
            "{} per run against the measured {} (every run plotted):\n",
            e.y_label, e.x.label
        );
        let _ = writeln!(s, "| curve | runs | mean | 95% CI |");
        let _ = writeln!(s, "|---|---|---|---|");
        for c in r.curves() {
            if let Some(m) = r.over_all(&c) {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | ± {} |",
                    c,
                    m.n,
                    fmt_num(m.mean),
                    fmt_num(m.ci95)
                );
            }
        }
        let _ = writeln!(s);
    }
    if !e.claims.is_empty() {
        let _ = writeln!(s, "| the paper says | we measured | verdict |");
        let _ = writeln!(s, "|---|---|---|");
        for c in &e.claims {
            let (measured, v) = (c.check)(r);
            let _ = writeln!(s, "| {} | {} | {} |", c.paper, measured, v.word());
        }
        let _ = writeln!(s);
    }
    if !e.notes.is_empty() {
        let _ = writeln!(s, "Notes:\n");
        for n in &e.notes {
            let _ = writeln!(s, "- {n}");
        }
        let _ = writeln!(s);
    }
    s
}

/// The curve's comparable reference, if the experiment names one.
fn compared(e: &Experiment, curve: &str) -> Option<Reference> {
    let label = (e.extras.compare?)(curve)?;
    e.extras
        .references
        .iter()
        .find(|rf| rf.label == label)
        .cloned()
}

/// Ratio table (each curve over its comparable reference, per x) and the
/// gap table: every cell beyond `extras.gap`, with its explanation.
fn comparison(s: &mut String, e: &Experiment, r: &Results) {
    if e.extras.compare.is_none() || e.extras.references.is_empty() {
        return;
    }
    let xs = r.xs();
    let gap = e.extras.gap;
    let _ = writeln!(
        s,
        "Ratio of each curve's mean to its comparable reference (**bold**: differs by more than {:.0}%):\n",
        100.0 * gap
    );
    let _ = writeln!(s, "| curve | compared with | {} |", xs.join(" | "));
    let _ = writeln!(s, "|---|---|{}", "---|".repeat(xs.len()));
    let mut gaps = Vec::new();
    for c in r.curves() {
        let Some(rf) = compared(e, &c) else {
            continue;
        };
        let cells: Vec<String> = xs
            .iter()
            .map(|x| match (r.at(&c, x), rf.at(x)) {
                (Some(m), Some(v)) if v > 0.0 => {
                    let q = m.mean / v;
                    if (q - 1.0).abs() > gap {
                        gaps.push((c.clone(), x.clone(), m.mean, rf.clone(), v, q));
                        format!("**{q:.2}**")
                    } else {
                        format!("{q:.2}")
                    }
                }
                _ => "-".into(),
            })
            .collect();
        let _ = writeln!(s, "| {} | {} | {} |", c, rf.label, cells.join(" | "));
    }
    let _ = writeln!(s);
    if gaps.is_empty() {
        let _ = writeln!(
            s,
            "No cell differs from its reference by more than {:.0}%.\n",
            100.0 * gap
        );
        return;
    }
    let _ = writeln!(
        s,
        "Every cell that differs from its reference by more than {:.0}% ({} of them), and why:\n",
        100.0 * gap,
        gaps.len()
    );
    let _ = writeln!(
        s,
        "| curve | {} | ours | reference | reference value | ratio | mechanism |",
        e.x.label
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    for (c, x, ours, rf, v, q) in gaps {
        let why = e
            .extras
            .explain
            .map_or_else(|| "TO CHECK".to_string(), |f| f(&c, &x, q));
        let _ = writeln!(
            s,
            "| {c} | {x} | {} | {} | {} | {q:.2} | {why} |",
            fmt_num(ours),
            rf.label,
            fmt_num(v)
        );
    }
    let _ = writeln!(s);
}

/// Runs the selected experiments and writes the page `doc` with their
/// sections after `title` and `intro`; each experiment's figures and
/// `runs.csv` are copied next to it, into `<doc without .md>/<id>/`, and
/// the sections link them there. The run cache stays under `out`.
pub fn reproduce_doc(
    es: &[Experiment],
    out: &Path,
    opts: &RunOptions,
    doc: &Path,
    title: &str,
    intro: &str,
    command: &str,
) -> Result<PathBuf, ReproError> {
    let assets = doc.with_extension("");
    let rel = assets
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut md = format!("# {title}\n\n");
    let _ = writeln!(
        md,
        "Generated by `{command}`{}: every number, table and figure below comes from that run (figures and every run's value in [{rel}/]({rel}/)); edit the code (`crates/repro/src/experiments/`), not this page.\n",
        if opts.quick { " (**quick mode: not for conclusions**)" } else { "" }
    );
    md.push_str(intro.trim_end());
    md.push_str("\n\n");
    for e in es {
        let section = reproduce(e, out, opts)?;
        let dst = assets.join(e.id);
        std::fs::create_dir_all(&dst).map_err(io(&dst))?;
        let src = out.join(e.id);
        for f in [
            format!("{}.png", e.id),
            format!("{}.svg", e.id),
            "runs.csv".into(),
        ] {
            let to = dst.join(&f);
            std::fs::copy(src.join(&f), &to).map_err(io(&to))?;
        }
        md.push_str(&section.replace(
            &format!("]({}.png)", e.id),
            &format!("]({rel}/{}/{}.png)", e.id, e.id),
        ));
    }
    if let Some(dir) = doc.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    std::fs::write(doc, md).map_err(io(doc))?;
    Ok(doc.to_path_buf())
}

/// Runs the selected experiments and writes `out/reproduction.md` with
/// their sections. Returns the path of that file.
pub fn reproduce_all(
    es: &[Experiment],
    out: &Path,
    opts: &RunOptions,
) -> Result<PathBuf, ReproError> {
    std::fs::create_dir_all(out).map_err(io(out))?;
    let mut md = String::from("# Reproductions\n\n");
    let _ = writeln!(
        md,
        "Generated by `reorderlab reproduce{}`. Each section states the paper's claim next to what reorderlab measured; disagreements are reported, not tuned away.\n",
        if opts.quick { " --quick" } else { "" }
    );
    for e in es {
        // Figures sit in each experiment's folder next to this file.
        let section = reproduce(e, out, opts)?;
        md.push_str(&section.replace(
            &format!("]({}.png)", e.id),
            &format!("]({}/{}.png)", e.id, e.id),
        ));
    }
    let path = out.join("reproduction.md");
    std::fs::write(&path, md).map_err(io(&path))?;
    Ok(path)
}
