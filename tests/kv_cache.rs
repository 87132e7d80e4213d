//! The opt-in f16 KV cache (`IREE_LLM_KV_CACHE=f16`, `LoadOptions::kv_cache`):
//! half the cache's bytes, keys and values rounded to f16 where a graph
//! writes them. Its logits stay within their own measured tolerance of the
//! f64 reference through both attention forms (the StableHLO graph and the
//! decode attention kernel), leave the exact form's, and ragged batches
//! still reproduce each slot's single sequence.

mod common;

use common::{host_argmax, prompt, relative_error};
use iree_llm::DType;
use iree_llm::emit::{EmitPlan, GraphKind, MIN_PREFILL_BUCKET, Output};
use iree_llm::model::DeviceModel;
use iree_llm::types::TokenId;
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 128;

fn logits_graphs(batches: &[i64]) -> Vec<GraphKind> {
    let plan = EmitPlan::new(CAPACITY, batches).unwrap();
    let mut g = Vec::new();
    for &batch in [1].iter().chain(batches) {
        g.extend(plan.prefill_kinds(batch, Output::Logits));
        g.extend(plan.decode_kinds(batch, Output::Logits));
    }
    let mut seen = std::collections::HashSet::new();
    g.retain(|k| seen.insert(*k));
    g
}

/// The tiny model with weights `weights` and an f16 cache; bf16 weights
/// take the x86-64 kernels (the decode attention kernel among them) where
/// this host runs them, f32 weights IREE's code only.
fn f16_cache_model(weights: WeightDType, batches: &[i64]) -> DeviceModel {
    let dir = common::tiny_dir(weights);
    let model = common::load_opts(&dir, "local-task", CAPACITY, logits_graphs(batches), |o| {
        o.kv_cache = Some(DType::F16)
    });
    assert_eq!(model.manifest().plan.kv_cache, DType::F16);
    model
}

#[test]
fn an_f16_cache_stays_within_its_tolerance_through_both_attention_forms() {
    for weights in [WeightDType::F32, WeightDType::BF16] {
        let dir = common::tiny_dir(weights);
        let reference = common::reference(&dir);
        let mut model = f16_cache_model(weights, &[]);
        let form = if model.manifest().plan.kernels.is_portable() {
            "StableHLO attention"
        } else {
            "the attention kernel"
        };
        common::assert_inexact_form_within(
            &mut model,
            &reference,
            &[(7, 2), (17, 4), (33, 5), (70, 6)],
            6,
            common::F16_CACHE_TOLERANCE,
            &format!("{weights:?} weights, f16 cache, {form}"),
        );
    }
}

#[test]
fn the_cache_holds_f16_values_and_the_prompt_is_written_into_it() {
    let mut model = f16_cache_model(WeightDType::F32, &[]);
    let mut kv = model.new_kv().unwrap();
    assert_eq!(kv.buffer().dtype(), DType::F16);
    let tokens = prompt(9, 3, model.vocab());
    model.prefill_logits(&mut kv, &tokens).unwrap();
    let values = model.read_kv(&kv).unwrap();
    let shape = &model.manifest().kv_shape;
    assert_eq!(values.len() as i64, shape.iter().product::<i64>());
    // Layer 0's keys of head 0: the prompt's positions written (the rest of
    // its bucket holds padding), nothing past the bucket.
    let (capacity, d) = (shape[3] as usize, shape[4] as usize);
    let bucket = MIN_PREFILL_BUCKET as usize;
    let head: &[f32] = &values[..capacity * d];
    assert!(head[..9 * d].iter().all(|v| v.is_finite()));
    assert!(head[..9 * d].iter().any(|&v| v != 0.0), "the prompt's keys");
    assert!(
        head[bucket * d..].iter().all(|&v| v == 0.0),
        "nothing past the bucket"
    );
}

#[test]
fn ragged_steps_over_an_f16_cache_reproduce_each_slots_single_sequence() {
    let batch = 4usize;
    let mut model = f16_cache_model(WeightDType::BF16, &[batch as i64]);
    let vocab = model.vocab();
    let steps = 6;
    let prompts: Vec<Vec<TokenId>> = (0..batch)
        .map(|i| prompt(3 + 7 * i, 50 + i as u32, vocab))
        .collect();
    // Each prompt alone: prefill, then greedy one-row steps.
    let mut singles = Vec::new();
    for p in &prompts {
        let mut kv = model.new_kv().unwrap();
        let mut logits = model.prefill_logits(&mut kv, p).unwrap();
        let mut rows = vec![logits.clone()];
        for step in 0..steps {
            let next = host_argmax(&logits);
            model
                .decode_logits(&mut kv, &[next], &[p.len() + step], &mut logits)
                .unwrap();
            rows.push(logits.clone());
        }
        singles.push(rows);
    }
    // All four together in one cache of four slots.
    let mut kv = model.new_kv_slots(batch).unwrap();
    let mut next = Vec::new();
    let mut pos = Vec::new();
    for (i, p) in prompts.iter().enumerate() {
        let logits = model.prefill_logits_at(&mut kv, i, p).unwrap();
        next.push(host_argmax(&logits));
        pos.push(p.len());
    }
    let mut logits = Vec::new();
    for step in 0..steps {
        model
            .decode_logits(&mut kv, &next, &pos, &mut logits)
            .unwrap();
        for i in 0..batch {
            let row = &logits[i * vocab..(i + 1) * vocab];
            let want: Vec<f64> = singles[i][step + 1].iter().map(|&v| v as f64).collect();
            // Within the exact tolerance, not closer: batched rows take the
            // rows kernel and single rows the one-row kernel, which sum the
            // same f32 products in other orders, and a last-bit difference
            // in a key or value can round to the neighbouring f16 in the
            // cache (2^-11 relative). Measured on Zen 5: 1.04e-5 in one slot
            // from its third step, the others within 5e-7; with an f32
            // cache the same steps agree within 3.2e-7. A wrong slot is off
            // by orders of magnitude more.
            let err = relative_error(row, &want);
            assert!(
                err <= 1e-4,
                "slot {i} step {step}: the batched step differs from the single sequence by {err:.2e}"
            );
            next[i] = host_argmax(row);
            pos[i] += 1;
        }
    }
}

/// Ragged steps of 4 and 8 rows over an f16 cache, against the f64
/// reference of each row's own sequence rather than against one-row steps
/// (which write their keys and values through the same code): where the
/// attention kernel writes each row's key and value into the cache itself,
/// a row whose key went anywhere but its slot's own position would read a
/// stale position at the next step and leave the tolerance.
#[test]
fn ragged_steps_over_an_f16_cache_stay_within_its_tolerance_of_the_reference() {
    let dir = common::tiny_dir(WeightDType::BF16);
    let reference = common::reference(&dir);
    let mut model = f16_cache_model(WeightDType::BF16, &[4, 8]);
    for lengths in [&[3usize, 17, 5, 40][..], &[2, 9, 33, 4, 21, 12, 7, 66]] {
        common::ragged_steps_within(
            &mut model,
            &reference,
            lengths,
            57,
            4,
            common::F16_CACHE_TOLERANCE,
            "f16 cache, ragged rows",
        );
    }
}

/// The batch engine over an f16 cache: prompts admitted while others run,
/// in chunks (the first carried in a decode call) and whole, give the greedy
/// tokens of one sequence at a time on the same f16 cache.
#[test]
fn the_batch_engine_over_an_f16_cache_gives_each_sequences_own_greedy_tokens() {
    use iree_llm::engine::{BatchEngine, BatchOptions, Engine, FinishReason, Request};
    use iree_llm::model::{LoadOptions, Quiet};
    use iree_llm::runtime::Instance;
    let dir = common::tiny_dir(WeightDType::BF16);
    let mut single = common::load_opts(
        &dir,
        "local-task",
        CAPACITY,
        common::argmax_graphs(CAPACITY),
        |o| o.kv_cache = Some(DType::F16),
    );
    let vocab = single.vocab();
    let lengths = [5, 9, 16, 3, 40, 12, 70, 23];
    let requests: Vec<Request> = lengths
        .iter()
        .enumerate()
        .map(|(i, &len)| Request::greedy(prompt(len, 80 + i as u32, vocab), 6 + i % 4))
        .collect();
    let want: Vec<Vec<TokenId>> = requests
        .iter()
        .map(|r| common::device_greedy(&mut single, &r.prompt, r.max_tokens))
        .collect();
    let plan = EmitPlan::new(CAPACITY, &[4]).unwrap();
    let mut opts = LoadOptions::batched(common::device("local-task"), plan, 4);
    opts.cache = common::test_cache();
    opts.kv_cache = Some(DType::F16);
    let model = DeviceModel::load(&Instance::new().unwrap(), &dir, &opts, &Quiet).unwrap();
    let options = BatchOptions {
        batch: 4,
        max_queue: 64,
        max_chunk: 16,
        decode_chunks: true,
        choose_carry: false,
        carried_chunk: 8,
        spare_slot: false,
    };
    let mut engine = BatchEngine::new(model, options).unwrap();
    let got = common::run_all(&mut engine, &requests);
    let compared: usize = got.iter().map(|g| g.tokens.len()).sum();
    assert!(compared >= 24, "only {compared} tokens to compare");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        // The engine stops at the model's EOS; the argmax loop runs on.
        let stopped = g.reason == FinishReason::Stop;
        let n = if stopped { g.tokens.len() } else { w.len() };
        assert_eq!(g.tokens, w[..n], "prompt of {} tokens", lengths[i]);
        assert!(
            stopped || g.reason == FinishReason::Length,
            "{:?}",
            g.reason
        );
    }
    assert!(
        engine.stats().mixed_steps > 0,
        "some chunks rode in decode calls"
    );
}

#[test]
fn a_cache_of_another_type_is_refused_with_what_to_use() {
    use iree_llm::model::{LoadOptions, Quiet};
    use iree_llm::runtime::Instance;
    let dir = common::tiny_dir(WeightDType::F32);
    let plan = EmitPlan::new(CAPACITY, &[]).unwrap();
    let mut opts = LoadOptions::with_graphs(common::device("local-task"), plan, logits_graphs(&[]));
    opts.cache = common::test_cache();
    opts.kv_cache = Some(DType::BF16);
    let err = DeviceModel::load(&Instance::new().unwrap(), &dir, &opts, &Quiet)
        .err()
        .expect("a bf16 cache is refused");
    let text = err.to_string();
    assert!(text.contains("use f32 or f16"), "{text}");
}

/// Both opt-in forms together, bf16 activations over an f16 cache (the
/// SmolLM2 B=8 setting docs/performance.md measures), stay within the bf16
/// activations' own tolerance (`common::BF16_TOLERANCE`): the cache's
/// rounding adds little to theirs. Only CPUs with AVX512-BF16 run them.
#[test]
fn bf16_activations_over_an_f16_cache_stay_within_the_bf16_tolerance() {
    use iree_llm::emit::Kernels;
    if !Kernels::X86_64Bf16.runs_on_this_host() {
        eprintln!("not run: this CPU or build has no AVX512-BF16 kernel");
        return;
    }
    let dir = common::tiny_dir(WeightDType::BF16);
    let reference = common::reference(&dir);
    let mut model = common::load_opts(&dir, "local-task", CAPACITY, logits_graphs(&[]), |o| {
        o.kv_cache = Some(DType::F16);
        o.kernels = Some(Kernels::X86_64Bf16);
    });
    assert_eq!(model.manifest().plan.kv_cache, DType::F16);
    assert_eq!(model.manifest().plan.kernels, Kernels::X86_64Bf16);
    common::assert_inexact_form_within(
        &mut model,
        &reference,
        &[(7, 2), (17, 4), (33, 5), (70, 6)],
        6,
        common::BF16_TOLERANCE,
        "bf16 activations, f16 cache",
    );
}
