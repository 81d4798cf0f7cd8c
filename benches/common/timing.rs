//! The timing loop every benchmark shares: medians of rounds, so candidates
//! timed one after another in one run can be compared as ratios.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// The median per-call time of 15 rounds that together fill about `budget`.
pub fn time<T>(budget: Duration, mut f: impl FnMut() -> T) -> Duration {
    let start = Instant::now();
    black_box(f());
    let once = start.elapsed().max(Duration::from_nanos(50));
    let per_round = ((budget.as_nanos() / 15) / once.as_nanos()).clamp(1, 1_000_000) as u32;
    let mut rounds: Vec<Duration> = (0..15)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_round {
                black_box(f());
            }
            start.elapsed() / per_round
        })
        .collect();
    rounds.sort();
    rounds[7]
}
