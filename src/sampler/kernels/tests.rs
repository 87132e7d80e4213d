//! The whole-vocabulary passes, each against a direct computation: the
//! exponential's error in ulps, chunk maxima and NaN detection, masked
//! sums and counts, candidate collection, the draws, and the AVX2 build
//! against the baseline bit for bit.

use super::*;

#[test]
fn exp_nonpos_is_accurate_to_a_few_ulp() {
    let mut worst = 0.0f64;
    let mut z = 0.0f32;
    while z > -87.0 {
        let got = f64::from(exp_nonpos(z));
        let want = f64::from(z).exp();
        worst = worst.max(((got - want) / want).abs());
        z -= 0.000_37;
    }
    assert!(worst < 3e-7, "worst relative error {worst}");
}

#[test]
fn exp_nonpos_special_points() {
    assert_eq!(exp_nonpos(0.0), 1.0);
    assert_eq!(exp_nonpos(-0.0), 1.0);
    assert_eq!(exp_nonpos(f32::NEG_INFINITY), 0.0);
    assert_eq!(exp_nonpos(-87.5), 0.0);
    assert!(exp_nonpos(-86.9) > 0.0);
    assert!(exp_nonpos(-86.9).is_normal());
}

#[test]
fn rank_key_orders_by_logit_then_lower_id() {
    assert!(rank_key(2.0, 9) > rank_key(1.0, 0));
    assert!(rank_key(1.0, 3) > rank_key(1.0, 4));
    assert!(rank_key(-1.0, 0) > rank_key(-2.0, 0));
    assert!(rank_key(-1.0, 0) > rank_key(f32::NEG_INFINITY, 0));
    assert!(rank_key(0.0, 1) > rank_key(-0.5, 0));
    // -0.0 and +0.0 are the same logit: the lower id ranks first.
    assert!(rank_key(-0.0, 1) > rank_key(0.0, 2));
    assert!(rank_key(0.0, 1) > rank_key(-0.0, 2));
    assert_eq!(key_id(rank_key(3.5, 77)), 77);
}

#[test]
fn scan_row_finds_chunk_maxima_and_nan() {
    let mut x: Vec<f32> = (0..150).map(|i| (i % 64) as f32).collect();
    x[10] = 100.0;
    let mut cm = vec![0.0; 3];
    let s = scan_row(&x, &mut cm);
    assert_eq!(s.max, 100.0);
    assert!(!s.has_nan);
    assert_eq!(cm, vec![100.0, 63.0, 21.0]);
    x[140] = f32::NAN;
    assert!(scan_row(&x, &mut cm).has_nan);
    x[140] = 0.0;
    x[70] = f32::NAN;
    assert!(scan_row(&x, &mut cm).has_nan);
    assert_eq!(cm[1], 63.0, "NaN is ignored by the max");
}

#[test]
fn first_index_of_max_prefers_the_lowest_id() {
    let mut x = vec![0.0f32; 200];
    x[130] = 5.0;
    x[70] = 5.0;
    x[199] = 5.0;
    let mut cm = vec![0.0; 4];
    let s = scan_row(&x, &mut cm);
    assert_eq!(first_index_of_max(&x, &cm, s.max), 70);
}

#[test]
fn exp_pass_masks_below_zmin_and_sums_chunks() {
    let x: Vec<f32> = (0..100).map(|i| -(i as f32) * 0.1).collect();
    let mut w = vec![0.0; 100];
    let mut cs = vec![0.0; 2];
    let zmin = -2.0;
    let total = exp_pass(&x, 0.0, 1.0, zmin, &mut w, &mut cs);
    let want: f64 = (0..100)
        .map(|i| -(i as f64) * 0.1)
        .filter(|&z| z >= -2.0 - 1e-6)
        .map(f64::exp)
        .sum();
    assert!((total - want).abs() < 1e-5, "{total} vs {want}");
    assert_eq!(w[21], 0.0);
    assert!(w[20] > 0.0);
    assert!((f64::from(cs[0]) + f64::from(cs[1]) - total).abs() < 1e-9);
}

#[test]
fn mass_count_at_or_above_matches_a_direct_sum() {
    let mut x: Vec<f32> = (0..300).map(|i| ((i * 37) % 101) as f32 * -0.05).collect();
    x[7] = f32::NEG_INFINITY;
    let mut w = vec![0.0; 300];
    let mut cs = vec![0.0; 5];
    let mut cm = vec![0.0; 5];
    let s = scan_row(&x, &mut cm);
    exp_pass(&x, s.max, 1.0, f32::NEG_INFINITY, &mut w, &mut cs);
    for thr in [0.0f32, -0.5, -1.0, -3.0, -10.0] {
        let passing = || {
            x.iter()
                .zip(&w)
                .filter(|&(&v, _)| v - s.max >= thr && v.is_finite())
        };
        let mass: f64 = passing().map(|(_, &wv)| f64::from(wv)).sum();
        let (got, count) = mass_count_at_or_above(&x, &w, &cm, s.max, 1.0, thr);
        assert!((got - mass).abs() < 1e-4, "thr {thr}: {got} vs {mass}");
        assert_eq!(count, passing().count(), "thr {thr}");
    }
    // At -inf every token counts, masked ones included (they weigh 0).
    let (all, count) = mass_count_at_or_above(&x, &w, &cm, s.max, 1.0, f32::NEG_INFINITY);
    assert_eq!(count, 300);
    assert!((all - w.iter().map(|&v| f64::from(v)).sum::<f64>()).abs() < 1e-4);
}

#[test]
fn collect_at_or_above_keeps_finite_tokens_in_id_order() {
    let mut x = vec![0.0f32; 130];
    for (i, v) in x.iter_mut().enumerate() {
        *v = (i % 7) as f32;
    }
    x[3] = f32::NEG_INFINITY;
    let mut cm = vec![0.0; 3];
    scan_row(&x, &mut cm);
    let mut out = vec![Cand::default(); 130];
    let n = collect_at_or_above(&x, &cm, 6.0, &mut out);
    let ids: Vec<u32> = out[..n].iter().map(Cand::id).collect();
    let want: Vec<u32> = (0..130).filter(|i| i % 7 == 6).collect();
    assert_eq!(ids, want);
    let n = collect_at_or_above(&x, &cm, f32::NEG_INFINITY, &mut out);
    assert_eq!(n, 129, "-inf is never a candidate");
}

#[test]
fn collect_band_takes_lo_inclusive_hi_exclusive_with_weights() {
    let x: Vec<f32> = (0..200).map(|i| -((i % 10) as f32)).collect();
    let mut cm = vec![0.0; 4];
    let mut cs = vec![0.0; 4];
    let mut w = vec![0.0; 200];
    let s = scan_row(&x, &mut cm);
    exp_pass(&x, s.max, 1.0, f32::NEG_INFINITY, &mut w, &mut cs);
    let mut out = vec![Cand::default(); 200];
    let n = collect_band(&x, &w, &cm, s.max, 1.0, -3.0, -1.0, &mut out);
    let ids: Vec<u32> = out[..n].iter().map(Cand::id).collect();
    let want: Vec<u32> = (0..200).filter(|i| i % 10 == 2 || i % 10 == 3).collect();
    assert_eq!(ids, want);
    assert!(
        out[..n]
            .iter()
            .all(|c| c.w == w[c.id() as usize] && c.w > 0.0)
    );
}

#[test]
fn draw_kept_keeps_boundary_ties_only_up_to_the_boundary_id() {
    // Logit 1.0 at ids 10, 70, 130 (three chunks); 2.0 at id 0; rest masked.
    let mut x = vec![f32::NEG_INFINITY; 200];
    x[0] = 2.0;
    for i in [10, 70, 130] {
        x[i] = 1.0;
    }
    let mut cm = vec![0.0; 4];
    let mut cs = vec![0.0; 4];
    let mut w = vec![0.0; 200];
    let s = scan_row(&x, &mut cm);
    exp_pass(&x, s.max, 1.0, f32::NEG_INFINITY, &mut w, &mut cs);
    let mut tmp = vec![0.0; 4];
    let keep = Keep::RankAtLeast { x: 1.0, id: 70 };
    let mut seen = std::collections::BTreeSet::new();
    for k in 0..1000 {
        let u = k as f64 / 1000.0;
        seen.insert(draw_kept(&x, &w, &cm, s.max, 1.0, keep, &mut tmp, u).unwrap());
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![0, 10, 70]);
    // z >= -1 keeps every tie.
    let keep = Keep::ZAtLeast(-1.0);
    let total = kept_masses(&x, &w, &cm, s.max, 1.0, keep, &mut tmp);
    let e1 = f64::from(exp_nonpos(-1.0));
    assert!((total - (1.0 + 3.0 * e1)).abs() < 1e-6);
}

#[test]
fn avx2_and_baseline_kernels_agree_bit_for_bit() {
    let n: usize = 5000 + 37;
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let x: Vec<f32> = (0..n)
        .map(|i| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            if i % 97 == 0 {
                f32::NEG_INFINITY
            } else {
                ((s >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 20.0
            }
        })
        .collect();
    let chunks = n.div_ceil(CHUNK);
    let run = |baseline: bool| {
        FORCE_BASELINE.with(|f| f.set(baseline));
        let mut cm = vec![0.0; chunks];
        let mut cs = vec![0.0; chunks];
        let mut w = vec![0.0; n];
        let mut tmp = vec![0.0; chunks];
        let mut out = vec![Cand::default(); n];
        let sc = scan_row(&x, &mut cm);
        let total = exp_pass(&x, sc.max, 1.3, -6.0, &mut w, &mut cs);
        let mc = mass_count_at_or_above(&x, &w, &cm, sc.max, 1.3, -2.5);
        let nb = collect_band(&x, &w, &cm, sc.max, 1.3, -3.0, -2.0, &mut out);
        let keep = Keep::RankAtLeast {
            x: out[0].x,
            id: out[0].id(),
        };
        let kept = kept_masses(&x, &w, &cm, sc.max, 1.3, keep, &mut tmp);
        FORCE_BASELINE.with(|f| f.set(false));
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        (
            bits(&cm),
            bits(&cs),
            bits(&w),
            bits(&tmp),
            total.to_bits(),
            mc.0.to_bits(),
            mc.1,
            out[..nb].to_vec(),
            kept.to_bits(),
        )
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn draw_full_inverts_the_cdf_in_id_order() {
    let mut w = vec![0.0f32; 200];
    w[5] = 1.0;
    w[100] = 2.0;
    w[150] = 1.0;
    let cs: Vec<f32> = w.chunks(CHUNK).map(|c| c.iter().sum()).collect();
    let total = 4.0;
    assert_eq!(draw_full(&w, &cs, total, 0.0), Some(5));
    assert_eq!(draw_full(&w, &cs, total, 0.2499), Some(5));
    assert_eq!(draw_full(&w, &cs, total, 0.25), Some(100));
    assert_eq!(draw_full(&w, &cs, total, 0.7499), Some(100));
    assert_eq!(draw_full(&w, &cs, total, 0.75), Some(150));
    assert_eq!(draw_full(&w, &cs, total, 0.999_999), Some(150));
    // A total slightly larger than the chunk sums still lands on a real token.
    assert_eq!(draw_full(&w, &cs, 4.000_01, 0.999_999_9), Some(150));
    assert_eq!(draw_full(&[0.0; 3], &[0.0], 0.0, 0.5), None);
}
