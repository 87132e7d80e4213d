//! [`Sampler`]: the reusable per-row sampler with its scratch buffers, and
//! the pipeline that picks which passes a row's parameters need.

use super::adjust::Transforms;
use super::error::SampleError;
use super::kernels::{
    CHUNK, Cand, Keep, collect_at_or_above, collect_band, count_at_or_above, draw_full, draw_kept,
    exp_nonpos, exp_pass, finite_max, first_index_of_max, mass_count_at_or_above, scaled,
};
use super::logits::Logit;
use super::logprobs::{TokenLogprobs, row_logprobs};
use super::params::SampleParams;
use super::rng::uniform_for_token;
use super::transforms::{draw, retain, retain_top_k, top_p_cutoff};
use crate::types::TokenId;

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

    /// The tokens that top-p (reaching `target` of `total`) and then min-p
    /// keep.
    ///
    /// With `A(t)` the mass of the tokens with `z >= t`, the crossing token
    /// is the lowest-ranked token of the shortest rank prefix with mass
    /// `>= target`. It lies in the band `lo <= z < hi` whenever
    /// `A(lo) >= target > A(hi)`. The band is narrowed with exact `A(t)`
    /// evaluations (one vectorized pass each, skipping chunks below `t`)
    /// until it holds at most `BAND` tokens, which are then gathered and cut
    /// by weighted quickselect. The first probes are octaves of weight
    /// (`t = -j ln 2`) placed by a chunk-level upper bound on `A`; later
    /// ones straddle the secant estimate of the crossing by about `BAND / 4`
    /// tokens on each side, so a round usually brackets it tightly.
    fn top_p_keep(&mut self, r: &Row, target: f64, total: f64) -> Keep {
        let mass = MassAt {
            x: r.x,
            w: &self.weights,
            chunk_max: &self.chunk_max,
            max: r.max,
            inv_t: r.inv_t,
        };
        let mut b = Bracket::whole_row(target, total, r.x.len());
        // min-p keeps z >= zmin. If that set's mass is below the target, it
        // is shorter than the top-p prefix and is the answer; otherwise the
        // top-p prefix is shorter and min-p removes nothing more.
        if r.zmin > f32::NEG_INFINITY {
            let p = mass.eval(r.zmin);
            if p.mass < target {
                return Keep::ZAtLeast(r.zmin);
            }
            b.lo = p;
        }
        let first = first_octave_that_may_reach(
            r,
            target,
            &mut self.chunk_tmp,
            &self.chunk_sum,
            &self.chunk_max,
        );
        b.bracket_by_octaves(&mass, first);
        b.narrow_by_secant(&mass);
        let n = collect_band(
            r.x,
            &self.weights,
            &self.chunk_max,
            r.max,
            r.inv_t,
            b.lo.t,
            b.hi.t,
            &mut self.cands,
        );
        b.cut_band(&self.cands[..n], &mut self.work)
    }
}

/// `-127 ln 2` is below `Z_UNDERFLOW`: `A` there is the whole weight.
const LAST_OCTAVE: u32 = 127;

/// The z threshold of octave `j`: weight `2^-j` relative to the best token.
fn octave(j: u32) -> f32 {
    -(j.min(LAST_OCTAVE) as f32) * std::f32::consts::LN_2
}

/// The first octave whose chunk-level upper bound on `A` reaches `target`:
/// the mass of the chunks whose maximum reaches `t` bounds `A(t)` from
/// above, so no earlier octave can reach the target. Uses `chunk_z` as
/// scratch for the chunk maxima's z.
fn first_octave_that_may_reach(
    r: &Row,
    target: f64,
    chunk_z: &mut [f32],
    chunk_sum: &[f32],
    chunk_max: &[f32],
) -> u32 {
    for (zc, &m) in chunk_z.iter_mut().zip(chunk_max) {
        *zc = scaled(m, r.max, r.inv_t);
    }
    let upper = |t: f32| -> f64 {
        chunk_z
            .iter()
            .zip(chunk_sum)
            .filter(|&(&zc, _)| zc >= t)
            .map(|(_, &s)| f64::from(s))
            .sum()
    };
    let (mut a, mut b) = (0u32, LAST_OCTAVE);
    while a < b {
        let mid = (a + b) / 2;
        if upper(octave(mid)) >= target {
            b = mid;
        } else {
            a = mid + 1;
        }
    }
    a
}

/// Exact `A(t)` over one row: one vectorized pass per evaluation.
struct MassAt<'a> {
    x: &'a [f32],
    w: &'a [f32],
    chunk_max: &'a [f32],
    max: f32,
    inv_t: f32,
}

impl MassAt<'_> {
    fn eval(&self, t: f32) -> Probe {
        let (mass, count) =
            mass_count_at_or_above(self.x, self.w, self.chunk_max, self.max, self.inv_t, t);
        Probe { t, mass, count }
    }
}

/// An exact evaluation of the mass at or above a z threshold.
#[derive(Clone, Copy, Debug)]
struct Probe {
    t: f32,
    mass: f64,
    count: usize,
}

/// Thresholds either side of the top-p crossing: `lo` reaches the target,
/// `hi` does not.
struct Bracket {
    target: f64,
    lo: Probe,
    hi: Probe,
}

impl Bracket {
    /// The widest bracket: everything (`-inf`) reaches, nothing (`+inf`)
    /// does not.
    fn whole_row(target: f64, total: f64, len: usize) -> Self {
        Self {
            target,
            lo: Probe {
                t: f32::NEG_INFINITY,
                mass: total,
                count: len,
            },
            hi: Probe {
                t: f32::INFINITY,
                mass: 0.0,
                count: 0,
            },
        }
    }

    /// Tightens whichever end `p` improves.
    fn update(&mut self, p: Probe) {
        if p.mass >= self.target {
            if p.t > self.lo.t {
                self.lo = p;
            }
        } else if p.t < self.hi.t {
            self.hi = p;
        }
    }

    /// Phase 1: octaves. Gallops down from two octaves past `first` (its
    /// bound is loose) until an octave reaches the target, and makes sure
    /// one that does not is known.
    fn bracket_by_octaves(&mut self, mass: &MassAt, first: u32) {
        let mut j = first + 2;
        let mut stride = 2;
        while self.lo.t < octave(j) {
            let p = mass.eval(octave(j));
            self.update(p);
            if p.mass >= self.target || j >= LAST_OCTAVE {
                break;
            }
            j += stride;
            stride *= 2;
        }
        if self.hi.t == f32::INFINITY && self.lo.t < 0.0 {
            let t = if first == 0 { 0.0 } else { octave(first - 1) };
            self.update(mass.eval(t.max(self.lo.t * 0.5)));
        }
    }

    /// Phase 2: rounds of two probes straddling the estimated crossing,
    /// until at most `BAND` tokens lie between the ends. The cap only
    /// matters for bands of ties, which no threshold can split; a large
    /// band is still cut exactly, just more slowly.
    fn narrow_by_secant(&mut self, mass: &MassAt) {
        const MAX_ROUNDS: usize = 12;
        let target = self.target;
        let (mut p1, mut p2) = (self.lo, self.hi);
        for _ in 0..MAX_ROUNDS {
            let (lo, hi) = (self.lo, self.hi);
            if lo.count.saturating_sub(hi.count) <= BAND
                || lo.t == f32::NEG_INFINITY
                || hi.t == f32::INFINITY
            {
                break;
            }
            // Secant through the two latest probes; through the bracket's
            // ends (which are far apart) when those are the latest probes or
            // the secant leaves the bracket. Far apart, the mass between two
            // thresholds is spread evenly in t if the number of tokens per
            // unit of z grows like e^-z, and evenly in e^t if it is flat;
            // rows lie in between, so the mean of the two estimates is used.
            let secant = |p: Probe, q: Probe| {
                let t = p.t + (q.t - p.t) * ((target - p.mass) / (q.mass - p.mass)) as f32;
                let density = (p.count as f32 - q.count as f32) / (q.t - p.t);
                (t, density.abs())
            };
            let (mut guess, mut density) = secant(p1, p2);
            let ends = p1.t == lo.t && p2.t == hi.t;
            if ends || !(guess > lo.t && guess < hi.t && density.is_finite() && density > 0.0) {
                (guess, density) = secant(lo, hi);
                let f = (target - hi.mass) / (lo.mass - hi.mass);
                let (eh, el) = (f64::from(hi.t).exp(), f64::from(lo.t).exp());
                let even_in_weight = (eh - f * (eh - el)).ln() as f32;
                if even_in_weight > lo.t && even_in_weight < hi.t {
                    guess = 0.5 * (guess + even_in_weight);
                }
            }
            let step = (BAND as f32 / 4.0) / density;
            let inside = |t: f32| t > lo.t && t < hi.t;
            let mut probes = [guess - step, guess + step];
            for (k, t) in probes.iter_mut().enumerate() {
                if !inside(*t) {
                    *t = lo.t + (hi.t - lo.t) * (k + 1) as f32 / 3.0;
                }
            }
            if !probes.iter().any(|&t| inside(t)) {
                break; // a band of equal logits cannot be split
            }
            for t in probes {
                if t > self.lo.t && t < self.hi.t {
                    let p = mass.eval(t);
                    self.update(p);
                    (p1, p2) = (p2, p);
                }
            }
        }
    }

    /// Phase 3: the exact cut inside the gathered band (the tokens with
    /// `lo <= z < hi`), by weighted quickselect. Rounding aside the band
    /// holds the crossing token; if its mass falls short, the whole band is
    /// kept.
    fn cut_band(&self, band: &[Cand], work: &mut [Cand]) -> Keep {
        let key = top_p_cutoff(band, self.target - self.hi.mass, work)
            .or_else(|| band.iter().map(|c| c.key).min());
        match key.and_then(|k| band.iter().find(|c| c.key == k)) {
            Some(c) => Keep::RankAtLeast { x: c.x, id: c.id() },
            None => Keep::ZAtLeast(self.hi.t.min(0.0)),
        }
    }
}

/// Top-p's band: at most about this many tokens are gathered.
const BAND: usize = 1024;

/// One row's inputs to the pipeline after validation.
struct Row<'a> {
    x: &'a [f32],
    max: f32,
    inv_t: f32,
    zmin: f32,
    u: f64,
}

#[cfg(test)]
mod tests {
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
}
