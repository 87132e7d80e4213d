//! [`Sampler`]: the reusable per-row sampler with its scratch buffers, and
//! the pipeline that picks which passes a row's parameters need. `top_p`
//! finds top-p's cut when there is no top-k; `tests` checks the pipeline
//! through [`Sampler`].

use super::adjust::Transforms;
use super::error::SampleError;
use super::kernels::{
    CHUNK, Cand, collect_at_or_above, count_at_or_above, draw_full, draw_kept, exp_nonpos,
    exp_pass, finite_max, first_index_of_max, scaled,
};
use super::logits::Logit;
use super::logprobs::{TokenLogprobs, row_logprobs};
use super::params::SampleParams;
use super::rng::uniform_for_token;
use super::transforms::{draw, retain, retain_top_k, top_p_cutoff};
use crate::types::TokenId;

#[cfg(test)]
mod tests;
mod top_p;

/// Samples rows of logits for one vocabulary size. Owns all the scratch it
/// needs, sized at construction, so sampling never allocates. It holds no
/// state between calls, so one sampler can serve every slot in turn (see
/// [`sample_batch_into`](Self::sample_batch_into)). The scratch is about 44
/// bytes per vocabulary entry (5.6 MB at 128,256 tokens): keep one per
/// worker thread rather than one per slot.
#[derive(Clone, Debug)]
pub struct Sampler {
    vocab: usize,
    /// Half-precision rows widened to f32.
    widened: Vec<f32>,
    /// The row as the request's logit transforms leave it.
    adjusted: Vec<f32>,
    scratch: Scratch,
}

#[derive(Clone, Debug)]
struct Scratch {
    chunk_max: Vec<f32>,
    chunk_sum: Vec<f32>,
    /// Per-chunk values for selections (k-th chunk max, chunk z bounds).
    chunk_tmp: Vec<f32>,
    weights: Vec<f32>,
    cands: Vec<Cand>,
    work: Vec<Cand>,
}

impl Sampler {
    /// A sampler for rows of `vocab_size` logits.
    ///
    /// # Panics
    /// If `vocab_size` is 0 or does not fit a `u32` token id.
    pub fn new(vocab_size: usize) -> Self {
        assert!(vocab_size > 0, "vocabulary size must be positive");
        assert!(
            u32::try_from(vocab_size).is_ok(),
            "vocabulary size {vocab_size} does not fit u32 token ids"
        );
        let chunks = vocab_size.div_ceil(CHUNK);
        Self {
            vocab: vocab_size,
            widened: vec![0.0; vocab_size],
            adjusted: vec![0.0; vocab_size],
            scratch: Scratch {
                chunk_max: vec![0.0; chunks],
                chunk_sum: vec![0.0; chunks],
                chunk_tmp: vec![0.0; chunks],
                weights: vec![0.0; vocab_size],
                cands: vec![Cand::default(); vocab_size],
                work: vec![Cand::default(); vocab_size],
            },
        }
    }

    /// The vocabulary size this sampler takes rows of.
    pub fn vocab(&self) -> usize {
        self.vocab
    }

    /// The next token from one row of logits.
    ///
    /// `step` is the index of the token being generated within its request
    /// (0 for the first); with the seed it fully determines the random draw.
    /// A non-greedy `params` must carry a seed (see
    /// [`SampleParams::resolve_seed`]).
    pub fn sample<L: Logit>(
        &mut self,
        logits: &[L],
        params: &SampleParams,
        step: u64,
    ) -> Result<TokenId, SampleError> {
        self.sample_with(logits, params, step, Transforms::NONE)
    }

    /// [`sample`](Self::sample) after the request's logit `transforms`,
    /// which run on a copy of the row, in order, before temperature and the
    /// filters. The row is checked (NaN, `+inf`, nothing finite) after them.
    pub fn sample_with<L: Logit>(
        &mut self,
        logits: &[L],
        params: &SampleParams,
        step: u64,
        transforms: Transforms,
    ) -> Result<TokenId, SampleError> {
        if logits.len() != self.vocab {
            return Err(SampleError::WrongLength {
                expected: self.vocab,
                got: logits.len(),
            });
        }
        params.validate()?;
        let x = if transforms.is_empty() {
            L::as_f32(logits, &mut self.widened)
        } else {
            // One pass widens (or copies) the row into the chain's buffer.
            L::widen_into(logits, &mut self.adjusted);
            transforms.apply(&mut self.adjusted);
            &self.adjusted
        };
        self.scratch.sample_row(x, params, step).map(TokenId)
    }

    /// The log-probabilities of `token` and of the `top` most likely tokens
    /// of `logits` as given (see [`super::logprobs`]); `top` is clamped to
    /// [`MAX_TOP_LOGPROBS`](super::MAX_TOP_LOGPROBS). Allocates only the
    /// list of the top tokens, and nothing when `top` is 0.
    pub fn logprobs<L: Logit>(
        &mut self,
        logits: &[L],
        token: TokenId,
        top: usize,
    ) -> Result<TokenLogprobs, SampleError> {
        if logits.len() != self.vocab {
            return Err(SampleError::WrongLength {
                expected: self.vocab,
                got: logits.len(),
            });
        }
        let x = L::as_f32(logits, &mut self.widened);
        row_logprobs(x, &mut self.scratch.chunk_max, token, top)
    }

    /// Samples every row of a row-major `[rows * vocab]` buffer, row `r`
    /// with `params[r]` and `steps[r]`, writing row `r`'s outcome to
    /// `out[r]`. A bad row gets its own error; the others are unaffected.
    /// The outer error is only for inconsistent lengths. Does not allocate.
    pub fn sample_batch_into<L: Logit>(
        &mut self,
        logits: &[L],
        params: &[SampleParams],
        steps: &[u64],
        out: &mut [Result<TokenId, SampleError>],
    ) -> Result<(), SampleError> {
        let rows = params.len();
        if logits.len() != rows * self.vocab || steps.len() != rows || out.len() != rows {
            return Err(SampleError::BatchShape {
                logits: logits.len(),
                vocab: self.vocab,
                params: params.len(),
                steps: steps.len(),
                out: out.len(),
            });
        }
        for (((row, p), &step), o) in logits
            .chunks_exact(self.vocab)
            .zip(params)
            .zip(steps)
            .zip(out.iter_mut())
        {
            *o = self.sample(row, p, step);
        }
        Ok(())
    }

    /// [`sample_batch_into`](Self::sample_batch_into) returning a new vector.
    pub fn sample_batch<L: Logit>(
        &mut self,
        logits: &[L],
        params: &[SampleParams],
        steps: &[u64],
    ) -> Result<Vec<Result<TokenId, SampleError>>, SampleError> {
        let mut out: Vec<Result<TokenId, SampleError>> = vec![Ok(TokenId(0)); params.len()];
        self.sample_batch_into(logits, params, steps, &mut out)?;
        Ok(out)
    }
}

/// `1 / temperature`, clamped so that a tiny temperature still gives finite
/// scaled logits (the max token keeps z = 0, every other underflows to 0).
fn inverse_temperature(t: f32) -> f32 {
    (1.0 / f64::from(t)).min(f64::from(f32::MAX)) as f32
}

/// min-p as a bound on z: `p_i >= min_p * p_max` <=> `z_i >= ln(min_p)`.
fn min_p_bound(min_p: f32) -> f32 {
    if min_p > 0.0 {
        f64::from(min_p).ln() as f32
    } else {
        f32::NEG_INFINITY
    }
}

impl Scratch {
    fn sample_row(&mut self, x: &[f32], p: &SampleParams, step: u64) -> Result<u32, SampleError> {
        let max = finite_max(x, &mut self.chunk_max)?;
        let greedy = first_index_of_max(x, &self.chunk_max, max) as u32;
        if p.is_greedy() {
            return Ok(greedy);
        }
        let seed = p.seed.ok_or(SampleError::MissingSeed {
            temperature: p.temperature,
        })?;
        let row = Row {
            x,
            max,
            inv_t: inverse_temperature(p.temperature),
            zmin: min_p_bound(p.min_p),
            u: uniform_for_token(seed, step),
        };
        let id = if p.top_k > 0 {
            self.top_k_then_rest(&row, p.top_k, p.top_p)
        } else if p.top_p < 1.0 {
            self.top_p_then_min_p(&row, p.top_p)
        } else {
            self.temperature_and_min_p(&row)
        };
        // The top-ranked token always survives with weight 1, so a draw
        // always finds a token; fall back to it rather than panic.
        debug_assert!(id.is_some());
        Ok(id.unwrap_or(greedy))
    }

    /// No top-k, no top-p: weights over the whole vocabulary (masked by
    /// min-p) and a draw walking chunk sums.
    fn temperature_and_min_p(&mut self, r: &Row) -> Option<u32> {
        let total = exp_pass(
            r.x,
            r.max,
            r.inv_t,
            r.zmin,
            &mut self.weights,
            &mut self.chunk_sum,
        );
        draw_full(&self.weights, &self.chunk_sum, total, r.u).map(|i| i as u32)
    }

    /// top-k > 0: find the k best by rank without touching most of the row,
    /// then top-p and min-p on those k.
    fn top_k_then_rest(&mut self, r: &Row, k: usize, top_p: f32) -> Option<u32> {
        // The k-th largest chunk maximum is a logit that at least k tokens
        // reach (the maxima of k different chunks), so the k best tokens are
        // among the tokens at or above it and only chunks reaching it are read.
        let chunks = self.chunk_max.len();
        let bound = if k <= chunks {
            let tmp = &mut self.chunk_tmp[..];
            tmp.copy_from_slice(&self.chunk_max);
            let (_, kth, _) = tmp.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
            *kth
        } else {
            f32::NEG_INFINITY
        };
        // For small k that bound lets few tokens through. For large k it is
        // loose (or absent), so raise it with counting passes first.
        let bound = if k > chunks / 8 {
            self.top_k_bound(r, k, bound)
        } else {
            bound
        };
        let n = collect_at_or_above(r.x, &self.chunk_max, bound, &mut self.cands);
        let n = retain_top_k(&mut self.cands[..n], k, &mut self.work);
        let cands = &mut self.cands[..n];
        let mut kept_mass = 0.0f64;
        for c in cands.iter_mut() {
            c.w = exp_nonpos(scaled(c.x, r.max, r.inv_t));
            kept_mass += f64::from(c.w);
        }
        // min-p before the top-p cut gives the same set as after it (both
        // keep rank prefixes, so the shorter wins), while top-p's target
        // stays relative to the top-k set as the order requires.
        let n = if r.zmin > f32::NEG_INFINITY {
            retain(cands, |c| scaled(c.x, r.max, r.inv_t) >= r.zmin)
        } else {
            n
        };
        let cands = &self.cands[..n];
        let cutoff = if top_p < 1.0 {
            top_p_cutoff(cands, f64::from(top_p) * kept_mass, &mut self.work)
        } else {
            None
        };
        draw(cands, cutoff, r.u)
    }

    /// A logit that at least `k` tokens reach but not many more than `k`
    /// (about `k / 4`, at least 256), starting from `floor`, which at least
    /// `k` tokens reach. Counting passes at thresholds placed by the secant
    /// through the closest counts on either side of `k`.
    fn top_k_bound(&self, r: &Row, k: usize, floor: f32) -> f32 {
        const MAX_ROUNDS: usize = 16;
        let slack = (k / 4).max(256);
        let count = |t: f32| count_at_or_above(r.x, &self.chunk_max, t);
        // lo: count >= k; hi: count < k (or the ties at the max, if enough).
        let mut lo = (floor, count(floor));
        if lo.1 <= k + slack {
            return floor;
        }
        let mut hi = (r.max, count(r.max));
        if hi.1 >= k {
            return r.max;
        }
        if lo.0 == f32::NEG_INFINITY {
            // Step down from the max until k tokens are reached.
            let mut d = 1.0f32;
            loop {
                let t = r.max - d;
                let c = count(t);
                if c >= k {
                    lo = (t, c);
                    break;
                }
                hi = (t, c);
                d *= 4.0;
                if !d.is_finite() || r.max - d == f32::NEG_INFINITY {
                    return f32::NEG_INFINITY;
                }
            }
        }
        let aim = (k + slack / 2) as f32;
        for _ in 0..MAX_ROUNDS {
            if lo.1 <= k + slack {
                break;
            }
            let (a, b) = (lo.0, hi.0);
            let mut t = a + (b - a) * ((lo.1 as f32 - aim) / (lo.1 - hi.1) as f32);
            if !(t > a && t < b) {
                t = a + (b - a) * 0.5;
                if !(t > a && t < b) {
                    break; // ties: no threshold splits them
                }
            }
            let c = count(t);
            if c >= k {
                lo = (t, c);
            } else {
                hi = (t, c);
            }
        }
        lo.0
    }

    /// top-p without top-k: the mass to reach is relative to the whole
    /// vocabulary, so every weight is computed once; the cut is then found
    /// by masked mass sums over the row, and only the few tokens near it are
    /// ever gathered.
    fn top_p_then_min_p(&mut self, r: &Row, top_p: f32) -> Option<u32> {
        let total = exp_pass(
            r.x,
            r.max,
            r.inv_t,
            f32::NEG_INFINITY,
            &mut self.weights,
            &mut self.chunk_sum,
        );
        let keep = self.top_p_keep(r, f64::from(top_p) * total, total);
        draw_kept(
            r.x,
            &self.weights,
            &self.chunk_max,
            r.max,
            r.inv_t,
            keep,
            &mut self.chunk_tmp,
            r.u,
        )
        .map(|i| i as u32)
    }
}

/// One row's inputs to the pipeline after validation.
struct Row<'a> {
    x: &'a [f32],
    max: f32,
    inv_t: f32,
    zmin: f32,
    u: f64,
}
