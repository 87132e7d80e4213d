//! `n` choices of one request: the prompt is prefilled once and its cache
//! copied slot to slot on the device; choice `i` samples with seed + i, so
//! each choice equals the same request sent alone with that seed; more
//! choices than slots are refused naming `n`.

mod common;

use common::{batch_engine, drain, prompt};
use iree_llm::engine::{Engine, Request, SubmitError};
use iree_llm::sampler::SampleParams;
use iree_llm::types::TokenId;
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 128;

fn request(prompt_seed: u32, vocab: usize, params: SampleParams) -> Request {
    Request {
        params,
        ..Request::greedy(prompt(9, prompt_seed, vocab), 20)
    }
}

#[test]
fn each_choice_equals_the_request_sent_alone_with_seed_plus_its_index() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = batch_engine(&dir, 4, CAPACITY);
    let vocab = engine.model().vocab();
    let cases = [
        (SampleParams::with_temperature(1.0).seeded(500), 3),
        (
            SampleParams {
                top_k: 25,
                ..SampleParams::with_temperature(0.9)
            }
            .seeded(600),
            4,
        ),
        (SampleParams::greedy(), 2),
    ];
    for (k, &(params, n)) in cases.iter().enumerate() {
        let r = request(70 + k as u32, vocab, params);
        let prefills = engine.stats().prefills;
        let ids = engine.submit_choices(r.clone(), n).unwrap();
        assert_eq!(ids.len(), n);
        let together = drain(&mut engine);
        assert_eq!(
            engine.stats().prefills,
            prefills + 1,
            "the prompt of {n} choices is prefilled once"
        );
        let base = together[&ids[0]].seed;
        let mut streams = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(together[id].seed, base.wrapping_add(i as u64));
            let alone = Request {
                params: r.params.seeded(base.wrapping_add(i as u64)),
                ..r.clone()
            };
            let a = engine.submit(alone).unwrap();
            let reference = drain(&mut engine).remove(&a).unwrap();
            assert_eq!(
                together[id].tokens, reference.tokens,
                "case {k}, choice {i} differs from the same request sent alone"
            );
            streams.push(together[id].tokens.clone());
        }
        if params.is_greedy() {
            assert!(streams.iter().all(|s| *s == streams[0]));
        } else {
            assert!(
                streams.iter().any(|s| *s != streams[0]),
                "choices draw from their own streams"
            );
        }
    }
}

#[test]
fn more_choices_than_slots_are_refused_naming_n() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = batch_engine(&dir, 4, CAPACITY);
    let vocab = engine.model().vocab();
    let r = request(1, vocab, SampleParams::with_temperature(1.0));
    for n in [0, 5] {
        match engine.submit_choices(r.clone(), n) {
            Err(SubmitError::TooManyChoices { n: got, most: 4 }) => assert_eq!(got, n),
            other => panic!("n = {n}: expected a refusal, got {other:?}"),
        }
    }
    assert!(engine.is_idle());
}

#[test]
fn a_cache_copied_on_the_device_equals_its_source_in_its_own_buffer() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut model = common::load(
        &dir,
        "local-task",
        CAPACITY,
        vec![iree_llm::emit::GraphKind::Prefill {
            tokens: 16,
            output: iree_llm::emit::Output::Logits,
        }],
    );
    let mut a = model.new_kv().unwrap();
    let mut b = model.new_kv().unwrap();
    let tokens: Vec<TokenId> = prompt(12, 3, model.vocab());
    model.prefill_logits(&mut a, &tokens).unwrap();
    let b_id = b.storage_id();
    assert_ne!(model.read_kv(&a).unwrap(), model.read_kv(&b).unwrap());
    model.copy_kv(&a, &mut b).unwrap();
    assert_eq!(model.read_kv(&a).unwrap(), model.read_kv(&b).unwrap());
    assert_eq!(b.storage_id(), b_id, "the target keeps its buffer");
    assert_ne!(a.storage_id(), b.storage_id());
}
