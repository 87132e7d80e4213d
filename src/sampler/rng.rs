//! splitmix64, the counter-based draw for token `n` of a request, and fresh
//! seeds for unseeded requests.

use std::collections::hash_map::RandomState;
use std::convert::Infallible;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use rand_core::{Rng, SeedableRng, TryRng, utils};

/// splitmix64's increment (the odd integer closest to 2^64 / phi).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output function (a bijective 64-bit mixer).
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The splitmix64 generator: the state advances by a constant and each
/// output is [`mix64`] of the new state. Because the state after `n` steps is
/// just `state + n * GAMMA`, any position of the stream can be reached in
/// O(1), which is what makes the sampler's draws counter-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose first output is `mix64(state + GAMMA)`.
    pub const fn new(state: u64) -> Self {
        Self { state }
    }

    /// The generator positioned for token `step` of a request seeded with
    /// `seed`: its state is `mix64(seed) + step * GAMMA`. Mixing the seed
    /// first keeps requests with nearby seeds (1, 2, 3...) on unrelated parts
    /// of the stream. Its first output is the one the sampler uses.
    pub const fn for_token(seed: u64, step: u64) -> Self {
        Self::new(mix64(seed).wrapping_add(step.wrapping_mul(GAMMA)))
    }

    /// The current state (the next output is `mix64(state + GAMMA)`).
    pub const fn state(&self) -> u64 {
        self.state
    }

    #[inline]
    fn step(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix64(self.state)
    }
}

impl TryRng for SplitMix64 {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.step() >> 32) as u32)
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.step())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        utils::fill_bytes_via_next_word(dst, || self.try_next_u64())
    }
}

impl SeedableRng for SplitMix64 {
    type Seed = [u8; 8];

    fn from_seed(seed: [u8; 8]) -> Self {
        Self::new(u64::from_le_bytes(seed))
    }

    /// The state is the seed itself, as in the reference splitmix64.
    fn seed_from_u64(state: u64) -> Self {
        Self::new(state)
    }
}

/// A uniform `f64` in `[0, 1)` from the top 53 bits of `x`.
#[inline]
pub(crate) fn unit_f64(x: u64) -> f64 {
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The uniform number in `[0, 1)` that decides token `step` of the request
/// seeded with `seed`. It depends on nothing else.
#[inline]
pub fn uniform_for_token(seed: u64, step: u64) -> f64 {
    unit_f64(SplitMix64::for_token(seed, step).next_u64())
}

/// The largest seed [`fresh_seed`] draws: 2^53 - 1, the largest integer
/// every JSON parser reads exactly.
pub const MAX_FRESH_SEED: u64 = (1 << 53) - 1;

/// A fresh, unpredictable seed for a request that did not bring one; the
/// one place seeds are drawn. Uses std's `RandomState` (keyed from OS entropy
/// once per thread, and distinct for every instance), the wall clock and a
/// process-wide counter, so two calls never return the same value in
/// practice. Kept to at most [`MAX_FRESH_SEED`] so that a client that parses
/// JSON numbers as doubles (JavaScript) can send a reported seed back exactly.
pub fn fresh_seed() -> u64 {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    if let Ok(d) = SystemTime::now().duration_since(UNIX_EPOCH) {
        h.write_u128(d.as_nanos());
    }
    mix64(h.finish()) & MAX_FRESH_SEED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_reference_splitmix64_from_state_zero() {
        // The reference C splitmix64 seeded with 0 starts with these outputs.
        let mut r = SplitMix64::seed_from_u64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn from_seed_reads_little_endian_state() {
        let a = SplitMix64::from_seed(7u64.to_le_bytes());
        assert_eq!(a, SplitMix64::seed_from_u64(7));
    }

    #[test]
    fn u32_is_the_high_half_and_bytes_are_little_endian_words() {
        let mut a = SplitMix64::new(99);
        let mut b = SplitMix64::new(99);
        assert_eq!(a.next_u32(), (b.next_u64() >> 32) as u32);
        let mut c = SplitMix64::new(5);
        let mut d = SplitMix64::new(5);
        let mut buf = [0u8; 12];
        c.fill_bytes(&mut buf);
        assert_eq!(buf[..8], d.next_u64().to_le_bytes());
        assert_eq!(buf[8..], d.next_u64().to_le_bytes()[..4]);
    }

    #[test]
    fn token_draw_is_the_nth_output_of_the_mixed_seed_stream() {
        let seed = 1234;
        let mut sequential = SplitMix64::new(mix64(seed));
        for n in 0..100 {
            let expected = sequential.next_u64();
            assert_eq!(SplitMix64::for_token(seed, n).next_u64(), expected);
        }
    }

    #[test]
    fn unit_f64_covers_zero_to_just_below_one() {
        assert_eq!(unit_f64(0), 0.0);
        let top = unit_f64(u64::MAX);
        assert!(top < 1.0 && top > 1.0 - 1e-15);
    }

    #[test]
    fn uniform_for_token_depends_only_on_seed_and_step() {
        assert_eq!(uniform_for_token(3, 17), uniform_for_token(3, 17));
        assert_ne!(uniform_for_token(3, 17), uniform_for_token(3, 18));
        assert_ne!(uniform_for_token(3, 17), uniform_for_token(4, 17));
    }

    #[test]
    fn fresh_seeds_differ() {
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|_| fresh_seed()).collect();
        assert_eq!(seeds.len(), 1000);
    }

    #[test]
    fn fresh_seeds_are_exact_json_numbers() {
        assert!((0..1000).all(|_| fresh_seed() <= MAX_FRESH_SEED));
        assert_eq!(MAX_FRESH_SEED as f64 as u64, MAX_FRESH_SEED);
    }
}
