//! Top-p's cut when there is no top-k: the rank prefix that first reaches
//! the target mass, bracketed by exact mass sums over the row until at most
//! about `BAND` tokens are left between the ends, then cut exactly in them.

use super::{Row, Scratch};
use crate::sampler::kernels::{Cand, Keep, collect_band, mass_count_at_or_above, scaled};
use crate::sampler::transforms::top_p_cutoff;

impl Scratch {
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
    pub(super) fn top_p_keep(&mut self, r: &Row, target: f64, total: f64) -> Keep {
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
