//! The batch engine's penalties and logit bias, with more requests than
//! slots (so slots are reused), give exactly the tokens of a reference loop
//! that drives the same model by hand and rebuilds every penalty from the
//! request's history at every step (written here, independently of the
//! engine's incremental per-slot state).

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{batch_engine_with, drain, prompt};
use iree_llm::emit::{EmitPlan, Output};
use iree_llm::engine::{Engine, FinishReason, Request};
use iree_llm::sampler::{LogitBias, LogitParams, Penalties, SampleParams, Sampler};
use iree_llm::types::TokenId;
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 128;
const BATCH: usize = 4;

/// Bias, repetition, then frequency/presence, from the whole history.
fn rebuild(row: &mut [f32], logit: &LogitParams, prompt: &[TokenId], output: &[TokenId]) {
    let bias: BTreeMap<u32, f32> = logit
        .logit_bias
        .entries()
        .iter()
        .map(|e| (e.0.0, e.1))
        .collect();
    for (id, b) in bias {
        row[id as usize] += b;
    }
    let p = logit.penalties;
    if p.repetition != 1.0 {
        let seen: BTreeSet<u32> = prompt.iter().chain(output).map(|t| t.0).collect();
        for t in seen {
            let x = &mut row[t as usize];
            *x = if *x > 0.0 {
                *x / p.repetition
            } else {
                *x * p.repetition
            };
        }
    }
    let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
    for t in output {
        *counts.entry(t.0).or_default() += 1;
    }
    if p.frequency != 0.0 || p.presence != 0.0 {
        for (t, c) in counts {
            row[t as usize] -= p.frequency * c as f32 + p.presence;
        }
    }
}

/// The request run alone by hand on the engine's model: prefill into slot 0
/// (in the engine's chunks),
/// then decode row 0 of the batch graph (other rows idle, as the engine
/// feeds free slots), choosing each token from the rebuilt row.
fn reference(
    engine: &mut iree_llm::engine::BatchEngine,
    r: &Request,
) -> (Vec<TokenId>, FinishReason) {
    let model = engine.model_mut();
    let eos = model.config().eos_token_ids.clone();
    let vocab = model.vocab();
    let mut sampler = Sampler::new(vocab);
    let mut kv = model.new_kv_slots(BATCH).unwrap();
    let max_chunk = iree_llm::emit::DEFAULT_MAX_CHUNK;
    let mut row = model
        .prefill_chunked_logits_at(&mut kv, 0, &r.prompt, max_chunk)
        .unwrap();
    let mut out: Vec<TokenId> = Vec::new();
    let mut all = Vec::new();
    loop {
        rebuild(&mut row, &r.logit, &r.prompt, &out);
        let t = sampler.sample(&row, &r.params, out.len() as u64).unwrap();
        if eos.contains(&t) || r.stop_tokens.contains(&t) {
            return (out, FinishReason::Stop);
        }
        out.push(t);
        if out.len() >= r.max_tokens {
            return (out, FinishReason::Length);
        }
        let mut tokens = vec![TokenId(0); BATCH];
        let mut positions = vec![0usize; BATCH];
        tokens[0] = t;
        positions[0] = r.prompt.len() + out.len() - 1;
        model
            .decode_logits(&mut kv, &tokens, &positions, &mut all)
            .unwrap();
        row = all[..vocab].to_vec();
    }
}

#[test]
fn penalties_and_bias_in_the_batch_engine_match_a_rebuild_from_history() {
    let dir = common::tiny_dir(WeightDType::F32);
    // The engine decodes through the sampling graphs; the hand-driven loop
    // reads logits, so the model also loads the logits decode graphs.
    let plan = EmitPlan::new(CAPACITY, &[BATCH as i64]).unwrap();
    let logits_graphs = plan.decode_kinds(BATCH as i64, Output::Logits);
    let mut engine = batch_engine_with(&dir, BATCH, CAPACITY, &logits_graphs);
    let vocab = engine.model().vocab();
    let pen = |repetition, frequency, presence| Penalties {
        repetition,
        frequency,
        presence,
    };
    let logits = [
        LogitParams {
            penalties: pen(1.3, 0.5, 0.5),
            logit_bias: LogitBias::new([(TokenId(7), 3.0), (TokenId(8), -100.0)]),
            logprobs: None,
        },
        LogitParams {
            penalties: pen(1.0, 2.0, 0.0),
            ..LogitParams::default()
        },
        LogitParams {
            penalties: pen(0.7, -0.5, 1.0),
            ..LogitParams::default()
        },
        LogitParams::default(),
        LogitParams {
            logit_bias: LogitBias::new([(TokenId(40), 2.5)]),
            logprobs: Some(2),
            ..LogitParams::default()
        },
        LogitParams {
            penalties: pen(1.8, 0.0, 0.0),
            ..LogitParams::default()
        },
    ];
    let requests: Vec<Request> = (0..3 * BATCH)
        .map(|i| {
            let params = if i % 2 == 0 {
                SampleParams::greedy()
            } else {
                SampleParams {
                    top_k: 40,
                    ..SampleParams::with_temperature(0.9).seeded(100 + i as u64)
                }
            };
            Request {
                params,
                logit: logits[i % logits.len()].clone(),
                ..Request::greedy(prompt(3 + (i * 5) % 17, 50 + i as u32, vocab), 40)
            }
        })
        .collect();
    let ids: Vec<_> = requests
        .iter()
        .map(|r| engine.submit(r.clone()).unwrap())
        .collect();
    let done = drain(&mut engine);
    let mut plain_differs = 0;
    for (i, (id, r)) in ids.iter().zip(&requests).enumerate() {
        let (want, reason) = reference(&mut engine, r);
        assert_eq!(
            done[id].tokens, want,
            "request {i} ({:?})",
            r.logit.penalties
        );
        assert_eq!(done[id].reason, reason, "request {i}");
        let plain = Request {
            logit: LogitParams::default(),
            ..r.clone()
        };
        plain_differs += usize::from(reference(&mut engine, &plain).0 != want);
    }
    assert!(
        plain_differs >= 6,
        "the penalties changed {plain_differs} runs only"
    );
}
