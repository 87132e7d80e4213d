//! Which way a prompt admitted while rows generate is prefilled, when the
//! engine may choose ([`super::BatchOptions::choose_carry`]): carried in the
//! running rows' decode calls in chunks of at most some size, or in calls
//! of its own before them.
//!
//! Why measure instead of deciding once: which way costs the running rows
//! less depends on the model, the kernels and the host's phase. A decode
//! step bound by reading the weights (the 1B preset in its bf16 form) takes
//! a few more rows almost for free, so a carried prompt token costs about
//! half what a call of its own costs or less; a step
//! bound by its multiplies (SmolLM2 in the 8-bit form) gains little from
//! sharing the read (docs/performance.md, sixty-first session). So each
//! way's recent cost of a prompt token is kept, the cheapest one taken, and
//! the others tried again now and then, so that their figures follow the
//! host.

use std::time::Duration;

/// How a prompt's chunks run while rows generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Way {
    /// Inside the running rows' decode calls, in chunks of at most this
    /// many tokens.
    Carried(usize),
    /// In calls of their own, before the decode.
    Alone,
}

/// Prompts each way prefills before the cheapest one is preferred.
const FIRST: u32 = 2;
/// After this many prompts in a row the cheapest way took, the next takes
/// the way tried least recently, so that a figure measured in another
/// phase of the host does not decide for ever. With four ways (carried in
/// chunks of 4, 8 and 16, and alone), each dearer one takes one prompt in
/// 39: at twice the cost a token, about 8% more prompt time, a point or
/// less of the decode rate.
const RECHECK: u32 = 12;
/// Carrying is taken only where it costs less than this share of a call
/// of its own: on SmolLM2 in the 8-bit form the two ways measure alike,
/// crossing from run to run, while carrying most prompts kept up to 5
/// points less of the decode rate than calls of their own
/// (docs/performance.md, sixty-first session); where carrying pays (the
/// 1B preset with bf16 activations) it costs about half or less.
const CARRY_MARGIN: f64 = 0.8;
/// Weight of the newest prompt in a way's running sums.
const NEWEST: f64 = 0.3;
/// Weight of the newest plain step in the plain step's running time.
const NEWEST_STEP: f64 = 0.2;

/// One way and what it has cost.
#[derive(Debug)]
struct Arm {
    way: Way,
    /// The milliseconds the running rows waited for the way's recent
    /// prompts and those prompts' tokens, each a sum in which older prompts
    /// weigh less. The cost is the ratio, so that a long prompt weighs as
    /// its tokens do (a call of its own costs a short prompt more a token).
    waited: f64,
    tokens: f64,
    prompts: u32,
    /// When it last prefilled a prompt (a count of measured prompts).
    last: u64,
}

impl Arm {
    fn cost(&self) -> Option<f64> {
        (self.prompts > 0).then(|| self.waited / self.tokens)
    }
}

/// The carried chunk below the smallest chunk graph that a choosing engine
/// tries too (its calls run in that graph, the padding skipped): where a
/// decode step is bound by reading the weights, 4 more rows cost little
/// (the 1B preset's bf16 form: 1-3 ms a token past a plain step, against
/// about 3 carrying 8 or 16; docs/performance.md, sixty-third session).
const SMALL_CARRIED: usize = 4;

/// The largest chunks a choosing engine tries carrying prompts in:
/// [`SMALL_CARRIED`] tokens, the powers of two among the carried chunk
/// sizes up to `carried`, and `carried` itself (fewer ways to try, each a
/// graph compiled already); only `carried` when it is below the smallest
/// graph.
pub(super) fn carried_sizes(capacity: usize, carried: usize) -> Vec<usize> {
    let smallest = crate::emit::chunks::MIN_CHUNK as usize;
    if carried < smallest {
        return vec![carried];
    }
    let sizes = crate::emit::chunks::chunk_sizes(capacity as i64, carried);
    let last = sizes.last().copied();
    let graphs = sizes
        .into_iter()
        .filter(|&s| s.count_ones() == 1 || Some(s) == last)
        .map(|s| s as usize);
    std::iter::once(SMALL_CARRIED).chain(graphs).collect()
}

/// The running costs and the choice. See the module documentation.
#[derive(Debug)]
pub(super) struct CarryChoice {
    arms: Vec<Arm>,
    /// Decode rows of a step.
    rows: usize,
    /// Prompts in a row prefilled the way that was cheapest.
    streak: u32,
    /// Prompts measured so far.
    measured: u64,
    /// A plain decode step's time, as a running average (ms): what a
    /// carrying step would have taken without its chunk.
    plain_ms: Option<f64>,
}

impl CarryChoice {
    /// Chooses among carrying in chunks of at most each of `carried` sizes
    /// and calls of their own, for decode steps of `rows` rows.
    pub(super) fn new(carried: &[usize], rows: usize) -> Self {
        let arms = carried
            .iter()
            .map(|&size| Way::Carried(size))
            .chain([Way::Alone])
            .map(|way| Arm {
                way,
                waited: 0.0,
                tokens: 0.0,
                prompts: 0,
                last: 0,
            })
            .collect();
        CarryChoice {
            arms,
            rows: rows.max(1),
            streak: 0,
            measured: 0,
            plain_ms: None,
        }
    }

    /// The way the next prompt admitted while rows generate goes.
    pub(super) fn way(&self) -> Way {
        // Until every way has its first prompts, the least measured (the
        // first of them on a tie).
        let fewest = self.arms.iter().min_by_key(|a| a.prompts).expect("ways");
        if fewest.prompts < FIRST {
            return fewest.way;
        }
        let cheapest = self.cheapest();
        if self.streak < RECHECK {
            return cheapest;
        }
        self.arms
            .iter()
            .filter(|a| a.way != cheapest)
            .min_by_key(|a| a.last)
            .map_or(cheapest, |a| a.way)
    }

    /// The way with the lowest running cost (the first of them on a tie),
    /// carrying counted at its cost over [`CARRY_MARGIN`].
    fn cheapest(&self) -> Way {
        let cost = |a: &Arm| {
            let margin = if a.way == Way::Alone {
                1.0
            } else {
                CARRY_MARGIN
            };
            a.cost().map_or(f64::INFINITY, |c| c / margin)
        };
        self.arms
            .iter()
            .reduce(|best, a| if cost(a) < cost(best) { a } else { best })
            .expect("ways")
            .way
    }

    /// A plain decode step (no chunk in it) took `time`.
    pub(super) fn plain_step(&mut self, time: Duration) {
        let ms = time.as_secs_f64() * 1e3;
        self.plain_ms = Some(match self.plain_ms {
            None => ms,
            Some(old) => old + NEWEST_STEP * (ms - old),
        });
    }

    /// What a prompt's prefill cost the running rows: its calls of their
    /// own (`alone`, all of their time), what its `steps` carrying decode
    /// steps took past as many plain steps (`carrying`), and a row's share
    /// of a plain step for each step one of its decode rows stood idle
    /// waiting for it (`idle`: a prompt carried into a row's slot leaves
    /// that row idle for its steps; in the spare slot, none). Unknown
    /// before the first plain step, where it needs one.
    pub(super) fn waited(
        &self,
        alone: Duration,
        carrying: Duration,
        steps: u32,
        idle: u32,
    ) -> Option<Duration> {
        let mut ms = alone.as_secs_f64() * 1e3;
        if steps > 0 || idle > 0 {
            let plain = self.plain_ms?;
            let carried = carrying.as_secs_f64() * 1e3 - plain * f64::from(steps);
            ms += carried.max(0.0) + plain * f64::from(idle) / self.rows as f64;
        }
        Some(Duration::from_secs_f64(ms / 1e3))
    }

    /// A prompt prefilled `tokens` tokens `way` and the running rows waited
    /// `wait` for them (a call of its own: all of its time; carried: what
    /// its steps took past plain ones). A way not offered is ignored.
    pub(super) fn record(&mut self, way: Way, wait: Duration, tokens: usize) {
        if tokens == 0 {
            return;
        }
        let settled = self.arms.iter().all(|a| a.prompts >= FIRST);
        let cheapest = settled.then(|| self.cheapest());
        let Some(arm) = self.arms.iter_mut().find(|a| a.way == way) else {
            return;
        };
        let keep = if arm.prompts == 0 { 0.0 } else { 1.0 - NEWEST };
        arm.waited = keep * arm.waited + wait.as_secs_f64() * 1e3;
        arm.tokens = keep * arm.tokens + tokens as f64;
        arm.prompts = arm.prompts.saturating_add(1);
        self.measured += 1;
        arm.last = self.measured;
        self.streak = if cheapest == Some(way) {
            self.streak + 1
        } else {
            0
        };
    }

    /// Each way and its running cost of a prompt token in ms (none until
    /// it has prefilled a prompt), in the order offered.
    pub(super) fn costs(&self) -> Vec<(Way, Option<f64>)> {
        self.arms.iter().map(|a| (a.way, a.cost())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EIGHT: Way = Way::Carried(8);
    const SIXTEEN: Way = Way::Carried(16);

    fn ms(v: f64) -> Duration {
        Duration::from_secs_f64(v / 1e3)
    }

    /// Records `n` prompts of 10 tokens `way` at `per_token` ms a token.
    fn prompts(choice: &mut CarryChoice, way: Way, n: usize, per_token: f64) {
        for _ in 0..n {
            choice.record(way, ms(10.0 * per_token), 10);
        }
    }

    fn cost(choice: &CarryChoice, way: Way) -> Option<f64> {
        choice
            .costs()
            .into_iter()
            .find(|&(w, _)| w == way)
            .and_then(|(_, c)| c)
    }

    #[test]
    fn the_carried_sizes_tried_are_4_the_powers_of_two_up_to_the_largest_and_it() {
        assert_eq!(carried_sizes(256, 16), [4, 8, 16]);
        assert_eq!(carried_sizes(256, 32), [4, 8, 16, 32]);
        assert_eq!(carried_sizes(256, 40), [4, 8, 16, 32, 40]);
        assert_eq!(carried_sizes(256, 8), [4, 8]);
        // No larger than the cache.
        assert_eq!(carried_sizes(16, 32), [4, 8, 16]);
        // Below the smallest graph, only what was asked.
        assert_eq!(carried_sizes(256, 2), [2]);
    }

    #[test]
    fn each_way_is_measured_before_any_is_preferred() {
        let mut choice = CarryChoice::new(&[8, 16], 8);
        assert_eq!(choice.way(), EIGHT);
        prompts(&mut choice, EIGHT, 1, 1.0);
        assert_eq!(choice.way(), SIXTEEN);
        prompts(&mut choice, SIXTEEN, 1, 1.0);
        assert_eq!(choice.way(), Way::Alone);
        prompts(&mut choice, Way::Alone, 2, 9.0);
        // Alone is dear, but the carried ways have one prompt of two.
        assert_eq!(choice.way(), EIGHT);
        prompts(&mut choice, EIGHT, 1, 1.0);
        assert_eq!(choice.way(), SIXTEEN);
        prompts(&mut choice, SIXTEEN, 1, 2.0);
        assert_eq!(choice.way(), EIGHT);
    }

    #[test]
    fn the_way_with_the_lowest_cost_a_token_is_taken() {
        let mut cheap_alone = CarryChoice::new(&[16], 8);
        prompts(&mut cheap_alone, SIXTEEN, 2, 0.7);
        prompts(&mut cheap_alone, Way::Alone, 2, 0.6);
        assert_eq!(cheap_alone.way(), Way::Alone);

        let mut cheap_sixteen = CarryChoice::new(&[8, 16], 8);
        prompts(&mut cheap_sixteen, Way::Alone, 2, 6.0);
        prompts(&mut cheap_sixteen, EIGHT, 2, 3.3);
        prompts(&mut cheap_sixteen, SIXTEEN, 2, 2.6);
        assert_eq!(cheap_sixteen.way(), SIXTEEN);
    }

    #[test]
    fn carrying_is_taken_only_where_it_is_clearly_cheaper() {
        let mut close = CarryChoice::new(&[16], 8);
        prompts(&mut close, Way::Alone, 2, 0.60);
        prompts(&mut close, SIXTEEN, 2, 0.55);
        assert_eq!(close.way(), Way::Alone);
        prompts(&mut close, SIXTEEN, 8, 0.40);
        assert_eq!(close.way(), SIXTEEN);
    }

    #[test]
    fn a_way_costs_its_recent_prompts_time_over_their_tokens() {
        let mut choice = CarryChoice::new(&[8], 8);
        // A short prompt dear a token, then a long one cheap a token: the
        // long one weighs as its tokens do.
        choice.record(Way::Alone, ms(6.0), 4);
        choice.record(Way::Alone, ms(30.0), 60);
        let kept = 1.0 - NEWEST;
        let expected = (kept * 6.0 + 30.0) / (kept * 4.0 + 60.0);
        let alone = cost(&choice, Way::Alone).unwrap();
        assert!((alone - expected).abs() < 1e-9, "{alone}");
        assert_eq!(cost(&choice, EIGHT), None);
    }

    #[test]
    fn the_dearer_ways_are_tried_again_in_turn_and_can_win_back() {
        let mut choice = CarryChoice::new(&[8, 16], 8);
        let price = |way: Way| match way {
            Way::Carried(8) => 3.0,
            Way::Carried(_) => 4.0,
            Way::Alone => 5.0,
        };
        for way in [EIGHT, SIXTEEN, Way::Alone] {
            prompts(&mut choice, way, 2, price(way));
        }
        let mut ways = Vec::new();
        for _ in 0..2 * (RECHECK as usize + 1) {
            let way = choice.way();
            ways.push(way);
            prompts(&mut choice, way, 1, price(way));
        }
        let count = |w: Way| ways.iter().filter(|&&x| x == w).count();
        assert_eq!((count(SIXTEEN), count(Way::Alone)), (1, 1), "{ways:?}");
        assert_eq!(ways[RECHECK as usize], SIXTEEN, "{ways:?}");
        assert_eq!(ways[2 * RECHECK as usize + 1], Way::Alone, "{ways:?}");

        // The host changes phase: carrying gets dear, and a recheck of the
        // calls of their own finds them cheapest.
        let mut ways = Vec::new();
        for _ in 0..4 * (RECHECK as usize + 1) {
            let way = choice.way();
            ways.push(way);
            let price = if way == Way::Alone { 5.0 } else { 8.0 };
            prompts(&mut choice, way, 1, price);
        }
        let last = &ways[ways.len() - (RECHECK as usize + 1)..];
        let alone = last.iter().filter(|&&w| w == Way::Alone).count();
        assert_eq!(alone, RECHECK as usize, "{ways:?}");
    }

    fn close(got: Option<Duration>, want_ms: f64) -> bool {
        got.is_some_and(|d| (d.as_secs_f64() * 1e3 - want_ms).abs() < 1e-9)
    }

    #[test]
    fn a_carrying_step_costs_what_it_takes_past_a_plain_one_and_its_idle_rows() {
        let mut choice = CarryChoice::new(&[16], 8);
        let zero = Duration::ZERO;
        assert_eq!(choice.waited(zero, ms(120.0), 1, 0), None);
        // A call of its own needs no plain step to be priced.
        assert!(close(choice.waited(ms(30.0), zero, 0, 0), 30.0));
        choice.plain_step(ms(80.0));
        assert!(close(choice.waited(zero, ms(250.0), 2, 0), 90.0));
        // Never less than nothing, on a host whose steps wander.
        assert!(close(choice.waited(zero, ms(70.0), 1, 0), 0.0));
        // Three steps with a row idle: three eighths of a plain step.
        assert!(close(choice.waited(zero, ms(300.0), 3, 3), 60.0 + 30.0));
        choice.plain_step(ms(90.0));
        let plain = 80.0 + NEWEST_STEP * 10.0;
        assert!(close(choice.waited(zero, ms(200.0), 1, 0), 200.0 - plain));
    }

    #[test]
    fn a_prompt_with_nothing_prefilled_or_a_way_not_offered_is_not_a_measurement() {
        let mut choice = CarryChoice::new(&[16], 8);
        choice.record(SIXTEEN, ms(5.0), 0);
        choice.record(EIGHT, ms(5.0), 10);
        assert!(choice.costs().iter().all(|&(_, c)| c.is_none()));
        assert_eq!(choice.way(), SIXTEEN);
    }
}
