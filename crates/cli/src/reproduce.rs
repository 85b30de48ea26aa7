//! `reorderlab reproduce`: the papers' experiments, one command each.

use clap::Args;
use reorderlab_repro::{reproduce_all, reproduce_doc, select, RunOptions};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ReproduceArgs {
    /// Experiment id, group id (see --list), or `all`.
    pub id: Option<String>,
    /// List the experiments, one per line, id first.
    #[arg(long)]
    pub list: bool,
    /// Shortened runs (fewer points, seeds and seconds): a smoke test, not a result.
    #[arg(long)]
    pub quick: bool,
    /// Output directory [default: results/reproduce].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Runs executed at once [default: all cores].
    #[arg(long)]
    pub jobs: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Also write one page with every selected experiment's section to
    /// FILE, figures and runs.csv next to it in FILE's stem folder
    /// (`--doc docs/validation.md` puts them in docs/validation/).
    #[arg(long, value_name = "FILE")]
    pub doc: Option<PathBuf>,
    /// Discard the selected experiments' cached runs under --out first (after
    /// the simulator changed: the cache does not know its version).
    #[arg(long)]
    pub fresh: bool,
}

pub fn run(a: ReproduceArgs) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    if a.list {
        for g in reorderlab_repro::experiments::groups() {
            if writeln!(
                stdout,
                "{:<16} {}  [group: {}]",
                g.id,
                g.title,
                g.members.join(", ")
            )
            .is_err()
            {
                return ExitCode::SUCCESS;
            }
        }
        for e in reorderlab_repro::experiments::all() {
            if writeln!(stdout, "{:<16} {}  [{}]", e.id, e.title, e.source).is_err() {
                return ExitCode::SUCCESS;
            }
        }
        return ExitCode::SUCCESS;
    }
    let Some(id) = a.id else {
        eprintln!("reproduce: give an experiment id or `all` (see `reorderlab reproduce --list`)");
        return ExitCode::from(2);
    };
    let es = match select(&id) {
        Ok(es) => es,
        Err(e) => {
            eprintln!("reproduce: {e}");
            return ExitCode::from(2);
        }
    };
    if a.jobs == Some(0) {
        eprintln!("reproduce: --jobs: expected at least 1");
        return ExitCode::from(2);
    }
    let out = a.out.unwrap_or_else(|| PathBuf::from("results/reproduce"));
    let opts = RunOptions {
        quick: a.quick,
        jobs: a.jobs.unwrap_or_else(reorderlab_sweep::default_jobs),
        progress: !a.quiet && std::io::stderr().is_terminal(),
    };
    if a.fresh {
        for e in &es {
            let d = out.join(e.id);
            if d.exists() {
                if let Err(err) = std::fs::remove_dir_all(&d) {
                    eprintln!("reproduce: {}: {err}", d.display());
                    return ExitCode::from(1);
                }
            }
        }
    }
    let done = match &a.doc {
        Some(doc) => {
            let group = reorderlab_repro::experiments::groups()
                .into_iter()
                .find(|g| g.id == id);
            let (title, intro) = match &group {
                Some(g) => (g.title.to_string(), g.intro),
                None => (format!("Reproduction: {id}"), ""),
            };
            let command = format!(
                "reorderlab reproduce {id}{}{} --doc {}",
                if a.quick { " --quick" } else { "" },
                if a.fresh { " --fresh" } else { "" },
                doc.display()
            );
            reproduce_doc(&es, &out, &opts, doc, &title, intro, &command)
        }
        None => reproduce_all(&es, &out, &opts),
    };
    match done {
        Ok(path) => {
            let _ = writeln!(
                stdout,
                "wrote {} ({} experiment{})",
                path.display(),
                es.len(),
                if es.len() == 1 { "" } else { "s" }
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("reproduce: {e}");
            ExitCode::from(1)
        }
    }
}
