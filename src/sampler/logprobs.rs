//! Log-probabilities of a row: the log-softmax of the logits as given (the
//! model's, before penalties, bias, temperature and filters), for the chosen
//! token and the `n` most likely ones.
//!
//! Nothing vocabulary-sized is written: the row's maximum and chunk maxima
//! come from one scan, the normalizer `ln sum exp(x - max)` from one
//! vectorized pass, and the chosen token's value is `x - max - ln(sum)`.
//! The top `n` (at most [`MAX_TOP_LOGPROBS`]) are selected into a fixed
//! array, reading only the chunks whose maximum can still enter it; nothing
//! is sorted but those `n`.

use super::error::SampleError;
use super::kernels::{CHUNK, exp_sum, finite_max, key_id, rank_key};
use crate::types::TokenId;

/// Most alternatives a request may ask for (`top_logprobs`, `logprobs: N`).
pub const MAX_TOP_LOGPROBS: usize = 20;

/// The log-probabilities reported for one generated token.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenLogprobs {
    /// The chosen token and its log-probability.
    pub token: TokenId,
    pub logprob: f32,
    /// The most likely tokens, most likely first (ties: lowest id first).
    pub top: Vec<(TokenId, f32)>,
}

/// The log-probabilities of `token` and of the top `n` of row `x` (`n` is
/// clamped to [`MAX_TOP_LOGPROBS`]). `chunk_max` is scratch of one entry per
/// [`CHUNK`] of the row. The row is checked as for sampling: a NaN or `+inf`
/// logit, or no finite one, is an error.
pub(crate) fn row_logprobs(
    x: &[f32],
    chunk_max: &mut [f32],
    token: TokenId,
    n: usize,
) -> Result<TokenLogprobs, SampleError> {
    let max = finite_max(x, chunk_max)?;
    let ln_sum = exp_sum(x, max).ln();
    let lp = |v: f32| ((f64::from(v) - f64::from(max)) - ln_sum) as f32;
    // An id outside the row has no probability at all.
    let chosen = x
        .get(token.0 as usize)
        .copied()
        .unwrap_or(f32::NEG_INFINITY);
    let mut best = [0u64; MAX_TOP_LOGPROBS];
    let n = n.min(MAX_TOP_LOGPROBS).min(x.len());
    let top_len = top_keys(x, &chunk_max[..x.len().div_ceil(CHUNK)], &mut best[..n]);
    let top = best[..top_len]
        .iter()
        .map(|&k| {
            let id = key_id(k);
            (TokenId(id), lp(x[id as usize]))
        })
        .collect();
    Ok(TokenLogprobs {
        token,
        logprob: lp(chosen),
        top,
    })
}

/// Fills `best` with the rank keys of the `best.len()` highest-ranked
/// tokens of `x`, in descending order, and returns how many it holds.
/// Chunks are read in id order, so a later token with a logit equal to the
/// current last one ranks below it: a chunk whose maximum is not above the
/// last kept logit is skipped whole once `best` is full.
fn top_keys(x: &[f32], chunk_max: &[f32], best: &mut [u64]) -> usize {
    let n = best.len();
    if n == 0 {
        return 0;
    }
    let mut len = 0usize;
    let mut floor = f32::NEG_INFINITY;
    for (c, &cm) in chunk_max.iter().enumerate() {
        if len == n && cm <= floor {
            continue;
        }
        let start = c * CHUNK;
        let end = (start + CHUNK).min(x.len());
        for (i, &v) in x[start..end].iter().enumerate() {
            if len == n && v <= floor {
                continue;
            }
            let key = rank_key(v, (start + i) as u32);
            // Insertion into the descending run; the last falls off when full.
            let mut pos = len.min(n - 1);
            if len == n && key <= best[pos] {
                continue;
            }
            while pos > 0 && best[pos - 1] < key {
                best[pos] = best[pos - 1];
                pos -= 1;
            }
            best[pos] = key;
            len = (len + 1).min(n);
            if len == n {
                floor = x[key_id(best[n - 1]) as usize];
            }
        }
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oracle(x: &[f32]) -> Vec<f64> {
        let m = x
            .iter()
            .fold(f64::NEG_INFINITY, |a, &v| a.max(f64::from(v)));
        let s: f64 = x.iter().map(|&v| (f64::from(v) - m).exp()).sum();
        x.iter().map(|&v| f64::from(v) - m - s.ln()).collect()
    }

    #[test]
    fn ties_go_to_the_lowest_id_and_the_top_is_in_rank_order() {
        let x = [1.0f32, 3.0, 3.0, -1.0, 3.0, 2.0];
        let mut cm = [0.0f32; 1];
        let got = row_logprobs(&x, &mut cm, TokenId(5), 4).unwrap();
        let ids: Vec<u32> = got.top.iter().map(|t| t.0.0).collect();
        assert_eq!(ids, [1, 2, 4, 5]);
        let o = oracle(&x);
        assert!((f64::from(got.logprob) - o[5]).abs() < 1e-6);
    }

    #[test]
    fn a_row_of_many_chunks_keeps_exactly_the_best_and_skips_nothing_it_needs() {
        let v: usize = 1000;
        let x: Vec<f32> = (0..v).map(|i| ((i * 7919) % 1009) as f32 * 0.01).collect();
        let mut cm = vec![0.0f32; v.div_ceil(CHUNK)];
        let got = row_logprobs(&x, &mut cm, TokenId(3), 20).unwrap();
        let mut order: Vec<u32> = (0..v as u32).collect();
        order.sort_by(|&a, &b| x[b as usize].total_cmp(&x[a as usize]).then(a.cmp(&b)));
        let ids: Vec<u32> = got.top.iter().map(|t| t.0.0).collect();
        assert_eq!(ids, order[..20]);
    }

    #[test]
    fn masked_tokens_have_log_probability_minus_infinity() {
        let x = [0.0f32, f32::NEG_INFINITY];
        let mut cm = [0.0f32; 1];
        let got = row_logprobs(&x, &mut cm, TokenId(1), 0).unwrap();
        assert_eq!(got.logprob, f32::NEG_INFINITY);
        assert!(got.top.is_empty());
    }
}
