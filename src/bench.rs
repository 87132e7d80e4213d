//! Measurements printed by the CLI: `graph` times the graphs of one model
//! on one device (compile, prefill, decode step, peak memory, each step
//! beside its floor), `engine` runs the batch engine over many requests
//! (greedy parity, tokens/s at saturation, TTFT, share of the raw decode
//! rate); both take their figures from wall clocks around real device
//! calls, and nothing here gates tests. This file keeps what both use.

mod carry;
mod engine;
mod graph;
mod paired;
mod sampling;

use std::time::Duration;

pub use engine::{
    BenchError, BenchLine, CrossDevice, EngineBenchOptions, RunResult, RunSummary, TimeShares,
    bench_requests, engine_bench, first_divergence, run_engine, top2_margin,
};
pub use graph::{DecodeFloor, GraphBenchOptions, GraphBenchReport, graph_bench};
pub use sampling::SamplingPaths;

/// Peak resident set size of this process in bytes (Linux `VmHWM`).
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// CPU time this process has used so far, all threads together (Linux:
/// the sum of `/proc/self/task/*/schedstat`). On a shared machine the
/// wall time of a step swings with other processes' load; its CPU time
/// (work done, including the runtime's dispatch overhead) much less.
pub fn process_cpu_time() -> Option<Duration> {
    let mut ns = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        ns += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(ns))
}

pub fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// Median of some durations.
pub fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}
