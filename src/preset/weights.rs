//! A preset's random weights (see the parent module's docs for how they
//! are scaled): one splitmix64 stream per tensor row, written straight into
//! `model.safetensors`.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;

use rand_core::Rng;
use serde_json::{Value, json};

use super::{
    ATTN_SCORE_STD, BRANCH_GAIN, LOGIT_STD, NORM_WEIGHT_STD, SILU_GATE_RMS, SynthError, io_err,
};
use crate::config::ModelConfig;
use crate::sampler::SplitMix64;
use crate::types::DType;

/// An approximately standard normal number: the Irwin–Hall sum of four
/// 32-bit uniforms, centred and scaled to variance 1. Exact arithmetic
/// only, so it is bit-identical everywhere.
fn next_normal(rng: &mut SplitMix64) -> f64 {
    const SCALE: f64 = 1.0 / 4_294_967_296.0; // 2^-32
    let a = rng.next_u64();
    let b = rng.next_u64();
    let sum =
        (a >> 32) as f64 + (a & 0xFFFF_FFFF) as f64 + (b >> 32) as f64 + (b & 0xFFFF_FFFF) as f64;
    // Each uniform in [0,1) has variance 1/12; four have 1/3.
    (sum * SCALE + 2.0 * SCALE - 2.0) * 1.732_050_807_568_877_2
}

fn mix(a: u64, b: u64) -> u64 {
    SplitMix64::new(a ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

// ---------------------------------------------------------------------------
// Weights

/// How one tensor is initialised: `offset + std * normal`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Init {
    pub offset: f64,
    pub std: f64,
}

/// The initialisation of each weight tensor (see the module docs for why).
pub fn init_for(config: &ModelConfig, name: &str) -> Init {
    let h = config.hidden_size as f64;
    let q_width = (config.num_attention_heads * config.head_dim) as f64;
    let inter = config.intermediate_size as f64;
    // Embedding scale: with tied embeddings this also sets the logit spread.
    let r = LOGIT_STD / h.sqrt();
    let normal = |std: f64| Init { offset: 0.0, std };
    if name == "model.norm.weight" {
        // Zero-mean, see the module docs.
        return normal(1.0);
    }
    let kind = name.rsplit('.').nth(1).unwrap_or("");
    match kind {
        "embed_tokens" => normal(r),
        "input_layernorm" | "post_attention_layernorm" => Init {
            offset: 1.0,
            std: NORM_WEIGHT_STD,
        },
        "q_proj" | "k_proj" => normal((ATTN_SCORE_STD / h).sqrt()),
        "v_proj" | "gate_proj" | "up_proj" => normal(1.0 / h.sqrt()),
        "o_proj" => normal(BRANCH_GAIN * r / q_width.sqrt()),
        "down_proj" => normal(BRANCH_GAIN * r / (SILU_GATE_RMS * inter.sqrt())),
        "lm_head" => normal(LOGIT_STD / h.sqrt()),
        _ => normal(1.0 / h.sqrt()),
    }
}

/// Fills `out` (row-major, `cols` per row) with the tensor's values encoded in
/// `dtype`, one splitmix64 stream per row so rows can be made in parallel.
fn fill_tensor(out: &mut [u8], cols: usize, dtype: DType, tensor_seed: u64, init: Init) {
    let row_bytes = cols * dtype.size_bytes();
    let rows = out.len() / row_bytes;
    let fill_rows = |chunk: &mut [u8], first_row: usize| {
        for (i, row) in chunk.chunks_exact_mut(row_bytes).enumerate() {
            let mut rng = SplitMix64::new(mix(tensor_seed, (first_row + i) as u64));
            for cell in row.chunks_exact_mut(dtype.size_bytes()) {
                let x = (init.offset + init.std * next_normal(&mut rng)) as f32;
                match dtype {
                    DType::F32 => cell.copy_from_slice(&x.to_le_bytes()),
                    DType::F16 => cell.copy_from_slice(&half::f16::from_f32(x).to_le_bytes()),
                    DType::BF16 => cell.copy_from_slice(&half::bf16::from_f32(x).to_le_bytes()),
                    DType::I32 | DType::I8 | DType::I1 => {
                        unreachable!("synth_config refuses {dtype}")
                    }
                }
            }
        }
    };
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8);
    if rows * cols < (1 << 20) || threads == 1 {
        fill_rows(out, 0);
        return;
    }
    let rows_per = rows.div_ceil(threads);
    std::thread::scope(|s| {
        for (t, chunk) in out.chunks_mut(rows_per * row_bytes).enumerate() {
            let fill_rows = &fill_rows;
            s.spawn(move || fill_rows(chunk, t * rows_per));
        }
    });
}

/// Writes `model.safetensors` for `config`, one tensor at a time (the whole
/// model is never held in memory).
pub(super) fn write_weights(
    config: &ModelConfig,
    seed: u64,
    dtype: DType,
    path: &Path,
) -> Result<(), SynthError> {
    let tensors = crate::checkpoint::tensors(config);
    let mut header = serde_json::Map::new();
    header.insert("__metadata__".into(), json!({"format": "pt"}));
    let mut offset = 0usize;
    for (name, shape) in &tensors {
        let bytes = shape.iter().product::<usize>() * dtype.size_bytes();
        header.insert(
            name.clone(),
            json!({
                "dtype": dtype.safetensors_name(),
                "shape": shape,
                "data_offsets": [offset, offset + bytes],
            }),
        );
        offset += bytes;
    }
    let mut header_bytes = serde_json::to_vec(&Value::Object(header)).expect("serializable");
    // Pad the header with spaces so tensor data starts 8-byte aligned.
    while !header_bytes.len().is_multiple_of(8) {
        header_bytes.push(b' ');
    }
    let file = fs::File::create(path).map_err(io_err(path))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    w.write_all(&(header_bytes.len() as u64).to_le_bytes())
        .and_then(|()| w.write_all(&header_bytes))
        .map_err(io_err(path))?;
    let mut buf = Vec::new();
    for (name, shape) in &tensors {
        let cols = *shape.last().expect("tensors have a shape");
        let bytes = shape.iter().product::<usize>() * dtype.size_bytes();
        buf.clear();
        buf.resize(bytes, 0);
        fill_tensor(
            &mut buf,
            cols,
            dtype,
            mix(seed, fnv1a(name)),
            init_for(config, name),
        );
        w.write_all(&buf).map_err(io_err(path))?;
    }
    w.flush().map_err(io_err(path))?;
    Ok(())
}
