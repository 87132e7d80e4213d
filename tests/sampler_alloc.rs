//! The sampler does not allocate in steady state: a counting global
//! allocator (this test binary's own) sees zero allocations across many
//! rows of every kind once a `Sampler` exists.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use half::{bf16, f16};
use iree_llm::TokenId;
use iree_llm::sampler::{
    LogitBias, LogitParams, Penalties, SampleError, SampleParams, Sampler, SlotState,
};

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread while running `f`.
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCS.with(Cell::get);
    f();
    ALLOCS.with(Cell::get) - before
}

const V: usize = 128_256;

fn row(seed: u64) -> Vec<f32> {
    let mut s = seed | 1;
    (0..V)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 15.0
        })
        .collect()
}

fn all_params() -> Vec<SampleParams> {
    let t = |t| SampleParams::with_temperature(t).seeded(7);
    vec![
        SampleParams::greedy(),
        t(1.0),
        SampleParams {
            top_k: 50,
            ..t(0.8)
        },
        SampleParams {
            top_p: 0.9,
            ..t(1.0)
        },
        SampleParams {
            top_k: 50,
            top_p: 0.9,
            min_p: 0.05,
            ..t(0.8)
        },
        SampleParams {
            min_p: 0.1,
            ..t(1.2)
        },
        SampleParams {
            top_p: 0.95,
            min_p: 0.01,
            ..t(1.5)
        },
        SampleParams {
            top_k: 10_000,
            top_p: 0.5,
            ..t(1.0)
        },
    ]
}

#[test]
fn sampling_does_not_allocate_after_construction() {
    let rows: Vec<Vec<f32>> = (1..=3).map(row).collect();
    let halves: Vec<Vec<f16>> = rows
        .iter()
        .map(|r| r.iter().map(|&v| f16::from_f32(v)).collect())
        .collect();
    let bhalves: Vec<Vec<bf16>> = rows
        .iter()
        .map(|r| r.iter().map(|&v| bf16::from_f32(v)).collect())
        .collect();
    let params = all_params();
    let mut sampler = Sampler::new(V);

    // Steady state: every kind of row and parameter set, several steps each.
    let n = allocations(|| {
        for step in 0..4u64 {
            for p in &params {
                for r in &rows {
                    assert!(sampler.sample(r, p, step).is_ok());
                }
                for r in &halves {
                    assert!(sampler.sample(r, p, step).is_ok());
                }
                for r in &bhalves {
                    assert!(sampler.sample(r, p, step).is_ok());
                }
            }
        }
    });
    assert_eq!(n, 0, "allocations while sampling single rows");

    // Batches with mixed rows, including a bad row, into a caller's buffer.
    let mut batch: Vec<f32> = rows.concat();
    batch.extend_from_slice(&rows[0]);
    batch[3 * V + 5] = f32::NAN;
    let batch_params = [params[0], params[3], params[4], params[1]];
    let steps = [0, 1, 2, 3];
    let mut out: Vec<Result<TokenId, SampleError>> = vec![Ok(TokenId(0)); 4];
    let n = allocations(|| {
        for _ in 0..4 {
            sampler
                .sample_batch_into(&batch, &batch_params, &steps, &mut out)
                .unwrap();
        }
    });
    assert_eq!(n, 0, "allocations while sampling batches");
    assert!(out[..3].iter().all(Result::is_ok));
    assert_eq!(out[3], Err(SampleError::NanLogit { index: 5 }));

    // The counter does count: making a sampler allocates.
    assert!(allocations(|| drop(Sampler::new(V))) > 0);
}

#[test]
fn a_slot_without_penalties_bias_or_logprobs_does_not_allocate() {
    let rows: Vec<Vec<f32>> = (1..=3).map(row).collect();
    let halves: Vec<Vec<f16>> = rows
        .iter()
        .map(|r| r.iter().map(|&v| f16::from_f32(v)).collect())
        .collect();
    let params = all_params();
    let mut sampler = Sampler::new(V);
    let mut state = SlotState::new();
    let off = LogitParams::default();
    let prompt: Vec<TokenId> = (0..100).map(TokenId).collect();
    let n = allocations(|| {
        state.begin(&off, &prompt);
        for step in 0..4u64 {
            for p in &params {
                for r in &rows {
                    let s = state.sample(&mut sampler, r, p, &off, step).unwrap();
                    state.accept(&off, s.token);
                }
                for r in &halves {
                    let s = state.sample(&mut sampler, r, p, &off, step).unwrap();
                    state.accept(&off, s.token);
                }
            }
        }
    });
    assert_eq!(n, 0, "allocations on the slot path with everything off");
}

#[test]
fn penalties_bias_and_the_chosen_logprob_do_not_allocate_once_the_state_has_grown() {
    let rows: Vec<Vec<f32>> = (1..=3).map(row).collect();
    let params = all_params();
    let mut sampler = Sampler::new(V);
    let mut state = SlotState::new();
    let on = LogitParams {
        penalties: Penalties {
            repetition: 1.2,
            frequency: 0.5,
            presence: 0.5,
        },
        logit_bias: LogitBias::new((0..50).map(|i| (TokenId(i * 7), 1.5))),
        logprobs: Some(0),
    };
    // 1,000 distinct tokens seen before measuring.
    let prompt: Vec<TokenId> = (0..1_000).map(|i| TokenId(i * 37)).collect();
    state.begin(&on, &prompt);
    for t in &prompt[..200] {
        state.accept(&on, *t);
    }
    let mut rows = rows;
    // One in-place step grows the slot's buffer of overwritten logits.
    state
        .sample_in_place(&mut sampler, &mut rows[0], &params[0], &on, 0)
        .unwrap();
    let n = allocations(|| {
        for step in 0..4u64 {
            for p in &params {
                for r in &mut rows {
                    let s = state.sample(&mut sampler, r, p, &on, step).unwrap();
                    assert!(s.logprobs.is_some());
                    let s = state
                        .sample_in_place(&mut sampler, r, p, &on, step)
                        .unwrap();
                    assert!(s.logprobs.is_some());
                }
            }
        }
    });
    assert_eq!(n, 0, "allocations while applying penalties and bias");
}
