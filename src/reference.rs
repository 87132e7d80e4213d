//! An independent, deliberately plain Llama forward pass in f64: the oracle
//! the IREE graphs are checked against. It follows transformers'
//! `LlamaForCausalLM` (RMSNorm, rotate-half RoPE on q and k, grouped-query
//! attention by repeating KV heads, SiLU-gated MLP, final norm, `lm_head` or
//! the tied embedding) and keeps its own KV cache per sequence, so a prompt can
//! be prefilled and then extended one token at a time.
//!
//! Nothing here is shared with the graph emitter on purpose (not even the RoPE
//! frequencies, which are recomputed below from the config's raw values):
//! a bug in shared math would be invisible to the comparison.
//!
//! Weights are kept as f32, which holds f32, f16 and bf16 values exactly, and
//! every operation is done in f64. It is meant for tiny models and spot checks
//! (no SIMD, no threads).

use crate::config::ModelConfig;
use crate::types::TokenId;
use crate::weights::{Weights, WeightsError};

/// Why the reference model could not be built or run.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    #[error(transparent)]
    Weights(#[from] WeightsError),
    #[error("token id {token} is outside the vocabulary (vocab_size {vocab_size})")]
    TokenOutOfRange { token: TokenId, vocab_size: usize },
    #[error("forward needs at least one token")]
    Empty,
}

/// A row-major matrix `[rows, cols]` of exactly converted weights.
struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f32>,
}

impl Matrix {
    fn load(w: &Weights, name: &str) -> Result<Self, WeightsError> {
        let view = w.tensor(name)?;
        let (rows, cols) = match view.shape {
            [r, c] => (*r, *c),
            other => unreachable!("{name} checked to be 2-D, found {other:?}"),
        };
        Ok(Matrix {
            rows,
            cols,
            data: view.to_f32(),
        })
    }

    fn row(&self, r: usize) -> &[f32] {
        &self.data[r * self.cols..(r + 1) * self.cols]
    }

    /// `self @ x` for a vector `x` of length `cols`, accumulated in f64.
    fn matvec(&self, x: &[f64]) -> Vec<f64> {
        assert_eq!(x.len(), self.cols);
        (0..self.rows)
            .map(|r| {
                self.row(r)
                    .iter()
                    .zip(x)
                    .map(|(&w, &v)| w as f64 * v)
                    .sum::<f64>()
            })
            .collect()
    }
}

struct Layer {
    input_norm: Vec<f64>,
    q: Matrix,
    k: Matrix,
    v: Matrix,
    o: Matrix,
    post_norm: Vec<f64>,
    gate: Matrix,
    up: Matrix,
    down: Matrix,
}

/// The reference model: weights and hyper-parameters.
pub struct Reference {
    cfg: ModelConfig,
    embed: Matrix,
    layers: Vec<Layer>,
    final_norm: Vec<f64>,
    /// `None` when the embedding is tied.
    lm_head: Option<Matrix>,
    inv_freq: Vec<f64>,
}

/// The KV cache and position of one sequence.
#[derive(Clone, Debug, Default)]
pub struct RefSequence {
    /// Per layer, per position: `[num_key_value_heads * head_dim]` (keys after RoPE).
    keys: Vec<Vec<Vec<f64>>>,
    values: Vec<Vec<Vec<f64>>>,
    tokens: Vec<TokenId>,
}

/// Per-layer statistics of the last token of a forward call.
#[derive(Clone, Debug, PartialEq)]
pub struct ForwardTrace {
    /// RMS of the residual stream: after the embedding, then after each layer.
    pub hidden_rms: Vec<f64>,
    /// Standard deviation of the attention scores (scaled, before softmax)
    /// of each layer, over all heads and visible positions.
    pub attn_score_std: Vec<f64>,
}

/// RMSNorm as in transformers: `x / sqrt(mean(x^2) + eps) * w`.
pub fn rms_norm(x: &[f64], weight: &[f64], eps: f64) -> Vec<f64> {
    let mean_sq = x.iter().map(|v| v * v).sum::<f64>() / x.len() as f64;
    let inv = 1.0 / (mean_sq + eps).sqrt();
    x.iter().zip(weight).map(|(v, w)| v * inv * w).collect()
}

/// RoPE inverse frequencies computed here, independently of
/// [`ModelConfig::rope_inv_freq`]: `theta^(-2i/d)`, then the llama3 rule
/// (wavelengths above `original / low_freq_factor` divided by `factor`,
/// below `original / high_freq_factor` kept, in between interpolated).
pub fn inv_freq(cfg: &ModelConfig) -> Vec<f64> {
    let half = cfg.head_dim / 2;
    let mut out = Vec::with_capacity(half);
    for i in 0..half {
        let exponent = (2 * i) as f64 / cfg.head_dim as f64;
        let mut f = cfg.rope_theta.powf(-exponent);
        if let Some(s) = &cfg.rope_scaling {
            let ctx = s.original_max_position_embeddings as f64;
            let wavelen = std::f64::consts::TAU / f;
            if wavelen > ctx / s.low_freq_factor {
                f /= s.factor;
            } else if wavelen >= ctx / s.high_freq_factor {
                let t =
                    (ctx / wavelen - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
                f = (1.0 - t) * (f / s.factor) + t * f;
            }
        }
        out.push(f);
    }
    out
}

/// Rotates one head vector in place, transformers' `rotate_half` convention:
/// pairs are `(x[i], x[i + d/2])`, rotated by `pos * inv_freq[i]`.
pub fn apply_rope(x: &mut [f64], pos: usize, inv_freq: &[f64]) {
    let half = x.len() / 2;
    assert_eq!(half, inv_freq.len());
    for i in 0..half {
        let angle = pos as f64 * inv_freq[i];
        let (sin, cos) = angle.sin_cos();
        let (a, b) = (x[i], x[i + half]);
        x[i] = a * cos - b * sin;
        x[i + half] = b * cos + a * sin;
    }
}

/// `x * sigmoid(x)`.
pub fn silu(x: f64) -> f64 {
    x / (1.0 + (-x).exp())
}

/// The id of the largest logit; the lowest id wins ties.
pub fn argmax(logits: &[f64]) -> TokenId {
    let mut best = 0;
    for (i, &v) in logits.iter().enumerate() {
        if v > logits[best] {
            best = i;
        }
    }
    TokenId(best as u32)
}

fn f64s(w: &Weights, name: &str) -> Result<Vec<f64>, WeightsError> {
    w.to_f64(name)
}

impl Reference {
    /// Converts the weights (exactly) into the reference's own storage.
    pub fn new(cfg: &ModelConfig, w: &Weights) -> Result<Self, ReferenceError> {
        let mut layers = Vec::with_capacity(cfg.num_hidden_layers);
        for i in 0..cfg.num_hidden_layers {
            let p = format!("model.layers.{i}");
            layers.push(Layer {
                input_norm: f64s(w, &format!("{p}.input_layernorm.weight"))?,
                q: Matrix::load(w, &format!("{p}.self_attn.q_proj.weight"))?,
                k: Matrix::load(w, &format!("{p}.self_attn.k_proj.weight"))?,
                v: Matrix::load(w, &format!("{p}.self_attn.v_proj.weight"))?,
                o: Matrix::load(w, &format!("{p}.self_attn.o_proj.weight"))?,
                post_norm: f64s(w, &format!("{p}.post_attention_layernorm.weight"))?,
                gate: Matrix::load(w, &format!("{p}.mlp.gate_proj.weight"))?,
                up: Matrix::load(w, &format!("{p}.mlp.up_proj.weight"))?,
                down: Matrix::load(w, &format!("{p}.mlp.down_proj.weight"))?,
            });
        }
        let lm_head = if cfg.tie_word_embeddings {
            None
        } else {
            Some(Matrix::load(w, "lm_head.weight")?)
        };
        Ok(Reference {
            cfg: cfg.clone(),
            embed: Matrix::load(w, "model.embed_tokens.weight")?,
            layers,
            final_norm: f64s(w, "model.norm.weight")?,
            lm_head,
            inv_freq: inv_freq(cfg),
        })
    }

    pub fn config(&self) -> &ModelConfig {
        &self.cfg
    }

    /// A new, empty sequence (KV cache).
    pub fn new_sequence(&self) -> RefSequence {
        RefSequence {
            keys: vec![Vec::new(); self.cfg.num_hidden_layers],
            values: vec![Vec::new(); self.cfg.num_hidden_layers],
            tokens: Vec::new(),
        }
    }

    /// Logits of the whole prompt in one call (a fresh sequence).
    pub fn logits(&self, tokens: &[TokenId]) -> Result<Vec<f64>, ReferenceError> {
        self.new_sequence().forward(self, tokens)
    }

    /// Greedy decoding: feeds `prompt`, then appends the argmax token `n`
    /// times (lowest id on ties; EOS does not stop it). Returns the `n` new ids.
    pub fn greedy(&self, prompt: &[TokenId], n: usize) -> Result<Vec<TokenId>, ReferenceError> {
        let mut seq = self.new_sequence();
        let mut out = Vec::with_capacity(n);
        if n == 0 {
            return Ok(out);
        }
        let mut logits = seq.forward(self, prompt)?;
        loop {
            let next = argmax(&logits);
            out.push(next);
            if out.len() == n {
                return Ok(out);
            }
            logits = seq.forward(self, &[next])?;
        }
    }

    fn logits_of(&self, h: &[f64]) -> Vec<f64> {
        let normed = rms_norm(h, &self.final_norm, self.cfg.rms_norm_eps);
        match &self.lm_head {
            Some(m) => m.matvec(&normed),
            None => self.embed.matvec(&normed),
        }
    }
}

impl RefSequence {
    /// Number of tokens in the cache (the position of the next token).
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The tokens fed so far.
    pub fn tokens(&self) -> &[TokenId] {
        &self.tokens
    }

    /// Feeds `tokens` (at the next positions, causally) and returns the
    /// logits after the last of them.
    pub fn forward(
        &mut self,
        r: &Reference,
        tokens: &[TokenId],
    ) -> Result<Vec<f64>, ReferenceError> {
        self.forward_traced(r, tokens).map(|(logits, _)| logits)
    }

    /// [`forward`](Self::forward), also returning statistics of the last token.
    pub fn forward_traced(
        &mut self,
        r: &Reference,
        tokens: &[TokenId],
    ) -> Result<(Vec<f64>, ForwardTrace), ReferenceError> {
        let cfg = &r.cfg;
        if tokens.is_empty() {
            return Err(ReferenceError::Empty);
        }
        if let Some(&t) = tokens.iter().find(|t| t.index() >= cfg.vocab_size) {
            return Err(ReferenceError::TokenOutOfRange {
                token: t,
                vocab_size: cfg.vocab_size,
            });
        }
        let start = self.tokens.len();
        let (d, n_q, n_kv) = (
            cfg.head_dim,
            cfg.num_attention_heads,
            cfg.num_key_value_heads,
        );
        let group = n_q / n_kv;
        let scale = 1.0 / (d as f64).sqrt();

        // Residual stream of each new token.
        let mut hs: Vec<Vec<f64>> = tokens
            .iter()
            .map(|t| r.embed.row(t.index()).iter().map(|&v| v as f64).collect())
            .collect();
        let rms = |x: &[f64]| (x.iter().map(|v| v * v).sum::<f64>() / x.len() as f64).sqrt();
        let mut trace = ForwardTrace {
            hidden_rms: vec![rms(hs.last().expect("non-empty"))],
            attn_score_std: Vec::new(),
        };

        for (li, layer) in r.layers.iter().enumerate() {
            // Keys and values of the new tokens go into the cache first; each
            // query then sees positions 0..=its own.
            let mut queries = Vec::with_capacity(tokens.len());
            for (i, h) in hs.iter().enumerate() {
                let pos = start + i;
                let x = rms_norm(h, &layer.input_norm, cfg.rms_norm_eps);
                let mut q = layer.q.matvec(&x);
                let mut k = layer.k.matvec(&x);
                let v = layer.v.matvec(&x);
                for head in q.chunks_exact_mut(d) {
                    apply_rope(head, pos, &r.inv_freq);
                }
                for head in k.chunks_exact_mut(d) {
                    apply_rope(head, pos, &r.inv_freq);
                }
                self.keys[li].push(k);
                self.values[li].push(v);
                queries.push(q);
            }

            let mut last_scores = Vec::new();
            for (i, h) in hs.iter_mut().enumerate() {
                let pos = start + i;
                let q = &queries[i];
                let mut attn = vec![0.0f64; n_q * d];
                for head in 0..n_q {
                    let kv = head / group;
                    let qh = &q[head * d..(head + 1) * d];
                    let scores: Vec<f64> = (0..=pos)
                        .map(|j| {
                            let kj = &self.keys[li][j][kv * d..(kv + 1) * d];
                            qh.iter().zip(kj).map(|(a, b)| a * b).sum::<f64>() * scale
                        })
                        .collect();
                    let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                    let exps: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
                    let total: f64 = exps.iter().sum();
                    let out = &mut attn[head * d..(head + 1) * d];
                    for (j, e) in exps.iter().enumerate() {
                        let vj = &self.values[li][j][kv * d..(kv + 1) * d];
                        let p = e / total;
                        for (o, v) in out.iter_mut().zip(vj) {
                            *o += p * v;
                        }
                    }
                    if i + 1 == tokens.len() {
                        last_scores.extend(scores);
                    }
                }
                let o = layer.o.matvec(&attn);
                for (hv, ov) in h.iter_mut().zip(&o) {
                    *hv += ov;
                }

                let x = rms_norm(h, &layer.post_norm, cfg.rms_norm_eps);
                let g = layer.gate.matvec(&x);
                let u = layer.up.matvec(&x);
                let act: Vec<f64> = g.iter().zip(&u).map(|(&g, &u)| silu(g) * u).collect();
                let m = layer.down.matvec(&act);
                for (hv, mv) in h.iter_mut().zip(&m) {
                    *hv += mv;
                }
            }
            trace.hidden_rms.push(rms(hs.last().expect("non-empty")));
            let n = last_scores.len() as f64;
            let mean = last_scores.iter().sum::<f64>() / n;
            let var = last_scores
                .iter()
                .map(|s| (s - mean) * (s - mean))
                .sum::<f64>()
                / n;
            trace.attn_score_std.push(var.sqrt());
        }

        self.tokens.extend_from_slice(tokens);
        let logits = r.logits_of(hs.last().expect("non-empty"));
        Ok((logits, trace))
    }
}
