//! Penalties and logit bias through a slot's incremental state are
//! byte-identical to rebuilding them from the whole history at every step.
//!
//! The rebuild below is written independently of `src/sampler/penalty.rs`:
//! every step it recomputes the set of seen tokens and the output counts
//! from the prompt and the tokens generated so far, applies the bias, the
//! repetition penalty and frequency/presence to a fresh f32 copy of the row,
//! and samples that row with no transforms. A synthetic model whose logits
//! depend on the last token and the step keeps runs long and repetitive.

use std::collections::{BTreeMap, BTreeSet};

use half::{bf16, f16};
use iree_llm::TokenId;
use iree_llm::sampler::{
    Logit, LogitBias, LogitParams, Penalties, SampleParams, Sampler, SlotState,
};

const V: usize = 5_003;
const STEPS: usize = 400;

/// The synthetic model: logits for the token after `last` at `step`. A band
/// of 64 favoured tokens makes repeats likely, so the penalties bite.
fn model_row(last: u32, step: usize) -> Vec<f32> {
    let mut s = (u64::from(last) << 20) ^ (step as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..V)
        .map(|i| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let u = (s >> 40) as f32 / (1u64 << 24) as f32;
            let base = if i < 64 { 6.0 } else { 0.0 };
            base + (u - 0.5) * 8.0
        })
        .collect()
}

/// The bias, repetition and frequency/presence of `logit` applied to `row`,
/// recomputed from `prompt` and `output`.
fn rebuild(row: &mut [f32], logit: &LogitParams, prompt: &[u32], output: &[u32]) {
    let mut bias: BTreeMap<u32, f32> = BTreeMap::new();
    for &(id, b) in logit.logit_bias.entries() {
        bias.insert(id.0, b);
    }
    for (id, b) in bias {
        row[id as usize] += b;
    }
    let p = logit.penalties;
    if p.repetition != 1.0 {
        let seen: BTreeSet<u32> = prompt.iter().chain(output).copied().collect();
        for t in seen {
            let x = row[t as usize];
            row[t as usize] = if x > 0.0 {
                x / p.repetition
            } else {
                x * p.repetition
            };
        }
    }
    let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
    for &t in output {
        *counts.entry(t).or_default() += 1;
    }
    if p.frequency != 0.0 || p.presence != 0.0 {
        for (t, c) in counts {
            row[t as usize] -= p.frequency * c as f32 + p.presence;
        }
    }
}

/// Logits as element type `L`, and the same values widened back to f32.
trait Cast: Logit {
    fn from_f32(v: f32) -> Self;
    fn to_f32(self) -> f32;
}
impl Cast for f32 {
    fn from_f32(v: f32) -> Self {
        v
    }
    fn to_f32(self) -> f32 {
        self
    }
}
impl Cast for f16 {
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
}
impl Cast for bf16 {
    fn from_f32(v: f32) -> Self {
        bf16::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
}

/// Tokens of a run through the slot state (incremental).
fn run_incremental<L: Cast>(
    state: &mut SlotState,
    sampler: &mut Sampler,
    prompt: &[u32],
    params: &SampleParams,
    logit: &LogitParams,
) -> Vec<u32> {
    let prompt_ids: Vec<TokenId> = prompt.iter().map(|&t| TokenId(t)).collect();
    state.begin(logit, &prompt_ids);
    let mut last = *prompt.last().unwrap();
    let mut out = Vec::with_capacity(STEPS);
    for step in 0..STEPS {
        let row: Vec<L> = model_row(last, step).into_iter().map(L::from_f32).collect();
        let s = state
            .sample(sampler, &row, params, logit, step as u64)
            .unwrap();
        state.accept(logit, s.token);
        out.push(s.token.0);
        last = s.token.0;
    }
    out
}

/// Tokens of the same run, the penalties rebuilt from history every step.
fn run_rebuilt<L: Cast>(
    sampler: &mut Sampler,
    prompt: &[u32],
    params: &SampleParams,
    logit: &LogitParams,
) -> Vec<u32> {
    let mut last = *prompt.last().unwrap();
    let mut out: Vec<u32> = Vec::with_capacity(STEPS);
    for step in 0..STEPS {
        let mut row: Vec<f32> = model_row(last, step)
            .into_iter()
            .map(|v| L::from_f32(v).to_f32())
            .collect();
        rebuild(&mut row, logit, prompt, &out);
        let t = sampler.sample(&row, params, step as u64).unwrap().0;
        out.push(t);
        last = t;
    }
    out
}

fn every_penalty(repetition: f32, frequency: f32, presence: f32) -> LogitParams {
    LogitParams {
        penalties: Penalties {
            repetition,
            frequency,
            presence,
        },
        logit_bias: LogitBias::new([
            (TokenId(3), -100.0),
            (TokenId(70), 4.5),
            (TokenId(5_002), 9.0),
            (TokenId(17), -2.25),
        ]),
        logprobs: None,
    }
}

fn param_sets() -> Vec<(&'static str, SampleParams)> {
    let t = |t| SampleParams::with_temperature(t).seeded(0xC0FFEE);
    vec![
        ("greedy", SampleParams::greedy()),
        ("t=1", t(1.0)),
        (
            "t=0.8 top-k 40",
            SampleParams {
                top_k: 40,
                ..t(0.8)
            },
        ),
        (
            "t=1.2 top-p 0.9 min-p 0.02",
            SampleParams {
                top_p: 0.9,
                min_p: 0.02,
                ..t(1.2)
            },
        ),
    ]
}

fn penalty_sets() -> Vec<(&'static str, LogitParams)> {
    vec![
        ("all on", every_penalty(1.3, 0.4, 0.6)),
        ("all on, rewarding", every_penalty(0.8, -0.5, -0.25)),
        (
            "repetition only",
            LogitParams {
                penalties: Penalties {
                    repetition: 1.7,
                    ..Penalties::OFF
                },
                ..LogitParams::default()
            },
        ),
    ]
}

const PROMPT: [u32; 12] = [1, 5, 9, 5, 63, 700, 12, 12, 40, 3, 17, 2];

fn check_identical<L: Cast>() {
    let mut sampler = Sampler::new(V);
    let mut state = SlotState::new();
    for (pname, params) in param_sets() {
        let plain = run_rebuilt::<L>(&mut sampler, &PROMPT, &params, &LogitParams::default());
        for (lname, logit) in penalty_sets() {
            let inc = run_incremental::<L>(&mut state, &mut sampler, &PROMPT, &params, &logit);
            let reb = run_rebuilt::<L>(&mut sampler, &PROMPT, &params, &logit);
            let first_diff = inc.iter().zip(&reb).position(|(a, b)| a != b);
            assert_eq!(
                first_diff,
                None,
                "{} {pname} / {lname}: incremental and rebuilt runs differ",
                L::NAME
            );
            assert_ne!(
                inc,
                plain,
                "{} {pname} / {lname}: the penalties changed nothing (test is vacuous)",
                L::NAME
            );
            // The state holds one entry per distinct token it has seen.
            let mut distinct: BTreeSet<u32> = inc.iter().copied().collect();
            if logit.penalties.repetition != 1.0 {
                distinct.extend(PROMPT);
            }
            assert_eq!(state.penalty_state().distinct(), distinct.len());
        }
    }
}

#[test]
fn incremental_penalties_match_a_rebuild_from_history_for_f32_logits() {
    check_identical::<f32>();
}

#[test]
fn incremental_penalties_match_a_rebuild_from_history_for_f16_logits() {
    check_identical::<f16>();
}

#[test]
fn incremental_penalties_match_a_rebuild_from_history_for_bf16_logits() {
    check_identical::<bf16>();
}

/// Tokens of a run through the slot state, sampling f32 rows in place;
/// checks that every row is given back exactly as it was.
fn run_in_place(
    state: &mut SlotState,
    sampler: &mut Sampler,
    prompt: &[u32],
    params: &SampleParams,
    logit: &LogitParams,
) -> Vec<u32> {
    let prompt_ids: Vec<TokenId> = prompt.iter().map(|&t| TokenId(t)).collect();
    state.begin(logit, &prompt_ids);
    let mut last = *prompt.last().unwrap();
    let mut out = Vec::with_capacity(STEPS);
    for step in 0..STEPS {
        let original = model_row(last, step);
        let mut row = original.clone();
        let s = state
            .sample_in_place(sampler, &mut row, params, logit, step as u64)
            .unwrap();
        let same_bits = row
            .iter()
            .zip(&original)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same_bits, "step {step}: the row was not restored");
        state.accept(logit, s.token);
        out.push(s.token.0);
        last = s.token.0;
    }
    out
}

#[test]
fn sampling_in_place_matches_the_rebuild_and_gives_the_row_back() {
    let mut sampler = Sampler::new(V);
    let mut state = SlotState::new();
    for (pname, params) in param_sets() {
        for (lname, logit) in penalty_sets() {
            let inc = run_in_place(&mut state, &mut sampler, &PROMPT, &params, &logit);
            let reb = run_rebuilt::<f32>(&mut sampler, &PROMPT, &params, &logit);
            assert_eq!(
                inc, reb,
                "{pname} / {lname}: in place and rebuilt runs differ"
            );
        }
    }
}

#[test]
fn a_reused_slot_forgets_its_previous_request() {
    let mut sampler = Sampler::new(V);
    let logit = every_penalty(1.3, 0.4, 0.6);
    let params = SampleParams::with_temperature(1.0).seeded(9);
    let mut used = SlotState::new();
    run_incremental::<f32>(&mut used, &mut sampler, &[400, 401], &params, &logit);
    let again = run_incremental::<f32>(&mut used, &mut sampler, &PROMPT, &params, &logit);
    let fresh = run_incremental::<f32>(
        &mut SlotState::new(),
        &mut sampler,
        &PROMPT,
        &params,
        &logit,
    );
    assert_eq!(again, fresh);
}

#[test]
fn without_penalties_or_bias_the_slot_path_is_the_plain_sampler() {
    let mut sampler = Sampler::new(V);
    let mut state = SlotState::new();
    for (_, params) in param_sets() {
        let off = LogitParams::default();
        let via_slot = run_incremental::<f32>(&mut state, &mut sampler, &PROMPT, &params, &off);
        let plain = run_rebuilt::<f32>(&mut sampler, &PROMPT, &params, &off);
        assert_eq!(via_slot, plain);
        assert_eq!(state.penalty_state().distinct(), 0, "nothing is tracked");
    }
}
