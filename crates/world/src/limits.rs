//! The guard on a run's work: `run --max-events N --max-memory SIZE`.
//!
//! Validation bounds every parameter that could make a run exhaust memory
//! or never finish (docs/scenarios.md); what is left (many flows on fast
//! links for a long time) is caught here. The event loop compares one
//! counter per event; memory (resident set, Linux `/proc/self/status`) is
//! read every [`MEMORY_CHECK_EVERY`] events and once before the first.

use reorderlab_sim::Time;

/// Events between two readings of the resident memory.
pub const MEMORY_CHECK_EVERY: u64 = 1 << 20;

/// Default `--max-events`: 10^10, about ten minutes of wall time; the
/// largest paper experiment processes under 10^9.
pub const DEFAULT_MAX_EVENTS: u64 = 10_000_000_000;

/// Default `--max-memory` ceiling: 16 GiB (the largest benchmark, a
/// thousand flows, peaks under 100 MiB).
pub const DEFAULT_MAX_MEMORY: u64 = 16 << 30;

/// What a run may use; `None` is no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Most events the loop may process.
    pub max_events: Option<u64>,
    /// Most resident memory in bytes (checked where the OS tells it).
    pub max_memory: Option<u64>,
}

impl Limits {
    /// No limit at all (what [`crate::World::run`] uses).
    pub const NONE: Limits = Limits {
        max_events: None,
        max_memory: None,
    };

    /// The `run` defaults: [`DEFAULT_MAX_EVENTS`], and [`DEFAULT_MAX_MEMORY`]
    /// or three quarters of the machine's memory when that is less.
    pub fn defaults() -> Limits {
        let machine = mem_total().map(|m| m / 4 * 3);
        Limits {
            max_events: Some(DEFAULT_MAX_EVENTS),
            max_memory: Some(machine.map_or(DEFAULT_MAX_MEMORY, |m| m.min(DEFAULT_MAX_MEMORY))),
        }
    }
}

/// Which limit stopped a run, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitHit {
    /// `--max-events` was reached.
    #[error("stopped at simulated time {at} of {duration}: the run reached its limit of {limit} events (--max-events); raise it with --max-events N if the run is meant to be this large")]
    Events {
        limit: u64,
        at: Time,
        duration: Time,
    },
    /// The resident memory went over `--max-memory`.
    #[error("stopped at simulated time {at} of {duration}: the run uses {used} bytes of memory, over its limit of {limit} bytes (--max-memory); raise it with --max-memory SIZE (like 32GiB) if the machine has the memory")]
    Memory {
        limit: u64,
        used: u64,
        at: Time,
        duration: Time,
    },
}

/// Resident memory of this process in bytes (`VmRSS`), where the OS says.
pub fn resident_bytes() -> Option<u64> {
    proc_kb("/proc/self/status", "VmRSS:")
}

/// The machine's memory in bytes (`MemTotal`), where the OS says.
pub fn mem_total() -> Option<u64> {
    proc_kb("/proc/meminfo", "MemTotal:")
}

fn proc_kb(file: &str, field: &str) -> Option<u64> {
    let s = std::fs::read_to_string(file).ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kb.checked_mul(1024)
}
