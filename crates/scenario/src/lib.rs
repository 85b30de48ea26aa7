//! Scenario files: the TOML schema, units, validation with precise errors,
//! and dotted-path overrides.
//!
//! The text is parsed into a `toml::Table`, overrides are applied to it, and
//! the table is walked by hand into a [`Scenario`], collecting every problem
//! (each with the dotted key path and what was expected) rather than stopping
//! at the first. No input makes this panic. The user-facing reference for
//! every key is `docs/scenarios.md`.

pub mod catalog;
mod dist;
pub mod doc;
pub mod file;
mod names;
mod overrides;
mod schema;
mod topology;
pub mod units;
mod validate;
mod walk;

use std::fmt;
use std::path::Path;

pub use catalog::{Catalog, Names, Tcp};
pub use overrides::apply_override;
pub use schema::*;

/// Whether `name` is a safe file name: non-empty, ASCII letters, digits,
/// `-`, `_` and `.` only, not starting with `.` (so never `..`, a path, or
/// hidden). A scenario's `name` must be one, as it names `results/<name>`.
pub fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// One thing wrong with a scenario: where (`key`) and what (`message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Dotted path such as `flows[0].mss` or `topology.bottleneck.rate`; empty for the whole file.
    pub key: String,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.key, self.message)
        }
    }
}

impl std::error::Error for Problem {}

/// Why a scenario could not be loaded; prints as `FILE: KEY: MESSAGE`, one problem per line.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("{file}: cannot read the scenario file: {source}")]
    Io {
        /// The path as given.
        file: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file was read but is malformed or invalid: every problem found, in document order.
    #[error("{}", render(file, problems))]
    Invalid {
        /// The file name used in messages.
        file: String,
        /// Every problem, at least one.
        problems: Vec<Problem>,
    },
}

impl ScenarioError {
    /// The problems found (empty for an IO error).
    pub fn problems(&self) -> &[Problem] {
        match self {
            ScenarioError::Io { .. } => &[],
            ScenarioError::Invalid { problems, .. } => problems,
        }
    }
}

fn render(file: &str, problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| format!("{file}: {p}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The one validation path of every command (`run`, `validate`, `sweep`,
/// `reproduce`, `bench`): reads the scenario file at `path`, applies the
/// overrides and checks it against the schema and the TCP crate's variants,
/// congestion controls and parameter ranges ([`Tcp`]).
pub fn check_file(path: &Path, overrides: &[String]) -> Result<Scenario, ScenarioError> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => check(&text, &file, overrides),
        Err(source) => Err(ScenarioError::Io { file, source }),
    }
}

/// [`check_file`] on `text` already read; `file` names it in messages.
pub fn check(text: &str, file: &str, overrides: &[String]) -> Result<Scenario, ScenarioError> {
    parse_in(text, file, overrides, &Tcp)
}

/// Reads, overrides and validates the scenario file at `path` against a
/// catalog that knows only the variant names `variants` (any `cc` and
/// `params` pass): for tests. Commands use [`check_file`].
pub fn load(
    path: &Path,
    overrides: &[String],
    variants: &[&str],
) -> Result<Scenario, ScenarioError> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, &file, overrides, variants),
        Err(source) => Err(ScenarioError::Io { file, source }),
    }
}

/// Parses, overrides and validates scenario `text` against the variant
/// names `variants` alone (see [`load`]); `file` names it in messages.
pub fn parse(
    text: &str,
    file: &str,
    overrides: &[String],
    variants: &[&str],
) -> Result<Scenario, ScenarioError> {
    parse_in(text, file, overrides, &catalog::Names(variants))
}

/// Parses, overrides and validates scenario `text` against `catalog`.
pub fn parse_in(
    text: &str,
    file: &str,
    overrides: &[String],
    catalog: &dyn Catalog,
) -> Result<Scenario, ScenarioError> {
    let invalid = |problems| ScenarioError::Invalid {
        file: file.to_string(),
        problems,
    };
    let mut table: toml::Table = match text.parse() {
        Ok(t) => t,
        Err(e) => return Err(invalid(vec![syntax_problem(text, &e)])),
    };
    let mut cx = walk::Ctx::default();
    for spec in overrides {
        if let Err(p) = apply_override(&mut table, spec) {
            cx.problems.push(p);
        }
    }
    let scenario = validate::scenario(&table, catalog, &mut cx);
    match scenario {
        Some(s) if cx.problems.is_empty() => Ok(s),
        _ => {
            if cx.problems.is_empty() {
                // Every failed check records a problem; this is a safety net.
                cx.problem("", "invalid scenario (internal error: no problem recorded)");
            }
            Err(invalid(cx.problems))
        }
    }
}

/// Malformed TOML as one problem naming the line and column (1-based, in characters).
fn syntax_problem(text: &str, e: &toml::de::Error) -> Problem {
    let message: String = e
        .message()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    let message = match e.span() {
        Some(span) => {
            let before = text.as_bytes().get(..span.start).unwrap_or(text.as_bytes());
            let line = before.iter().filter(|b| **b == b'\n').count() + 1;
            let line_start = before
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |i| i + 1);
            let column = String::from_utf8_lossy(&before[line_start..])
                .chars()
                .count()
                + 1;
            format!("invalid TOML at line {line}, column {column}: {message}")
        }
        None => format!("invalid TOML: {message}"),
    };
    Problem {
        key: String::new(),
        message,
    }
}
