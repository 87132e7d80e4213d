//! The device layout of block matrices for the AVX512-VNNI kernel
//! (`blocks_vnni_packed` in csrc/kernels/x86_64_avx512_vnni.c), which the
//! 8-bit form uses on CPUs that have VNNI ([`super::kernels::packs_for_vnni`]).
//!
//! The loader's layout keeps each weight row's blocks together (`q [n,
//! blocks, bytes]`, `d` and `m [n, blocks]`). The kernel multiplies 16
//! weight rows at once, one per 32-bit lane, so in that layout it gathers
//! every block from 16 rows far apart, permutes the bytes into lanes and
//! transposes the scales: half its time with the weights in L2 (C harness,
//! docs/performance.md). Here that is done once, at upload: for each group
//! of 16 rows and each block, value bytes `4w .. 4w + 4` of the 16 rows
//! side by side (64 bytes for each `w`), and the 16 rows' scales (offsets)
//! side by side. Q8_0's signed values are stored as unsigned (+128, the
//! sign bit flipped), as `vpdpbusd` takes them.
//!
//! The same bytes, permuted: the layout costs no memory. A parameter in it
//! says so ([`super::ParamSpec::vnni_layout`]); its shapes are `q [n/16,
//! blocks, 16 * bytes]` and `d`, `m [n/16, blocks, 16]`.

use super::BlockFormat;

/// Weight rows side by side in one group.
pub const GROUP: usize = 16;

/// Part `part` (`q`, `d` or `m`) of a block matrix of `rows` rows (a
/// multiple of [`GROUP`]) and `blocks` blocks a row, given in the loader's
/// layout (`q` with `q_bytes` bytes a block), in the kernel's layout.
pub fn relayout(
    part: &str,
    format: BlockFormat,
    bytes: &[u8],
    rows: usize,
    blocks: usize,
    q_bytes: usize,
) -> Vec<u8> {
    assert_eq!(rows % GROUP, 0, "whole groups of {GROUP} rows");
    let mut out = vec![0u8; bytes.len()];
    // Bytes of one element: q's are single bytes, d's and m's f16.
    let (elem, per_block) = if part == "q" { (1, q_bytes) } else { (2, 1) };
    assert_eq!(
        bytes.len(),
        rows * blocks * per_block * elem,
        "part {part} of {rows} x {blocks} blocks"
    );
    let flip = part == "q" && format == BlockFormat::Q8_0;
    for g in 0..rows / GROUP {
        for j in 0..blocks {
            let group_block = (g * blocks + j) * GROUP * per_block * elem;
            for lane in 0..GROUP {
                let row = g * GROUP + lane;
                let from = (row * blocks + j) * per_block * elem;
                if part == "q" {
                    for (i, &b) in bytes[from..from + per_block].iter().enumerate() {
                        // Byte i of the row's block: word i / 4 of lane `lane`.
                        let to = group_block + (i / 4) * 4 * GROUP + lane * 4 + i % 4;
                        out[to] = if flip { b ^ 0x80 } else { b };
                    }
                } else {
                    let to = group_block + lane * elem;
                    out[to..to + elem].copy_from_slice(&bytes[from..from + elem]);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row r's block j, byte i, as a value that says where it came from.
    fn tagged(rows: usize, blocks: usize, q_bytes: usize) -> Vec<u8> {
        let mut v = Vec::new();
        for r in 0..rows {
            for j in 0..blocks {
                for i in 0..q_bytes {
                    v.push((r * 7 + j * 3 + i) as u8);
                }
            }
        }
        v
    }

    #[test]
    fn values_of_16_rows_go_side_by_side_four_bytes_a_lane() {
        let (rows, blocks, q_bytes) = (32, 3, 16);
        let q = tagged(rows, blocks, q_bytes);
        let out = relayout("q", BlockFormat::Q4_1, &q, rows, blocks, q_bytes);
        for g in 0..2 {
            for j in 0..blocks {
                let base = (g * blocks + j) * 16 * q_bytes;
                // Register w of the block: lane l holds row 16g + l's bytes
                // 4w .. 4w + 4.
                for w in 0..q_bytes / 4 {
                    for l in 0..16 {
                        for b in 0..4 {
                            let row = 16 * g + l;
                            let want = q[(row * blocks + j) * q_bytes + 4 * w + b];
                            assert_eq!(out[base + 64 * w + 4 * l + b], want);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn q8_0_values_are_stored_unsigned_and_scales_side_by_side() {
        let (rows, blocks) = (16, 2);
        let q: Vec<u8> = (0..rows * blocks * 32).map(|i| i as u8).collect();
        let out = relayout("q", BlockFormat::Q8_0, &q, rows, blocks, 32);
        // Row 3, block 1, byte 21 (-> register 5, lane 3, byte 1), +128.
        let from = (3 * blocks + 1) * 32 + 21;
        let block_1 = 16 * 32; // group 0's block 1
        assert_eq!(out[block_1 + 64 * 5 + 4 * 3 + 1], q[from] ^ 0x80);
        // f16 scales: row l's scale of block j at [j][l].
        let d: Vec<u8> = (0..rows * blocks)
            .flat_map(|i| (i as u16 * 257).to_le_bytes())
            .collect();
        let out = relayout("d", BlockFormat::Q8_0, &d, rows, blocks, 32);
        for j in 0..blocks {
            for l in 0..16 {
                let from = 2 * (l * blocks + j);
                let to = 2 * (j * 16 + l);
                assert_eq!(out[to..to + 2], d[from..from + 2]);
            }
        }
    }
}
