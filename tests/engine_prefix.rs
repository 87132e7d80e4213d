//! Prefix reuse in the batch engine: a prompt that starts with what a free
//! slot's cache still holds (an earlier turn of its conversation, a system
//! prompt shared by many requests) is admitted into that slot and
//! prefilled from where the two differ; a prefix another slot holds is
//! copied from that slot instead of prefilled. Its tokens stay those of the
//! single-sequence engine, which prefills every prompt whole; the engine
//! counts the prompt tokens it did not prefill; and a slot whose cache may
//! have been damaged offers nothing.

mod common;

use common::{prompt, run_all, single_engine};
use iree_llm::emit::{GraphKind, Output};
use iree_llm::engine::{BatchEngine, BatchOptions, Engine, Event, Fault, FinishReason, Request};
use iree_llm::types::TokenId;
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 128;
const BATCH: usize = 4;

fn engine(dir: &std::path::Path, carry: bool) -> BatchEngine {
    common::batch_engine_opts(
        dir,
        CAPACITY,
        &[],
        BatchOptions {
            batch: BATCH,
            max_queue: 64,
            max_chunk: 16,
            decode_chunks: carry,
            choose_carry: false,
            carried_chunk: 8,
            spare_slot: carry,
        },
    )
}

/// The single-sequence engine's greedy tokens for each request.
fn single(dir: &std::path::Path, requests: &[Request]) -> Vec<Vec<TokenId>> {
    let mut single = single_engine(dir, CAPACITY);
    run_all(&mut single, requests)
        .into_iter()
        .map(|o| o.tokens)
        .collect()
}

/// A conversation's next turn: the first turn's prompt, its reply and a
/// new message.
fn next_turn(first: &[TokenId], reply: &[TokenId], message: &[TokenId]) -> Vec<TokenId> {
    [first, reply, message].concat()
}

#[test]
fn a_conversations_next_turn_is_prefilled_from_the_end_of_its_last_reply() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, false);
    let vocab = engine.model().vocab();
    let first = prompt(30, 7, vocab);
    let reply = run_all(&mut engine, &[Request::greedy(first.clone(), 12)])[0]
        .tokens
        .clone();
    // Another conversation runs alone meanwhile: the first one's slot is
    // an idle decode row for all of its steps.
    run_all(&mut engine, &[Request::greedy(prompt(9, 8, vocab), 20)]);

    let turn = next_turn(&first, &reply, &prompt(10, 9, vocab));
    let before = engine.stats();
    let got = run_all(&mut engine, &[Request::greedy(turn.clone(), 12)]);
    let after = engine.stats();
    // The reply's last token was never fed back, so its K/V is not cached.
    assert_eq!(
        after.reused_tokens - before.reused_tokens,
        (first.len() + reply.len() - 1) as u64
    );
    assert_eq!(after.reused_prompts - before.reused_prompts, 1);
    assert_eq!(got[0].tokens, single(&dir, &[Request::greedy(turn, 12)])[0]);
}

/// A turn resumed at a window where only the largest chunk is loaded runs
/// through that one, and has the chunk of its own size compiled in the
/// background: loaded once compiled, it serves the next turn there.
#[test]
fn a_resume_without_its_own_chunk_size_has_it_compiled_for_the_next_turn() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, false);
    let vocab = engine.model().vocab();
    let first = prompt(70, 51, vocab);
    let reply = run_all(&mut engine, &[Request::greedy(first.clone(), 8)])[0]
        .tokens
        .clone();
    // 5 new tokens from position 77: the 8-token chunk at the window of
    // the whole cache, not loaded up front (only the 16-token one is).
    let own = GraphKind::Chunk {
        slots: BATCH as i64,
        tokens: 8,
        window: CAPACITY,
        output: Output::Logits,
    };
    assert!(!engine.model().is_loaded(own));
    let turn = next_turn(&first, &reply, &prompt(5, 52, vocab));
    let got = run_all(&mut engine, &[Request::greedy(turn.clone(), 6)]);
    assert_eq!(
        got[0].tokens,
        single(&dir, &[Request::greedy(turn.clone(), 6)])[0]
    );

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while !engine.model().is_loaded(own) {
        assert!(
            engine.model().compiling() > 0,
            "asked for in the background"
        );
        assert!(std::time::Instant::now() < deadline, "compiled in time");
        std::thread::sleep(std::time::Duration::from_millis(50));
        engine.model_mut().install_compiled();
    }
    let before = engine.stats().reused_tokens;
    let last = next_turn(&turn, &got[0].tokens, &prompt(3, 53, vocab));
    let got = run_all(&mut engine, &[Request::greedy(last.clone(), 4)]);
    assert!(engine.stats().reused_tokens > before);
    assert_eq!(got[0].tokens, single(&dir, &[Request::greedy(last, 4)])[0]);
}

/// Each request is told once, before its first token, how many of its
/// prompt's tokens its slot held: 0 for a new conversation, the history for
/// its next turn.
#[test]
fn a_request_learns_how_much_of_its_prompt_was_cached_before_its_first_token() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, false);
    let vocab = engine.model().vocab();
    let first = prompt(25, 41, vocab);
    let (cached, reply) = cached_then_tokens(&mut engine, Request::greedy(first.clone(), 9));
    assert_eq!(cached, 0);
    let turn = next_turn(&first, &reply, &prompt(4, 42, vocab));
    let (cached, _) = cached_then_tokens(&mut engine, Request::greedy(turn, 5));
    assert_eq!(cached, first.len() + reply.len() - 1);
}

/// Runs `request` alone: the `cached` of its one `Prefilled` event, which
/// comes before its first token, and its tokens.
fn cached_then_tokens(engine: &mut BatchEngine, request: Request) -> (usize, Vec<TokenId>) {
    let id = engine.submit(request).unwrap();
    let (mut cached, mut tokens) = (None, Vec::new());
    while !engine.is_idle() {
        for event in engine.step() {
            assert_eq!(event.id(), id);
            match event {
                Event::Prefilled { cached: c, .. } => {
                    assert!(cached.is_none() && tokens.is_empty(), "once, first");
                    cached = Some(c);
                }
                Event::Token { token, .. } => {
                    assert!(cached.is_some(), "Prefilled comes before the tokens");
                    tokens.push(token);
                }
                Event::Finished { reason, .. } => assert_ne!(reason, FinishReason::Error),
            }
        }
    }
    (cached.expect("a Prefilled event"), tokens)
}

/// A request that shares only the system prompt with a conversation, run
/// between two of its turns, takes a slot of its own: the next turn still
/// finds its whole history.
#[test]
fn a_request_sharing_only_the_system_prompt_leaves_a_conversations_slot_alone() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, false);
    let vocab = engine.model().vocab();
    let system = prompt(12, 31, vocab);
    let first = [system.clone(), prompt(20, 32, vocab)].concat();
    let reply = run_all(&mut engine, &[Request::greedy(first.clone(), 10)])[0]
        .tokens
        .clone();
    let other = [system.clone(), prompt(6, 33, vocab)].concat();
    run_all(&mut engine, &[Request::greedy(other, 10)]);

    let turn = next_turn(&first, &reply, &prompt(7, 34, vocab));
    let before = engine.stats().reused_tokens;
    let got = run_all(&mut engine, &[Request::greedy(turn.clone(), 8)]);
    assert_eq!(
        engine.stats().reused_tokens - before,
        (first.len() + reply.len() - 1) as u64
    );
    assert_eq!(got[0].tokens, single(&dir, &[Request::greedy(turn, 8)])[0]);
}

/// Requests that share a system prompt, more than there are slots: each
/// admitted into a slot that served an earlier one starts past the shared
/// part, whether its prompt runs in calls of its own or its chunks ride in
/// the running rows' decode calls (and the spare slot).
#[test]
fn requests_sharing_a_system_prompt_prefill_it_once_per_slot() {
    let dir = common::tiny_dir(WeightDType::F32);
    let vocab = engine(&dir, false).model().vocab();
    let system = prompt(24, 3, vocab);
    let requests: Vec<Request> = (0..10)
        .map(|i| {
            let own = prompt(2 + (i * 3) % 11, 50 + i as u32, vocab);
            Request::greedy([system.clone(), own].concat(), 5 + i % 7)
        })
        .collect();
    let want = single(&dir, &requests);
    for carry in [false, true] {
        let mut engine = engine(&dir, carry);
        let got = run_all(&mut engine, &requests);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(&g.tokens, w, "request {i}, carried chunks {carry}");
        }
        // Only the requests that found every slot empty (one a slot, the
        // spare's included) prefilled the system prompt.
        let stats = engine.stats();
        let slots = BATCH + usize::from(carry);
        assert!(
            stats.reused_prompts >= (requests.len() - slots) as u64,
            "carried {carry}: {} prompts reused a prefix",
            stats.reused_prompts
        );
        assert!(stats.reused_tokens >= system.len() as u64 * stats.reused_prompts);
    }
}

#[test]
fn with_prefix_reuse_off_every_prompt_is_prefilled_whole() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, false);
    engine.set_prefix_reuse(false);
    let vocab = engine.model().vocab();
    let first = prompt(20, 11, vocab);
    let reply = run_all(&mut engine, &[Request::greedy(first.clone(), 6)])[0]
        .tokens
        .clone();
    let turn = next_turn(&first, &reply, &prompt(5, 12, vocab));
    let got = run_all(&mut engine, &[Request::greedy(turn.clone(), 6)]);
    assert_eq!(engine.stats().reused_tokens, 0);
    assert_eq!(got[0].tokens, single(&dir, &[Request::greedy(turn, 6)])[0]);
}

/// A failed decode call may have written any row's slot: what those slots
/// held is not offered again, and the next turn is prefilled whole.
#[test]
fn after_a_failed_decode_a_slots_cache_is_not_reused() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = engine(&dir, false);
    let vocab = engine.model().vocab();
    let first = prompt(20, 21, vocab);
    let reply = run_all(&mut engine, &[Request::greedy(first.clone(), 6)])[0]
        .tokens
        .clone();

    let doomed = engine
        .submit(Request::greedy(prompt(6, 22, vocab), 10))
        .unwrap();
    engine.step();
    engine.inject_fault(Fault::NextDecode);
    let events = engine.step();
    assert!(
        events.iter().any(|e| matches!(e, Event::Finished { id, reason: FinishReason::Error, .. } if *id == doomed)),
        "{events:?}"
    );

    let turn = next_turn(&first, &reply, &prompt(5, 23, vocab));
    let got = run_all(&mut engine, &[Request::greedy(turn.clone(), 6)]);
    assert_eq!(engine.stats().reused_tokens, 0);
    assert_eq!(got[0].tokens, single(&dir, &[Request::greedy(turn, 6)])[0]);
}

/// A prompt whose prefix another slot holds, whether that slot's request
/// is still running or has ended, has those positions copied into its own
/// slot instead of prefilling them: a system prompt is prefilled once for
/// all slots. Both requests' tokens stay the single-sequence engine's.
#[test]
fn a_prompt_copies_the_prefix_another_slot_holds_running_or_free() {
    let dir = common::tiny_dir(WeightDType::F32);
    let vocab = engine(&dir, false).model().vocab();
    let system = prompt(20, 61, vocab);
    let first = Request::greedy([system.clone(), prompt(9, 62, vocab)].concat(), 24);
    let second = Request::greedy([system.clone(), prompt(5, 63, vocab)].concat(), 8);
    let want = single(&dir, &[first.clone(), second.clone()]);
    for carry in [false, true] {
        // Running: the second arrives while the first decodes.
        let mut engine = engine(&dir, carry);
        let a = engine.submit(first.clone()).unwrap();
        let mut seen = Vec::new();
        while !seen
            .iter()
            .any(|e| matches!(e, Event::Token { id, .. } if *id == a))
        {
            seen.extend(engine.step());
        }
        let b = engine.submit(second.clone()).unwrap();
        while !engine.is_idle() {
            seen.extend(engine.step());
        }
        let cached = |of| {
            seen.iter().find_map(|e| match e {
                Event::Prefilled { id, cached } if *id == of => Some(*cached),
                _ => None,
            })
        };
        let tokens = |of| -> Vec<TokenId> {
            seen.iter()
                .filter_map(|e| match e {
                    Event::Token { id, token, .. } if *id == of => Some(*token),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(cached(a), Some(0), "carried {carry}");
        assert_eq!(cached(b), Some(system.len()), "carried {carry}");
        assert_eq!(engine.stats().prefix_copies, 1, "carried {carry}");
        assert_eq!(tokens(a), want[0], "carried {carry}");
        assert_eq!(tokens(b), want[1], "carried {carry}");

        // Free: the first has ended, and its slot keeps its conversation
        // (the second takes an empty slot and copies the system prompt).
        let mut engine = self::engine(&dir, carry);
        run_all(&mut engine, std::slice::from_ref(&first));
        let (cached, got) = cached_then_tokens(&mut engine, second.clone());
        assert_eq!(cached, system.len(), "carried {carry}");
        assert_eq!(got, want[1], "carried {carry}");
        assert_eq!(engine.stats().prefix_copies, 1, "carried {carry}");
    }
}
