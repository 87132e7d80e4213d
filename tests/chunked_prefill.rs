//! Chunked prefill computes what a whole-prompt prefill computes: a prompt
//! run as a sequence of chunk graphs (each at a runtime position, reading
//! the slot's cache before it) gives the f64 reference's logits within the
//! prefill tolerance, leaves a cache that decode continues from exactly, and
//! greedy decoding after it is token-exact with the whole-prompt path and
//! the reference. Prompt lengths cover 1, 17, each side of every chunk size,
//! several chunks, and capacity - 1 (whose last chunk starts early).

mod common;

use common::{host_argmax, load, prompt, relative_error};
use iree_llm::emit::{EmitPlan, GraphKind, Output, Padding, chunk_plan};
use iree_llm::model::{DeviceModel, KvCache};
use iree_llm::types::{DType, TokenId};
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 128;
/// Chunks of at most 32 tokens, so longer prompts take several and later
/// chunks read the 64-position window and the whole capacity.
const MAX_CHUNK: usize = 32;

fn lengths() -> Vec<usize> {
    let mut v = vec![1, 17, 100, CAPACITY as usize - 1];
    for size in [8, 16, 24, 32, 64, 96] {
        v.extend([size - 1, size, size + 1]);
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// The chunk graphs of every test prompt into a `slots`-slot cache, the
/// whole-prompt buckets, and the decode graphs continuing after them.
fn graphs(slots: i64) -> Vec<GraphKind> {
    let plan = EmitPlan::new(CAPACITY, &[slots]).unwrap();
    let mut g: Vec<GraphKind> = lengths()
        .into_iter()
        .flat_map(|len| chunk_plan(len, CAPACITY, MAX_CHUNK, Padding::Multiplied))
        .map(|c| GraphKind::Chunk {
            slots,
            tokens: c.size,
            window: c.window,
            output: Output::Logits,
        })
        .collect();
    g.extend(plan.prefill_kinds(slots, Output::Logits));
    g.extend(plan.decode_kinds(slots, Output::Logits));
    let mut seen = std::collections::HashSet::new();
    g.retain(|k| seen.insert(*k));
    g
}

/// Greedy continuation of a prefilled slot: `n` tokens from `logits`, the
/// other rows idle at position 0 of their own slots.
fn continue_greedy(
    model: &mut DeviceModel,
    kv: &mut KvCache,
    slot: usize,
    len: usize,
    mut logits: Vec<f32>,
    n: usize,
) -> Vec<TokenId> {
    let vocab = model.vocab();
    let slots = kv.slots();
    let mut out = Vec::new();
    let mut all = Vec::new();
    for step in 0..n {
        let next = host_argmax(&logits);
        out.push(next);
        if step + 1 == n || len + step + 1 >= CAPACITY as usize {
            break;
        }
        let mut tokens = vec![TokenId(0); slots];
        let mut positions = vec![0; slots];
        tokens[slot] = next;
        positions[slot] = len + step;
        model
            .decode_logits(kv, &tokens, &positions, &mut all)
            .unwrap();
        logits = all[slot * vocab..(slot + 1) * vocab].to_vec();
    }
    out
}

#[test]
fn chunked_prefill_logits_match_the_f64_reference_and_decode_continues_from_its_cache() {
    let dir = common::tiny_dir(WeightDType::F32);
    let reference = common::reference(&dir);
    let mut model = load(&dir, "local-task", CAPACITY, graphs(1));
    let vocab = model.vocab();
    let mut worst = 0f64;
    for (i, len) in lengths().into_iter().enumerate() {
        let tokens = prompt(len, 40 + i as u32, vocab);
        let mut kv = model.new_kv().unwrap();
        let mut seq = reference.new_sequence();
        let want = seq.forward(&reference, &tokens).unwrap();
        let got = model
            .prefill_chunked_logits_at(&mut kv, 0, &tokens, MAX_CHUNK)
            .unwrap();
        let err = relative_error(&got, &want);
        let sizes: Vec<i64> = chunk_plan(len, CAPACITY, MAX_CHUNK, Padding::Multiplied)
            .iter()
            .map(|c| c.size)
            .collect();
        assert!(
            err <= 1e-4,
            "chunked prefill of {len} tokens ({sizes:?}): relative error {err:.2e}"
        );
        worst = worst.max(err);
        // The cache the chunks wrote is the prompt's: decode continues
        // within the reference tolerance.
        let steps = (len + 3).min(CAPACITY as usize) - len;
        let case = format!("after a chunked prefill of {len}");
        worst = worst.max(common::decode_matches_reference(
            &mut model,
            &mut kv,
            &reference,
            &mut seq,
            host_argmax(&got),
            len,
            steps,
            1e-4,
            &case,
        ));
    }
    eprintln!("worst relative error vs the f64 reference: {worst:.2e}");
}

/// bf16 weights take this host's CPU kernels (csrc/kernels) where it has
/// them, and then a chunk's rows go through the attention kernel's prompt
/// form at the chunk's own start: in tiles of rows with AVX-512
/// (x86_64_prompt_tiles.h), else row by row. The f32 tests above run IREE's
/// form. Chunked prefill into the last of 4 slots, each prompt length's
/// chunks starting at 0 and mid-window, stays within the prefill tolerance
/// of the f64 reference (computed from the same bf16 values) over an f32
/// cache, and within the f16 cache's own (tests/kv_cache.rs) over an f16
/// one.
#[test]
fn chunks_through_the_cpu_kernels_match_the_f64_reference_at_every_start() {
    let dir = common::tiny_dir(WeightDType::BF16);
    let reference = common::reference(&dir);
    for (cache, tolerance) in [
        (DType::F32, 1e-4),
        (DType::F16, common::F16_CACHE_TOLERANCE),
    ] {
        let mut model = common::load_opts(&dir, "local-task", CAPACITY, Vec::new(), |opts| {
            opts.compile_on_demand = true;
            opts.kv_cache = Some(cache);
        });
        let vocab = model.vocab();
        for (i, len) in [1, 17, 40, 100, CAPACITY as usize - 1]
            .into_iter()
            .enumerate()
        {
            let tokens = prompt(len, 120 + i as u32, vocab);
            let want = reference
                .new_sequence()
                .forward(&reference, &tokens)
                .unwrap();
            let mut kv = model.new_kv_slots(4).unwrap();
            let got = model
                .prefill_chunked_logits_at(&mut kv, 3, &tokens, MAX_CHUNK)
                .unwrap();
            let err = relative_error(&got, &want);
            assert!(
                err <= tolerance,
                "{cache:?} cache, chunked prefill of {len}: relative error {err:.2e}"
            );
        }
    }
}

#[test]
fn greedy_after_a_chunked_prefill_into_any_slot_is_token_exact_with_the_whole_prompt_and_the_reference()
 {
    let dir = common::tiny_dir(WeightDType::F32);
    let reference = common::reference(&dir);
    let mut model = load(&dir, "local-task", CAPACITY, graphs(4));
    let vocab = model.vocab();
    for (i, len) in lengths().into_iter().enumerate() {
        let tokens = prompt(len, 80 + i as u32, vocab);
        let n = 12.min(CAPACITY as usize - len);
        let slot = i % 4;
        // Whole prompt into a fresh cache, chunks into one whose other
        // slots hold another prompt: the chunks must stay in their slot.
        let mut whole_kv = model.new_kv_slots(4).unwrap();
        let whole = model
            .prefill_logits_at(&mut whole_kv, slot, &tokens)
            .unwrap();
        let mut kv = model.new_kv_slots(4).unwrap();
        let other = prompt(CAPACITY as usize - 1, 7, vocab);
        for s in (0..4).filter(|&s| s != slot) {
            model
                .prefill_chunked_logits_at(&mut kv, s, &other, MAX_CHUNK)
                .unwrap();
        }
        let chunked = model
            .prefill_chunked_logits_at(&mut kv, slot, &tokens, MAX_CHUNK)
            .unwrap();
        let close = chunked
            .iter()
            .zip(&whole)
            .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
        let scale = whole.iter().fold(0f32, |m, v| m.max(v.abs()));
        assert!(
            close <= 1e-5 * scale,
            "prompt of {len}: chunked and whole logits differ by {close:.2e} (scale {scale:.2e})"
        );
        let from_chunks = continue_greedy(&mut model, &mut kv, slot, len, chunked, n);
        let from_whole = continue_greedy(&mut model, &mut whole_kv, slot, len, whole, n);
        assert_eq!(
            from_chunks, from_whole,
            "prompt of {len} tokens in slot {slot}"
        );
        let want = reference.greedy(&tokens, from_chunks.len()).unwrap();
        assert_eq!(from_chunks, want, "prompt of {len}: against the reference");
    }
}

#[test]
fn a_last_chunk_that_would_pass_the_capacity_starts_early_and_recomputes_its_overlap() {
    // 99 tokens in a capacity of 100: 96, then 3 tokens padded to 8 would
    // end at 104, so the last chunk runs positions 92..100.
    let capacity = 100;
    let calls = chunk_plan(99, capacity, MAX_CHUNK, Padding::Multiplied);
    let last = *calls.last().unwrap();
    let before = calls[calls.len() - 2];
    assert!(last.start < before.start + before.len, "{calls:?}");
    let dir = common::tiny_dir(WeightDType::F32);
    let reference = common::reference(&dir);
    let mut kinds: Vec<GraphKind> = calls
        .iter()
        .map(|c| GraphKind::Chunk {
            slots: 1,
            tokens: c.size,
            window: c.window,
            output: Output::Logits,
        })
        .collect();
    let plan = EmitPlan::new(capacity, &[1]).unwrap();
    kinds.extend(plan.decode_kinds(1, Output::Logits));
    let mut model = load(&dir, "local-task", capacity, kinds);
    let tokens = prompt(99, 5, model.vocab());
    let mut kv = model.new_kv().unwrap();
    let got = model
        .prefill_chunked_logits_at(&mut kv, 0, &tokens, MAX_CHUNK)
        .unwrap();
    let mut seq = reference.new_sequence();
    let want = seq.forward(&reference, &tokens).unwrap();
    let err = relative_error(&got, &want);
    assert!(err <= 1e-4, "relative error {err:.2e}");
    let next = host_argmax(&got);
    let mut logits = Vec::new();
    model
        .decode_logits(&mut kv, &[next], &[99], &mut logits)
        .unwrap();
    let want = seq.forward(&reference, &[next]).unwrap();
    let err = relative_error(&logits, &want);
    assert!(
        err <= 1e-4,
        "decode at the last position: relative error {err:.2e}"
    );
}

#[test]
fn a_chunk_call_outside_its_plan_is_refused_before_the_device() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut model = load(&dir, "local-task", CAPACITY, graphs(1));
    let tokens = prompt(CAPACITY as usize - 1, 3, model.vocab());
    let mut kv = model.new_kv().unwrap();
    use iree_llm::emit::ChunkCall;
    let call = ChunkCall {
        start: 32,
        len: 8,
        size: 8,
        window: 64,
    };
    // Past the capacity, a window not holding its past, a first chunk
    // reading the cache, more tokens than its size, past the prompt.
    for bad in [
        ChunkCall {
            start: 121,
            len: 6,
            size: 8,
            window: CAPACITY,
        },
        ChunkCall { window: 16, ..call },
        ChunkCall { start: 0, ..call },
        ChunkCall { len: 9, ..call },
        ChunkCall {
            start: 123,
            len: 5,
            size: 5,
            window: CAPACITY,
        },
    ] {
        assert!(
            model.prefill_chunk_at(&mut kv, 0, &tokens, bad).is_err(),
            "{bad:?} was accepted"
        );
    }
    assert!(model.prefill_chunk_at(&mut kv, 1, &tokens, call).is_err());
    assert!(model.chunk_plan(0, MAX_CHUNK).is_err());
    assert!(model.chunk_plan(CAPACITY as usize + 1, MAX_CHUNK).is_err());
}
