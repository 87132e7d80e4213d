//! A tokenizer described by a GGUF file's `tokenizer.*` metadata, rebuilt as
//! a `tokenizers` tokenizer the way Hugging Face's own one for the model works:
//! `gpt2` (byte-level BPE from the vocabulary and merges, split as
//! `tokenizer.ggml.pre` names) and `llama` (SentencePiece-style BPE whose
//! merges follow the token scores, with byte fallback). Special tokens,
//! BOS/EOS, `add_bos_token` and the chat template come from the same file.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Value, json};
use tokenizers::decoders::byte_fallback::ByteFallback;
use tokenizers::decoders::fuse::Fuse;
use tokenizers::decoders::sequence::Sequence as DecoderSequence;
use tokenizers::decoders::strip::Strip;
use tokenizers::models::bpe::{BPE, Vocab};
use tokenizers::normalizers::replace::Replace;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::metaspace::{Metaspace, PrependScheme};
use tokenizers::pre_tokenizers::sequence::Sequence as PreSequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::processors::template::TemplateProcessing;
use tokenizers::{
    AddedToken, DecoderWrapper, PostProcessorWrapper, PreTokenizerWrapper, SplitDelimiterBehavior,
};

use super::{TokenizerConfig, TokenizerError};
use crate::gguf::{GgufFile, MetaValue};

/// llama.cpp's token types (`tokenizer.ggml.token_type`).
const TOKEN_CONTROL: i64 = 3;
const TOKEN_USER_DEFINED: i64 = 4;

/// The split of Llama 3 (`llama-bpe`) and the vocabularies converted like it.
const LLAMA3_SPLIT: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
/// The split of Qwen 2 (`qwen2`): digits one by one.
const QWEN2_SPLIT: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The `tokenizer.ggml.pre` values understood, for error messages.
const KNOWN_PRE: &str = "default, gpt2, gpt-2, smollm, starcoder, refact, llama-bpe, llama3, llama-v3, \
                         smaug-bpe, dbrx, falcon3, qwen2, deepseek-r1-qwen";

/// Reads the tokenizer and its settings out of a GGUF file.
pub(super) fn load(
    path: &Path,
) -> Result<(tokenizers::Tokenizer, TokenizerConfig), TokenizerError> {
    let file = GgufFile::open(path).map_err(|e| TokenizerError::Load {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    Meta { path, file: &file }.build()
}

struct Meta<'a> {
    path: &'a Path,
    file: &'a GgufFile,
}

impl Meta<'_> {
    fn load_err(&self, reason: String) -> TokenizerError {
        TokenizerError::Load {
            path: self.path.to_path_buf(),
            reason,
        }
    }

    fn get(&self, key: &str) -> Option<&MetaValue> {
        self.file.get(key)
    }

    fn string(&self, key: &str) -> Result<Option<&str>, TokenizerError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_str()
                .map(Some)
                .ok_or_else(|| self.load_err(format!("metadata `{key}` is not a string"))),
        }
    }

    fn array(&self, key: &str) -> Result<Option<&[MetaValue]>, TokenizerError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_array()
                .map(Some)
                .ok_or_else(|| self.load_err(format!("metadata `{key}` is not an array"))),
        }
    }

    fn strings(&self, key: &str) -> Result<Option<Vec<String>>, TokenizerError> {
        let Some(items) = self.array(key)? else {
            return Ok(None);
        };
        items
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .map(Some)
            .ok_or_else(|| self.load_err(format!("metadata `{key}` is not an array of strings")))
    }

    fn id(&self, key: &str, vocab_len: usize) -> Result<Option<u32>, TokenizerError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        match v.as_u64() {
            Some(id) if (id as usize) < vocab_len => Ok(Some(id as u32)),
            _ => Err(self.load_err(format!(
                "metadata `{key}` = {v:?} is not a token id of the {vocab_len}-token vocabulary"
            ))),
        }
    }

    fn flag(&self, key: &str) -> Option<bool> {
        self.get(key).and_then(MetaValue::as_bool)
    }

    fn build(&self) -> Result<(tokenizers::Tokenizer, TokenizerConfig), TokenizerError> {
        let model = self
            .string("tokenizer.ggml.model")?
            .ok_or_else(|| {
                self.load_err(
                    "it has no `tokenizer.ggml.model`: this GGUF carries no tokenizer, so it can \
                     only take and return token ids"
                        .into(),
                )
            })?
            .to_string();
        let tokens = self
            .strings("tokenizer.ggml.tokens")?
            .ok_or_else(|| self.load_err("it lacks `tokenizer.ggml.tokens`".into()))?;
        let types: Vec<i64> = match self.array("tokenizer.ggml.token_type")? {
            None => Vec::new(),
            Some(items) => items
                .iter()
                .map(|v| v.as_f64().map(|f| f as i64))
                .collect::<Option<_>>()
                .ok_or_else(|| {
                    self.load_err("`tokenizer.ggml.token_type` is not numeric".into())
                })?,
        };
        let n = tokens.len();
        let bos = self.id("tokenizer.ggml.bos_token_id", n)?;
        let eos = self.id("tokenizer.ggml.eos_token_id", n)?;
        let unk = self.id("tokenizer.ggml.unknown_token_id", n)?;
        let pad = self.id("tokenizer.ggml.padding_token_id", n)?;

        let (mut tok, vocab, default_add_bos) = match model.as_str() {
            "gpt2" => (
                self.byte_level(&tokens)?,
                self.byte_level_vocab(&tokens),
                false,
            ),
            "llama" => {
                let t = self.sentencepiece(&tokens, unk.map(|i| tokens[i as usize].clone()))?;
                (t, tokens.clone(), true)
            }
            other => {
                return Err(TokenizerError::Unsupported {
                    path: self.path.to_path_buf(),
                    what: format!("tokenizer.ggml.model `{other}`"),
                    supported: "gpt2 (byte-level BPE) and llama (SentencePiece)".into(),
                });
            }
        };

        // Control tokens (and the named BOS/EOS/UNK/PAD) are matched whole in
        // text and are special; user-defined ones are matched whole but are text.
        // A byte-level control token outside the byte alphabet is a converter
        // mislabel (transformers skips those too).
        let alphabet = (model == "gpt2").then(byte_alphabet);
        let spelled = |t: &str| {
            alphabet
                .as_ref()
                .is_none_or(|a| t.chars().all(|c| a.contains(&c)))
        };
        let named: Vec<u32> = [bos, eos, unk, pad].into_iter().flatten().collect();
        let special: Vec<AddedToken> = (0..n)
            .filter(|&i| {
                (types.get(i) == Some(&TOKEN_CONTROL) && spelled(&tokens[i]))
                    || named.contains(&(i as u32))
            })
            .map(|i| AddedToken::from(vocab[i].clone(), true).normalized(false))
            .collect();
        tok.add_special_tokens(special)
            .map_err(|e| self.load_err(format!("cannot add its special tokens: {e}")))?;
        let user: Vec<AddedToken> = (0..n)
            .filter(|&i| types.get(i) == Some(&TOKEN_USER_DEFINED))
            .map(|i| AddedToken::from(vocab[i].clone(), false).normalized(false))
            .collect();
        tok.add_tokens(user)
            .map_err(|e| self.load_err(format!("cannot add its user-defined tokens: {e}")))?;

        let add_bos = self
            .flag("tokenizer.ggml.add_bos_token")
            .unwrap_or(default_add_bos);
        let add_eos = self.flag("tokenizer.ggml.add_eos_token").unwrap_or(false);
        let name = |id: Option<u32>| id.map(|i| vocab[i as usize].clone());
        let template = self.post_processor(
            add_bos
                .then(|| bos.map(|i| (vocab[i as usize].clone(), i)))
                .flatten(),
            add_eos
                .then(|| eos.map(|i| (vocab[i as usize].clone(), i)))
                .flatten(),
        )?;
        if let Some(t) = template {
            tok.with_post_processor(Some(t));
        }

        let chat_template = self.string("tokenizer.chat_template")?.map(str::to_string);
        let named_chat_templates: Vec<(String, String)> = self
            .file
            .metadata()
            .iter()
            .filter_map(|(k, v)| {
                let name = k.strip_prefix("tokenizer.chat_template.")?;
                Some((name.to_string(), v.as_str()?.to_string()))
            })
            .collect();
        let config = TokenizerConfig {
            raw: json!({
                "source": "gguf",
                "tokenizer_model": model,
                "bos_token": name(bos),
                "eos_token": name(eos),
                "pad_token": name(pad),
                "unk_token": name(unk),
                "add_bos_token": add_bos,
                "add_eos_token": add_eos,
                "chat_template": chat_template.clone().map_or(Value::Null, Value::String),
            }),
            chat_template,
            named_chat_templates,
            bos_token: name(bos),
            eos_token: name(eos),
            pad_token: name(pad),
            unk_token: name(unk),
            add_bos_token: Some(add_bos),
        };
        Ok((tok, config))
    }

    /// The vocabulary in the byte alphabet: a token spelled otherwise (some
    /// converters store added tokens as raw text) is respelled byte by byte.
    fn byte_level_vocab(&self, tokens: &[String]) -> Vec<String> {
        let spelling = bytes_to_unicode();
        let alphabet = byte_alphabet();
        tokens
            .iter()
            .map(|t| {
                if t.chars().all(|c| alphabet.contains(&c)) {
                    t.clone()
                } else {
                    t.bytes().map(|b| spelling[b as usize]).collect()
                }
            })
            .collect()
    }

    fn byte_level(&self, tokens: &[String]) -> Result<tokenizers::Tokenizer, TokenizerError> {
        let vocab = self.byte_level_vocab(tokens);
        let merges = self.strings("tokenizer.ggml.merges")?.ok_or_else(|| {
            self.load_err("a gpt2 tokenizer needs `tokenizer.ggml.merges`".into())
        })?;
        let merges = merges
            .iter()
            .map(|m| {
                m.split_once(' ')
                    .map(|(a, b)| (a.to_string(), b.to_string()))
                    .ok_or_else(|| self.load_err(format!("merge `{m}` is not two tokens")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let map: Vocab = vocab
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        let bpe = BPE::builder()
            .vocab_and_merges(map, merges)
            .build()
            .map_err(|e| self.load_err(format!("cannot build its BPE model: {e}")))?;
        let mut tok = tokenizers::Tokenizer::new(bpe);
        tok.with_pre_tokenizer(Some(self.byte_level_split()?));
        tok.with_decoder(Some(DecoderWrapper::ByteLevel(ByteLevel::default())));
        Ok(tok)
    }

    /// The pre-tokenizer `tokenizer.ggml.pre` names, as the model's own
    /// tokenizer.json spells it.
    fn byte_level_split(&self) -> Result<PreTokenizerWrapper, TokenizerError> {
        let pre = self.string("tokenizer.ggml.pre")?.unwrap_or("default");
        let gpt2 = || ByteLevel::new(false, true, true);
        let regex_then_bytes = |regex: &str| -> Result<PreTokenizerWrapper, TokenizerError> {
            let split = Split::new(
                SplitPattern::Regex(regex.to_string()),
                SplitDelimiterBehavior::Isolated,
                false,
            )
            .map_err(|e| self.load_err(format!("pre-tokenizer `{pre}`: {e}")))?;
            Ok(PreSequence::new(vec![
                split.into(),
                ByteLevel::new(false, true, false).into(),
            ])
            .into())
        };
        match pre {
            // GPT-2's own split; what transformers and llama.cpp's `gpt2` use
            // (llama.cpp's converter names it `gpt-2`, as `synth --format gguf` does).
            "default" | "gpt2" | "gpt-2" => Ok(gpt2().into()),
            // The BigCode family (SmolLM, StarCoder): every digit alone first.
            "smollm" | "starcoder" | "refact" => {
                Ok(PreSequence::new(vec![Digits::new(true).into(), gpt2().into()]).into())
            }
            "llama-bpe" | "llama3" | "llama-v3" | "smaug-bpe" | "dbrx" | "falcon3" => {
                regex_then_bytes(LLAMA3_SPLIT)
            }
            "qwen2" | "deepseek-r1-qwen" => regex_then_bytes(QWEN2_SPLIT),
            other => Err(TokenizerError::Unsupported {
                path: self.path.to_path_buf(),
                what: format!("tokenizer.ggml.pre `{other}`"),
                supported: KNOWN_PRE.into(),
            }),
        }
    }

    fn sentencepiece(
        &self,
        tokens: &[String],
        unk: Option<String>,
    ) -> Result<tokenizers::Tokenizer, TokenizerError> {
        let merges = match self.strings("tokenizer.ggml.merges")? {
            Some(m) => m
                .iter()
                .filter_map(|m| m.split_once(' '))
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            None => {
                let scores: Vec<f64> = self
                    .array("tokenizer.ggml.scores")?
                    .ok_or_else(|| {
                        self.load_err("a llama tokenizer without merges needs scores".into())
                    })?
                    .iter()
                    .map(MetaValue::as_f64)
                    .collect::<Option<_>>()
                    .ok_or_else(|| {
                        self.load_err("`tokenizer.ggml.scores` is not numeric".into())
                    })?;
                if scores.len() != tokens.len() {
                    return Err(self.load_err(format!(
                        "{} scores for {} tokens",
                        scores.len(),
                        tokens.len()
                    )));
                }
                merges_from_scores(tokens, &scores)
            }
        };
        let map: Vocab = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        let mut builder = BPE::builder()
            .vocab_and_merges(map, merges)
            .fuse_unk(true)
            .byte_fallback(true);
        if let Some(unk) = unk {
            builder = builder.unk_token(unk);
        }
        let bpe = builder
            .build()
            .map_err(|e| self.load_err(format!("cannot build its BPE model: {e}")))?;
        let prefix_space = self.flag("tokenizer.ggml.add_space_prefix").unwrap_or(true);
        let scheme = if prefix_space {
            PrependScheme::First
        } else {
            PrependScheme::Never
        };
        let mut decoders: Vec<DecoderWrapper> = vec![
            Replace::new("\u{2581}", " ")
                .map_err(|e| self.load_err(e.to_string()))?
                .into(),
            ByteFallback::new().into(),
            Fuse::new().into(),
        ];
        if prefix_space {
            decoders.push(Strip::new(' ', 1, 0).into());
        }
        let mut tok = tokenizers::Tokenizer::new(bpe);
        tok.with_pre_tokenizer(Some(Metaspace::new('\u{2581}', scheme, false)));
        tok.with_decoder(Some(DecoderSequence::new(decoders)));
        Ok(tok)
    }

    /// BOS/EOS added around each sequence, when the file asks for them.
    fn post_processor(
        &self,
        bos: Option<(String, u32)>,
        eos: Option<(String, u32)>,
    ) -> Result<Option<PostProcessorWrapper>, TokenizerError> {
        if bos.is_none() && eos.is_none() {
            return Ok(None);
        }
        let piece = |t: &str| -> Result<String, TokenizerError> {
            if t.contains(':') || t.contains(char::is_whitespace) {
                return Err(self.load_err(format!(
                    "special token `{t}` cannot be placed by a template (it holds `:` or a space)"
                )));
            }
            Ok(format!("{t}:0"))
        };
        let mut single = Vec::new();
        let mut pair = Vec::new();
        let mut specials = Vec::new();
        if let Some((t, id)) = &bos {
            single.push(piece(t)?);
            pair.push(piece(t)?);
            specials.push((t.clone(), *id));
        }
        single.push("$A:0".to_string());
        pair.push("$A:0".to_string());
        if let Some((t, id)) = &eos {
            single.push(piece(t)?);
            pair.push(piece(t)?);
            if specials.iter().all(|(s, _)| s != t) {
                specials.push((t.clone(), *id));
            }
        }
        if let Some((t, _)) = &bos {
            pair.push(format!("{t}:1"));
        }
        pair.push("$B:1".to_string());
        if let Some((t, _)) = &eos {
            pair.push(format!("{t}:1"));
        }
        let template = TemplateProcessing::builder()
            .try_single(single)
            .and_then(|b| b.try_pair(pair))
            .map_err(|e| self.load_err(format!("BOS/EOS template: {e}")))?
            .special_tokens(specials)
            .build()
            .map_err(|e| self.load_err(format!("BOS/EOS template: {e}")))?;
        Ok(Some(template.into()))
    }
}

/// SentencePiece merges recovered from a vocabulary and its scores, ordered
/// as Hugging Face does it (`generate_merges`): every way to cut a token into
/// two tokens of the vocabulary, the best-scored result first, then shorter
/// left and right halves, ties kept in vocabulary order.
fn merges_from_scores(tokens: &[String], scores: &[f64]) -> Vec<(String, String)> {
    let index: HashMap<&str, usize> = tokens
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i))
        .collect();
    let mut merges: Vec<(usize, usize, f64, usize, usize)> = Vec::new();
    for (merged, &score) in tokens.iter().zip(scores) {
        let mut local: Vec<(usize, usize, f64, usize, usize)> = merged
            .char_indices()
            .skip(1)
            .filter_map(|(at, _)| {
                let (l, r) = merged.split_at(at);
                Some((
                    *index.get(l)?,
                    *index.get(r)?,
                    score,
                    l.chars().count(),
                    r.chars().count(),
                ))
            })
            .collect();
        local.sort_by_key(|&(l, r, ..)| (l, r));
        merges.extend(local);
    }
    // Python's sorted(reverse=True) is stable: equal keys keep their order.
    merges.sort_by(|a, b| b.2.total_cmp(&a.2).then(b.3.cmp(&a.3)).then(b.4.cmp(&a.4)));
    merges
        .into_iter()
        .map(|(l, r, ..)| (tokens[l].clone(), tokens[r].clone()))
        .collect()
}

/// GPT-2's printable spelling of each byte.
fn bytes_to_unicode() -> [char; 256] {
    let mut out = ['\0'; 256];
    let mut extra = 0u32;
    for b in 0..=255u32 {
        let printable = (0x21..=0x7e).contains(&b) || (0xa1..=0xac).contains(&b) || b >= 0xae;
        out[b as usize] = if printable {
            char::from_u32(b).expect("a byte is a char")
        } else {
            extra += 1;
            char::from_u32(255 + extra).expect("below U+0200")
        };
    }
    out
}

fn byte_alphabet() -> std::collections::HashSet<char> {
    bytes_to_unicode().into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_alphabet_spells_space_and_newline_as_gpt2_does() {
        let s = bytes_to_unicode();
        assert_eq!(s[b' ' as usize], 'Ġ');
        assert_eq!(s[b'\n' as usize], 'Ċ');
        assert_eq!(s[b'a' as usize], 'a');
        assert_eq!(byte_alphabet().len(), 256);
    }

    #[test]
    fn merges_from_scores_put_the_best_scored_token_first() {
        let tokens: Vec<String> = ["a", "b", "c", "ab", "bc", "abc"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let scores = [0.0, 0.0, 0.0, -1.0, -0.5, -2.0];
        let merges = merges_from_scores(&tokens, &scores);
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        // "abc" splits as a+bc and ab+c: the longer left half sorts first.
        assert_eq!(
            merges,
            vec![
                pair("b", "c"),
                pair("a", "b"),
                pair("ab", "c"),
                pair("a", "bc")
            ]
        );
    }
}
