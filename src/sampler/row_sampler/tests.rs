use super::*;
use crate::sampler::LogitTransform;
use crate::sampler::spec::Candidates;
use half::{bf16, f16};
use std::collections::BTreeSet;

const SEED: u64 = 0x5EED;

/// Logits whose softmax at T = 1 is exactly proportional to `weights`.
fn logits_for(weights: &[f64]) -> Vec<f32> {
    weights.iter().map(|w| w.ln() as f32).collect()
}

/// The set of tokens drawn over `draws` steps.
fn drawn(logits: &[f32], p: SampleParams, draws: u64) -> BTreeSet<u32> {
    let mut s = Sampler::new(logits.len());
    let p = p.seeded(SEED);
    (0..draws)
        .map(|n| s.sample(logits, &p, n).unwrap().0)
        .collect()
}

fn set(ids: &[u32]) -> BTreeSet<u32> {
    ids.iter().copied().collect()
}

fn params(t: f32, top_k: usize, top_p: f32, min_p: f32) -> SampleParams {
    SampleParams {
        temperature: t,
        top_k,
        top_p,
        min_p,
        seed: None,
    }
}

// Probabilities 0.4, 0.3, 0.2, 0.1 at T = 1 (and 16:9:4:1 at T = 0.5).
const P4: [f64; 4] = [0.4, 0.3, 0.2, 0.1];

#[test]
fn greedy_is_the_argmax_with_the_lowest_id_winning_ties() {
    let mut s = Sampler::new(6);
    let x = [1.0f32, 3.0, -2.0, 3.0, f32::NEG_INFINITY, 3.0];
    assert_eq!(s.sample(&x, &SampleParams::greedy(), 0), Ok(TokenId(1)));
    // -0.0 and +0.0 are equal logits: the lower id wins.
    let z = [-1.0f32, 0.0, -0.0, -5.0, -0.0, 0.0];
    assert_eq!(s.sample(&z, &SampleParams::greedy(), 0), Ok(TokenId(1)));
    let z = [-1.0f32, -0.0, 0.0, -5.0, -0.0, 0.0];
    assert_eq!(s.sample(&z, &SampleParams::greedy(), 0), Ok(TokenId(1)));
}

#[test]
fn greedy_ignores_seed_step_and_filters() {
    let x = logits_for(&P4);
    let mut s = Sampler::new(4);
    let noisy = SampleParams {
        top_k: 3,
        top_p: 0.1,
        min_p: 0.5,
        seed: Some(9),
        ..SampleParams::greedy()
    };
    for step in 0..50 {
        assert_eq!(s.sample(&x, &noisy, step), Ok(TokenId(0)));
    }
    assert_eq!(
        s.sample(&x, &SampleParams::greedy(), 0),
        Ok(TokenId(0)),
        "no seed needed"
    );
}

#[test]
fn temperature_only_can_draw_every_token() {
    assert_eq!(
        drawn(&logits_for(&P4), params(1.0, 0, 1.0, 0.0), 400),
        set(&[0, 1, 2, 3])
    );
}

#[test]
fn top_k_keeps_exactly_k_tokens_by_rank() {
    let x = logits_for(&P4);
    assert_eq!(drawn(&x, params(1.0, 3, 1.0, 0.0), 400), set(&[0, 1, 2]));
    assert_eq!(drawn(&x, params(1.0, 1, 1.0, 0.0), 100), set(&[0]));
    assert_eq!(drawn(&x, params(1.0, 9, 1.0, 0.0), 400), set(&[0, 1, 2, 3]));
}

#[test]
fn top_k_boundary_ties_go_to_the_lower_id() {
    // Ids 1..=4 tie; k = 3 keeps id 0 (best) and ids 1, 2.
    let x = [2.0f32, 1.0, 1.0, 1.0, 1.0];
    assert_eq!(drawn(&x, params(1.0, 3, 1.0, 0.0), 600), set(&[0, 1, 2]));
}

#[test]
fn top_p_keeps_the_token_that_crosses_p() {
    let x = logits_for(&P4);
    // 0.4 < 0.65 <= 0.4 + 0.3: the 0.3 token crosses and stays.
    assert_eq!(drawn(&x, params(1.0, 0, 0.65, 0.0), 400), set(&[0, 1]));
    // 0.4 + 0.3 < 0.8 <= 0.9.
    assert_eq!(drawn(&x, params(1.0, 0, 0.8, 0.0), 400), set(&[0, 1, 2]));
    // The top token alone reaches 0.35.
    assert_eq!(drawn(&x, params(1.0, 0, 0.35, 0.0), 100), set(&[0]));
}

#[test]
fn temperature_is_applied_before_top_p() {
    // At T = 0.5 the probabilities are 16:9:4:1 / 30 = .533, .3, .133, .033,
    // so p = 0.8 is crossed by the second token, not the third as at T = 1.
    let x = logits_for(&P4);
    assert_eq!(drawn(&x, params(0.5, 0, 0.8, 0.0), 400), set(&[0, 1]));
}

#[test]
fn top_p_is_relative_to_what_top_k_kept() {
    // top_k = 2 renormalizes to 4/7 = .571, 3/7; p = 0.55 is reached by
    // the first token alone (it would not be against the full 0.4).
    let x = logits_for(&P4);
    assert_eq!(drawn(&x, params(1.0, 2, 0.55, 0.0), 200), set(&[0]));
    assert_eq!(drawn(&x, params(1.0, 0, 0.55, 0.0), 400), set(&[0, 1]));
}

#[test]
fn min_p_keeps_tokens_at_least_min_p_times_the_best() {
    let x = logits_for(&P4);
    // 0.6 * 0.4 = 0.24: keeps 0.4 and 0.3.
    assert_eq!(drawn(&x, params(1.0, 0, 1.0, 0.6), 400), set(&[0, 1]));
    // 0.45 * 0.4 = 0.18: keeps 0.2 too.
    assert_eq!(drawn(&x, params(1.0, 0, 1.0, 0.45), 400), set(&[0, 1, 2]));
}

#[test]
fn min_p_applies_after_top_p_and_the_shorter_prefix_wins() {
    let x = logits_for(&P4);
    // top-p 0.95 keeps 4 tokens, min-p 0.6 only 2.
    assert_eq!(drawn(&x, params(1.0, 0, 0.95, 0.6), 400), set(&[0, 1]));
    // top-p 0.35 keeps 1, min-p 0.2 would keep 4.
    assert_eq!(drawn(&x, params(1.0, 0, 0.35, 0.2), 100), set(&[0]));
    // Same through the top-k path.
    assert_eq!(drawn(&x, params(1.0, 4, 0.95, 0.6), 400), set(&[0, 1]));
}

#[test]
fn masked_tokens_are_never_drawn() {
    let x = [0.0f32, f32::NEG_INFINITY, 0.0, f32::NEG_INFINITY];
    assert_eq!(drawn(&x, params(5.0, 0, 1.0, 0.0), 300), set(&[0, 2]));
    assert_eq!(drawn(&x, params(5.0, 4, 0.99, 0.0), 300), set(&[0, 2]));
    assert_eq!(drawn(&x, params(5.0, 0, 0.99, 0.0), 300), set(&[0, 2]));
}

#[test]
fn draw_is_the_inverse_cdf_in_id_order_at_the_token_uniform() {
    // Ids 3, 1, 0, 2 by rank, but the walk is in id order:
    // cumulative 0.2 (id 0), 0.5 (id 1), 0.6 (id 2), 1.0 (id 3).
    let w = [0.2, 0.3, 0.1, 0.4];
    let x = logits_for(&w);
    let cdf = [0.2, 0.5, 0.6, 1.0];
    let mut s = Sampler::new(4);
    for (t, k, tp) in [(1.0, 0, 1.0), (1.0, 4, 1.0), (1.0, 0, 0.999)] {
        let p = params(t, k, tp, 0.0).seeded(77);
        for step in 0..200 {
            let u = uniform_for_token(77, step);
            if cdf.iter().any(|&c| (u - c).abs() < 1e-6) {
                continue;
            }
            let want = cdf.iter().position(|&c| u < c).unwrap() as u32;
            assert_eq!(s.sample(&x, &p, step), Ok(TokenId(want)), "u = {u}");
        }
    }
}

#[test]
fn tiny_temperature_samples_only_among_the_tied_maxima() {
    let x = [1.0f32, 5.0, 5.0, 4.999];
    assert_eq!(drawn(&x, params(1e-30, 0, 1.0, 0.0), 300), set(&[1, 2]));
}

#[test]
fn half_precision_rows_sample_like_their_f32_values() {
    let x32: Vec<f32> = (0..300).map(|i| ((i * 7919) % 113) as f32 * 0.05).collect();
    let x16: Vec<f16> = x32.iter().map(|&v| f16::from_f32(v)).collect();
    let xb: Vec<bf16> = x32.iter().map(|&v| bf16::from_f32(v)).collect();
    let w16: Vec<f32> = x16.iter().map(|v| v.to_f32()).collect();
    let wb: Vec<f32> = xb.iter().map(|v| v.to_f32()).collect();
    let mut s = Sampler::new(300);
    let p = params(0.9, 40, 0.9, 0.01).seeded(3);
    for step in 0..50 {
        assert_eq!(s.sample(&x16, &p, step), s.sample(&w16, &p, step));
        assert_eq!(s.sample(&xb, &p, step), s.sample(&wb, &p, step));
    }
}

#[test]
fn bad_rows_are_errors_that_say_what_is_wrong() {
    let mut s = Sampler::new(4);
    let p = params(1.0, 0, 1.0, 0.0).seeded(1);
    let nan = [0.0f32, f32::NAN, 1.0, f32::NAN];
    assert_eq!(
        s.sample(&nan, &p, 0),
        Err(SampleError::NanLogit { index: 1 })
    );
    assert_eq!(
        s.sample(&nan, &SampleParams::greedy(), 0),
        Err(SampleError::NanLogit { index: 1 }),
        "greedy checks too"
    );
    let inf = [0.0f32, 1.0, f32::INFINITY, 0.0];
    assert_eq!(
        s.sample(&inf, &p, 0),
        Err(SampleError::InfiniteLogit { index: 2 })
    );
    let masked = [f32::NEG_INFINITY; 4];
    let e = s.sample(&masked, &p, 0).unwrap_err();
    assert_eq!(e, SampleError::NoFiniteLogit { len: 4 });
    assert_eq!(
        e.to_string(),
        "no finite logit in the row: all 4 tokens are masked with -infinity"
    );
    assert_eq!(
        s.sample(&[0.0f32; 3], &p, 0),
        Err(SampleError::WrongLength {
            expected: 4,
            got: 3
        })
    );
    let half_nan = [f16::ZERO, f16::ONE, f16::NAN, f16::ZERO];
    assert_eq!(
        s.sample(&half_nan, &p, 0),
        Err(SampleError::NanLogit { index: 2 })
    );
}

#[test]
fn invalid_params_and_missing_seed_are_errors() {
    let mut s = Sampler::new(2);
    let x = [0.0f32, 1.0];
    let e = s
        .sample(&x, &params(1.0, 0, 1.5, 0.0).seeded(1), 0)
        .unwrap_err();
    assert!(
        matches!(&e, SampleError::InvalidParams(p) if p.field() == "top_p"),
        "{e}"
    );
    assert_eq!(
        s.sample(&x, &params(0.7, 0, 1.0, 0.0), 0),
        Err(SampleError::MissingSeed { temperature: 0.7 })
    );
}

#[test]
fn batch_rows_use_their_own_params_and_a_bad_row_poisons_nothing() {
    let v = 4;
    let row = logits_for(&P4);
    let mut logits = Vec::new();
    for _ in 0..4 {
        logits.extend_from_slice(&row);
    }
    logits[2 * v + 1] = f32::NAN; // row 2 is bad
    let params = [
        SampleParams::greedy(),
        params(1.0, 1, 1.0, 0.0).seeded(5),
        params(1.0, 0, 0.5, 0.0).seeded(5),
        params(2.0, 0, 1.0, 0.0).seeded(5),
    ];
    let steps = [0, 1, 2, 3];
    let mut s = Sampler::new(v);
    let out = s.sample_batch(&logits, &params, &steps).unwrap();
    assert_eq!(out[0], Ok(TokenId(0)));
    assert_eq!(out[1], Ok(TokenId(0)));
    assert_eq!(out[2], Err(SampleError::NanLogit { index: 1 }));
    assert_eq!(
        out[3],
        s.sample(&row, &params[3], 3),
        "same as sampled alone"
    );
}

#[test]
fn batch_shape_mismatch_is_reported_not_a_panic() {
    let mut s = Sampler::new(4);
    let e = s
        .sample_batch(&[0.0f32; 7], &[SampleParams::greedy(); 2], &[0, 0])
        .unwrap_err();
    assert!(matches!(
        e,
        SampleError::BatchShape {
            logits: 7,
            vocab: 4,
            ..
        }
    ));
    let e = s
        .sample_batch(&[0.0f32; 8], &[SampleParams::greedy(); 2], &[0])
        .unwrap_err();
    assert!(matches!(e, SampleError::BatchShape { steps: 1, .. }));
}

#[test]
fn top_p_over_many_chunks_matches_a_sorted_reference() {
    // 5000 tokens (79 chunks) with repeated logits: the octave search,
    // chunk skipping and quickselect must find the same cut as sorting.
    let v = 5000;
    let x: Vec<f32> = (0..v).map(|i| ((i * 7919) % 997) as f32 * 0.01).collect();
    let mut s = Sampler::new(v);
    for (t, top_p, min_p) in [
        (1.0, 0.9, 0.0),
        (0.3, 0.5, 0.0),
        (2.0, 0.99, 0.5),
        (1.0, 0.2, 0.0),
    ] {
        let p = params(t, 0, top_p, min_p).seeded(11);
        let kept = reference_kept(&x, t, top_p, min_p);
        for step in 0..300 {
            let id = s.sample(&x, &p, step).unwrap().0;
            assert!(kept.contains(&id), "T {t} p {top_p}: {id} not kept");
        }
    }
}

#[test]
fn top_p_cuts_inside_a_tie_by_token_id() {
    // 20,000 equal logits: rank is id order, so top-p 0.25 keeps exactly
    // ids 0..5000 (each has mass 1/20000), whatever the chunking.
    let v = 20_000;
    let x = vec![1.5f32; v];
    let mut s = Sampler::new(v);
    let p = params(0.8, 0, 0.25, 0.0).seeded(4);
    let mut seen_max = 0;
    for step in 0..2000 {
        let id = s.sample(&x, &p, step).unwrap().0;
        assert!(id < 5000, "token {id} beyond the top-p prefix");
        seen_max = seen_max.max(id);
    }
    assert!(
        seen_max > 4900,
        "the prefix is not cut short: max {seen_max}"
    );
}

#[test]
fn large_top_k_on_a_tie_keeps_the_lowest_ids() {
    // 5000 equal logits, k = 700 (more than the 79 chunks): ids 0..700.
    let v = 5000;
    let x = vec![-2.0f32; v];
    let mut s = Sampler::new(v);
    let p = params(1.0, 700, 1.0, 0.0).seeded(8);
    let ids: BTreeSet<u32> = (0..3000).map(|n| s.sample(&x, &p, n).unwrap().0).collect();
    assert!(ids.iter().all(|&i| i < 700), "max {:?}", ids.last());
    assert!(ids.len() > 650, "only {} distinct of 700", ids.len());
}

#[test]
fn large_top_k_beyond_the_finite_tokens_keeps_all_finite_ones() {
    let v = 3000;
    let mut x = vec![f32::NEG_INFINITY; v];
    for i in (0..v).step_by(100) {
        x[i] = (i % 7) as f32;
    }
    let mut s = Sampler::new(v);
    let p = params(3.0, 2000, 1.0, 0.0).seeded(8);
    let ids: BTreeSet<u32> = (0..2000).map(|n| s.sample(&x, &p, n).unwrap().0).collect();
    let finite: BTreeSet<u32> = (0..v as u32).step_by(100).collect();
    assert_eq!(ids, finite);
}

#[test]
fn large_top_k_matches_a_sorted_reference() {
    // k well above chunks / 8 takes the counting search for its bound.
    let v = 6000;
    let x: Vec<f32> = (0..v).map(|i| ((i * 7919) % 1009) as f32 * 0.01).collect();
    let mut order: Vec<u32> = (0..v as u32).collect();
    order.sort_by(|&a, &b| x[b as usize].total_cmp(&x[a as usize]).then(a.cmp(&b)));
    let mut s = Sampler::new(v);
    for k in [20usize, 90, 500, 2500] {
        let kept: BTreeSet<u32> = order[..k].iter().copied().collect();
        let p = params(0.05, k, 1.0, 0.0).seeded(k as u64);
        for step in 0..200 {
            let id = s.sample(&x, &p, step).unwrap().0;
            assert!(kept.contains(&id), "k {k}: {id}");
        }
    }
}

#[test]
fn extreme_temperatures_and_logits_work_on_every_path() {
    // 300 tokens over 5 chunks: huge, tiny and masked logits, a tie at
    // the top (ids 7 and 250).
    let mut x: Vec<f32> = (0..300).map(|i| ((i * 37) % 101) as f32 - 50.0).collect();
    x[3] = -3e38;
    x[4] = f32::NEG_INFINITY;
    x[7] = 3e38;
    x[250] = 3e38;
    let finite: BTreeSet<u32> = (0..300u32).filter(|&i| i != 4).collect();
    let mut ordinary = x.clone();
    for i in [3, 7, 250] {
        ordinary[i] = 1.0;
    }
    let paths = [
        (0, 1.0, 0.0),    // temperature only
        (0, 1.0, 0.5),    // min-p
        (0, 0.9, 0.0),    // top-p
        (0, 0.9, 0.01),   // top-p and min-p
        (40, 1.0, 0.0),   // top-k (chunk bound)
        (280, 0.95, 0.0), // large top-k (counting search)
    ];
    for (k, top_p, min_p) in paths {
        // Tiny temperature: only the tied maxima can be drawn.
        let got = drawn(&x, params(1e-30, k, top_p, min_p), 200);
        assert!(
            got.is_subset(&set(&[7, 250])),
            "{k} {top_p} {min_p}: {got:?}"
        );
        // Huge temperature on ordinary logits: nearly uniform, never the
        // masked token. (With the 3e38 logits even T = 1e30 leaves the
        // tied maxima e^3e8 times likelier than the rest.)
        let got = drawn(&ordinary, params(1e30, k, top_p, min_p), 400);
        assert!(
            got.is_subset(&finite) && got.len() > 10,
            "{k} {top_p}: {got:?}"
        );
    }
    // Ties at the top: greedy takes the lower id.
    let mut s = Sampler::new(300);
    assert_eq!(s.sample(&x, &SampleParams::greedy(), 0), Ok(TokenId(7)));
}

#[test]
fn a_single_token_vocabulary_always_returns_it() {
    let mut s = Sampler::new(1);
    for (k, top_p, min_p) in [(0, 1.0, 0.0), (1, 1.0, 0.0), (0, 0.5, 0.9)] {
        let p = params(0.7, k, top_p, min_p).seeded(1);
        assert_eq!(s.sample(&[-4.0f32], &p, 3), Ok(TokenId(0)));
    }
}

/// Adds `by` to one token's logit: a stand-in for a logit bias.
#[derive(Debug)]
struct Bias {
    id: usize,
    by: f32,
}

impl LogitTransform for Bias {
    fn apply(&self, logits: &mut [f32]) {
        logits[self.id] += self.by;
    }
}

#[test]
fn logit_transforms_run_in_order_before_greedy_and_the_filters() {
    let x = logits_for(&P4);
    let mut s = Sampler::new(4);
    let greedy = SampleParams::greedy();
    let boost = Bias { id: 3, by: 10.0 };
    let mask = Bias {
        id: 3,
        by: f32::NEG_INFINITY,
    };
    let with = |s: &mut Sampler, p: &SampleParams, chain: &[&dyn LogitTransform], n| {
        s.sample_with(&x, p, n, Transforms::new(chain))
    };
    assert_eq!(with(&mut s, &greedy, &[&boost], 0), Ok(TokenId(3)));
    assert_eq!(with(&mut s, &greedy, &[&boost, &mask], 0), Ok(TokenId(0)));
    // top-k 1 ranks the boosted row: only token 3 survives.
    let k1 = params(1.0, 1, 1.0, 0.0).seeded(SEED);
    for n in 0..50 {
        assert_eq!(with(&mut s, &k1, &[&boost], n), Ok(TokenId(3)));
        // The caller's row is not written: without the chain, token 0.
        assert_eq!(s.sample(&x, &k1, n), Ok(TokenId(0)));
    }
    let all = params(1.0, 0, 1.0, 0.0).seeded(SEED);
    for n in 0..100 {
        assert_eq!(with(&mut s, &all, &[], n), s.sample(&x, &all, n));
        assert_ne!(with(&mut s, &all, &[&mask], n), Ok(TokenId(3)));
    }
}

#[test]
fn a_transform_that_writes_nan_makes_the_row_an_error() {
    let mut s = Sampler::new(4);
    let nan = Bias {
        id: 2,
        by: f32::NAN,
    };
    let got = s.sample_with(
        &logits_for(&P4),
        &SampleParams::greedy(),
        0,
        Transforms::new(&[&nan]),
    );
    assert_eq!(got, Err(SampleError::NanLogit { index: 2 }));
}

/// Kept set for top-p then min-p (no top-k) from the specification, with
/// slack for rounding so that it is a superset.
fn reference_kept(x: &[f32], t: f32, top_p: f32, min_p: f32) -> BTreeSet<u32> {
    Candidates::new(x, f64::from(t))
        .top_p(f64::from(top_p) * (1.0 + 1e-6))
        .min_p(f64::from(min_p) * (1.0 - 1e-6))
        .ids()
        .into_iter()
        .collect()
}
