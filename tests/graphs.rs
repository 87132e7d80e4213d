//! The emitted graphs compute what the model computes: compared on
//! local-task with the independent f64 reference forward pass
//! (`iree_llm::reference`), for logits, greedy decoding, ragged batches and
//! bf16 weights; and the KV cache stays in its device buffer.

mod common;

use common::{device_greedy, host_argmax, load, prompt, relative_error};
use iree_llm::emit::{EmitPlan, GraphKind, Output};
use iree_llm::fit::FitError;
use iree_llm::model::{DeviceModel, ModelError};
use iree_llm::types::TokenId;
use iree_llm::weights::DType as WeightDType;

/// Capacity of the test caches: decode has a 64-position window below it.
const CAPACITY: i64 = 128;

fn logits_graphs(batches: &[i64]) -> Vec<GraphKind> {
    let plan = EmitPlan::new(CAPACITY, batches).unwrap();
    let mut g = plan.prefill_kinds(1, Output::Logits);
    for &batch in batches {
        g.extend(plan.prefill_kinds(batch, Output::Logits));
        g.extend(plan.decode_kinds(batch, Output::Logits));
    }
    let mut seen = std::collections::HashSet::new();
    g.retain(|k| seen.insert(*k));
    g
}

fn prefill_logits(
    model: &mut DeviceModel,
    kv: &mut iree_llm::model::KvCache,
    tokens: &[TokenId],
) -> Vec<f32> {
    model.prefill_logits(kv, tokens).unwrap()
}

fn prefill_logits_at(
    model: &mut DeviceModel,
    kv: &mut iree_llm::model::KvCache,
    slot: usize,
    tokens: &[TokenId],
) -> Vec<f32> {
    model.prefill_logits_at(kv, slot, tokens).unwrap()
}

#[test]
fn prefill_and_decode_logits_match_the_f64_reference() {
    let dir = common::tiny_dir(WeightDType::F32);
    let reference = common::reference(&dir);
    let mut model = load(&dir, "local-task", CAPACITY, logits_graphs(&[1]));
    let vocab = model.vocab();
    let mut worst = 0f64;
    for (len, seed) in [(1, 1), (7, 2), (16, 3), (17, 4), (33, 5)] {
        let tokens = prompt(len, seed, vocab);
        let case = format!("prompt of {len}");
        worst = worst.max(prefill_then_decode_within(
            &mut model, &reference, &tokens, 8, &case,
        ));
    }
    eprintln!("worst relative error vs the f64 reference: {worst:.2e}");
}

/// Prefills `tokens`, then decodes `steps` greedy tokens, each call's logits
/// within 1e-4 of the reference's; returns the largest relative error.
fn prefill_then_decode_within(
    model: &mut DeviceModel,
    reference: &iree_llm::reference::Reference,
    tokens: &[TokenId],
    steps: usize,
    case: &str,
) -> f64 {
    let mut kv = model.new_kv().unwrap();
    let mut seq = reference.new_sequence();
    let want = seq.forward(reference, tokens).unwrap();
    let got = prefill_logits(model, &mut kv, tokens);
    let err = relative_error(&got, &want);
    assert!(err <= 1e-4, "{case}: prefill's relative error {err:.2e}");
    let first = host_argmax(&got);
    err.max(common::decode_matches_reference(
        model,
        &mut kv,
        reference,
        &mut seq,
        first,
        tokens.len(),
        steps,
        1e-4,
        case,
    ))
}

#[test]
fn greedy_decoding_matches_the_reference_for_gqa_tied_and_llama3_configs() {
    let configs = [
        (
            "tiny (GQA 4:2, llama3 rope, untied)",
            common::tiny_dir(WeightDType::F32),
        ),
        (
            "tied embeddings, MHA, plain rope",
            common::variant_dir("tied-mha", &common::tied_mha_config(), WeightDType::F32),
        ),
        (
            "one KV head, 3 layers, llama3 x32",
            common::variant_dir(
                "gqa1-llama3",
                &common::gqa_llama3_config(),
                WeightDType::F32,
            ),
        ),
    ];
    for (name, dir) in configs {
        let reference = common::reference(&dir);
        let mut model = load(
            &dir,
            "local-task",
            CAPACITY,
            common::argmax_graphs(CAPACITY),
        );
        // The 50-token prompt crosses from the 64-position window to the
        // whole-capacity decode graph halfway through.
        for (len, seed) in [(3, 11), (9, 12), (20, 13), (50, 14)] {
            let tokens = prompt(len, seed, model.vocab());
            let want = reference.greedy(&tokens, 32).unwrap();
            let got = device_greedy(&mut model, &tokens, 32);
            assert_eq!(got, want, "{name}: prompt of {len} tokens");
        }
    }
}

/// Runs each prompt alone through the batch-1 logits graphs: `steps` greedy
/// tokens and the logits each was chosen from.
fn single_sequence(
    model: &mut DeviceModel,
    tokens: &[TokenId],
    steps: usize,
) -> (Vec<TokenId>, Vec<Vec<f32>>) {
    let mut kv = model.new_kv().unwrap();
    let mut logits = prefill_logits(model, &mut kv, tokens);
    let mut out = Vec::new();
    let mut all = Vec::new();
    for step in 0..steps {
        let next = host_argmax(&logits);
        out.push(next);
        all.push(logits.clone());
        model
            .decode_logits(&mut kv, &[next], &[tokens.len() + step], &mut logits)
            .unwrap();
    }
    (out, all)
}

/// Batched rows of bf16 weights take the rows kernel and single rows the
/// one-row kernel on x86-64: the same f32 products summed in other orders,
/// so they agree as closely as f32 weights do.
#[test]
fn ragged_decode_reproduces_each_slots_single_sequence_result() {
    for dtype in [WeightDType::F32, WeightDType::BF16] {
        ragged_decode_reproduces_single_sequences(dtype);
    }
}

fn ragged_decode_reproduces_single_sequences(dtype: WeightDType) {
    let dir = common::tiny_dir(dtype);
    let mut model = load(&dir, "local-task", CAPACITY, logits_graphs(&[1, 4, 8]));
    let vocab = model.vocab();
    let steps = 12;
    for batch in [4usize, 8] {
        // Different prompt lengths put every row at its own position; the
        // last row of each batch stays inactive.
        let prompts: Vec<Vec<TokenId>> = (0..batch - 1)
            .map(|i| prompt(2 + 5 * i, 40 + i as u32, vocab))
            .collect();
        let singles: Vec<_> = prompts
            .iter()
            .map(|p| single_sequence(&mut model, p, steps))
            .collect();

        let mut kv = model.new_kv_slots(batch).unwrap();
        let mut next = vec![TokenId(0); batch];
        let mut pos = vec![0usize; batch];
        let mut got_tokens = vec![Vec::new(); batch - 1];
        let mut got_logits: Vec<Vec<Vec<f32>>> = vec![Vec::new(); batch - 1];
        for (i, p) in prompts.iter().enumerate() {
            let logits = prefill_logits_at(&mut model, &mut kv, i, p);
            next[i] = host_argmax(&logits);
            pos[i] = p.len();
            got_tokens[i].push(next[i]);
            got_logits[i].push(logits);
        }
        let mut logits = Vec::new();
        for _ in 1..steps {
            model
                .decode_logits(&mut kv, &next, &pos, &mut logits)
                .unwrap();
            for i in 0..batch - 1 {
                let row = &logits[i * vocab..(i + 1) * vocab];
                next[i] = host_argmax(row);
                pos[i] += 1;
                got_tokens[i].push(next[i]);
                got_logits[i].push(row.to_vec());
            }
        }
        for i in 0..batch - 1 {
            assert_eq!(
                got_tokens[i], singles[i].0,
                "{dtype:?} B={batch} row {i}: tokens differ from the single sequence"
            );
            for (step, (a, b)) in got_logits[i].iter().zip(&singles[i].1).enumerate() {
                let b64: Vec<f64> = b.iter().map(|&v| v as f64).collect();
                let err = relative_error(a, &b64);
                assert!(
                    err <= 1e-5,
                    "{dtype:?} B={batch} row {i} step {step}: logits differ by {err:.2e}"
                );
            }
        }
    }
}

#[test]
fn windowed_decode_equals_decode_over_the_whole_capacity() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut model = load(&dir, "local-task", CAPACITY, logits_graphs(&[4]));
    let vocab = model.vocab();
    let mut kv = model.new_kv_slots(4).unwrap();
    let mut positions = Vec::new();
    for i in 0..4 {
        let tokens = prompt(10 + 12 * i, 60 + i as u32, vocab);
        positions.push(tokens.len());
        prefill_logits_at(&mut model, &mut kv, i, &tokens);
    }
    let tokens = vec![TokenId(7); 4];
    let mut windowed = Vec::new();
    let mut full = Vec::new();
    // Same inputs twice: the second call rewrites the same K/V at the same positions.
    model
        .decode_logits_in_window(&mut kv, &tokens, &positions, Some(64), &mut windowed)
        .unwrap();
    model
        .decode_logits_in_window(&mut kv, &tokens, &positions, None, &mut full)
        .unwrap();
    let full64: Vec<f64> = full.iter().map(|&v| v as f64).collect();
    let err = relative_error(&windowed, &full64);
    assert!(err <= 1e-6, "windowed and full decode differ by {err:.2e}");
    let refused =
        model.decode_logits_in_window(&mut kv, &tokens, &[70, 1, 2, 3], Some(64), &mut windowed);
    assert!(refused.is_err(), "a position outside the window is refused");
}

#[test]
fn bf16_weights_kept_on_the_device_give_the_results_of_weights_widened_to_f32() {
    use iree_llm::model::DeviceWeights;
    let dir = common::tiny_dir(WeightDType::BF16);
    let mut native = common::load_with(
        &dir,
        "local-task",
        CAPACITY,
        common::argmax_graphs(CAPACITY),
        DeviceWeights::Native,
    );
    let mut widened = common::load_with(
        &dir,
        "local-task",
        CAPACITY,
        common::argmax_graphs(CAPACITY),
        DeviceWeights::F32,
    );
    assert_eq!(native.manifest().plan.weights, iree_llm::DType::BF16);
    assert_eq!(widened.manifest().plan.weights, iree_llm::DType::F32);
    // Half the bytes, give or take the RoPE tables, which stay f32.
    let ratio = native.stats().weight_bytes as f64 / widened.stats().weight_bytes as f64;
    assert!(
        (0.5..0.55).contains(&ratio),
        "bf16 weights take {ratio:.3} of the f32 bytes"
    );
    for (len, seed) in [(4, 31), (25, 32)] {
        let tokens = prompt(len, seed, native.vocab());
        assert_eq!(
            device_greedy(&mut native, &tokens, 24),
            device_greedy(&mut widened, &tokens, 24),
            "prompt of {len}"
        );
    }
}

#[test]
fn bf16_weights_match_the_reference_computed_from_the_same_bf16_values() {
    let dir = common::tiny_dir(WeightDType::BF16);
    let reference = common::reference(&dir);
    let mut model = load(&dir, "local-task", CAPACITY, logits_graphs(&[1]));
    for (len, seed) in [(5, 21), (30, 22)] {
        // Decode steps too: on x86-64 their bf16 matmuls are the
        // hand-written kernel's (csrc/kernels), the prompt's are IREE's.
        let case = format!("bf16, prompt of {len}");
        common::prefill_and_decode_error(&mut model, &reference, len, seed, 6, 1e-4, &case);
    }
}

/// The decode attention kernel (csrc/kernels/x86_64_attention_body.h) takes
/// a row's positions in blocks of 64 and moves its softmax's running
/// maximum once a block: decode steps whose windows end exactly at a block
/// boundary, just past it and three blocks in keep the exact tolerance.
/// (On hosts without the x86-64 kernels this checks the StableHLO form.)
#[test]
fn decode_attention_keeps_the_exact_tolerance_across_blocks_of_positions() {
    const LONG_CAPACITY: i64 = 256;
    let dir = common::tiny_dir(WeightDType::BF16);
    let reference = common::reference(&dir);
    let plan = EmitPlan::new(LONG_CAPACITY, &[]).unwrap();
    let mut graphs = plan.prefill_kinds(1, Output::Logits);
    graphs.extend(plan.decode_kinds(1, Output::Logits));
    let mut model = load(&dir, "local-task", LONG_CAPACITY, graphs);
    for (len, seed) in [(58, 61), (64, 62), (130, 63)] {
        let case = format!("attention over {len}..{} positions", len + 6);
        common::prefill_and_decode_error(&mut model, &reference, len, seed, 6, 1e-4, &case);
    }
}

/// The opt-in bf16 activations (`Kernels::X86_64Bf16`) round every row of
/// x to bf16 before each product of a bf16 weight (AVX512-BF16's
/// `vdpbf16ps`), so they leave the exact tolerance; this is their own,
/// measured on this model and stated in docs/performance.md. They must not
/// be silently the exact form either. Only CPUs with AVX512-BF16 run them.
#[test]
fn bf16_activations_stay_within_their_own_tolerance() {
    use iree_llm::emit::Kernels;
    if !Kernels::X86_64Bf16.runs_on_this_host() {
        eprintln!("not run: this CPU or build has no AVX512-BF16 kernel");
        return;
    }
    let dir = common::tiny_dir(WeightDType::BF16);
    let reference = common::reference(&dir);
    let mut model = common::load_opts(&dir, "local-task", CAPACITY, logits_graphs(&[1]), |o| {
        o.kernels = Some(Kernels::X86_64Bf16)
    });
    assert_eq!(model.manifest().plan.kernels, Kernels::X86_64Bf16);
    common::assert_inexact_form_within(
        &mut model,
        &reference,
        &[(1, 41), (9, 42), (30, 43)],
        6,
        common::BF16_TOLERANCE,
        "bf16 activations",
    );
}

/// The bf16 kernel takes a prompt's rows (more than 8) DENSE_SPAN = 2048
/// values of k at a time and adds the spans' sums into y: a model whose
/// down projection has k = 4608 (two whole spans and a part) keeps the
/// same tolerance through them.
#[test]
fn bf16_activations_hold_their_tolerance_when_k_spans_several_of_the_kernels_spans() {
    use iree_llm::emit::Kernels;
    if !Kernels::X86_64Bf16.runs_on_this_host() {
        eprintln!("not run: this CPU or build has no AVX512-BF16 kernel");
        return;
    }
    let mut config = iree_llm::preset::Preset::Tiny.config();
    config.intermediate_size = 4608;
    let dir = common::variant_dir("wide-mlp", &config, WeightDType::BF16);
    let reference = common::reference(&dir);
    let mut model = common::load_opts(&dir, "local-task", CAPACITY, logits_graphs(&[1]), |o| {
        o.kernels = Some(Kernels::X86_64Bf16)
    });
    common::assert_inexact_form_within(
        &mut model,
        &reference,
        &[(9, 51), (30, 52)],
        4,
        common::BF16_TOLERANCE,
        "bf16 activations, k = 4608",
    );
}

/// The exact bf16 kernels take k a part at a time and add the parts' sums
/// into y: the AVX-512 build's panel kernel (`x86_64_avx512_panels.h`, every
/// product) in spans of 1,024 with tiles of up to 8 rows of x, the AVX2
/// build's rows kernel (two rows of x or more) in chunks of 2,048 with
/// tiles of 4. Prompts of 9 and 30 tokens and ragged steps of 4 and 8 rows
/// through a down projection with k = 4608 (whole parts and a last partial
/// one) keep the exact tolerance against the f64 reference.
#[test]
fn bf16_rows_keep_the_exact_tolerance_across_chunks_of_k_and_partial_tiles() {
    let mut config = iree_llm::preset::Preset::Tiny.config();
    config.intermediate_size = 4608;
    let dir = common::variant_dir("wide-mlp", &config, WeightDType::BF16);
    let reference = common::reference(&dir);
    let mut model = load(&dir, "local-task", CAPACITY, logits_graphs(&[1, 4, 8]));
    for (len, seed) in [(9, 71), (30, 72)] {
        let case = format!("exact bf16 rows, k = 4608, prompt of {len}");
        common::prefill_and_decode_error(&mut model, &reference, len, seed, 2, 1e-4, &case);
    }
    for lengths in [&[3usize, 17, 5, 40][..], &[2, 9, 33, 4, 21, 12, 7, 50]] {
        common::ragged_steps_within(
            &mut model,
            &reference,
            lengths,
            73,
            3,
            1e-4,
            "exact bf16 rows",
        );
    }
}

/// With the AVX-512 build of the exact kernels every bf16 matrix is kept
/// in panels of 16 rows (`emit::panels`), the embedding table too: its rows
/// are gathered from that layout and, tied, it is also the output head. A
/// tied bf16 model keeps the exact tolerance against the f64 reference
/// through prompts (gathered rows, tiles of several x rows), single-row
/// steps and ragged batched steps.
#[test]
fn a_tied_bf16_embedding_in_panels_gathers_its_rows_and_heads_the_logits() {
    use iree_llm::emit::Kernels;
    if !iree_llm::emit::kernels::packs_bf16_panels(Kernels::X86_64) {
        eprintln!("not run: this CPU or build has no AVX-512 panel kernel");
        return;
    }
    let dir = common::variant_dir("tied-mha", &common::tied_mha_config(), WeightDType::BF16);
    let reference = common::reference(&dir);
    let mut model = common::load_opts(
        &dir,
        "local-task",
        CAPACITY,
        logits_graphs(&[1, 4, 8]),
        |o| o.kernels = Some(Kernels::X86_64),
    );
    let params = &model.manifest().params;
    // Every bf16 tensor but the norms' vectors (the RoPE tables are f32).
    let matrices: Vec<_> = params
        .iter()
        .filter(|p| p.dtype == iree_llm::DType::BF16 && p.shape.len() > 1)
        .collect();
    assert_eq!(
        matrices.len(),
        1 + 2 * 4,
        "the embedding, and 4 matrices a layer"
    );
    for p in &matrices {
        assert!(
            p.bf16_panels && p.shape.len() == 4,
            "{} {:?} is in panels",
            p.name,
            p.shape
        );
    }
    assert!(
        params
            .iter()
            .any(|p| p.name == iree_llm::checkpoint::EMBEDDING && p.bf16_panels),
        "the embedding table is in panels"
    );
    for (len, seed) in [(1, 81), (17, 82), (40, 83)] {
        let case = format!("tied bf16 in panels, prompt of {len}");
        common::prefill_and_decode_error(&mut model, &reference, len, seed, 4, 1e-4, &case);
    }
    common::ragged_steps_within(
        &mut model,
        &reference,
        &[3, 17, 5, 40, 2, 9, 33, 4],
        84,
        3,
        1e-4,
        "tied bf16 in panels",
    );
}

/// With bf16 weights in panels every product takes all of a call's rows
/// at once, and the kernels sum each row alike whatever rows share the
/// call (in rows, the exact form's decode rows are multiplied apart from
/// the chunk's): a decode step that carries a prompt's chunk gives its decode rows
/// bit for bit the logits (and ids) of a plain step, exact or with bf16
/// activations, at B=4 (whose rows alone take tiles of 4 rows, beside a
/// chunk tiles of 8) and B=8. With bf16 activations the carrying step's
/// live rows (24 and 28 here) take the tall tiles, which must sum k in the
/// plain tiles' spans: a down projection with k = 4608 has five.
#[test]
fn decode_rows_carrying_a_chunk_over_panels_equal_a_plain_steps_bit_for_bit() {
    use iree_llm::emit::Kernels;
    let tiny = common::tiny_dir(WeightDType::BF16);
    let mut cases = vec![(Kernels::X86_64, tiny.clone())];
    if Kernels::X86_64Bf16.runs_on_this_host() {
        let mut config = iree_llm::preset::Preset::Tiny.config();
        config.intermediate_size = 4608;
        let wide = common::variant_dir("wide-mlp", &config, WeightDType::BF16);
        cases.push((Kernels::X86_64Bf16, tiny));
        cases.push((Kernels::X86_64Bf16, wide));
    }
    for (kernels, dir) in cases {
        // Where the exact form keeps rows (AVX2), its decode rows take the
        // rows kernel with the norm and residual fused, the chunk's rows
        // the unfused form: the same check holds.
        if kernels != Kernels::X86_64 && !iree_llm::emit::kernels::packs_bf16_panels(kernels) {
            eprintln!("not run for {kernels:?}: this CPU or build keeps rows");
            continue;
        }
        for rows in [4usize, 8] {
            let batch = rows as i64;
            let plan = EmitPlan::new(CAPACITY, &[batch]).unwrap();
            let mut graphs = logits_graphs(&[batch]);
            graphs.extend(plan.decode_kinds(batch, Output::Sample));
            let mut model = common::load_opts(&dir, "local-task", CAPACITY, graphs, |o| {
                o.kernels = Some(kernels);
                o.compile_on_demand = true;
            });
            let case = format!("{kernels:?} B={rows}, {}", dir.display());
            common::assert_carrying_a_chunk_keeps_the_decode_rows_bits(&mut model, rows, &case);
        }
    }
}

/// A matrix that is not whole panels (here a vocabulary of 520 rows, not
/// a multiple of 16: the embedding and the output head) stays row by row
/// and takes the row-major kernels (one row, several rows, and the bf16
/// form's), while the layers' matrices are in panels: both kinds in one
/// model keep their forms' tolerances against the f64 reference, prompts
/// and ragged steps. On AVX-512 hosts this is what keeps the row-major
/// kernels under test.
#[test]
fn matrices_that_are_not_whole_panels_stay_row_major_beside_panels() {
    use iree_llm::emit::Kernels;
    let mut config = iree_llm::preset::Preset::Tiny.config();
    config.vocab_size = 520;
    let dir = common::variant_dir("vocab-520", &config, WeightDType::BF16);
    let reference = common::reference(&dir);
    let mut forms = vec![(Kernels::X86_64, 1e-4)];
    if Kernels::X86_64Bf16.runs_on_this_host() {
        forms.push((Kernels::X86_64Bf16, 2e-2));
    }
    for (kernels, tol) in forms {
        let mut model = common::load_opts(
            &dir,
            "local-task",
            CAPACITY,
            logits_graphs(&[1, 4, 8]),
            |o| o.kernels = Some(kernels),
        );
        let params = &model.manifest().params;
        let panels = |name: &str| params.iter().any(|p| p.name == name && p.bf16_panels);
        assert!(
            !panels(iree_llm::checkpoint::EMBEDDING),
            "{kernels:?}: 520 rows stay rows"
        );
        assert_eq!(
            params.iter().any(|p| p.bf16_panels),
            iree_llm::emit::kernels::packs_bf16_panels(kernels),
            "{kernels:?}: the layers' matrices are in panels where the kernels read them"
        );
        for (len, seed) in [(1, 91), (17, 92)] {
            let case = format!("{kernels:?}, vocabulary 520, prompt of {len}");
            common::prefill_and_decode_error(&mut model, &reference, len, seed, 3, tol, &case);
        }
        let case = format!("{kernels:?}, vocabulary 520");
        common::ragged_steps_within(&mut model, &reference, &[3, 17, 5, 9], 93, 2, tol, &case);
    }
}

#[test]
fn the_kv_cache_keeps_its_device_buffer_across_calls() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut model = load(&dir, "local-task", CAPACITY, logits_graphs(&[1, 4]));
    let mut kv = model.new_kv_slots(4).unwrap();
    let id = kv.storage_id();
    let tokens = prompt(10, 1, model.vocab());
    prefill_logits_at(&mut model, &mut kv, 2, &tokens);
    let mut logits = Vec::new();
    for step in 0..5 {
        model
            .decode_logits(
                &mut kv,
                &[TokenId(1); 4],
                &[10 + step, 0, 10 + step, 3],
                &mut logits,
            )
            .unwrap();
    }
    assert_eq!(
        id,
        kv.storage_id(),
        "the cache moved to a new device buffer"
    );
}

#[test]
fn requests_that_do_not_fit_are_refused_before_any_device_work() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut model = load(&dir, "local-sync", CAPACITY, logits_graphs(&[1]));
    let vocab = model.vocab();
    let mut kv = model.new_kv().unwrap();
    prefill_logits(&mut model, &mut kv, &prompt(8, 3, vocab));
    let before = model.read_kv(&kv).unwrap();

    assert!(matches!(
        model.check_fits(120, 9),
        Err(ModelError::Fit(FitError::DoesNotFit {
            prompt: 120,
            max_tokens: 9,
            capacity: 128
        }))
    ));
    assert!(model.check_fits(120, 8).is_ok());
    assert!(matches!(
        model.check_fits(0, 4),
        Err(ModelError::Fit(FitError::EmptyPrompt))
    ));
    let too_long = prompt(129, 3, vocab);
    assert!(matches!(
        model.prefill_logits(&mut kv, &too_long),
        Err(ModelError::Fit(FitError::DoesNotFit { .. }))
    ));
    let mut logits = Vec::new();
    let err = model.decode_logits(&mut kv, &[TokenId(1)], &[128], &mut logits);
    assert!(
        matches!(err, Err(ModelError::Fit(FitError::DoesNotFit { .. }))),
        "{err:?}"
    );
    let err = model.decode_logits(&mut kv, &[TokenId(vocab as u32)], &[9], &mut logits);
    assert!(
        matches!(err, Err(ModelError::Fit(FitError::TokenOutOfRange { .. }))),
        "{err:?}"
    );
    let err = model.prefill_logits(&mut kv, &[]);
    assert!(
        matches!(err, Err(ModelError::Fit(FitError::EmptyPrompt))),
        "{err:?}"
    );
    assert_eq!(
        model.read_kv(&kv).unwrap(),
        before,
        "a refused request touched the cache"
    );
}

/// Every way a decode step's attention can meet the cache
/// (`GroupedQueries`: CUDA's broadcast and split forms as well as the CPU's
/// stacked one) computes the model's logits: run here on local-task, in
/// IREE's own code (no CPU kernel), against the f64 reference at the exact
/// tolerance, one row and four ragged rows at once. The tiny preset has
/// query heads sharing each key/value head, so the forms differ.
#[test]
fn every_form_of_the_decode_attention_matches_the_f64_reference() {
    use iree_llm::emit::GroupedQueries;
    let dir = common::tiny_dir(WeightDType::F32);
    let reference = common::reference(&dir);
    for form in [
        GroupedQueries::Stacked,
        GroupedQueries::Broadcast,
        GroupedQueries::Split,
    ] {
        let mut model =
            common::load_opts(&dir, "local-task", CAPACITY, logits_graphs(&[1, 4]), |o| {
                o.attention = Some(form);
                o.kernels = Some(iree_llm::emit::Kernels::Portable);
            });
        assert_eq!(model.manifest().plan.attention, form);
        let vocab = model.vocab();
        let tokens = prompt(9, 71, vocab);
        prefill_then_decode_within(&mut model, &reference, &tokens, 5, &format!("{form:?}"));
        common::ragged_steps_within(
            &mut model,
            &reference,
            &[3, 10, 17, 24],
            80,
            4,
            1e-4,
            &format!("{form:?}, ragged rows"),
        );
    }
}

/// The opt-in bf16 form of prompt products (`WideRows::Bf16`: rows rounded
/// to bf16, one contraction, PyTorch's precision) stays within the bf16
/// tolerance of the CPU's bf16 kernels, and is not the exact form. IREE's
/// code runs it here; on CUDA it goes to the matrix units.
#[test]
fn prompt_products_with_bf16_rows_stay_within_the_bf16_tolerance() {
    use iree_llm::emit::{Kernels, NarrowRows, WideRows};
    let dir = common::tiny_dir(WeightDType::BF16);
    let reference = common::reference(&dir);
    let mut model = common::load_opts(&dir, "local-task", CAPACITY, logits_graphs(&[1]), |o| {
        o.narrow = Some(NarrowRows::Reduce);
        o.wide = Some(WideRows::Bf16);
        o.kernels = Some(Kernels::Portable);
    });
    assert_eq!(model.manifest().plan.wide, WideRows::Bf16);
    // Prompts of more than 8 rows take the form; decode steps stay exact.
    common::assert_inexact_form_within(
        &mut model,
        &reference,
        &[(17, 71), (40, 72)],
        4,
        common::BF16_TOLERANCE,
        "bf16 prompt rows",
    );
}

/// Every way of writing a product of a few rows (`NarrowRows`: the GPU
/// forms as well as the CPU's padded one) computes the model's logits: run
/// here on local-task against the f64 reference, at the exact tolerance.
#[test]
fn every_form_of_the_narrow_products_matches_the_f64_reference() {
    use iree_llm::emit::{NarrowRows, WideRows};
    let dir = common::tiny_dir(WeightDType::BF16);
    let reference = common::reference(&dir);
    for (narrow, wide) in [
        (NarrowRows::Plain, WideRows::F32),
        (NarrowRows::Transposed, WideRows::F32),
        (NarrowRows::Reduce, WideRows::F32),
        // CUDA's prompt products: three bf16 terms, as exact as f32.
        (NarrowRows::Reduce, WideRows::Bf16Terms),
    ] {
        let mut model = common::load_opts(&dir, "local-task", CAPACITY, logits_graphs(&[1]), |o| {
            o.narrow = Some(narrow);
            o.wide = Some(wide);
            o.kernels = Some(iree_llm::emit::Kernels::Portable);
        });
        assert_eq!(model.manifest().plan.narrow, narrow);
        assert_eq!(model.manifest().plan.wide, wide);
        let vocab = model.vocab();
        for (len, seed) in [(1, 61), (17, 62)] {
            let tokens = prompt(len, seed, vocab);
            let case = format!("{narrow:?} and {wide:?}, prompt of {len}");
            prefill_then_decode_within(&mut model, &reference, &tokens, 6, &case);
        }
    }
}
