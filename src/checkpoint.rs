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

/// Every tensor `cfg` implies (see [`TensorLayout::tensors`]).
pub fn tensors(cfg: &ModelConfig) -> Vec<(String, Vec<usize>)> {
    TensorLayout::from(cfg).tensors()
}
