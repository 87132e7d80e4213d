//! A preset's synthesized byte-level BPE tokenizer (the layout is in the
//! parent module's docs): its vocabulary, merges and special tokens, written
//! as `tokenizer.json` and `tokenizer_config.json`.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashSet};
use std::path::Path;

use serde_json::{Value, json};

use super::{SynthError, write_json};
use crate::config::ModelConfig;
use crate::types::TokenId;

/// Names of the special tokens from the BOS id upwards (Llama 3.1 layout).
const NAMED_SPECIALS: [&str; 11] = [
    "<|begin_of_text|>",
    "<|end_of_text|>",
    "<|reserved_special_token_0|>",
    "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>",
    "<|reserved_special_token_2|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eom_id|>",
    "<|eot_id|>",
    "<|python_tag|>",
];

/// The chat template of Meta-Llama-3-8B-Instruct.
pub const LLAMA3_CHAT_TEMPLATE: &str = "{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}";

/// Common English words: each gets a token with and without a leading space.
const COMMON_WORDS: &[&str] = &[
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by",
    "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an",
    "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there",
    "been", "if", "more", "when", "will", "would", "who", "so", "no", "out", "up", "into", "do",
    "time", "only", "new", "some", "could", "these", "two", "may", "first", "then", "any", "like",
    "other", "than", "about", "what", "over", "also", "after", "its", "our", "just", "how", "my",
    "me", "she", "him", "said", "them", "each", "make", "way", "well", "very", "through", "where",
    "much", "before", "because", "good", "most", "world", "people", "year", "work", "day", "here",
    "know", "think", "see", "come", "water", "light", "story", "hello", "model", "token", "text",
];

/// Lower-case letters by English frequency.
const LETTERS_BY_FREQUENCY: &str = "etaoinshrdlcumwfgypbvkjxqz";

/// GPT-2's reversible byte -> printable character map used by byte-level BPE.
pub fn byte_to_char_table() -> [char; 256] {
    let mut printable: Vec<u32> = (b'!' as u32..=b'~' as u32).collect();
    printable.extend(0xA1..=0xAC);
    printable.extend(0xAE..=0xFF);
    let mut table = ['\0'; 256];
    let mut extra = 0u32;
    for b in 0..256u32 {
        table[b as usize] = if printable.contains(&b) {
            char::from_u32(b).expect("latin-1")
        } else {
            extra += 1;
            char::from_u32(255 + extra).expect("valid char")
        };
    }
    table
}

/// The layout of a synthesized tokenizer for one config.
pub(super) struct TokenizerSpec {
    /// Regular (BPE) tokens, id = index, in byte-level character space.
    vocab: Vec<String>,
    merges: Vec<(String, String)>,
    /// Special tokens, id = bos + index.
    specials: Vec<String>,
    bos: u32,
    eos_token: String,
}

impl TokenizerSpec {
    pub(super) fn for_config(config: &ModelConfig) -> Result<Self, SynthError> {
        let layout = |field: &str, reason: String| SynthError::TokenizerLayout {
            field: field.to_string(),
            reason,
        };
        let vocab_size = config.vocab_size;
        let bos = config
            .bos_token_id
            .ok_or_else(|| {
                layout(
                    "bos_token_id",
                    "is required (the special tokens start there)".into(),
                )
            })?
            .index();
        if bos < 256 || bos + NAMED_SPECIALS.len() > vocab_size {
            return Err(layout(
                "bos_token_id",
                format!(
                    "= {bos} must leave room for the 256 byte tokens below it and {} special \
                     tokens from it (vocab_size {vocab_size})",
                    NAMED_SPECIALS.len()
                ),
            ));
        }
        if let Some(e) = config.eos_token_ids.iter().find(|e| e.index() <= bos) {
            return Err(layout(
                "eos_token_id",
                format!(
                    "contains {e}, which is not one of the special ids {}..{vocab_size}",
                    bos + 1
                ),
            ));
        }
        let specials: Vec<String> = (0..vocab_size - bos)
            .map(|i| match NAMED_SPECIALS.get(i) {
                Some(s) => s.to_string(),
                None => format!("<|reserved_special_token_{}|>", i - 8),
            })
            .collect();
        let (vocab, merges) = build_bpe(bos);
        let eot = bos as u32 + 9;
        let eos_token = if config.eos_token_ids.contains(&TokenId(eot)) {
            specials[9].clone()
        } else {
            match config.eos_token_ids.first() {
                Some(e) => specials[e.index() - bos].clone(),
                None => specials[1].clone(),
            }
        };
        Ok(TokenizerSpec {
            vocab,
            merges,
            specials,
            bos: bos as u32,
            eos_token,
        })
    }

    pub(super) fn write(&self, config: &ModelConfig, out_dir: &Path) -> Result<(), SynthError> {
        write_json(&out_dir.join("tokenizer.json"), &self.tokenizer_json())?;
        write_json(
            &out_dir.join("tokenizer_config.json"),
            &self.tokenizer_config_json(config),
        )
    }

    fn tokenizer_json(&self) -> Value {
        let added: Vec<Value> = self
            .specials
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({
                    "id": self.bos as usize + i,
                    "content": s,
                    "single_word": false,
                    "lstrip": false,
                    "rstrip": false,
                    "normalized": false,
                    "special": true,
                })
            })
            .collect();
        let vocab: serde_json::Map<String, Value> = self
            .vocab
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), json!(i)))
            .collect();
        let merges: Vec<String> = self
            .merges
            .iter()
            .map(|(a, b)| format!("{a} {b}"))
            .collect();
        let bos = &self.specials[0];
        json!({
            "version": "1.0",
            "truncation": null,
            "padding": null,
            "added_tokens": added,
            "normalizer": null,
            "pre_tokenizer": {
                "type": "ByteLevel",
                "add_prefix_space": false,
                "trim_offsets": true,
                "use_regex": true,
            },
            "post_processor": {
                "type": "TemplateProcessing",
                "single": [
                    {"SpecialToken": {"id": bos, "type_id": 0}},
                    {"Sequence": {"id": "A", "type_id": 0}},
                ],
                "pair": [
                    {"SpecialToken": {"id": bos, "type_id": 0}},
                    {"Sequence": {"id": "A", "type_id": 0}},
                    {"SpecialToken": {"id": bos, "type_id": 1}},
                    {"Sequence": {"id": "B", "type_id": 1}},
                ],
                "special_tokens": {
                    bos.clone(): {"id": bos, "ids": [self.bos], "tokens": [bos]},
                },
            },
            "decoder": {
                "type": "ByteLevel",
                "add_prefix_space": true,
                "trim_offsets": true,
                "use_regex": true,
            },
            "model": {
                "type": "BPE",
                "dropout": null,
                "unk_token": null,
                "continuing_subword_prefix": null,
                "end_of_word_suffix": null,
                "fuse_unk": false,
                "byte_fallback": false,
                "vocab": vocab,
                "merges": merges,
            },
        })
    }

    fn tokenizer_config_json(&self, config: &ModelConfig) -> Value {
        let decoder: serde_json::Map<String, Value> = self
            .specials
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    (self.bos as usize + i).to_string(),
                    json!({
                        "content": s,
                        "lstrip": false,
                        "normalized": false,
                        "rstrip": false,
                        "single_word": false,
                        "special": true,
                    }),
                )
            })
            .collect();
        json!({
            "added_tokens_decoder": decoder,
            "bos_token": self.specials[0],
            "eos_token": self.eos_token,
            "chat_template": LLAMA3_CHAT_TEMPLATE,
            "clean_up_tokenization_spaces": false,
            "model_input_names": ["input_ids", "attention_mask"],
            "model_max_length": config.max_position_embeddings,
            "tokenizer_class": "PreTrainedTokenizerFast",
        })
    }
}

/// Accumulates regular tokens and the merges that make them.
struct BpeBuilder {
    n: usize,
    vocab: Vec<String>,
    merges: Vec<(String, String)>,
    known: HashSet<String>,
}

impl BpeBuilder {
    fn full(&self) -> bool {
        self.vocab.len() >= self.n
    }

    /// Adds `word` (byte-level chars) and every prefix of it, each made by
    /// merging the previous prefix with one more character.
    fn add(&mut self, word: &[char]) {
        for k in 2..=word.len() {
            if self.full() {
                return;
            }
            let s: String = word[..k].iter().collect();
            if self.known.contains(&s) {
                continue;
            }
            let left: String = word[..k - 1].iter().collect();
            self.merges.push((left, word[k - 1].to_string()));
            self.known.insert(s.clone());
            self.vocab.push(s);
        }
    }
}

/// Builds `n` regular tokens: the 256 bytes, then merges. Returns the vocab
/// (index = id) and the merges in priority order.
fn build_bpe(n: usize) -> (Vec<String>, Vec<(String, String)>) {
    let table = byte_to_char_table();
    // Byte tokens ordered as GPT-2 / Llama 3 order them: printable first.
    let mut byte_order: Vec<u8> = (0..=255u8)
        .filter(|&b| (table[b as usize] as u32) < 256)
        .collect();
    byte_order.extend((0..=255u8).filter(|&b| (table[b as usize] as u32) >= 256));
    let vocab: Vec<String> = byte_order
        .iter()
        .map(|&b| table[b as usize].to_string())
        .collect();
    let mut b = BpeBuilder {
        n,
        known: vocab.iter().cloned().collect(),
        vocab,
        merges: Vec::new(),
    };

    let space = table[b' ' as usize];
    for w in COMMON_WORDS {
        let spaced: Vec<char> = std::iter::once(space).chain(w.chars()).collect();
        b.add(&spaced);
        b.add(&w.chars().collect::<Vec<_>>());
    }

    // Then letter sequences in order of a frequency cost, cheapest first; a
    // prefix always costs less than its extensions, so it is added first.
    let lower: Vec<char> = LETTERS_BY_FREQUENCY.chars().collect();
    let rank = |c: char| -> u32 {
        lower
            .iter()
            .position(|&l| l == c.to_ascii_lowercase())
            .unwrap_or(lower.len()) as u32
    };
    let cost = |c: char| -> u32 {
        if c == space {
            50
        } else if c.is_ascii_uppercase() {
            250 + 15 * rank(c)
        } else {
            100 + 15 * rank(c)
        }
    };
    let mut heap: BinaryHeap<Reverse<(u32, String)>> = BinaryHeap::new();
    let push_children =
        |heap: &mut BinaryHeap<Reverse<(u32, String)>>, node: &str, node_cost: u32| {
            for &c in &lower {
                heap.push(Reverse((node_cost + cost(c), format!("{node}{c}"))));
            }
            // Capitalised words after a space.
            if node.chars().count() == 1 && node.starts_with(space) {
                for &c in &lower {
                    let u = c.to_ascii_uppercase();
                    heap.push(Reverse((node_cost + cost(u), format!("{node}{u}"))));
                }
            }
        };
    let mut roots: BTreeSet<char> = lower.iter().copied().collect();
    roots.extend(lower.iter().map(|c| c.to_ascii_uppercase()));
    roots.insert(space);
    for &r in &roots {
        push_children(&mut heap, &r.to_string(), cost(r));
    }
    while !b.full() {
        let Some(Reverse((c, node))) = heap.pop() else {
            break;
        };
        b.add(&node.chars().collect::<Vec<_>>());
        push_children(&mut heap, &node, c);
    }
    // Not reachable for realistic sizes, but keep the size exact regardless.
    let mut i = 0;
    while !b.full() {
        let filler = format!("<|filler_{i}|>");
        i += 1;
        if b.known.insert(filler.clone()) {
            b.vocab.push(filler);
        }
    }
    (b.vocab, b.merges)
}

/// The ids of the named special tokens for a synthesized tokenizer.
pub fn special_token_id(config: &ModelConfig, token: &str) -> Option<TokenId> {
    let bos = config.bos_token_id?.0;
    NAMED_SPECIALS
        .iter()
        .position(|&s| s == token)
        .map(|i| TokenId(bos + i as u32))
}
