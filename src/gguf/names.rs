//! The correspondence between GGUF tensor names (`blk.N.attn_q.weight`) and
//! the Hugging Face names the graphs use (`model.layers.N.self_attn.q_proj.weight`),
//! and llama.cpp's row permutation of the Q and K projections.
//!
//! llama.cpp's converter reorders the rows of each head of `q_proj` and
//! `k_proj` so that the two rotary halves of a head, which Hugging Face keeps
//! apart (rows `i` and `i + head_dim / 2`), sit next to each other (rows `2i`
//! and `2i + 1`). Reading undoes that; writing does it, as the converter does.

/// Hugging Face name of a GGUF tensor, or `None` for a tensor the graphs do
/// not use (e.g. `rope_freqs.weight`).
pub fn hf_name(gguf: &str) -> Option<String> {
    match gguf {
        "token_embd.weight" => return Some("model.embed_tokens.weight".into()),
        "output_norm.weight" => return Some("model.norm.weight".into()),
        "output.weight" => return Some("lm_head.weight".into()),
        _ => {}
    }
    let rest = gguf.strip_prefix("blk.")?;
    let (layer, part) = rest.split_once('.')?;
    let layer: usize = layer.parse().ok()?;
    let hf = LAYER_NAMES.iter().find(|(g, _)| *g == part)?.1;
    Some(format!("model.layers.{layer}.{hf}"))
}

/// GGUF name of a Hugging Face tensor, or `None` for a name outside the Llama layout.
pub fn gguf_name(hf: &str) -> Option<String> {
    match hf {
        "model.embed_tokens.weight" => return Some("token_embd.weight".into()),
        "model.norm.weight" => return Some("output_norm.weight".into()),
        "lm_head.weight" => return Some("output.weight".into()),
        _ => {}
    }
    let rest = hf.strip_prefix("model.layers.")?;
    let (layer, part) = rest.split_once('.')?;
    let layer: usize = layer.parse().ok()?;
    let g = LAYER_NAMES.iter().find(|(_, h)| *h == part)?.0;
    Some(format!("blk.{layer}.{g}"))
}

/// (GGUF suffix, Hugging Face suffix) of each per-layer tensor.
const LAYER_NAMES: [(&str, &str); 9] = [
    ("attn_norm.weight", "input_layernorm.weight"),
    ("attn_q.weight", "self_attn.q_proj.weight"),
    ("attn_k.weight", "self_attn.k_proj.weight"),
    ("attn_v.weight", "self_attn.v_proj.weight"),
    ("attn_output.weight", "self_attn.o_proj.weight"),
    ("ffn_norm.weight", "post_attention_layernorm.weight"),
    ("ffn_gate.weight", "mlp.gate_proj.weight"),
    ("ffn_up.weight", "mlp.up_proj.weight"),
    ("ffn_down.weight", "mlp.down_proj.weight"),
];

/// Which rotary permutation a Hugging Face tensor carries in GGUF: the number
/// of heads whose rows are interleaved (`q_proj`: query heads, `k_proj`: KV heads).
pub fn rope_permuted_heads(hf: &str, n_heads: usize, n_kv_heads: usize) -> Option<usize> {
    if hf.ends_with(".self_attn.q_proj.weight") {
        Some(n_heads)
    } else if hf.ends_with(".self_attn.k_proj.weight") {
        Some(n_kv_heads)
    } else {
        None
    }
}

/// Reorders the rows of a row-major `[n_heads * head_dim, cols]` matrix from
/// llama.cpp's interleaved rotary layout back to Hugging Face's split halves.
pub fn unpermute_rows<T: Copy>(data: &[T], n_heads: usize, cols: usize) -> Vec<T> {
    permute_impl(data, n_heads, cols, false)
}

/// The inverse of [`unpermute_rows`]: what llama.cpp's converter applies.
pub fn permute_rows<T: Copy>(data: &[T], n_heads: usize, cols: usize) -> Vec<T> {
    permute_impl(data, n_heads, cols, true)
}

fn permute_impl<T: Copy>(data: &[T], n_heads: usize, cols: usize, to_gguf: bool) -> Vec<T> {
    let rows = data.len() / cols;
    let head_dim = rows / n_heads;
    let half = head_dim / 2;
    let mut out = Vec::with_capacity(data.len());
    for h in 0..n_heads {
        for r in 0..head_dim {
            // HF row (part, i) = part * half + i; GGUF row (i, part) = 2 * i + part.
            let src = if to_gguf {
                // Output row r is GGUF row (i = r / 2, part = r % 2), taken from HF.
                (r % 2) * half + r / 2
            } else {
                // Output row r is HF row (part = r / half, i = r % half), taken from GGUF.
                2 * (r % half) + r / half
            };
            let start = (h * head_dim + src) * cols;
            out.extend_from_slice(&data[start..start + cols]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_llama_tensor_name_maps_both_ways() {
        for hf in [
            "model.embed_tokens.weight",
            "model.norm.weight",
            "lm_head.weight",
            "model.layers.0.input_layernorm.weight",
            "model.layers.29.self_attn.k_proj.weight",
            "model.layers.7.mlp.down_proj.weight",
        ] {
            let g = gguf_name(hf).unwrap();
            assert_eq!(hf_name(&g).as_deref(), Some(hf), "{g}");
        }
        assert_eq!(
            gguf_name("model.layers.3.self_attn.q_proj.weight").as_deref(),
            Some("blk.3.attn_q.weight")
        );
        assert_eq!(hf_name("rope_freqs.weight"), None);
        assert_eq!(hf_name("blk.1.attn_q.bias"), None);
    }

    #[test]
    fn permutation_interleaves_the_rotary_halves_of_each_head() {
        // Two heads of head_dim 4, one column: HF rows [a0 a1 b0 b1 | c0 c1 d0 d1]
        // (a/b the rotary halves) become [a0 b0 a1 b1 | c0 d0 c1 d1].
        let hf = [0, 1, 10, 11, 20, 21, 30, 31];
        let g = permute_rows(&hf, 2, 1);
        assert_eq!(g, vec![0, 10, 1, 11, 20, 30, 21, 31]);
        assert_eq!(unpermute_rows(&g, 2, 1), hf.to_vec());
    }

    #[test]
    fn unpermute_inverts_permute_on_wide_rows() {
        let data: Vec<u32> = (0..3 * 8 * 5).collect();
        assert_eq!(unpermute_rows(&permute_rows(&data, 3, 5), 3, 5), data);
    }
}
