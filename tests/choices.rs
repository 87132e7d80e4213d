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
fn a_slot_copied_on_the_device_equals_its_source_and_leaves_the_others() {
    let mut model = common::tiny_prefill_model(CAPACITY, 4);
    let mut kv = model.new_kv_slots(4).unwrap();
    let vocab = model.vocab();
    for slot in 0..4 {
        let tokens: Vec<TokenId> = prompt(12 + slot, 3 + slot as u32, vocab);
        model.prefill_logits_at(&mut kv, slot, &tokens).unwrap();
    }
    // [layers, 2, slots * kv_heads, capacity, head_dim]: view it per slot.
    let shape: Vec<usize> = kv.buffer().shape().iter().map(|&n| n as usize).collect();
    let run = shape[2] / 4 * shape[3] * shape[4];
    let slot_of = |data: &[f32], slot: usize| -> Vec<f32> {
        data.chunks(4 * run)
            .flat_map(|lk| lk[slot * run..(slot + 1) * run].to_vec())
            .collect()
    };
    let id = kv.storage_id();
    let before = model.read_kv(&kv).unwrap();
    assert_ne!(slot_of(&before, 1), slot_of(&before, 3));
    model.copy_kv_slot(&mut kv, 1, 3).unwrap();
    let after = model.read_kv(&kv).unwrap();
    assert_eq!(
        slot_of(&after, 3),
        slot_of(&before, 1),
        "slot 3 now holds slot 1"
    );
    for slot in 0..3 {
        assert_eq!(
            slot_of(&after, slot),
            slot_of(&before, slot),
            "slot {slot} untouched"
        );
    }
    assert_eq!(kv.storage_id(), id, "copied in place, on the device");
    assert!(
        model.copy_kv_slot(&mut kv, 0, 4).is_err(),
        "slot 4 of 4 is refused"
    );
}
