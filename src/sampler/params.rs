//! Per-request sampling parameters and their validation.

use super::rng::fresh_seed;

/// How one request chooses its next token from a row of logits.
///
/// `Default` is [`SampleParams::greedy`]: the struct's default is the
/// deterministic choice, and the HTTP layer fills in its own defaults (OpenAI
/// uses temperature 1.0) before building one of these.
///
/// | field | valid values | "off" |
/// | --- | --- | --- |
/// | `temperature` | finite, `>= 0`; `0` means greedy | — |
/// | `top_k` | any | `0` |
/// | `top_p` | `(0, 1]` | `1` |
/// | `min_p` | `[0, 1)` | `0` |
/// | `seed` | any `u64`, or `None` until [`resolve_seed`](Self::resolve_seed) | — |
///
/// With `temperature == 0` the filters and the seed are ignored: the result is
/// the argmax of the logits (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleParams {
    pub temperature: f32,
    pub top_k: usize,
    pub top_p: f32,
    pub min_p: f32,
    pub seed: Option<u64>,
}

impl Default for SampleParams {
    fn default() -> Self {
        Self::greedy()
    }
}

impl SampleParams {
    /// Temperature 0: always the highest logit, lowest token id on ties.
    pub const fn greedy() -> Self {
        Self {
            temperature: 0.0,
            top_k: 0,
            top_p: 1.0,
            min_p: 0.0,
            seed: None,
        }
    }

    /// Plain softmax sampling at `temperature`, every filter off, no seed yet.
    pub const fn with_temperature(temperature: f32) -> Self {
        Self {
            temperature,
            ..Self::greedy()
        }
    }

    /// True when the temperature is 0, i.e. the token is the argmax and no
    /// random draw happens.
    pub fn is_greedy(&self) -> bool {
        self.temperature == 0.0
    }

    /// True when every field but the temperature and the seed is at its
    /// "off" value: plain softmax sampling (or greedy), which the device's
    /// sampling graphs do (see `crate::emit::sample`). Written as a
    /// comparison with [`greedy`](Self::greedy) so that any field added
    /// later counts as unsupported until its "off" value is set.
    pub fn is_temperature_only(&self) -> bool {
        *self
            == Self {
                temperature: self.temperature,
                seed: self.seed,
                ..Self::greedy()
            }
    }

    /// Checks every field; the error names the first field that is wrong.
    pub fn validate(&self) -> Result<(), SampleParamsError> {
        let t = self.temperature;
        if !(t.is_finite() && t >= 0.0) {
            return Err(SampleParamsError::invalid(
                "temperature",
                format!("must be finite and >= 0 (0 = greedy), got {t}"),
            ));
        }
        let p = self.top_p;
        if !(p > 0.0 && p <= 1.0) {
            return Err(SampleParamsError::invalid(
                "top_p",
                format!("must be in (0, 1] (1 = off), got {p}"),
            ));
        }
        let mp = self.min_p;
        if !(0.0..1.0).contains(&mp) {
            return Err(SampleParamsError::invalid(
                "min_p",
                format!("must be in [0, 1) (0 = off), got {mp}"),
            ));
        }
        Ok(())
    }

    /// Returns the seed, first drawing a fresh random one (from OS-seeded
    /// hashing state and the clock) if the request had none. The caller
    /// reports the returned value back so the output can be reproduced.
    pub fn resolve_seed(&mut self) -> u64 {
        *self.seed.get_or_insert_with(fresh_seed)
    }

    /// The same parameters with `seed` set.
    pub const fn seeded(self, seed: u64) -> Self {
        Self {
            seed: Some(seed),
            ..self
        }
    }
}

/// A sampling parameter is out of range. The server turns this into a 400.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SampleParamsError {
    #[error("invalid sampling parameter `{field}`: {reason}")]
    InvalidField { field: &'static str, reason: String },
}

impl SampleParamsError {
    pub(crate) fn invalid(field: &'static str, reason: String) -> Self {
        Self::InvalidField { field, reason }
    }

    /// The name of the offending field, as spelled in [`SampleParams`].
    pub fn field(&self) -> &'static str {
        match self {
            Self::InvalidField { field, .. } => field,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_greedy_and_valid() {
        let p = SampleParams::default();
        assert!(p.is_greedy());
        assert_eq!(p, SampleParams::greedy());
        assert_eq!(p.validate(), Ok(()));
    }

    #[test]
    fn boundary_values_that_are_allowed() {
        let ok = [
            SampleParams::with_temperature(0.0),
            SampleParams::with_temperature(1e-30),
            SampleParams::with_temperature(f32::MAX),
            SampleParams {
                top_p: 1.0,
                ..SampleParams::with_temperature(1.0)
            },
            SampleParams {
                top_p: f32::MIN_POSITIVE,
                ..SampleParams::with_temperature(1.0)
            },
            SampleParams {
                min_p: 0.0,
                ..SampleParams::with_temperature(1.0)
            },
            SampleParams {
                min_p: 0.999_999,
                top_k: usize::MAX,
                ..SampleParams::with_temperature(1.0)
            },
        ];
        for p in ok {
            assert_eq!(p.validate(), Ok(()), "{p:?}");
        }
    }

    fn field_of(p: SampleParams) -> &'static str {
        p.validate().expect_err("should be rejected").field()
    }

    #[test]
    fn invalid_values_name_their_field() {
        let t = |temperature| SampleParams {
            temperature,
            ..SampleParams::greedy()
        };
        assert_eq!(field_of(t(-0.5)), "temperature");
        assert_eq!(field_of(t(f32::NAN)), "temperature");
        assert_eq!(field_of(t(f32::INFINITY)), "temperature");

        let p = |top_p| SampleParams {
            top_p,
            ..SampleParams::with_temperature(1.0)
        };
        assert_eq!(field_of(p(0.0)), "top_p");
        assert_eq!(field_of(p(-0.1)), "top_p");
        assert_eq!(field_of(p(1.01)), "top_p");
        assert_eq!(field_of(p(f32::NAN)), "top_p");

        let m = |min_p| SampleParams {
            min_p,
            ..SampleParams::with_temperature(1.0)
        };
        assert_eq!(field_of(m(1.0)), "min_p");
        assert_eq!(field_of(m(-0.01)), "min_p");
        assert_eq!(field_of(m(f32::NAN)), "min_p");
    }

    #[test]
    fn error_message_says_field_range_and_value() {
        let err = SampleParams {
            top_p: 1.5,
            ..SampleParams::greedy()
        }
        .validate()
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid sampling parameter `top_p`: must be in (0, 1] (1 = off), got 1.5"
        );
    }

    #[test]
    fn greedy_params_still_have_their_filters_validated() {
        // Filters are still validated when greedy: a bad request is a bad request.
        let p = SampleParams {
            top_p: 2.0,
            ..SampleParams::greedy()
        };
        assert_eq!(field_of(p), "top_p");
    }

    #[test]
    fn temperature_only_means_every_filter_off() {
        assert!(SampleParams::greedy().is_temperature_only());
        assert!(
            SampleParams::with_temperature(0.7)
                .seeded(5)
                .is_temperature_only()
        );
        let t = SampleParams::with_temperature(1.0);
        assert!(!SampleParams { top_k: 40, ..t }.is_temperature_only());
        assert!(!SampleParams { top_p: 0.9, ..t }.is_temperature_only());
        assert!(!SampleParams { min_p: 0.1, ..t }.is_temperature_only());
    }

    #[test]
    fn resolve_seed_keeps_a_given_seed_and_fills_a_missing_one() {
        let mut given = SampleParams::with_temperature(1.0).seeded(42);
        assert_eq!(given.resolve_seed(), 42);
        assert_eq!(given.seed, Some(42));

        let mut a = SampleParams::with_temperature(1.0);
        let mut b = SampleParams::with_temperature(1.0);
        let sa = a.resolve_seed();
        let sb = b.resolve_seed();
        assert_eq!(a.seed, Some(sa));
        assert_eq!(a.resolve_seed(), sa, "resolving twice keeps the first seed");
        assert_ne!(sa, sb, "two unseeded requests get different seeds");
    }
}
