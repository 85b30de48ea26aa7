//! `run`'s progress bar on stderr: simulated time of total, events per
//! second and the time left, fed by the event loop's hook
//! ([`reorderlab_world::World::run_observed`]).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use reorderlab_sim::Time;
use std::io::IsTerminal;
use std::time::Instant;

/// Events between two calls of the hook: 2^18, tens of milliseconds of a
/// run at a few million events per second (indicatif limits redrawing to
/// 20 per second on its own).
pub const EVERY: u64 = 1 << 18;

/// Whether `run` shows a bar: not with `--quiet`, and only when stderr is a
/// terminal (never in a pipe, a file or a test).
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A bar over `duration` of simulated time, or nothing (`shown` false).
pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    total: Time,
}

impl Progress {
    pub fn new(duration: Time, shown: bool) -> Progress {
        let bar = shown.then(|| {
            let b = ProgressBar::with_draw_target(
                Some(duration.as_nanos() / 1_000_000),
                ProgressDrawTarget::stderr(),
            );
            b.set_style(
                ProgressStyle::with_template("{wide_bar} {msg}, ETA {eta}")
                    .expect("valid template"),
            );
            b
        });
        Progress {
            bar,
            started: Instant::now(),
            total: duration,
        }
    }

    /// The event loop reached simulated time `now` after `events` events.
    pub fn update(&mut self, now: Time, events: u64) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(now.as_nanos() / 1_000_000);
        bar.set_message(message(
            now,
            self.total,
            events,
            self.started.elapsed().as_secs_f64(),
        ));
    }

    /// Removes the bar (the table follows on stdout).
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// "12.5 s of 60 s simulated, 8.31 M events/s".
pub fn message(now: Time, total: Time, events: u64, wall_s: f64) -> String {
    format!(
        "{:.1} s of {} s simulated, {:.2} M events/s",
        now.as_secs_f64(),
        total.as_secs_f64(),
        events as f64 / wall_s.max(1e-9) / 1e6
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_says_simulated_time_of_total_and_events_per_second() {
        assert_eq!(
            message(
                Time::from_millis(12_500),
                Time::from_secs(60),
                4_000_000,
                0.5
            ),
            "12.5 s of 60 s simulated, 8.00 M events/s"
        );
    }

    #[test]
    fn a_hidden_progress_ignores_updates() {
        let mut p = Progress::new(Time::from_secs(1), false);
        p.update(Time::from_millis(10), 10);
        assert!(p.bar.is_none());
        p.finish();
    }
}
