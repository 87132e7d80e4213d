//! Log-probabilities against an f64 log-softmax oracle, row by row in a
//! batch of different rows, for f32, f16 and bf16 logits, and through a
//! slot with every penalty on (they must be of the model's logits).

use half::{bf16, f16};
use iree_llm::TokenId;
use iree_llm::sampler::{
    Logit, LogitBias, LogitParams, MAX_TOP_LOGPROBS, Penalties, SampleParams, Sampler, SlotState,
};

const V: usize = 32_003;
const B: usize = 6;

/// f64 log-softmax of `x` and its `n` best ids by (logit desc, id asc),
/// by a full sort: the plain way this crate avoids.
fn oracle(x: &[f32], n: usize) -> (Vec<f64>, Vec<u32>) {
    let m = x
        .iter()
        .fold(f64::NEG_INFINITY, |a, &v| a.max(f64::from(v)));
    let ln_s = x
        .iter()
        .map(|&v| (f64::from(v) - m).exp())
        .sum::<f64>()
        .ln();
    let lp = x.iter().map(|&v| f64::from(v) - m - ln_s).collect();
    let mut order: Vec<u32> = (0..x.len() as u32).collect();
    order.sort_by(|&a, &b| {
        x[b as usize]
            .partial_cmp(&x[a as usize])
            .unwrap()
            .then(a.cmp(&b))
    });
    order.truncate(n);
    (lp, order)
}

/// Rows of different shapes: spread, peaked, masked, tied, large, tiny.
fn batch() -> Vec<f32> {
    let mut s: u64 = 0x5EED;
    let mut u = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut out = Vec::with_capacity(B * V);
    for r in 0..B {
        for i in 0..V {
            let v = match r {
                0 => (u() - 0.5) * 20.0,
                1 => (u() - 0.5) * 4.0 + if i == 777 { 30.0 } else { 0.0 },
                2 if i % 3 == 0 => f32::NEG_INFINITY,
                2 => (u() - 0.5) * 10.0,
                // Many exact ties: logits on a coarse grid.
                3 => ((u() * 8.0).floor() - 4.0) * 0.5,
                4 => (u() - 0.5) * 200.0 + 1000.0,
                _ => (u() - 0.5) * 1e-3,
            };
            out.push(v);
        }
    }
    out
}

fn close(got: f32, want: f64) -> bool {
    if want == f64::NEG_INFINITY {
        return got == f32::NEG_INFINITY;
    }
    (f64::from(got) - want).abs() <= 2e-5 * want.abs().max(1.0)
}

fn check_rows<L: Logit>(rows: &[L], widened: &[f32], what: &str) {
    let mut sampler = Sampler::new(V);
    let ns = [0usize, 1, 5, 20, 7, 3];
    let chosen = [0u32, 777, 5, 123, V as u32 - 1, 31_000];
    for r in 0..B {
        let x = &widened[r * V..(r + 1) * V];
        let (lp, best) = oracle(x, ns[r]);
        let got = sampler
            .logprobs(&rows[r * V..(r + 1) * V], TokenId(chosen[r]), ns[r])
            .unwrap();
        assert_eq!(got.token, TokenId(chosen[r]));
        assert!(
            close(got.logprob, lp[chosen[r] as usize]),
            "{what} row {r}: chosen logprob {} vs oracle {}",
            got.logprob,
            lp[chosen[r] as usize]
        );
        let ids: Vec<u32> = got.top.iter().map(|t| t.0.0).collect();
        assert_eq!(ids, best, "{what} row {r}: top {} ids", ns[r]);
        for &(id, l) in &got.top {
            assert!(
                close(l, lp[id.0 as usize]),
                "{what} row {r}: top token {} logprob {l} vs oracle {}",
                id.0,
                lp[id.0 as usize]
            );
        }
    }
}

#[test]
fn logprobs_match_an_f64_log_softmax_row_by_row_for_f32_rows() {
    let rows = batch();
    check_rows(&rows, &rows, "f32");
}

#[test]
fn logprobs_match_an_f64_log_softmax_row_by_row_for_f16_and_bf16_rows() {
    let rows = batch();
    // Row 4 (around 1000) is outside f16's precision but not its range.
    let h: Vec<f16> = rows.iter().map(|&v| f16::from_f32(v)).collect();
    let hw: Vec<f32> = h.iter().map(|v| v.to_f32()).collect();
    check_rows(&h, &hw, "f16");
    let b: Vec<bf16> = rows.iter().map(|&v| bf16::from_f32(v)).collect();
    let bw: Vec<f32> = b.iter().map(|v| v.to_f32()).collect();
    check_rows(&b, &bw, "bf16");
}

#[test]
fn logprobs_are_of_the_model_logits_before_penalties_bias_and_temperature() {
    let rows = batch();
    let x = &rows[..V];
    let mut sampler = Sampler::new(V);
    let mut state = SlotState::new();
    let logit = LogitParams {
        penalties: Penalties {
            repetition: 1.5,
            frequency: 1.0,
            presence: 1.0,
        },
        logit_bias: LogitBias::new([(TokenId(10), 50.0)]),
        logprobs: Some(5),
    };
    state.begin(&logit, &[TokenId(1), TokenId(2)]);
    state.accept(&logit, TokenId(10));
    let params = SampleParams::with_temperature(0.3).seeded(1);
    let s = state.sample(&mut sampler, x, &params, &logit, 1).unwrap();
    assert_eq!(s.token, TokenId(10), "the bias of 50 decides the token");
    let (lp, best) = oracle(x, 5);
    let got = s.logprobs.unwrap();
    assert!(close(got.logprob, lp[10]));
    let ids: Vec<u32> = got.top.iter().map(|t| t.0.0).collect();
    assert_eq!(ids, best);
}

#[test]
fn asking_for_more_than_the_maximum_gives_the_maximum() {
    let rows = batch();
    let mut sampler = Sampler::new(V);
    let got = sampler.logprobs(&rows[..V], TokenId(0), 1000).unwrap();
    assert_eq!(got.top.len(), MAX_TOP_LOGPROBS);
}
