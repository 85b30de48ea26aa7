//! Criterion micro-benchmarks of the engine: the event queue on its own, and
//! short runs of the standard workloads through `reorderlab_world::run`.
//!
//! `cargo bench -p reorderlab-sweep` (add `-- queue` or `-- world` to pick a
//! group). The whole-workload numbers come from `reorderlab bench`; see
//! docs/performance.md.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use reorderlab_sim::{EventQueue, Time};
use std::hint::black_box;

/// SplitMix64: a cheap deterministic stream of delays for the queue benchmark.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The "hold" model: a queue holding `pending` events; each step pops the
/// earliest and schedules a new one up to 1 ms later, as a simulation does.
fn queue(c: &mut Criterion) {
    const STEPS: u64 = 100_000;
    let mut g = c.benchmark_group("queue");
    g.throughput(Throughput::Elements(STEPS));
    for pending in [16u64, 1024, 65536] {
        g.bench_function(format!("hold/{pending}"), |b| {
            b.iter_batched(
                || {
                    let mut q: EventQueue<u32> = EventQueue::new();
                    let mut s = pending;
                    for i in 0..pending {
                        q.schedule(Time(splitmix(&mut s) % 1_000_000), i as u32);
                    }
                    (q, s)
                },
                |(mut q, mut s)| {
                    for _ in 0..STEPS {
                        let (t, ev) = q.pop().expect("never empty");
                        q.schedule(Time(t.0 + splitmix(&mut s) % 1_000_000), black_box(ev));
                    }
                    q
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

fn scenario(text: &str, overrides: &[&str]) -> reorderlab_scenario::Scenario {
    let names = reorderlab_tcp::variant::names();
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    reorderlab_scenario::parse(text, "workload", &overrides, &names).expect("workload is valid")
}

/// Short runs of W1 (5 simulated seconds) and W3 (1 simulated second).
fn world(c: &mut Criterion) {
    let mut g = c.benchmark_group("world");
    g.sample_size(10);
    let w1 = scenario(
        include_str!("../../../benchmarks/workloads/w1.toml"),
        &["duration=5s"],
    );
    g.bench_function("w1-5s", |b| {
        b.iter(|| black_box(reorderlab_world::run(&w1).expect("builds").0.events))
    });
    let w3 = scenario(
        include_str!("../../../benchmarks/workloads/w3.toml"),
        &["duration=1s"],
    );
    g.bench_function("w3-1s", |b| {
        b.iter(|| black_box(reorderlab_world::run(&w3).expect("builds").0.events))
    });
    g.finish();
}

criterion_group!(benches, queue, world);
criterion_main!(benches);
