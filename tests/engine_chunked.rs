//! The batch engine admits by chunked prefill: while a slot generates, each
//! step runs at most one prompt chunk and then the decode, so a running
//! request gets a token every step however long the prompt being admitted;
//! every chunk rides inside the decode call (one call for both) unless the
//! engine runs separate chunks (or chooses, prompt by prompt, by what
//! each way has cost); prompts of several chunks give the
//! single-sequence engine's greedy tokens either way; `n` choices,
//! cancellation and device errors work in the middle of a prompt's chunks.

mod common;

use std::path::Path;

use common::{drain, prompt, run_all, single_engine};
use iree_llm::emit::{Padding, chunk_plan};
use iree_llm::engine::{BatchEngine, BatchOptions, Engine, Event, Fault, FinishReason, Request};
use iree_llm::types::{RequestId, TokenId};
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 128;
/// Small chunks, so the test prompts take several.
const MAX_CHUNK: usize = 16;
/// The chunks decode calls carry.
const CARRIED_CHUNK: usize = 8;

fn engine(dir: &Path, batch: usize) -> BatchEngine {
    engine_with(dir, batch, true)
}

/// `decode_chunks`: whether chunks ride in the decode calls.
fn engine_with(dir: &Path, batch: usize, decode_chunks: bool) -> BatchEngine {
    common::batch_engine_opts(dir, CAPACITY, &[], options(batch, decode_chunks))
}

fn options(batch: usize, decode_chunks: bool) -> BatchOptions {
    BatchOptions {
        batch,
        max_queue: 64,
        max_chunk: MAX_CHUNK,
        decode_chunks,
        choose_carry: false,
        carried_chunk: CARRIED_CHUNK,
        spare_slot: false,
    }
}

fn token_ids(events: &[Event], id: RequestId) -> Vec<TokenId> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Token { id: i, token, .. } if *i == id => Some(*token),
            _ => None,
        })
        .collect()
}

fn tokens_of(events: &[Event], id: RequestId) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::Token { id: i, .. } if *i == id))
        .count()
}

#[test]
fn a_running_request_gets_a_token_every_step_while_a_long_prompt_is_prefilled_chunk_by_chunk() {
    let dir = common::tiny_dir(WeightDType::F32);
    for decode_chunks in [true, false] {
        let mut engine = engine_with(&dir, 4, decode_chunks);
        let vocab = engine.model().vocab();
        let running = engine
            .submit(Request::greedy(prompt(5, 1, vocab), 60))
            .unwrap();
        let events = engine.step();
        assert_eq!(
            tokens_of(&events, running),
            2,
            "prefill token and one decode"
        );

        let long = prompt(100, 2, vocab);
        let size = if decode_chunks {
            CARRIED_CHUNK
        } else {
            MAX_CHUNK
        };
        let chunks = chunk_plan(long.len(), CAPACITY, size, Padding::Multiplied).len();
        assert!(
            chunks >= 6,
            "100 tokens in chunks of {size}: {chunks} chunks"
        );
        let admitted = engine.submit(Request::greedy(long, 4)).unwrap();
        for step in 1..=chunks {
            let case = format!("decode chunks {decode_chunks}, step {step}");
            let before = engine.stats();
            let events = engine.step();
            let after = engine.stats();
            assert_eq!(
                after.prefill_chunks - before.prefill_chunks,
                1,
                "{case}: one chunk per step"
            );
            // Every chunk rides in the decode call, or runs alone before it.
            let (plain, carrying) = if decode_chunks { (0, 1) } else { (1, 0) };
            assert_eq!(after.decode_steps - before.decode_steps, plain, "{case}");
            assert_eq!(after.mixed_steps - before.mixed_steps, carrying, "{case}");
            assert_eq!(
                tokens_of(&events, running),
                1,
                "{case}: the running request gets its token"
            );
            let first = tokens_of(&events, admitted);
            if step < chunks {
                assert_eq!(first, 0, "{case}: the prompt is not done");
            } else if decode_chunks {
                // The carried last chunk's token; the slot decodes from the
                // next step.
                assert_eq!(first, 1, "{case}: the long prompt starts generating");
            } else {
                // The last chunk's token, and the first decode of the new slot.
                assert_eq!(first, 2, "{case}: the long prompt starts generating");
            }
        }
        assert_eq!(engine.stats().prefills, 2);
        drain(&mut engine);
    }
}

#[test]
fn when_every_running_request_ends_the_rest_of_a_carried_prompt_runs_in_large_chunks() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, 4);
    let vocab = engine.model().vocab();
    // One token to go after its prefill: it ends in the first step's decode.
    let short = engine
        .submit(Request::greedy(prompt(5, 1, vocab), 3))
        .unwrap();
    engine.step();
    let long = prompt(100, 2, vocab);
    let admitted = engine.submit(Request::greedy(long.clone(), 4)).unwrap();
    let mut events = Vec::new();
    let mut steps = 0;
    while tokens_of(&events, admitted) == 0 {
        events.extend(engine.step());
        steps += 1;
        assert!(steps <= 20, "the long prompt never started");
    }
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Finished { id, .. } if *id == short))
    );
    // 8-token chunks while the short request ran, then chunks of up to 16
    // in the step after it ended, all at once: far fewer chunk calls than
    // 100 / 8.
    let chunks = engine.stats().prefill_chunks - 1;
    assert!(
        chunks < chunk_plan(long.len(), CAPACITY, CARRIED_CHUNK, Padding::Multiplied).len() as u64,
        "{chunks} chunks"
    );
    while !engine.is_idle() {
        events.extend(engine.step());
    }
    let mut single = single_engine(&dir, CAPACITY);
    let want = run_all(&mut single, &[Request::greedy(long, 4)]);
    assert_eq!(token_ids(&events, admitted), want[0].tokens);
}

/// An engine that chooses, prompt by prompt, whether a prompt admitted
/// while others run is carried or runs alone (`choose_carry`), with the
/// spare slot carrying gives.
fn choosing_engine(dir: &Path, batch: usize) -> BatchEngine {
    let opts = BatchOptions {
        choose_carry: true,
        spare_slot: true,
        ..options(batch, true)
    };
    common::batch_engine_opts(dir, CAPACITY, &[], opts)
}

#[test]
fn an_engine_choosing_the_way_measures_both_and_keeps_the_greedy_tokens() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut single = single_engine(&dir, CAPACITY);
    let vocab = single.model().vocab();
    let requests = common::varied_requests(24, vocab);
    let want = run_all(&mut single, &requests);
    let mut engine = choosing_engine(&dir, 4);
    let got = run_all(&mut engine, &requests);
    for (i, (b, s)) in got.iter().zip(&want).enumerate() {
        assert_eq!(b.tokens, s.tokens, "request {i}");
        assert_eq!(b.reason, s.reason, "request {i}");
    }
    let stats = engine.stats();
    assert_eq!(stats.prefills as usize, requests.len());
    // Each way prefills prompts while others run before either is
    // preferred, whatever the timings, and both have a cost a token.
    assert!(stats.carried_prompts >= 4, "{stats:?}");
    assert!(stats.alone_prompts >= 1, "{stats:?}");
    assert!(stats.mixed_steps >= stats.carried_prompts, "{stats:?}");
    let costs = engine.carry_costs();
    assert_eq!(
        costs.len(),
        3,
        "carried in chunks of 4 and of 8, and alone: {costs:?}"
    );
    for (way, cost) in costs {
        let least = if way.is_some() {
            0.0
        } else {
            f64::MIN_POSITIVE
        };
        assert!(cost.is_some_and(|c| c >= least), "{way:?}: {cost:?}");
    }
}

#[test]
fn prompts_of_several_chunks_give_the_single_engines_greedy_tokens() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut single = single_engine(&dir, CAPACITY);
    let vocab = single.model().vocab();
    // Lengths around chunk sizes, several chunks, and capacity - 1 (one
    // token to generate); more requests than slots.
    let lengths = [1, 17, 33, 47, 64, 100, 9, 120, 127, 24, 65];
    let requests: Vec<Request> = lengths
        .iter()
        .enumerate()
        .map(|(i, &len)| {
            let cap = (CAPACITY as usize - len).min(10);
            Request::greedy(prompt(len, 30 + i as u32, vocab), cap)
        })
        .collect();
    let want = run_all(&mut single, &requests);
    for decode_chunks in [false, true] {
        let mut engine = engine_with(&dir, 4, decode_chunks);
        let got = run_all(&mut engine, &requests);
        for (i, (b, s)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                b.tokens, s.tokens,
                "prompt of {} tokens, decode chunks {decode_chunks}",
                lengths[i]
            );
            assert_eq!(b.reason, s.reason);
        }
        let stats = engine.stats();
        assert_eq!(stats.prefills as usize, lengths.len());
        let chunks = |size| -> usize {
            lengths
                .iter()
                .map(|&l| chunk_plan(l, CAPACITY, size, Padding::Multiplied).len())
                .sum()
        };
        let ran = stats.prefill_chunks as usize;
        // Without the choice, one way for every prompt admitted while
        // others run.
        let (carried, alone) = (stats.carried_prompts, stats.alone_prompts);
        if decode_chunks {
            assert!(
                carried > 0 && alone == 0,
                "{carried} carried, {alone} alone"
            );
        } else {
            assert!(
                carried == 0 && alone > 0,
                "{carried} carried, {alone} alone"
            );
        }
        if decode_chunks {
            // Carried chunks are smaller while others run.
            assert!(
                ran > chunks(MAX_CHUNK) && ran <= chunks(CARRIED_CHUNK),
                "{ran}"
            );
        } else {
            assert_eq!(ran, chunks(MAX_CHUNK));
        }
    }
}

#[test]
fn choices_share_one_chunked_prefill_admitted_while_another_request_runs() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, 4);
    let mut single = single_engine(&dir, CAPACITY);
    let vocab = engine.model().vocab();
    let other = engine
        .submit(Request::greedy(prompt(3, 5, vocab), 30))
        .unwrap();
    engine.step();
    let request = Request::greedy(prompt(50, 6, vocab), 8);
    let before = engine.stats();
    let ids = engine.submit_choices(request.clone(), 3).unwrap();
    let got = drain(&mut engine);
    let after = engine.stats();
    assert_eq!(after.prefills - before.prefills, 1, "prefilled once");
    // Carried, in the decode calls of the other request's steps.
    assert_eq!(
        (after.prefill_chunks - before.prefill_chunks) as usize,
        chunk_plan(50, CAPACITY, CARRIED_CHUNK, Padding::Multiplied).len()
    );
    let sid = single.submit(request).unwrap();
    let want = drain(&mut single);
    for id in ids {
        assert_eq!(got[&id].tokens, want[&sid].tokens, "choice {id:?}");
    }
    assert!(got.contains_key(&other), "the running request finished too");
}

#[test]
fn cancelling_or_failing_a_prompt_between_its_chunks_frees_its_slot() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, 4);
    let mut single = single_engine(&dir, CAPACITY);
    let vocab = engine.model().vocab();
    let running = engine
        .submit(Request::greedy(prompt(4, 8, vocab), 40))
        .unwrap();
    engine.step();

    // Cancelled after its first chunk.
    let cancelled = engine
        .submit(Request::greedy(prompt(90, 9, vocab), 5))
        .unwrap();
    engine.step();
    assert_eq!(
        engine.status().queued,
        1,
        "being prefilled counts as queued"
    );
    assert!(engine.cancel(cancelled));
    let events = engine.step();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Finished { id, reason: FinishReason::Cancelled, .. } if *id == cancelled
    )));
    assert_eq!(tokens_of(&events, cancelled), 0);

    // Failed at its second chunk: only it ends, with an error.
    let failed = engine
        .submit(Request::greedy(prompt(70, 10, vocab), 5))
        .unwrap();
    engine.step();
    engine.inject_fault(Fault::NextPrefill);
    let events = engine.step();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Finished { id, reason: FinishReason::Error, .. } if *id == failed
    )));
    assert_eq!(
        tokens_of(&events, running),
        1,
        "the running request goes on"
    );

    // The slots are free again and the next prompts run exactly.
    let requests: Vec<Request> = (0..4)
        .map(|i| Request::greedy(prompt(40 + 13 * i, 11 + i as u32, vocab), 6))
        .collect();
    let got = run_all(&mut engine, &requests);
    let want = run_all(&mut single, &requests);
    for (b, s) in got.iter().zip(&want) {
        assert_eq!(b.tokens, s.tokens);
    }
    assert!(engine.is_idle());
}

#[test]
fn a_carried_chunk_rides_in_the_decode_call_and_the_prompt_decodes_from_the_next_step() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, 4);
    let vocab = engine.model().vocab();
    let running = engine
        .submit(Request::greedy(prompt(6, 3, vocab), 30))
        .unwrap();
    engine.step();

    // 8 tokens: one chunk, carried by the running slot's decode call.
    let short = engine
        .submit(Request::greedy(prompt(CARRIED_CHUNK, 4, vocab), 8))
        .unwrap();
    let before = engine.stats();
    let events = engine.step();
    let after = engine.stats();
    assert_eq!(after.mixed_steps - before.mixed_steps, 1, "one call");
    assert_eq!(after.decode_steps, before.decode_steps);
    assert_eq!(after.prefill_chunks - before.prefill_chunks, 1);
    assert_eq!(
        after.prefill_time, before.prefill_time,
        "no call of its own"
    );
    assert_eq!(after.prefills - before.prefills, 1);
    assert_eq!(
        tokens_of(&events, running),
        1,
        "the running request's token"
    );
    assert_eq!(
        tokens_of(&events, short),
        1,
        "the prompt's first token, from the chunk's logits"
    );
    // Its slot decodes from the next step, in a plain decode call.
    let events = engine.step();
    assert_eq!(tokens_of(&events, short), 1);
    assert_eq!(tokens_of(&events, running), 1);
    assert_eq!(engine.stats().mixed_steps, after.mixed_steps);
    drain(&mut engine);
}

#[test]
fn with_nothing_running_every_free_slot_is_filled_before_the_first_decode_step() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, 4);
    let vocab = engine.model().vocab();
    let ids: Vec<RequestId> = (0..5)
        .map(|i| {
            engine
                .submit(Request::greedy(prompt(CARRIED_CHUNK, 20 + i, vocab), 10))
                .unwrap()
        })
        .collect();
    // Decode calls carry chunks, yet the four free slots' prompts run in
    // calls of their own first: a decode step costs as much with one row
    // as with four. Each then has its first token and one decoded.
    let events = engine.step();
    let stats = engine.stats();
    assert_eq!(stats.prefill_chunks, 4);
    assert_eq!(stats.mixed_steps, 0, "nothing rode");
    for &id in &ids[..4] {
        assert_eq!(tokens_of(&events, id), 2);
    }
    assert_eq!(tokens_of(&events, ids[4]), 0, "the fifth waits for a slot");
    drain(&mut engine);
}

/// f32 weights take IREE's attention for a chunk; bf16 weights on x86-64
/// the decode attention kernel's (each chunk row a decode row of its slot).
#[test]
fn carried_and_separate_chunks_give_the_single_engines_greedy_tokens() {
    for dtype in [WeightDType::F32, WeightDType::BF16] {
        let dir = common::tiny_dir(dtype);
        let mut single = single_engine(&dir, CAPACITY);
        let vocab = engine(&dir, 4).model().vocab();
        // More requests than slots, so prompts are admitted while others
        // run: one chunk, several chunks, every one carried.
        let lengths = [5, 9, 16, 3, 40, 12, 70, 1, 23, 8];
        let requests: Vec<Request> = lengths
            .iter()
            .enumerate()
            .map(|(i, &len)| Request::greedy(prompt(len, 60 + i as u32, vocab), 6 + i % 5))
            .collect();
        let want = run_all(&mut single, &requests);
        // Carried in chunks of the smallest graph, and of 4 tokens in it.
        for (decode_chunks, carried_chunk) in [(true, CARRIED_CHUNK), (true, 4), (false, 8)] {
            let opts = BatchOptions {
                carried_chunk,
                ..options(4, decode_chunks)
            };
            let mut engine = common::batch_engine_opts(&dir, CAPACITY, &[], opts);
            let got = run_all(&mut engine, &requests);
            for (i, (b, s)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    b.tokens,
                    s.tokens,
                    "{} weights, prompt of {} tokens, decode chunks {decode_chunks} of \
                     {carried_chunk}",
                    dtype.name(),
                    lengths[i]
                );
                assert_eq!(b.reason, s.reason);
            }
            let carried = engine.stats().mixed_steps;
            if decode_chunks {
                // Chunks of prompts admitted while others ran (not those
                // of the first four, nor the rest of a prompt after every
                // running request ended).
                assert!(carried >= 6, "{carried} chunks carried");
            } else {
                assert_eq!(carried, 0, "every chunk a call of its own");
            }
        }
    }
}

#[test]
fn a_device_error_in_a_decode_call_carrying_a_chunk_fails_its_prompt_and_the_rows_decode_again_alone()
 {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, 4);
    let mut single = single_engine(&dir, CAPACITY);
    let vocab = engine.model().vocab();
    let running_request = Request::greedy(prompt(7, 5, vocab), 12);
    let running = engine.submit(running_request.clone()).unwrap();
    let mut seen = token_ids(&engine.step(), running);
    let admitted = engine
        .submit(Request::greedy(prompt(10, 6, vocab), 5))
        .unwrap();
    // The carrying call fails (as the decode would): its prompt ends with an
    // error, the running row is decoded again in a plain call and goes on.
    engine.inject_fault(Fault::NextDecode);
    let before = engine.stats();
    let events = engine.step();
    let after = engine.stats();
    assert_eq!(after.mixed_steps - before.mixed_steps, 1, "the failed call");
    assert_eq!(after.decode_steps - before.decode_steps, 1, "the retry");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Finished { id, reason: FinishReason::Error, .. } if *id == admitted
    )));
    assert_eq!(
        tokens_of(&events, running),
        1,
        "the running request goes on"
    );
    seen.extend(token_ids(&events, running));

    // A chunk that fails before its call ends only its prompt too.
    let second = engine
        .submit(Request::greedy(prompt(9, 7, vocab), 5))
        .unwrap();
    engine.inject_fault(Fault::NextPrefill);
    let events = engine.step();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Finished { id, reason: FinishReason::Error, .. } if *id == second
    )));
    assert_eq!(tokens_of(&events, running), 1);
    seen.extend(token_ids(&events, running));

    // The running request's tokens are the single engine's, and the next
    // requests run exactly.
    seen.extend(drain(&mut engine)[&running].tokens.iter().copied());
    let sid = single.submit(running_request).unwrap();
    assert_eq!(seen, drain(&mut single)[&sid].tokens);
    let requests: Vec<Request> = (0..5)
        .map(|i| Request::greedy(prompt(4 + 9 * i, 20 + i as u32, vocab), 7))
        .collect();
    let got = run_all(&mut engine, &requests);
    let want = run_all(&mut single, &requests);
    for (b, s) in got.iter().zip(&want) {
        assert_eq!(b.tokens, s.tokens);
    }
    assert!(engine.is_idle());
}
