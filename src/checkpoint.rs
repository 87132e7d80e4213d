//! The tensors of a Llama checkpoint: their Hugging Face names and shapes, in
//! canonical order, as implied by the model's dimensions. Written once here
//! for every reader and writer of weights (the safetensors loader, the preset
//! synthesizer, the graphs' parameter list).

use crate::config::ModelConfig;

/// The sizes that decide a checkpoint's tensor names and shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorLayout {
    pub vocab: usize,
    pub hidden: usize,
    pub intermediate: usize,
    pub layers: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub head_dim: usize,
    /// No `lm_head.weight`: the output head reuses the embedding.
    pub tied_embeddings: bool,
}

/// The embedding table, which is also the output head when tied.
pub const EMBEDDING: &str = "model.embed_tokens.weight";

impl From<&ModelConfig> for TensorLayout {
    fn from(c: &ModelConfig) -> Self {
        TensorLayout {
            vocab: c.vocab_size,
            hidden: c.hidden_size,
            intermediate: c.intermediate_size,
            layers: c.num_hidden_layers,
            heads: c.num_attention_heads,
            kv_heads: c.num_key_value_heads,
            head_dim: c.head_dim,
            tied_embeddings: c.tie_word_embeddings,
        }
    }
}

impl TensorLayout {
    /// Every tensor, as (HF name, shape), in canonical order: the embedding,
    /// each layer's (input_layernorm, q, k, v, o, post_attention_layernorm,
    /// gate, up, down), the final norm, and `lm_head` unless tied.
    pub fn tensors(&self) -> Vec<(String, Vec<usize>)> {
        let (h, it) = (self.hidden, self.intermediate);
        let q = self.heads * self.head_dim;
        let kv = self.kv_heads * self.head_dim;
        let mut out = vec![(EMBEDDING.to_string(), vec![self.vocab, h])];
        for i in 0..self.layers {
            let p = format!("model.layers.{i}");
            out.extend([
                (format!("{p}.input_layernorm.weight"), vec![h]),
                (format!("{p}.self_attn.q_proj.weight"), vec![q, h]),
                (format!("{p}.self_attn.k_proj.weight"), vec![kv, h]),
                (format!("{p}.self_attn.v_proj.weight"), vec![kv, h]),
                (format!("{p}.self_attn.o_proj.weight"), vec![h, q]),
                (format!("{p}.post_attention_layernorm.weight"), vec![h]),
                (format!("{p}.mlp.gate_proj.weight"), vec![it, h]),
                (format!("{p}.mlp.up_proj.weight"), vec![it, h]),
                (format!("{p}.mlp.down_proj.weight"), vec![h, it]),
            ]);
        }
        out.push(("model.norm.weight".to_string(), vec![h]));
        if !self.tied_embeddings {
            out.push(("lm_head.weight".to_string(), vec![self.vocab, h]));
        }
        out
    }

    /// The output projection: `lm_head.weight`, or the embedding when tied.
    pub fn lm_head_name(&self) -> &'static str {
        if self.tied_embeddings {
            EMBEDDING
        } else {
            "lm_head.weight"
        }
    }
}

/// Matrices of a layer that multiply the same rows, which the graphs take
/// stacked by rows into one matrix so that their products are one kernel
/// call (one dispatch instead of two or three): the stacked matrix's name
/// and its parts, in order, as suffixes of `model.layers.{i}.`. The parts
/// follow each other in [`TensorLayout::tensors`].
pub const STACKS: [(&str, &[&str]); 2] = [
    (
        "self_attn.qkv_proj.weight",
        &[
            "self_attn.q_proj.weight",
            "self_attn.k_proj.weight",
            "self_attn.v_proj.weight",
        ],
    ),
    (
        "mlp.gate_up_proj.weight",
        &["mlp.gate_proj.weight", "mlp.up_proj.weight"],
    ),
];

/// If `name` is the first part of a stack (see [`STACKS`]): the stacked
/// matrix's name and the names of all its parts.
pub fn stack_starting_at(name: &str) -> Option<(String, Vec<String>)> {
    let (prefix, rest) = name.split_once(".layers.")?;
    let (layer, suffix) = rest.split_once('.')?;
    let (stacked, parts) = STACKS.iter().find(|(_, parts)| parts[0] == suffix)?;
    let full = |s: &str| format!("{prefix}.layers.{layer}.{s}");
    Some((full(stacked), parts.iter().map(|p| full(p)).collect()))
}

/// Every tensor `cfg` implies (see [`TensorLayout::tensors`]).
pub fn tensors(cfg: &ModelConfig) -> Vec<(String, Vec<usize>)> {
    TensorLayout::from(cfg).tensors()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stack_is_named_by_its_first_part_and_lists_every_part_in_order() {
        let (name, parts) = stack_starting_at("model.layers.7.self_attn.q_proj.weight").unwrap();
        assert_eq!(name, "model.layers.7.self_attn.qkv_proj.weight");
        assert_eq!(
            parts,
            [
                "model.layers.7.self_attn.q_proj.weight",
                "model.layers.7.self_attn.k_proj.weight",
                "model.layers.7.self_attn.v_proj.weight"
            ]
        );
        let (name, parts) = stack_starting_at("model.layers.0.mlp.gate_proj.weight").unwrap();
        assert_eq!(name, "model.layers.0.mlp.gate_up_proj.weight");
        assert_eq!(parts.len(), 2);
        for other in [
            "model.layers.0.self_attn.k_proj.weight",
            "model.layers.0.mlp.down_proj.weight",
            "model.embed_tokens.weight",
            "model.norm.weight",
        ] {
            assert_eq!(stack_starting_at(other), None, "{other}");
        }
    }

    #[test]
    fn the_parts_of_each_stack_follow_each_other_in_checkpoint_order() {
        let layout = TensorLayout {
            vocab: 10,
            hidden: 8,
            intermediate: 16,
            layers: 2,
            heads: 2,
            kv_heads: 1,
            head_dim: 4,
            tied_embeddings: true,
        };
        let names: Vec<String> = layout.tensors().into_iter().map(|(n, _)| n).collect();
        let mut stacks = 0;
        for (i, name) in names.iter().enumerate() {
            if let Some((_, parts)) = stack_starting_at(name) {
                assert_eq!(names[i..i + parts.len()], parts[..]);
                stacks += 1;
            }
        }
        assert_eq!(stacks, 2 * STACKS.len());
    }
}
