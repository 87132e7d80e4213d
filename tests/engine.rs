//! The engines: the continuous-batching engine gives every greedy request the
//! tokens the single-sequence argmax engine gives it, with queueing and slot
//! reuse; seeded sampling does not depend on batch neighbours; cancellation
//! frees slots; misfits are refused up front; device errors fail only the
//! requests they touch.

mod common;

use common::{batch_engine, drain, prompt, single_engine, varied_requests};
use iree_llm::engine::{Engine, Event, Fault, FinishReason, Request, SubmitError};
use iree_llm::fit::FitError;
use iree_llm::sampler::SampleParams;
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 128;

#[test]
fn batched_greedy_matches_the_single_sequence_engine_with_more_requests_than_slots() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut single = single_engine(&dir, CAPACITY);
    for batch in [4usize, 8] {
        let mut engine = batch_engine(&dir, batch, CAPACITY);
        let requests = varied_requests(3 * batch, engine.model().vocab());
        let batched_ids: Vec<_> = requests
            .iter()
            .map(|r| engine.submit(r.clone()).unwrap())
            .collect();
        let batched = drain(&mut engine);
        let single_ids: Vec<_> = requests
            .iter()
            .map(|r| single.submit(r.clone()).unwrap())
            .collect();
        let reference = drain(&mut single);
        for (i, (b, s)) in batched_ids.iter().zip(&single_ids).enumerate() {
            assert_eq!(
                batched[b].tokens, reference[s].tokens,
                "B={batch}: request {i} diverged"
            );
            assert_eq!(
                batched[b].reason, reference[s].reason,
                "B={batch}: request {i} ended differently"
            );
        }
        let stats = engine.stats();
        assert_eq!(
            stats.prefills as usize,
            3 * batch,
            "every request was prefilled once"
        );
        assert!(stats.decode_steps > 0);
    }
}

#[test]
fn seeded_requests_get_the_same_tokens_whatever_they_are_batched_with() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = batch_engine(&dir, 4, CAPACITY);
    let vocab = engine.model().vocab();
    let params = [
        SampleParams::greedy(),
        SampleParams {
            temperature: 0.9,
            top_k: 20,
            ..SampleParams::greedy()
        }
        .seeded(7),
        SampleParams {
            temperature: 1.2,
            top_p: 0.8,
            ..SampleParams::greedy()
        }
        .seeded(8),
        SampleParams {
            temperature: 1.0,
            top_k: 40,
            top_p: 0.9,
            min_p: 0.05,
            seed: Some(9),
        },
        SampleParams::with_temperature(1.5).seeded(10),
    ];
    let requests: Vec<Request> = params
        .iter()
        .enumerate()
        .map(|(i, p)| Request {
            params: *p,
            ..Request::greedy(prompt(3 + 4 * i, 200 + i as u32, vocab), 24)
        })
        .collect();

    let mut alone = Vec::new();
    for r in &requests {
        let id = engine.submit(r.clone()).unwrap();
        alone.push(drain(&mut engine).remove(&id).unwrap());
    }
    // Together, in reverse order so each lands in a different slot.
    let ids: Vec<_> = requests
        .iter()
        .rev()
        .map(|r| engine.submit(r.clone()).unwrap())
        .collect();
    let together = drain(&mut engine);
    for (i, id) in ids.iter().rev().enumerate() {
        assert_eq!(
            together[id].tokens, alone[i].tokens,
            "request {i} changed when batched with others"
        );
        assert_eq!(together[id].reason, alone[i].reason);
        if let Some(seed) = requests[i].params.seed {
            assert_eq!(
                together[id].seed, seed,
                "the engine reports the request's own seed"
            );
        }
    }
    // Sampling is really happening: the hot requests are not all greedy copies.
    let greedy = alone[0].tokens.clone();
    assert!(alone[1..].iter().any(|o| o.tokens != greedy));
}

#[test]
fn an_unseeded_request_reports_the_seed_that_reproduces_it() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = batch_engine(&dir, 4, CAPACITY);
    let vocab = engine.model().vocab();
    let base = Request {
        params: SampleParams::with_temperature(1.0),
        ..Request::greedy(prompt(5, 3, vocab), 20)
    };
    let id = engine.submit(base.clone()).unwrap();
    let first = drain(&mut engine).remove(&id).unwrap();
    let again = Request {
        params: base.params.seeded(first.seed),
        ..base
    };
    let id = engine.submit(again).unwrap();
    assert_eq!(drain(&mut engine).remove(&id).unwrap().tokens, first.tokens);
}

#[test]
fn cancelling_frees_the_slot_for_the_next_request() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = batch_engine(&dir, 4, CAPACITY);
    let vocab = engine.model().vocab();
    let ids: Vec<_> = (0..5)
        .map(|i| {
            engine
                .submit(Request::greedy(prompt(4, 300 + i, vocab), 100))
                .unwrap()
        })
        .collect();
    engine.step();
    assert_eq!(engine.status().active, 4);
    assert_eq!(engine.status().queued, 1);
    let slot = engine.slot_of(ids[1]).unwrap();

    assert!(engine.cancel(ids[1]));
    assert!(
        !engine.cancel(ids[1]),
        "a finished request cannot be cancelled twice"
    );
    let events = engine.step();
    assert!(events.iter().any(|e| matches!(e, Event::Finished { id, reason: FinishReason::Cancelled, .. } if *id == ids[1])));
    assert_eq!(
        engine.slot_of(ids[4]),
        Some(slot),
        "the queued request took the freed slot"
    );
    assert_eq!(engine.status().queued, 0);

    // A queued request can be cancelled too.
    let extra = engine
        .submit(Request::greedy(prompt(4, 9, vocab), 5))
        .unwrap();
    assert!(engine.cancel(extra));
    let events = engine.step();
    assert!(events.iter().any(|e| matches!(e, Event::Finished { id, reason: FinishReason::Cancelled, generated: 0, .. } if *id == extra)));
    for id in [ids[0], ids[2], ids[3], ids[4]] {
        engine.cancel(id);
    }
    drain(&mut engine);
    assert!(engine.is_idle());
}

#[test]
fn requests_that_cannot_fit_are_refused_before_any_device_work() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = batch_engine(&dir, 4, CAPACITY);
    let vocab = engine.model().vocab();
    let before = engine.stats();
    let err = engine
        .submit(Request::greedy(prompt(100, 1, vocab), 29))
        .unwrap_err();
    assert!(
        matches!(
            err,
            SubmitError::Fit(FitError::DoesNotFit {
                prompt: 100,
                max_tokens: 29,
                capacity: 128
            })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("129 tokens"), "{err}");
    assert!(
        engine
            .submit(Request::greedy(prompt(100, 1, vocab), 28))
            .is_ok()
    );
    let err = engine.submit(Request::greedy(vec![], 4)).unwrap_err();
    assert!(matches!(err, SubmitError::Fit(FitError::EmptyPrompt)));
    let err = engine
        .submit(Request::greedy(prompt(3, 1, vocab), 0))
        .unwrap_err();
    assert!(matches!(err, SubmitError::NoTokensRequested));
    let mut bad = Request::greedy(prompt(3, 1, vocab), 4);
    bad.prompt[1] = iree_llm::TokenId(vocab as u32);
    assert!(matches!(
        engine.submit(bad).unwrap_err(),
        SubmitError::Fit(FitError::TokenOutOfRange { .. })
    ));
    let mut bad = Request::greedy(prompt(3, 1, vocab), 4);
    bad.params.top_p = 0.0;
    let err = engine.submit(bad).unwrap_err();
    assert!(err.to_string().contains("top_p"), "{err}");
    assert_eq!(
        engine.stats().prefills,
        before.prefills,
        "nothing reached the device"
    );
    assert_eq!(
        engine.status().queued,
        1,
        "only the request that fits was queued"
    );
}

#[test]
fn a_device_error_fails_the_requests_it_touches_and_the_engine_carries_on() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = batch_engine(&dir, 4, CAPACITY);
    let vocab = engine.model().vocab();
    let healthy = Request::greedy(prompt(6, 50, vocab), 10);
    let id = engine.submit(healthy.clone()).unwrap();
    let expected = drain(&mut engine).remove(&id).unwrap();

    // A failed decode ends every running request with an error.
    let a = engine
        .submit(Request::greedy(prompt(5, 1, vocab), 30))
        .unwrap();
    let b = engine
        .submit(Request::greedy(prompt(7, 2, vocab), 30))
        .unwrap();
    engine.step();
    engine.inject_fault(Fault::NextDecode);
    let events = engine.step();
    for id in [a, b] {
        assert!(
            events.iter().any(|e| matches!(e, Event::Finished { id: x, reason: FinishReason::Error, message: Some(m), .. } if *x == id && m.contains("injected"))),
            "request {id} did not fail: {events:?}"
        );
    }
    assert!(engine.is_idle());

    // A failed prefill ends only the request being admitted.
    let c = engine
        .submit(Request::greedy(prompt(5, 3, vocab), 30))
        .unwrap();
    engine.step();
    engine.inject_fault(Fault::NextPrefill);
    let d = engine
        .submit(Request::greedy(prompt(5, 4, vocab), 30))
        .unwrap();
    let events = engine.step();
    assert!(
        events.iter().any(
            |e| matches!(e, Event::Finished { id, reason: FinishReason::Error, .. } if *id == d)
        )
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Token { id, .. } if *id == c)),
        "the running request went on"
    );
    engine.cancel(c);
    drain(&mut engine);

    // And the next request is served exactly as before the failures.
    let id = engine.submit(healthy).unwrap();
    let after = drain(&mut engine).remove(&id).unwrap();
    assert_eq!(
        (after.tokens, after.reason),
        (expected.tokens, expected.reason)
    );
}

#[test]
fn stop_tokens_end_a_request_without_being_emitted_and_max_tokens_ends_it_with_length() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = batch_engine(&dir, 4, CAPACITY);
    let vocab = engine.model().vocab();
    let base = Request::greedy(prompt(9, 77, vocab), 12);
    let id = engine.submit(base.clone()).unwrap();
    let full = drain(&mut engine).remove(&id).unwrap();
    assert_eq!(full.reason, FinishReason::Length);
    assert_eq!(full.tokens.len(), 12);

    let stop_at = full
        .tokens
        .iter()
        .position(|t| !full.tokens[..3].contains(t))
        .unwrap()
        .max(3);
    let stop = full.tokens[stop_at];
    let first = full.tokens.iter().position(|t| *t == stop).unwrap();
    let id = engine
        .submit(iree_llm::engine::Request {
            stop_tokens: vec![stop],
            ..base
        })
        .unwrap();
    let stopped = drain(&mut engine).remove(&id).unwrap();
    assert_eq!(stopped.reason, FinishReason::Stop);
    assert_eq!(stopped.tokens, full.tokens[..first]);
}

#[test]
fn the_single_sequence_engine_refuses_sampling() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut single = single_engine(&dir, CAPACITY);
    let r = Request {
        params: SampleParams::with_temperature(0.7),
        ..Request::greedy(prompt(3, 1, 512), 4)
    };
    assert!(matches!(
        single.submit(r).unwrap_err(),
        SubmitError::GreedyOnly
    ));
}
