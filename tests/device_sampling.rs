//! Sampling on the device (`decode_sample_*` graphs, Gumbel-max): the draws
//! of each row follow softmax(logits / T) computed independently in f64 from
//! the logits graph's output, in batches that mix greedy rows, temperatures
//! and seeds; temperature 0 is the host's greedy choice; a row's draws do not
//! depend on its neighbours or its slot; the engine's device path and host
//! path are chosen per step by the rule and seeded runs reproduce.

mod common;

use common::{drain, prompt};
use iree_llm::emit::{EmitPlan, GraphKind, Output};
use iree_llm::engine::{BatchEngine, BatchOptions, Engine, Request};
use iree_llm::model::{DeviceModel, KvCache, LoadOptions, Quiet, RowDraw};
use iree_llm::runtime::Instance;
use iree_llm::sampler::SampleParams;
use iree_llm::types::TokenId;
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 128;
const B: usize = 8;

/// The logits and sampling decode graphs of B rows over the first window.
fn model() -> DeviceModel {
    let dir = common::tiny_dir(WeightDType::F32);
    let plan = EmitPlan::new(CAPACITY, &[B as i64]).unwrap();
    let window = plan.window_for(0);
    let graphs = [Output::Logits, Output::Sample]
        .map(|output| GraphKind::Decode {
            batch: B as i64,
            output,
            window,
            spare: 0,
        })
        .to_vec();
    let mut graphs = graphs;
    graphs.extend(
        plan.prefill_kinds(B as i64, Output::Logits)
            .into_iter()
            .take(1),
    );
    common::load(&dir, "local-task", CAPACITY, graphs)
}

/// The B prompts, the token each row feeds next and its position.
fn rows_input(vocab: usize) -> (Vec<Vec<TokenId>>, Vec<TokenId>, Vec<usize>) {
    let prompts: Vec<Vec<TokenId>> = (0..B)
        .map(|i| prompt(3 + i, 40 + i as u32, vocab))
        .collect();
    let tokens = (0..B)
        .map(|i| TokenId((7 + 31 * i as u32) % vocab as u32))
        .collect();
    let positions = prompts.iter().map(Vec::len).collect();
    (prompts, tokens, positions)
}

/// A B-slot cache with `prompts[i]` prefilled into slot i.
fn cache_with(model: &mut DeviceModel, prompts: &[Vec<TokenId>]) -> KvCache {
    let mut kv = model.new_kv_slots(B).unwrap();
    for (slot, p) in prompts.iter().enumerate() {
        model.prefill_logits_at(&mut kv, slot, p).unwrap();
    }
    kv
}

/// B slots, each prefilled with its own short prompt; returns the cache,
/// the token each row feeds next and its position.
fn prefilled(model: &mut DeviceModel) -> (KvCache, Vec<TokenId>, Vec<usize>) {
    let (prompts, tokens, positions) = rows_input(model.vocab());
    (cache_with(model, &prompts), tokens, positions)
}

fn host_argmax(row: &[f32]) -> TokenId {
    let mut best = 0;
    for (i, &x) in row.iter().enumerate() {
        if x > row[best] {
            best = i;
        }
    }
    TokenId(best as u32)
}

/// softmax(row / t) in f64.
fn softmax(row: &[f32], t: f64) -> Vec<f64> {
    let m = row.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(x as f64));
    let w: Vec<f64> = row.iter().map(|&x| ((x as f64 - m) / t).exp()).collect();
    let s: f64 = w.iter().sum();
    w.into_iter().map(|x| x / s).collect()
}

/// Pearson's chi-square of `counts` against `probs`, tokens pooled (in
/// order of probability) into bins of expected count >= 5. Returns the
/// statistic and its degrees of freedom.
fn chi_square(counts: &[u64], probs: &[f64]) -> (f64, usize) {
    let n: u64 = counts.iter().sum();
    let mut order: Vec<usize> = (0..probs.len()).collect();
    order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]));
    let mut bins = Vec::new();
    let (mut obs, mut exp) = (0.0, 0.0);
    for &v in &order {
        obs += counts[v] as f64;
        exp += probs[v] * n as f64;
        if exp >= 5.0 {
            bins.push((obs, exp));
            (obs, exp) = (0.0, 0.0);
        }
    }
    // The tail that never reached 5 joins the last bin.
    if let Some(last) = bins.last_mut() {
        last.0 += obs;
        last.1 += exp;
    }
    let stat = bins.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    (stat, bins.len().saturating_sub(1))
}

/// The chi-square value exceeded with probability about 1e-5 (Wilson and
/// Hilferty's approximation, z = 4.26).
fn critical(df: usize) -> f64 {
    let k = df as f64;
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + 4.26 * a.sqrt()).powi(3)
}

/// A batch mixing greedy rows, temperatures and seeds (rows 2 and 6 share a
/// seed but not their logits).
fn mixed_temperatures() -> [(f32, u64); B] {
    [
        (0.0, 0),
        (0.5, 11),
        (1.0, 12),
        (2.0, 13),
        (0.0, 14),
        (0.8, 15),
        (1.0, 12),
        (0.3, 17),
    ]
}

#[test]
fn device_draws_follow_softmax_of_logits_over_temperature_in_a_mixed_batch() {
    let mut model = model();
    let (mut kv, tokens, positions) = prefilled(&mut model);
    let vocab = model.vocab();
    let rows = mixed_temperatures();

    // The oracle's logits come from the logits graph on the same inputs
    // (rerunning a step rewrites the same K/V at the same positions).
    let mut logits = Vec::new();
    model
        .decode_logits(&mut kv, &tokens, &positions, &mut logits)
        .unwrap();
    let spread: Vec<f32> = (0..B)
        .map(|i| {
            let row = &logits[i * vocab..(i + 1) * vocab];
            let (lo, hi) = row
                .iter()
                .fold((f32::MAX, f32::MIN), |(a, b), &x| (a.min(x), b.max(x)));
            hi - lo
        })
        .collect();
    eprintln!("logit range per row: {spread:?}");

    let draws_per_row = 4000;
    let mut counts = vec![vec![0u64; vocab]; B];
    let mut ids = Vec::new();
    let mut sampled_logits = Vec::new();
    for n in 0..draws_per_row {
        let draws: Vec<RowDraw> = rows
            .iter()
            .map(|&(t, seed)| RowDraw::for_token(t, seed, n))
            .collect();
        // The graph's own logits, read once, agree with the logits graph.
        let read = (n == 0).then_some(&mut sampled_logits);
        model
            .decode_sample(&mut kv, &tokens, &positions, &draws, &mut ids, read)
            .unwrap();
        for (i, id) in ids.iter().enumerate() {
            counts[i][id.index()] += 1;
        }
    }
    let worst = sampled_logits
        .iter()
        .zip(&logits)
        .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
    assert!(
        worst < 1e-4,
        "the sampling graph's logits differ by {worst}"
    );

    for (i, &(t, _)) in rows.iter().enumerate() {
        let row = &logits[i * vocab..(i + 1) * vocab];
        if t == 0.0 {
            let greedy = host_argmax(row);
            assert_eq!(
                counts[i][greedy.index()],
                draws_per_row,
                "row {i} at T = 0 is the host's greedy token every time"
            );
            continue;
        }
        let (stat, df) = chi_square(&counts[i], &softmax(row, t as f64));
        let limit = critical(df);
        eprintln!("row {i}: T = {t}: chi-square {stat:.1} on {df} df (limit {limit:.1})");
        assert!(
            stat < limit,
            "row {i} (T = {t}): chi-square {stat:.1} on {df} df exceeds {limit:.1}"
        );
    }
}

#[test]
fn a_rows_draws_do_not_depend_on_its_neighbours_or_its_slot() {
    let mut model = model();
    let (mut kv, tokens, positions) = prefilled(&mut model);
    let rows = mixed_temperatures();
    let steps = 50;
    let run = |model: &mut DeviceModel,
               kv: &mut KvCache,
               tokens: &[TokenId],
               positions: &[usize],
               rows: &[(f32, u64)]| {
        let mut out = vec![Vec::new(); B];
        let mut ids = Vec::new();
        for n in 0..steps {
            let draws: Vec<RowDraw> = rows
                .iter()
                .map(|&(t, seed)| RowDraw::for_token(t, seed, n))
                .collect();
            model
                .decode_sample(kv, tokens, positions, &draws, &mut ids, None)
                .unwrap();
            for (i, id) in ids.iter().enumerate() {
                out[i].push(*id);
            }
        }
        out
    };
    let first = run(&mut model, &mut kv, &tokens, &positions, &rows);

    // Reverse the slots (caches, tokens, positions and draws move together)
    // and change every other row's temperature and seed.
    let (prompts, _, _) = rows_input(model.vocab());
    let reversed: Vec<Vec<TokenId>> = prompts.into_iter().rev().collect();
    let mut kv = cache_with(&mut model, &reversed);
    let tokens_r: Vec<TokenId> = tokens.iter().rev().copied().collect();
    let positions_r: Vec<usize> = positions.iter().rev().copied().collect();
    let mut rows_r: Vec<(f32, u64)> = rows.iter().rev().copied().collect();
    for (j, r) in rows_r.iter_mut().enumerate() {
        if j % 2 == 1 {
            *r = (1.7, 900 + j as u64);
        }
    }
    let second = run(&mut model, &mut kv, &tokens_r, &positions_r, &rows_r);
    for j in (0..B).step_by(2) {
        let i = B - 1 - j;
        assert_eq!(
            second[j], first[i],
            "row {i}, moved to slot {j} among new neighbours, drew differently"
        );
    }
    // The same seed at another temperature or another seed draws
    // differently: the draws are really random.
    assert_ne!(first[2], first[3]);
    assert!(first[2].iter().any(|&t| t != first[2][0]));
}

fn sampled_request(prompt_seed: u32, vocab: usize, params: SampleParams) -> Request {
    Request {
        params,
        ..Request::greedy(prompt(5, prompt_seed, vocab), 30)
    }
}

#[test]
fn the_engine_samples_on_the_device_unless_a_row_needs_the_host_and_seeded_runs_reproduce() {
    let dir = common::tiny_dir(WeightDType::F32);
    // Graphs load on demand, so the logits graph is there for the host-only run.
    let plan = EmitPlan::new(CAPACITY, &[4]).unwrap();
    let mut opts = LoadOptions::batched(common::device("local-task"), plan, 4);
    opts.cache = common::test_cache();
    opts.compile_on_demand = true;
    let model = DeviceModel::load(&Instance::new().unwrap(), &dir, &opts, &Quiet).unwrap();
    let mut engine = BatchEngine::new(
        model,
        BatchOptions {
            batch: 4,
            max_queue: 16,
            ..Default::default()
        },
    )
    .unwrap();
    let vocab = engine.model().vocab();
    let hot = sampled_request(1, vocab, SampleParams::with_temperature(0.9).seeded(21));
    let greedy = sampled_request(2, vocab, SampleParams::greedy());
    let filtered = sampled_request(
        3,
        vocab,
        SampleParams {
            top_k: 30,
            ..SampleParams::with_temperature(1.0)
        }
        .seeded(22),
    );

    // Temperature-only rows: every decode step is on the device path and
    // reads back 4 bytes a row.
    let a = engine.submit(hot.clone()).unwrap();
    let g = engine.submit(greedy.clone()).unwrap();
    let first = drain(&mut engine);
    let s = engine.stats();
    assert!(s.device_path_steps > 0);
    assert_eq!(s.host_path_steps, 0);
    assert_eq!(s.readback_bytes, s.device_path_steps * 4 * 4);

    // Again, with a top-k row beside them: those steps read the logits back
    // for the host, and the seeded row's tokens do not change.
    let a2 = engine.submit(hot.clone()).unwrap();
    let g2 = engine.submit(greedy.clone()).unwrap();
    let f = engine.submit(filtered).unwrap();
    let second = drain(&mut engine);
    let s2 = engine.stats();
    assert!(s2.host_path_steps > 0);
    assert_eq!(
        second[&a2].tokens, first[&a].tokens,
        "seeded run reproduces"
    );
    assert_eq!(second[&g2].tokens, first[&g].tokens);
    assert!(!second[&f].tokens.is_empty());

    // The greedy request matches the host sampler with device sampling off.
    engine.set_device_sampling(false).unwrap();
    let g3 = engine.submit(greedy).unwrap();
    let third = drain(&mut engine);
    assert_eq!(third[&g3].tokens, first[&g].tokens);
}
