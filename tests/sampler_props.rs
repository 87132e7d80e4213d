//! Property tests of the host sampler: whatever the logits and parameters,
//! the sampled token is one the filters keep and is exactly the token the
//! documented draw picks (both checked against the plain f64 specification,
//! `sampler::spec`, which shares no code with the fast paths), top_k = 1 is greedy, greedy is the lowest-id argmax whatever the
//! seed, and a row's token does not depend on the batch around it.

use half::f16;
use iree_llm::TokenId;
use iree_llm::sampler::spec::{self, Candidates};
use iree_llm::sampler::{SampleError, SampleParams, Sampler, uniform_for_token};
use proptest::prelude::*;

/// Logits with exact ties (values on a grid) and some masked tokens; at
/// least one is finite.
fn logits(max_len: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(
        prop_oneof![
            8 => (-40i32..=40).prop_map(|q| q as f32 * 0.25),
            3 => -30.0f32..30.0,
            1 => Just(f32::NEG_INFINITY),
        ],
        1..max_len,
    )
    .prop_filter("needs a finite logit", |v| v.iter().any(|x| x.is_finite()))
}

fn sampling_params() -> impl Strategy<Value = SampleParams> {
    (
        prop_oneof![Just(0.0f32), 0.05f32..4.0],
        prop_oneof![Just(0usize), 1usize..300],
        prop_oneof![Just(1.0f32), 0.01f32..1.0],
        prop_oneof![Just(0.0f32), 0.0f32..0.99],
        any::<u64>(),
    )
        .prop_map(|(temperature, top_k, top_p, min_p, seed)| SampleParams {
            temperature,
            top_k,
            top_p,
            min_p,
            seed: Some(seed),
        })
}

fn argmax_lowest_id(x: &[f32]) -> u32 {
    spec::greedy(x).expect("a finite logit")
}

/// Tokens the filters may keep: the specification's kept set with a little
/// slack, so that it is a superset of the exact set despite rounding: top-p
/// aims slightly higher, min-p slightly lower.
fn allowed(x: &[f32], p: &SampleParams) -> Vec<u32> {
    if p.is_greedy() {
        return vec![argmax_lowest_id(x)];
    }
    Candidates::new(x, f64::from(p.temperature))
        .top_k(p.top_k)
        .top_p(f64::from(p.top_p) + 1e-5)
        .min_p(f64::from(p.min_p) * (1.0 - 1e-5))
        .ids()
}

/// The token the specification's chain draws (the exact kept set, then the
/// first kept token in id order whose cumulative probability exceeds `u`).
/// `None` when any comparison is within rounding distance of its boundary,
/// so that the answer would hinge on f32 vs f64 arithmetic.
fn reference_token(x: &[f32], p: &SampleParams, step: u64) -> Option<u32> {
    const TOL: f64 = 1e-5;
    let mut kept = spec::filter(x, p);
    if kept.margin < TOL {
        return None;
    }
    // Tokens so unlikely that f32 weights underflow are not drawable.
    kept.ranked.retain(|c| c.weight > 1e-30);
    let drawn = kept.draw(uniform_for_token(p.seed.unwrap(), step))?;
    (drawn.margin >= TOL).then_some(drawn.id)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn sampled_token_is_always_in_the_filtered_set(
        x in logits(300), p in sampling_params(), step in any::<u64>()
    ) {
        let mut s = Sampler::new(x.len());
        let id = s.sample(&x, &p, step).unwrap().0;
        let ok = allowed(&x, &p);
        prop_assert!(ok.contains(&id), "token {} not in {:?}", id, ok);
        prop_assert!(x[id as usize].is_finite());
    }

    #[test]
    fn sampled_token_is_the_documented_draw(
        x in logits(300), p in sampling_params(), step in any::<u64>()
    ) {
        let p = SampleParams { temperature: p.temperature.max(0.05), ..p };
        let want = reference_token(&x, &p, step);
        prop_assume!(want.is_some(), "too close to a boundary to decide in f64");
        let mut s = Sampler::new(x.len());
        prop_assert_eq!(s.sample(&x, &p, step), Ok(TokenId(want.unwrap())));
    }

    #[test]
    fn top_k_one_equals_greedy(x in logits(300), p in sampling_params(), step in any::<u64>()) {
        let mut s = Sampler::new(x.len());
        let p = SampleParams { top_k: 1, temperature: p.temperature.max(0.05), ..p };
        prop_assert_eq!(s.sample(&x, &p, step), s.sample(&x, &SampleParams::greedy(), 0));
    }

    #[test]
    fn greedy_is_the_lowest_id_argmax_whatever_the_seed_and_filters(
        x in logits(300), p in sampling_params(), step in any::<u64>()
    ) {
        let mut s = Sampler::new(x.len());
        let p = SampleParams { temperature: 0.0, ..p };
        prop_assert_eq!(s.sample(&x, &p, step), Ok(TokenId(argmax_lowest_id(&x))));
    }

    #[test]
    fn tiny_top_p_is_greedy(x in logits(300), p in sampling_params(), step in any::<u64>()) {
        // The best token alone has mass >= 1/V > 1e-4.
        let mut s = Sampler::new(x.len());
        let p = SampleParams { top_p: 1e-4, temperature: p.temperature.max(0.05), ..p };
        prop_assert_eq!(s.sample(&x, &p, step), s.sample(&x, &SampleParams::greedy(), 0));
    }

    #[test]
    fn same_seed_and_step_give_the_same_token_in_any_batch_position(
        x in logits(200),
        p in sampling_params(),
        step in any::<u64>(),
        others in prop::collection::vec((sampling_params(), any::<u64>()), 1..5),
        position in 0usize..5,
    ) {
        let v = x.len();
        let mut alone = Sampler::new(v);
        let want = alone.sample(&x, &p, step);

        let position = position.min(others.len());
        let mut params = Vec::new();
        let mut steps = Vec::new();
        let mut buf = Vec::new();
        for (i, (op, os)) in others.iter().enumerate() {
            if i == position {
                params.push(p);
                steps.push(step);
                buf.extend_from_slice(&x);
            }
            params.push(*op);
            steps.push(*os);
            // Another row: a rotation of x with a different scale.
            buf.extend(x.iter().cycle().skip(i + 1).take(v).map(|&l| l * 1.5));
        }
        if position == others.len() {
            params.push(p);
            steps.push(step);
            buf.extend_from_slice(&x);
        }
        let mut batch = Sampler::new(v);
        let got = batch.sample_batch(&buf, &params, &steps).unwrap();
        prop_assert_eq!(&got[position], &want);
    }

    #[test]
    fn f16_rows_sample_as_their_widened_values(
        x in logits(300), p in sampling_params(), step in any::<u64>()
    ) {
        let h: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
        let w: Vec<f32> = h.iter().map(|v| v.to_f32()).collect();
        let mut s = Sampler::new(x.len());
        prop_assert_eq!(s.sample(&h, &p, step), s.sample(&w, &p, step));
    }

    #[test]
    fn any_nan_is_reported_at_its_first_index(
        x in logits(300), p in sampling_params(), at in any::<prop::sample::Index>()
    ) {
        let mut x = x;
        let i = at.index(x.len());
        x[i] = f32::NAN;
        let mut s = Sampler::new(x.len());
        prop_assert_eq!(s.sample(&x, &p, 0), Err(SampleError::NanLogit { index: i }));
    }

    #[test]
    fn sampling_is_a_pure_function_of_its_inputs(
        x in logits(300), p in sampling_params(), step in any::<u64>()
    ) {
        let mut a = Sampler::new(x.len());
        let mut b = Sampler::new(x.len());
        let first = a.sample(&x, &p, step);
        // Scratch left over from an unrelated row changes nothing.
        let _ = a.sample(&x.iter().rev().copied().collect::<Vec<_>>(), &p, step ^ 1);
        prop_assert_eq!(&a.sample(&x, &p, step), &first);
        prop_assert_eq!(&b.sample(&x, &p, step), &first);
    }
}

/// Large vocabularies exercise the chunked paths (many chunks, skipped
/// chunks, candidate thresholds); fewer cases because rows are big.
mod large_vocab {
    use super::*;

    fn big_logits() -> impl Strategy<Value = Vec<f32>> {
        (2_000usize..20_000, any::<u64>(), 0.5f32..4.0, 0u8..3).prop_map(|(n, seed, std, ties)| {
            let mut s = seed | 1;
            (0..n)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    let u = (s >> 40) as f32 / (1u64 << 24) as f32;
                    let v = (u - 0.5) * std * 6.0;
                    match ties {
                        0 => v,
                        1 => (v * 4.0).round() / 4.0,
                        _ => v.round(),
                    }
                })
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn sampled_token_is_the_documented_draw_at_scale(
            x in big_logits(), p in sampling_params(), k in prop_oneof![Just(0usize), 1usize..3000],
            steps in prop::collection::vec(any::<u64>(), 8)
        ) {
            let p = SampleParams { top_k: k, ..p };
            let ok = allowed(&x, &p);
            let mut s = Sampler::new(x.len());
            for step in steps {
                let id = s.sample(&x, &p, step).unwrap().0;
                prop_assert!(ok.contains(&id), "token {} not allowed (kept {})", id, ok.len());
                if !p.is_greedy()
                    && let Some(want) = reference_token(&x, &p, step)
                {
                    prop_assert_eq!(id, want);
                }
            }
        }
    }
}
