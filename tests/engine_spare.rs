//! A spare cache slot (`BatchOptions::spare_slot`): while every row decodes,
//! the prompt at the head of the queue is prefilled into a slot no decode
//! row uses, its chunks carried by the decode calls; when a row ends, the
//! prompt's cache moves to that row's slot and the request decodes from the
//! next step. Every request still gets the single-sequence engine's greedy
//! tokens, one a step from its first, and a request waiting in the spare
//! slot can be cancelled.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{prompt, run_all, single_engine, varied_requests};
use iree_llm::engine::{BatchEngine, BatchOptions, Engine, Event, FinishReason, Request};
use iree_llm::sampler::{Penalties, SampleParams};
use iree_llm::types::RequestId;
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 128;
const BATCH: usize = 4;

fn engine(dir: &Path, spare_slot: bool) -> BatchEngine {
    common::batch_engine_opts(
        dir,
        CAPACITY,
        &[],
        BatchOptions {
            batch: BATCH,
            max_queue: 64,
            max_chunk: 16,
            decode_chunks: true,
            choose_carry: false,
            carried_chunk: 8,
            spare_slot,
        },
    )
}

#[test]
fn with_a_spare_slot_every_request_gets_its_single_sequence_greedy_tokens() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut spare = engine(&dir, true);
    let vocab = spare.model().vocab();
    let requests = varied_requests(14, vocab);
    let got = run_all(&mut spare, &requests);
    assert!(
        spare.stats().spare_prefills >= 3,
        "prompts went through the spare slot: {}",
        spare.stats().spare_prefills
    );
    let mut single = single_engine(&dir, CAPACITY);
    let want = run_all(&mut single, &requests);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g.tokens, w.tokens, "request {i}");
        assert_eq!(g.reason, w.reason, "request {i}");
    }
}

/// Penalties live in a slot's sampler state, which moves with the request
/// from the spare slot to its row; seeded draws depend on the request
/// alone. So the same requests give the same tokens with or without it.
#[test]
fn penalties_and_seeded_draws_follow_a_request_out_of_the_spare_slot() {
    let dir = common::tiny_dir(WeightDType::F32);
    let vocab = engine(&dir, false).model().vocab();
    let requests: Vec<Request> = (0..14)
        .map(|i| {
            let max_tokens = 8 + (i * 5) % 13;
            let mut r = Request::greedy(prompt(3 + 4 * i, 200 + i as u32, vocab), max_tokens);
            if i % 2 == 0 {
                r.logit.penalties = Penalties {
                    repetition: 1.3,
                    frequency: 0.5,
                    presence: 0.4,
                };
            }
            if i % 3 == 0 {
                r.params = SampleParams::with_temperature(0.9).seeded(7 + i as u64);
            }
            r
        })
        .collect();
    let mut spare = engine(&dir, true);
    let got = run_all(&mut spare, &requests);
    assert!(
        spare.stats().spare_prefills >= 2,
        "{} prompts through the spare slot",
        spare.stats().spare_prefills
    );
    let want = run_all(&mut engine(&dir, false), &requests);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!((&g.tokens, g.reason), (&w.tokens, w.reason), "request {i}");
    }
}

/// Per request, the steps (by number) whose events held one of its tokens.
fn token_steps(engine: &mut BatchEngine) -> BTreeMap<RequestId, Vec<usize>> {
    let mut steps: BTreeMap<RequestId, Vec<usize>> = BTreeMap::new();
    let mut n = 0;
    while !engine.is_idle() {
        for event in engine.step() {
            if let Event::Token { id, .. } = event {
                steps.entry(id).or_default().push(n);
            }
        }
        n += 1;
        assert!(n < 10_000, "the engine never became idle");
    }
    steps
}

#[test]
fn a_request_prefilled_into_the_spare_slot_gets_its_tokens_one_a_step_from_the_first() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, true);
    let vocab = engine.model().vocab();
    // Rows of different lengths, so that prompts wait in the spare slot
    // for several steps before a row ends.
    for i in 0..10 {
        let max_tokens = 6 + (i * 5) % 17;
        engine
            .submit(Request::greedy(
                prompt(5 + i, 40 + i as u32, vocab),
                max_tokens,
            ))
            .unwrap();
    }
    let steps = token_steps(&mut engine);
    assert!(engine.stats().spare_prefills >= 2);
    for (id, s) in &steps {
        // A prompt prefilled alone decodes in the same step: gap 0.
        let gaps: Vec<usize> = s.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(
            gaps.iter().all(|&g| g <= 1),
            "request {id}: tokens at steps {s:?}"
        );
    }
}

#[test]
fn a_request_waiting_in_the_spare_slot_is_cancelled_after_its_first_token() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, true);
    let vocab = engine.model().vocab();
    for i in 0..BATCH {
        engine
            .submit(Request::greedy(prompt(4, 60 + i as u32, vocab), 40))
            .unwrap();
    }
    let waiting = engine
        .submit(Request::greedy(prompt(11, 99, vocab), 10))
        .unwrap();
    let mut seen = Vec::new();
    for _ in 0..20 {
        seen.extend(engine.step());
        if engine.stats().spare_prefills == 1 {
            break;
        }
    }
    assert_eq!(engine.stats().spare_prefills, 1, "the prompt was prefilled");
    let status = engine.status();
    assert_eq!((status.active, status.queued), (BATCH, 1), "{status:?}");
    assert!(
        !seen
            .iter()
            .any(|e| matches!(e, Event::Token { id, .. } if *id == waiting)),
        "its first token waits for a row"
    );
    assert!(engine.cancel(waiting));
    let events = engine.step();
    let mine: Vec<&Event> = events
        .iter()
        .filter(|e| match e {
            Event::Prefilled { .. } => false,
            Event::Token { id, .. } | Event::Finished { id, .. } => *id == waiting,
        })
        .collect();
    assert!(
        matches!(
            mine[..],
            [
                Event::Token { index: 0, .. },
                Event::Finished {
                    reason: FinishReason::Cancelled,
                    generated: 1,
                    ..
                }
            ]
        ),
        "{mine:?}"
    );
    let rest = common::drain(&mut engine);
    assert_eq!(rest.len(), BATCH, "the running requests end as before");
}

#[test]
fn a_prompts_cache_moves_between_slots_up_to_its_length() {
    let mut model = common::tiny_prefill_model(CAPACITY, 5);
    let mut kv = model.new_kv_with_spare(4, 1).unwrap();
    assert_eq!((kv.rows(), kv.spare(), kv.slots()), (4, 1, 5));
    let vocab = model.vocab();
    // Slot 2's prompt is longer than the 14 positions copied over it.
    for (slot, len) in [(2, 20), (4, 14)] {
        let tokens = prompt(len, slot as u32, vocab);
        model.prefill_logits_at(&mut kv, slot, &tokens).unwrap();
    }
    // [layers, 2, slots * kv_heads, capacity, head_dim]
    let shape: Vec<usize> = kv.buffer().shape().iter().map(|&n| n as usize).collect();
    let (heads, capacity, d) = (shape[2] / 5, shape[3], shape[4]);
    let at = |data: &[f32], slot: usize, position: usize| -> Vec<f32> {
        let mut out = Vec::new();
        for lk in data.chunks(5 * heads * capacity * d) {
            for h in 0..heads {
                let start = ((slot * heads + h) * capacity + position) * d;
                out.extend_from_slice(&lk[start..start + d]);
            }
        }
        out
    };
    let before = model.read_kv(&kv).unwrap();
    model.copy_kv_positions(&mut kv, 4, 2, 14).unwrap();
    let after = model.read_kv(&kv).unwrap();
    for position in 0..capacity {
        let want = if position < 14 {
            at(&before, 4, position)
        } else {
            at(&before, 2, position)
        };
        assert_eq!(at(&after, 2, position), want, "slot 2, position {position}");
        for slot in [0, 1, 3, 4] {
            assert_eq!(at(&after, slot, position), at(&before, slot, position));
        }
    }
    assert!(
        model
            .copy_kv_positions(&mut kv, 4, 2, capacity + 1)
            .is_err()
    );
}
