//! The sampling chain written plainly: the specification of the semantics
//! documented in [the module](super), one stage at a time on a ranked
//! candidate list, in `f64`. It sorts the whole vocabulary and allocates, so
//! it is far too slow to serve; it exists so that the fast [`Sampler`]
//! (which shares no code with it) can be checked against it, and so that
//! tests and benchmarks build their expected outcomes from one definition.
//!
//! ```
//! use iree_llm::sampler::spec::Candidates;
//! // Probabilities 0.4, 0.3, 0.2, 0.1 at temperature 1.
//! let x = [0.4f64.ln(), 0.3f64.ln(), 0.2f64.ln(), 0.1f64.ln()];
//! let kept = Candidates::new(&x, 1.0).top_k(3).top_p(0.65).min_p(0.0);
//! assert_eq!(kept.ids(), vec![0, 1]); // 0.3 crosses 0.65 and stays
//! ```
//!
//! Every stage records how close its comparisons came to their boundary
//! ([`Candidates::margin`]), so that a test can set aside cases whose
//! outcome would hinge on `f32` versus `f64` rounding.
//!
//! [`Sampler`]: super::Sampler

use super::params::SampleParams;
use super::rng::uniform_for_token;

/// Below this scaled logit `z = (x - x_max) / T` a token's weight is 0: the
/// documented limit of the fast path's `f32` weights (`e^-87`).
pub const Z_UNDERFLOW: f64 = -87.0;

/// One token still in the running.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub id: u32,
    pub logit: f64,
    /// `exp((logit - best logit) / T)`: 1 for the best token.
    pub weight: f64,
}

/// The tokens a chain of filters has kept so far, best rank first.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidates {
    /// Kept tokens in rank order: logit descending, then id ascending.
    pub ranked: Vec<Candidate>,
    /// The smallest distance by which any comparison made so far missed its
    /// boundary, in relative units (fractions of mass for top-p, ratios to
    /// the best weight for min-p). `f64::INFINITY` when none was made.
    pub margin: f64,
}

/// The outcome of [`Candidates::draw`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drawn {
    pub id: u32,
    /// The chain's margin, lowered by the draw's own comparisons (distance
    /// of each cumulative weight from the target, as a fraction of the
    /// total).
    pub margin: f64,
}

impl Candidates {
    /// Stage 1, *temperature*: every finite logit ranked, with weight
    /// `exp((x - x_max) / T)` (0 below [`Z_UNDERFLOW`]). `-inf` logits are
    /// masked and never enter. `temperature` must be positive.
    pub fn new<L: Copy + Into<f64>>(logits: &[L], temperature: f64) -> Self {
        let mut ranked: Vec<Candidate> = logits
            .iter()
            .enumerate()
            .map(|(i, &x)| Candidate {
                id: i as u32,
                logit: x.into(),
                weight: 0.0,
            })
            .filter(|c| c.logit.is_finite())
            .collect();
        // total_cmp would order -0.0 below +0.0; the documented rank does not.
        ranked.sort_by(|a, b| {
            b.logit
                .partial_cmp(&a.logit)
                .expect("finite logits compare")
                .then(a.id.cmp(&b.id))
        });
        if let Some(best) = ranked.first().map(|c| c.logit) {
            for c in &mut ranked {
                let z = (c.logit - best) / temperature;
                c.weight = if z < Z_UNDERFLOW { 0.0 } else { z.exp() };
            }
        }
        Self {
            ranked,
            margin: f64::INFINITY,
        }
    }

    /// Stage 2, *top-k*: the `k` best-ranked tokens (all if fewer); `k = 0`
    /// keeps all.
    pub fn top_k(mut self, k: usize) -> Self {
        if k > 0 {
            self.ranked.truncate(k);
        }
        self
    }

    /// Stage 3, *top-p*: the shortest rank prefix whose share of what is
    /// kept so far reaches `p` (`>= p`), the crossing token included;
    /// `p >= 1` keeps all.
    pub fn top_p(mut self, p: f64) -> Self {
        if p >= 1.0 {
            return self;
        }
        let total = self.total();
        let mut acc = 0.0;
        for i in 0..self.ranked.len() {
            acc += self.ranked[i].weight;
            let share = acc / total;
            self.margin = self.margin.min((share - p).abs());
            if share >= p {
                self.ranked.truncate(i + 1);
                break;
            }
        }
        self
    }

    /// Stage 4, *min-p*: the tokens whose probability is at least `min_p`
    /// times the best one's; `min_p <= 0` keeps all.
    pub fn min_p(mut self, min_p: f64) -> Self {
        if min_p <= 0.0 {
            return self;
        }
        let Some(best) = self.ranked.first().map(|c| c.weight) else {
            return self;
        };
        for c in &self.ranked {
            self.margin = self.margin.min((c.weight / best - min_p).abs());
        }
        self.ranked.retain(|c| c.weight / best >= min_p);
        self
    }

    /// Stage 5, *draw*: walking the kept tokens in id order, the first whose
    /// cumulative weight exceeds `u` times the total. `None` if nothing with
    /// positive weight is kept.
    pub fn draw(&self, u: f64) -> Option<Drawn> {
        let mut by_id = self.ranked.clone();
        by_id.sort_by_key(|c| c.id);
        let total = self.total();
        let target = u * total;
        let mut margin = self.margin;
        let mut acc = 0.0;
        for c in &by_id {
            acc += c.weight;
            margin = margin.min((acc - target).abs() / total);
            if acc > target {
                return Some(Drawn { id: c.id, margin });
            }
        }
        None
    }

    /// The kept token ids, best rank first.
    pub fn ids(&self) -> Vec<u32> {
        self.ranked.iter().map(|c| c.id).collect()
    }

    /// The draw's distribution over a vocabulary of `vocab` tokens: kept
    /// weights renormalized, 0 elsewhere.
    pub fn probabilities(&self, vocab: usize) -> Vec<f64> {
        let total = self.total();
        let mut probs = vec![0.0; vocab];
        for c in &self.ranked {
            probs[c.id as usize] = c.weight / total;
        }
        probs
    }

    fn total(&self) -> f64 {
        self.ranked.iter().map(|c| c.weight).sum()
    }
}

/// Temperature 0: the token of rank 0 (the argmax, lowest id on ties), or
/// `None` if no logit is finite.
pub fn greedy<L: Copy + Into<f64>>(logits: &[L]) -> Option<u32> {
    Candidates::new(logits, 1.0).ranked.first().map(|c| c.id)
}

/// Stages 1 to 4 with `p`'s parameters, in the documented order. `p` must
/// not be greedy.
pub fn filter<L: Copy + Into<f64>>(logits: &[L], p: &SampleParams) -> Candidates {
    Candidates::new(logits, f64::from(p.temperature))
        .top_k(p.top_k)
        .top_p(f64::from(p.top_p))
        .min_p(f64::from(p.min_p))
}

/// The whole chain: the token for step `step` of a request with params `p`
/// (greedy, or filtered and drawn at [`uniform_for_token`]). `None` if no
/// logit is finite or a non-greedy `p` has no seed. The margin is infinite
/// for greedy, which compares nothing.
pub fn sample<L: Copy + Into<f64>>(logits: &[L], p: &SampleParams, step: u64) -> Option<Drawn> {
    if p.is_greedy() {
        return greedy(logits).map(|id| Drawn {
            id,
            margin: f64::INFINITY,
        });
    }
    filter(logits, p).draw(uniform_for_token(p.seed?, step))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probs(weights: &[f64]) -> Vec<f64> {
        weights.iter().map(|w| w.ln()).collect()
    }

    #[test]
    fn ranks_by_logit_then_id_and_masks_minus_infinity() {
        let x = [1.0f32, 3.0, f32::NEG_INFINITY, 3.0, -0.0, 0.0];
        assert_eq!(Candidates::new(&x, 1.0).ids(), vec![1, 3, 0, 4, 5]);
        assert_eq!(greedy(&x), Some(1));
        assert_eq!(greedy(&[f32::NEG_INFINITY; 2]), None);
    }

    #[test]
    fn top_p_keeps_the_crossing_token_relative_to_what_is_kept() {
        let x = probs(&[0.4, 0.3, 0.2, 0.1]);
        assert_eq!(Candidates::new(&x, 1.0).top_p(0.65).ids(), vec![0, 1]);
        // After top-k 2 the shares are 4/7 and 3/7: 0.55 is reached at once.
        let c = Candidates::new(&x, 1.0).top_k(2).top_p(0.55);
        assert_eq!(c.ids(), vec![0]);
        assert!((c.margin - (4.0 / 7.0 - 0.55)).abs() < 1e-12);
    }

    #[test]
    fn min_p_is_relative_to_the_best_token() {
        let x = probs(&[0.4, 0.3, 0.2, 0.1]);
        assert_eq!(Candidates::new(&x, 1.0).min_p(0.6).ids(), vec![0, 1]);
        assert_eq!(Candidates::new(&x, 1.0).min_p(0.45).ids(), vec![0, 1, 2]);
    }

    #[test]
    fn draw_walks_kept_tokens_in_id_order() {
        // Ranks 3, 1, 0, 2; cumulative in id order 0.2, 0.5, 0.6, 1.0.
        let c = Candidates::new(&probs(&[0.2, 0.3, 0.1, 0.4]), 1.0);
        let at = |u: f64| c.draw(u).unwrap().id;
        assert_eq!(
            (at(0.0), at(0.19), at(0.21), at(0.55), at(0.99)),
            (0, 0, 1, 2, 3)
        );
        let p = c.probabilities(4);
        assert!((p[3] - 0.4).abs() < 1e-12 && (p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
