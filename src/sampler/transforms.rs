//! The filters on a candidate list: top-k, min-p, top-p, and the final
//! categorical draw. Candidates are kept in token id order; rank is the
//! [`rank_key`](super::kernels::rank_key) order (logit descending, then id
//! ascending). Every filter keeps a prefix of the rank order, so each
//! result is described by a cutoff key: a token survives iff its key is
//! `>=` the cutoff. Selections use `select_nth_unstable`, never a full sort.

use super::kernels::Cand;

/// Keeps, in place and in id order, the `k` highest-ranked of `cands`
/// (exactly `k`, since keys are unique) and returns the new length.
/// `work` is scratch at least as long as `cands`.
pub(crate) fn retain_top_k(cands: &mut [Cand], k: usize, work: &mut [Cand]) -> usize {
    let n = cands.len();
    if k == 0 || n <= k {
        return n;
    }
    let work = &mut work[..n];
    work.copy_from_slice(cands);
    let (_, kth, _) = work.select_nth_unstable_by(k - 1, |a, b| b.key.cmp(&a.key));
    let cutoff = kth.key;
    retain(cands, |c| c.key >= cutoff)
}

/// Keeps, in place and in order, the candidates for which `keep` holds and
/// returns their count.
pub(crate) fn retain(cands: &mut [Cand], keep: impl Fn(&Cand) -> bool) -> usize {
    let mut n = 0;
    for i in 0..cands.len() {
        let c = cands[i];
        cands[n] = c;
        n += usize::from(keep(&c));
    }
    n
}

/// Top-p cut: the smallest rank prefix of `cands` whose weight reaches
/// `target` (the token that crosses it is included). Returns that prefix's
/// last (lowest-ranked) key, or `None` if all candidates together stay
/// below `target` (then all are kept).
///
/// Weighted quickselect: partition around the median rank, keep the half
/// where the running mass crosses `target`; expected O(n). Ranges of at most
/// 16 are sorted and scanned. `work` is scratch at least as long as `cands`.
pub(crate) fn top_p_cutoff(cands: &[Cand], target: f64, work: &mut [Cand]) -> Option<u64> {
    let total: f64 = cands.iter().map(|c| f64::from(c.w)).sum();
    if total < target {
        return None;
    }
    let n = cands.len();
    let work = &mut work[..n];
    work.copy_from_slice(cands);
    let desc = |a: &Cand, b: &Cand| b.key.cmp(&a.key);
    // Invariant: work[..lo] are the highest ranks, all kept, of mass `acc`
    // (< target); the crossing token lies in work[lo..hi].
    let (mut lo, mut hi, mut acc) = (0usize, n, 0.0f64);
    while hi - lo > 16 {
        let mid = lo + (hi - lo) / 2;
        work[lo..hi].select_nth_unstable_by(mid - lo, desc);
        let upper: f64 = work[lo..=mid].iter().map(|c| f64::from(c.w)).sum();
        if acc + upper >= target {
            hi = mid + 1;
        } else {
            acc += upper;
            lo = mid + 1;
        }
    }
    work[lo..hi].sort_unstable_by(desc);
    for c in &work[lo..hi] {
        acc += f64::from(c.w);
        if acc >= target {
            return Some(c.key);
        }
    }
    // Only reachable through rounding between the two summation orders.
    Some(work[hi - 1].key)
}

/// Categorical draw among the candidates with key `>= cutoff` (all of them
/// for `None`), in token id order: the first whose cumulative weight exceeds
/// `u * (their total weight)`. Weight-0 candidates are never chosen. Returns
/// the token id, or `None` if no kept candidate has positive weight.
pub(crate) fn draw(cands: &[Cand], cutoff: Option<u64>, u: f64) -> Option<u32> {
    let cutoff = cutoff.unwrap_or(0);
    let total: f64 = cands
        .iter()
        .filter(|c| c.key >= cutoff)
        .map(|c| f64::from(c.w))
        .sum();
    let target = u * total;
    let mut cum = 0.0f64;
    let mut last = None;
    for c in cands.iter().filter(|c| c.key >= cutoff && c.w > 0.0) {
        cum += f64::from(c.w);
        last = Some(c.id());
        if cum > target {
            break;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::super::kernels::rank_key;
    use super::*;

    /// Candidates in id order from (logit, weight) pairs.
    fn cands(xw: &[(f32, f32)]) -> Vec<Cand> {
        xw.iter()
            .enumerate()
            .map(|(i, &(x, w))| Cand {
                key: rank_key(x, i as u32),
                x,
                w,
            })
            .collect()
    }

    fn ids(c: &[Cand]) -> Vec<u32> {
        c.iter().map(Cand::id).collect()
    }

    fn kept_ids(c: &[Cand], cutoff: Option<u64>) -> Vec<u32> {
        c.iter()
            .filter(|c| cutoff.is_none_or(|k| c.key >= k))
            .map(Cand::id)
            .collect()
    }

    #[test]
    fn top_k_keeps_exactly_k_by_rank_in_id_order() {
        let mut c = cands(&[(1.0, 0.), (5.0, 0.), (3.0, 0.), (4.0, 0.), (2.0, 0.)]);
        let mut work = c.clone();
        let n = retain_top_k(&mut c, 3, &mut work);
        assert_eq!(ids(&c[..n]), vec![1, 2, 3]);
    }

    #[test]
    fn top_k_boundary_ties_go_to_the_lower_id() {
        // Four tokens tie at 2.0 for the last two places: ids 1 and 2 win.
        let mut c = cands(&[(9.0, 0.), (2.0, 0.), (2.0, 0.), (2.0, 0.), (2.0, 0.)]);
        let mut work = c.clone();
        let n = retain_top_k(&mut c, 3, &mut work);
        assert_eq!(ids(&c[..n]), vec![0, 1, 2]);
    }

    #[test]
    fn top_k_larger_than_the_list_keeps_everything() {
        let mut c = cands(&[(1.0, 0.), (2.0, 0.)]);
        let mut work = c.clone();
        assert_eq!(retain_top_k(&mut c, 5, &mut work), 2);
        assert_eq!(retain_top_k(&mut c, 0, &mut work), 2, "0 = off");
    }

    #[test]
    fn top_p_keeps_the_token_that_crosses_p() {
        // Probabilities 0.5, 0.3, 0.15, 0.05 (ids 2, 0, 3, 1 by rank).
        // p = 0.7: 0.5 < 0.7, 0.5 + 0.3 = 0.8 >= 0.7, so the 0.3 token stays.
        let c = cands(&[(3.0, 0.3), (1.0, 0.05), (4.0, 0.5), (2.0, 0.15)]);
        let mut work = c.clone();
        let cut = top_p_cutoff(&c, 0.7, &mut work);
        assert_eq!(kept_ids(&c, cut), vec![0, 2]);
    }

    #[test]
    fn top_p_stops_at_the_smallest_prefix() {
        let c = cands(&[(3.0, 0.3), (1.0, 0.05), (4.0, 0.5), (2.0, 0.15)]);
        let mut work = c.clone();
        // 0.5 already reaches 0.45: only the top token.
        assert_eq!(kept_ids(&c, top_p_cutoff(&c, 0.45, &mut work)), vec![2]);
        // 0.5 + 0.3 + 0.15 = 0.95 reaches 0.9; the 0.05 token is cut.
        assert_eq!(
            kept_ids(&c, top_p_cutoff(&c, 0.9, &mut work)),
            vec![0, 2, 3]
        );
        // A mass exactly reached counts as reached (dyadic values, no rounding).
        let d = cands(&[(2.0, 0.5), (1.0, 0.25), (0.0, 0.25)]);
        let mut work = d.clone();
        assert_eq!(kept_ids(&d, top_p_cutoff(&d, 0.75, &mut work)), vec![0, 1]);
    }

    #[test]
    fn top_p_target_above_the_total_keeps_all() {
        let c = cands(&[(1.0, 0.25), (0.0, 0.25)]);
        let mut work = c.clone();
        assert_eq!(top_p_cutoff(&c, 0.6, &mut work), None);
    }

    #[test]
    fn top_p_on_a_long_list_matches_a_sorted_prefix_sum() {
        // 1000 tokens, weights 1/(rank+1): exercises the quickselect path.
        let n = 1000u32;
        let perm: Vec<u32> = (0..n).map(|i| (i * 389) % n).collect();
        let c: Vec<Cand> = (0..n)
            .map(|id| {
                let rank = perm[id as usize];
                let x = -(rank as f32);
                Cand {
                    key: rank_key(x, id),
                    x,
                    w: 1.0 / (rank as f32 + 1.0),
                }
            })
            .collect();
        let total: f64 = c.iter().map(|c| f64::from(c.w)).sum();
        let mut work = c.clone();
        for p in [0.1, 0.5, 0.9, 0.99] {
            let target = p * total;
            let mut sorted = c.clone();
            sorted.sort_by_key(|c| std::cmp::Reverse(c.key));
            let mut acc = 0.0;
            let mut want = 0;
            for (i, s) in sorted.iter().enumerate() {
                acc += f64::from(s.w);
                if acc >= target {
                    want = i + 1;
                    break;
                }
            }
            let cut = top_p_cutoff(&c, target, &mut work);
            assert_eq!(kept_ids(&c, cut).len(), want, "p = {p}");
            assert_eq!(cut, Some(sorted[want - 1].key));
        }
    }

    #[test]
    fn min_p_style_retain_keeps_order() {
        let mut c = cands(&[(1.0, 1.0), (0.0, 0.05), (0.5, 0.2), (0.2, 0.09)]);
        let n = retain(&mut c, |c| c.w >= 0.1);
        assert_eq!(ids(&c[..n]), vec![0, 2]);
    }

    #[test]
    fn draw_walks_kept_tokens_in_id_order() {
        // Weights 1, 2, 1 on ids 0, 1, 2: cumulative 0.25, 0.75, 1.
        let c = cands(&[(0.0, 1.0), (1.0, 2.0), (0.0, 1.0)]);
        assert_eq!(draw(&c, None, 0.0), Some(0));
        assert_eq!(draw(&c, None, 0.2499), Some(0));
        assert_eq!(draw(&c, None, 0.25), Some(1));
        assert_eq!(draw(&c, None, 0.75), Some(2));
        assert_eq!(draw(&c, None, 0.999_999), Some(2));
        // Cut to the top-ranked token only: every u gives it.
        let top = Some(c[1].key);
        assert_eq!(draw(&c, top, 0.0), Some(1));
        assert_eq!(draw(&c, top, 0.999), Some(1));
    }

    #[test]
    fn draw_never_returns_a_zero_weight_token() {
        let c = cands(&[(5.0, 0.0), (1.0, 1.0), (0.0, 0.0)]);
        for u in [0.0, 0.5, 0.999_999_9] {
            assert_eq!(draw(&c, None, u), Some(1));
        }
        assert_eq!(draw(&cands(&[(0.0, 0.0)]), None, 0.5), None);
    }
}
