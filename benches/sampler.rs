//! `cargo bench --bench sampler`: the host sampler against a naive sampler
//! that sorts the whole vocabulary, at V = 128,256 and B = 8 rows, for
//! greedy, temperature only, top-k 50, top-p 0.9 and all filters combined.
//!
//! Criterion measures one batch of 8 rows per iteration (its throughput line
//! is rows per second). A table of per-row medians, naive vs ours with the
//! ratio, is printed at the end of the same run, then two more: the slot
//! path with penalties and logit bias off (must match the plain sampler) and
//! on over 1,000 distinct seen tokens (on a copy of the row, and in place as
//! the engine does); and log-probabilities (the chosen
//! token alone, and with the top 5) against a full log-softmax that writes
//! the vocabulary-sized array and sorts it.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use iree_llm::TokenId;
use iree_llm::sampler::{
    LogitBias, LogitParams, Penalties, SampleParams, Sampler, SlotState, spec,
};

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
    penalty_and_logprob_tables(&x, &mut sampler);
}

fn run_slot(
    s: &mut Sampler,
    state: &SlotState,
    x: &[f32],
    p: &SampleParams,
    logit: &LogitParams,
    step: u64,
) -> u32 {
    let mut acc = 0;
    for row in x.chunks_exact(V) {
        acc ^= state
            .sample(s, black_box(row), p, logit, step)
            .unwrap()
            .token
            .0;
    }
    acc
}

/// The plain way: the whole log-softmax as a vocabulary-sized f32 array,
/// then a full sort for the top `n`.
fn full_log_softmax(x: &[f32], token: usize, n: usize, buf: &mut Vec<(f32, u32)>) -> f32 {
    let m = x.iter().fold(f32::NEG_INFINITY, |a, &v| a.max(v));
    let s: f32 = x.iter().map(|&v| (v - m).exp()).sum();
    let ln_s = s.ln();
    buf.clear();
    buf.extend(x.iter().enumerate().map(|(i, &v)| (v - m - ln_s, i as u32)));
    let chosen = buf[token].0;
    if n > 0 {
        buf.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    }
    black_box(&buf[..n]);
    chosen
}

fn penalty_and_logprob_tables(x: &[f32], sampler: &mut Sampler) {
    let off = LogitParams::default();
    let on = LogitParams {
        penalties: Penalties {
            repetition: 1.2,
            frequency: 0.5,
            presence: 0.3,
        },
        logit_bias: LogitBias::new((0..16).map(|i| (TokenId(i * 101), 2.0))),
        logprobs: None,
    };
    // 1,000 distinct tokens seen: a 600-token prompt and 400 generated ones.
    let seen: Vec<TokenId> = (0..1_000u32).map(|i| TokenId(i * 127 % V as u32)).collect();
    let mut state_off = SlotState::new();
    state_off.begin(&off, &seen[..600]);
    let mut state_on = SlotState::new();
    state_on.begin(&on, &seen[..600]);
    for &t in &seen[600..] {
        state_on.accept(&on, t);
    }
    assert_eq!(state_on.penalty_state().distinct(), 1_000);

    println!();
    println!("penalties and logit bias, per-row median (V = {V}, B = {B}):");
    println!(
        "| case | plain sampler | slot, all off | slot, on (1,000 seen, 16 biased), copy | on, in place | in place - plain |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let mut y = x.to_vec();
    for (name, p) in cases() {
        let plain = per_row_median(301, |step| run_ours(sampler, x, &p, step));
        let slot_off = per_row_median(301, |step| run_slot(sampler, &state_off, x, &p, &off, step));
        let slot_on = per_row_median(301, |step| run_slot(sampler, &state_on, x, &p, &on, step));
        let in_place = per_row_median(301, |step| {
            let mut acc = 0;
            for row in y.chunks_exact_mut(V) {
                let s = state_on.sample_in_place(sampler, black_box(row), &p, &on, step);
                acc ^= s.unwrap().token.0;
            }
            acc
        });
        println!(
            "| {name} | {:.1} us | {:.1} us | {:.1} us | {:.1} us | {:+.1} us |",
            plain.as_secs_f64() * 1e6,
            slot_off.as_secs_f64() * 1e6,
            slot_on.as_secs_f64() * 1e6,
            in_place.as_secs_f64() * 1e6,
            (in_place.as_secs_f64() - plain.as_secs_f64()) * 1e6,
        );
    }

    println!();
    println!("log-probabilities of one row, per-row median (V = {V}, B = {B}):");
    println!("| case | full log-softmax + sort | ours | full / ours |");
    println!("| --- | ---: | ---: | ---: |");
    let mut buf = Vec::with_capacity(V);
    for n in [0usize, 5] {
        let full = per_row_median(31, |step| {
            let mut acc = 0.0f32;
            for row in x.chunks_exact(V) {
                acc += full_log_softmax(black_box(row), (step as usize * 7) % V, n, &mut buf);
            }
            acc.to_bits()
        });
        let ours = per_row_median(301, |step| {
            let mut acc = 0.0f32;
            for row in x.chunks_exact(V) {
                let token = TokenId((step as u32 * 7) % V as u32);
                acc += sampler.logprobs(black_box(row), token, n).unwrap().logprob;
            }
            acc.to_bits()
        });
        println!(
            "| N = {n} | {:.1} us | {:.1} us | {:.1}x |",
            full.as_secs_f64() * 1e6,
            ours.as_secs_f64() * 1e6,
            full.as_secs_f64() / ours.as_secs_f64()
        );
    }
}
