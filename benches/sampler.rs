//! `cargo bench --bench sampler`: the host sampler against a naive sampler
//! that sorts the whole vocabulary, at V = 128,256 and B = 8 rows, for
//! greedy, temperature only, top-k 50, top-p 0.9 and all filters combined.
//!
//! Criterion measures one batch of 8 rows per iteration (its throughput line
//! is rows per second). A table of per-row medians, naive vs ours with the
//! ratio, is printed at the end of the same run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use iree_llm::sampler::{SampleParams, Sampler, spec};

const V: usize = 128_256;
const B: usize = 8;

/// Normal-ish logits (Irwin-Hall sum of 4 uniforms) with std 2.5, different
/// for every row, from a fixed seed.
fn logits() -> Vec<f32> {
    let mut s: u64 = 0x0123_4567_89AB_CDEF;
    let mut uniform = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..B * V)
        .map(|_| {
            let sum: f64 = (0..4).map(|_| uniform()).sum();
            // Sum of 4 uniforms has variance 4/12; scale to std 2.5.
            ((sum - 2.0) * 2.5 * 3f64.sqrt()) as f32
        })
        .collect()
}

/// The naive sampler: the crate's plain specification of the chain, which
/// sorts the whole vocabulary by (logit desc, id asc), then applies softmax,
/// top-k, top-p, min-p and the inverse-CDF draw over the kept tokens in id
/// order, in f64.
fn naive_sample(x: &[f32], p: &SampleParams, step: u64) -> u32 {
    spec::sample(x, p, step).expect("a finite logit").id
}

fn cases() -> Vec<(&'static str, SampleParams)> {
    let t = |t| SampleParams::with_temperature(t).seeded(42);
    vec![
        ("greedy", SampleParams::greedy()),
        ("temperature 1.0", t(1.0)),
        (
            "top-k 50",
            SampleParams {
                top_k: 50,
                ..t(1.0)
            },
        ),
        (
            "top-p 0.9",
            SampleParams {
                top_p: 0.9,
                ..t(1.0)
            },
        ),
        (
            "combined T0.8 k50 p0.9 min-p0.05",
            SampleParams {
                top_k: 50,
                top_p: 0.9,
                min_p: 0.05,
                ..t(0.8)
            },
        ),
    ]
}

fn run_naive(x: &[f32], p: &SampleParams, step: u64) -> u32 {
    let mut acc = 0;
    for row in x.chunks_exact(V) {
        acc ^= naive_sample(black_box(row), p, step);
    }
    acc
}

fn run_ours(s: &mut Sampler, x: &[f32], p: &SampleParams, step: u64) -> u32 {
    let mut acc = 0;
    for row in x.chunks_exact(V) {
        acc ^= s.sample(black_box(row), p, step).unwrap().0;
    }
    acc
}

/// Median wall time per row over `batches` batches.
fn per_row_median(batches: usize, mut f: impl FnMut(u64) -> u32) -> Duration {
    let mut t: Vec<Duration> = (0..batches as u64)
        .map(|step| {
            let start = Instant::now();
            black_box(f(step));
            start.elapsed() / B as u32
        })
        .collect();
    t.sort();
    t[t.len() / 2]
}

fn main() {
    let x = logits();
    let mut sampler = Sampler::new(V);

    // Both implement the same specification: they must pick the same tokens
    // (up to rounding at a boundary, which 128k-token rows make rare).
    let (mut same, mut total) = (0, 0);
    for (_, p) in cases() {
        for step in 0..8 {
            for row in x.chunks_exact(V) {
                total += 1;
                same += usize::from(
                    sampler.sample(row, &p, step).unwrap().0 == naive_sample(row, &p, step),
                );
            }
        }
    }
    println!("ours and naive agree on {same} of {total} draws");
    assert!(same * 100 >= total * 99, "implementations disagree");

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for (name, p) in cases() {
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Elements(B as u64));
        g.bench_function("naive full sort", |b| {
            let mut step = 0;
            b.iter(|| {
                step += 1;
                run_naive(&x, &p, step)
            })
        });
        g.bench_function("ours", |b| {
            let mut step = 0;
            b.iter(|| {
                step += 1;
                run_ours(&mut sampler, &x, &p, step)
            })
        });
        g.finish();
    }
    c.final_summary();

    println!();
    println!("per-row median, V = {V}, B = {B} (batch time / {B}):");
    println!("| case | naive full sort | ours | naive / ours |");
    println!("| --- | ---: | ---: | ---: |");
    for (name, p) in cases() {
        let naive = per_row_median(15, |step| run_naive(&x, &p, step));
        let ours = per_row_median(301, |step| run_ours(&mut sampler, &x, &p, step));
        println!(
            "| {name} | {:.1} us | {:.1} us | {:.0}x |",
            naive.as_secs_f64() * 1e6,
            ours.as_secs_f64() * 1e6,
            naive.as_secs_f64() / ours.as_secs_f64()
        );
    }
}
