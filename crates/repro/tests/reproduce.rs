//! The reproduction machinery end to end on a quick experiment.

use reorderlab_repro::{reproduce, select, RunOptions};
use std::path::PathBuf;

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("reorderlab-repro-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn a_quick_experiment_writes_runs_figure_and_claims_and_resumes_from_its_cache() {
    let e = select("pr-fig13-30ms").unwrap().remove(0);
    let out = tmp("fig13");
    let opts = RunOptions {
        quick: true,
        jobs: 2,
        progress: false,
    };
    let md = reproduce(&e, &out, &opts).unwrap();
    let dir = out.join(e.id);
    let runs = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    let expected = e.curves.len() * e.x.quick.len() * e.seeds.1 as usize;
    assert_eq!(
        runs.lines().count(),
        1 + expected,
        "one row per curve, x and seed"
    );
    for ext in ["png", "svg"] {
        let f = dir.join(format!("{}.{ext}", e.id));
        assert!(
            std::fs::metadata(&f)
                .map(|m| m.len() > 1000)
                .unwrap_or(false),
            "{} missing or empty",
            f.display()
        );
    }
    assert!(md.contains("| the paper says | we measured | verdict |"));
    assert!(
        md.contains("merely 1.5% smaller"),
        "the paper's claim is quoted"
    );
    assert!(md.contains("quick"), "quick mode is stated");
    // Every curve reached the table with a number.
    for c in &e.curves {
        assert!(
            md.contains(&format!("| {} |", c.label)),
            "{} missing",
            c.label
        );
    }
    // A second run reuses every cached run file and gives the same section.
    let stamp = |p: &std::path::Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let files: Vec<PathBuf> = std::fs::read_dir(dir.join("curve-0/runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let before: Vec<_> = files.iter().map(|f| stamp(f)).collect();
    let md2 = reproduce(&e, &out, &opts).unwrap();
    assert_eq!(md, md2);
    let after: Vec<_> = files.iter().map(|f| stamp(f)).collect();
    assert_eq!(before, after, "cached runs are not redone");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn every_experiment_has_a_valid_base_scenario_and_claims() {
    let names = reorderlab_tcp::variant::names();
    for e in reorderlab_repro::experiments::all() {
        if let Err(err) = reorderlab_scenario::parse(&e.base, e.id, &e.full_set, &names) {
            panic!("{}: base scenario invalid: {err}", e.id);
        }
        if let Err(err) = reorderlab_scenario::parse(&e.base, e.id, &e.quick_set, &names) {
            panic!("{}: quick scenario invalid: {err}", e.id);
        }
        assert!(
            !e.claims.is_empty(),
            "{} states no claim of the paper",
            e.id
        );
        assert!(!e.x.quick.is_empty() && !e.x.full.is_empty());
    }
    assert!(select("nope").is_err());
    assert!(select("all").unwrap().len() > 10);
}

#[test]
fn the_validation_group_writes_one_page_with_linux_rows_ratios_and_gaps_deterministically() {
    let es = select("validation").unwrap();
    let ids: Vec<&str> = es.iter().map(|e| e.id).collect();
    assert_eq!(ids, ["linux-mirror", "mathis"]);
    let g = reorderlab_repro::experiments::groups()
        .into_iter()
        .find(|g| g.id == "validation")
        .unwrap();
    let opts = RunOptions {
        quick: true,
        jobs: 2,
        progress: false,
    };
    let page = |tag: &str| {
        let out = tmp(&format!("validation-{tag}"));
        let doc = out.join("docs/validation.md");
        reorderlab_repro::reproduce_doc(
            &es,
            &out.join("cache"),
            &opts,
            &doc,
            g.title,
            g.intro,
            "reorderlab reproduce validation --quick --doc docs/validation.md",
        )
        .unwrap();
        let md = std::fs::read_to_string(&doc).unwrap();
        let csv =
            std::fs::read_to_string(out.join("docs/validation/linux-mirror/runs.csv")).unwrap();
        let png = std::fs::read(out.join("docs/validation/mathis/mathis.png")).unwrap();
        let _ = std::fs::remove_dir_all(&out);
        (md, csv, png)
    };
    let (md, csv, png) = page("a");
    // Every variant is a curve, beside every Linux row, with its ratio row.
    for v in reorderlab_tcp::variant::names() {
        assert!(md.contains(&format!("| {v} | ")), "{v} missing");
        assert!(csv.contains(&format!("\n{v},")), "{v} has no runs");
    }
    for row in [
        "Linux reno, no SACK, no TS",
        "Linux reno, no SACK, TS (undo)",
        "Linux reno, SACK + RACK",
        "Linux cubic, SACK + RACK",
    ] {
        assert!(md.contains(&format!("| *{row}* |")), "{row} missing");
    }
    assert!(md.contains("| sack | Linux reno, SACK + RACK | "));
    assert!(md.contains("| reno | Linux reno, no SACK, no TS | "));
    assert!(md.contains("(validation/linux-mirror/linux-mirror.png)"));
    assert!(md.contains("| sack 50ms | "), "Mathis ratios tabled");
    assert!(md.contains("quick mode"));
    // The same code gives the same page, table and figure.
    let (md2, csv2, png2) = page("b");
    assert_eq!(md, md2);
    assert_eq!(csv, csv2);
    assert_eq!(png, png2);
}
