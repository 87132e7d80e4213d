//! Text <-> token ids: a thin wrapper over the `tokenizers` crate loading a
//! model directory's `tokenizer.json`, the raw `tokenizer_config.json`
//! settings (chat template, BOS/EOS token strings) for the server to render,
//! and [`StreamDecoder`], which turns generated ids into text incrementally
//! without ever emitting half a UTF-8 character.
//!
//! A tokenizer is optional for a model (token ids in, token ids out work
//! without one); [`Tokenizer::from_dir`] fails with a clear error only when a
//! caller actually needs text. A GGUF checkpoint carries its tokenizer and
//! chat template in its metadata; [`Tokenizer::from_dir`] given a `.gguf`
//! file builds them from there (see the `gguf` submodule).

mod gguf;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::types::TokenId;

/// Why text could not be tokenized or detokenized.
#[derive(Debug, thiserror::Error)]
pub enum TokenizerError {
    #[error(
        "{path} not found: this model has no tokenizer, so it can only take and return token \
         ids; add a Hugging Face tokenizer.json to the model directory to use text"
    )]
    Missing { path: PathBuf },
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot load {path}: {reason}")]
    Load { path: PathBuf, reason: String },
    #[error("{path} is not valid JSON: {source}")]
    Json {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("tokenizer failed to {op}: {reason}")]
    Codec { op: &'static str, reason: String },
    #[error(
        "{path}: {what} is not supported (supported: {supported}); use a Hugging Face model \
         directory with a tokenizer.json instead"
    )]
    Unsupported {
        path: PathBuf,
        what: String,
        supported: String,
    },
}

/// The raw settings of `tokenizer_config.json` (and `chat_template.jinja`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TokenizerConfig {
    /// The default chat template (Jinja source), if any.
    pub chat_template: Option<String>,
    /// Named alternative templates (`chat_template` given as a list), if any.
    pub named_chat_templates: Vec<(String, String)>,
    pub bos_token: Option<String>,
    pub eos_token: Option<String>,
    pub pad_token: Option<String>,
    pub unk_token: Option<String>,
    /// Whether the tokenizer itself prepends BOS (`add_bos_token`), if stated.
    pub add_bos_token: Option<bool>,
    /// The whole file, for anything else the caller wants.
    pub raw: Value,
}

impl TokenizerConfig {
    /// Reads `dir/tokenizer_config.json`, and `dir/chat_template.jinja` when
    /// the config has no template (newer transformers save it separately).
    /// Returns `Ok(None)` when neither file exists.
    pub fn from_dir(dir: &Path) -> Result<Option<Self>, TokenizerError> {
        let path = dir.join("tokenizer_config.json");
        let jinja_path = dir.join("chat_template.jinja");
        let mut cfg = if path.exists() {
            let text = read(&path)?;
            let raw: Value =
                serde_json::from_str(&text).map_err(|source| TokenizerError::Json {
                    path: path.clone(),
                    source,
                })?;
            Self::from_value(raw)
        } else if jinja_path.exists() {
            TokenizerConfig::default()
        } else {
            return Ok(None);
        };
        if cfg.chat_template.is_none() && jinja_path.exists() {
            cfg.chat_template = Some(read(&jinja_path)?);
        }
        Ok(Some(cfg))
    }

    /// Interprets an already-decoded `tokenizer_config.json`.
    pub fn from_value(raw: Value) -> Self {
        // Special tokens are either strings or AddedToken objects {"content": ...}.
        let token = |key: &str| -> Option<String> {
            match raw.get(key)? {
                Value::String(s) => Some(s.clone()),
                Value::Object(o) => o.get("content")?.as_str().map(str::to_string),
                _ => None,
            }
        };
        let mut chat_template = None;
        let mut named = Vec::new();
        match raw.get("chat_template") {
            Some(Value::String(s)) => chat_template = Some(s.clone()),
            Some(Value::Array(items)) => {
                for item in items {
                    if let (Some(name), Some(t)) = (
                        item.get("name").and_then(Value::as_str),
                        item.get("template").and_then(Value::as_str),
                    ) {
                        if name == "default" {
                            chat_template = Some(t.to_string());
                        }
                        named.push((name.to_string(), t.to_string()));
                    }
                }
            }
            _ => {}
        }
        TokenizerConfig {
            chat_template,
            named_chat_templates: named,
            bos_token: token("bos_token"),
            eos_token: token("eos_token"),
            pad_token: token("pad_token"),
            unk_token: token("unk_token"),
            add_bos_token: raw.get("add_bos_token").and_then(Value::as_bool),
            raw,
        }
    }
}

fn read(path: &Path) -> Result<String, TokenizerError> {
    std::fs::read_to_string(path).map_err(|source| TokenizerError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// A loaded `tokenizer.json`, plus `tokenizer_config.json` when present.
pub struct Tokenizer {
    inner: tokenizers::Tokenizer,
    config: Option<TokenizerConfig>,
}

impl std::fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("vocab_size", &self.vocab_size())
            .field("config", &self.config.is_some())
            .finish()
    }
}

/// Whether `path` names a GGUF checkpoint rather than a model directory.
fn is_gguf(path: &Path) -> bool {
    path.is_file()
        && path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("gguf"))
}

impl Tokenizer {
    /// Loads `dir/tokenizer.json` (and `dir/tokenizer_config.json` if present),
    /// or, when `dir` is a `.gguf` file, the tokenizer in its metadata.
    pub fn from_dir(dir: &Path) -> Result<Self, TokenizerError> {
        if is_gguf(dir) {
            return Self::from_gguf(dir);
        }
        let path = dir.join("tokenizer.json");
        if !path.exists() {
            return Err(TokenizerError::Missing { path });
        }
        let mut tok = Self::from_file(&path)?;
        tok.config = TokenizerConfig::from_dir(dir)?;
        Ok(tok)
    }

    /// Whether `dir` has a tokenizer at all (a `.gguf` file: whether its
    /// metadata names a tokenizer model).
    pub fn exists_in(dir: &Path) -> bool {
        if is_gguf(dir) {
            return crate::gguf::GgufFile::open(dir)
                .is_ok_and(|f| f.get("tokenizer.ggml.model").is_some());
        }
        dir.join("tokenizer.json").exists()
    }

    /// Builds the tokenizer, its special tokens and chat template from a GGUF
    /// file's `tokenizer.*` metadata, as Hugging Face's tokenizer for the model
    /// would tokenize (`gpt2` byte-level BPE and `llama` SentencePiece models).
    pub fn from_gguf(path: &Path) -> Result<Self, TokenizerError> {
        let (inner, config) = gguf::load(path)?;
        Ok(Tokenizer {
            inner,
            config: Some(config),
        })
    }

    /// Loads one `tokenizer.json` file.
    pub fn from_file(path: &Path) -> Result<Self, TokenizerError> {
        let bytes = std::fs::read(path).map_err(|source| TokenizerError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let inner =
            tokenizers::Tokenizer::from_bytes(&bytes).map_err(|e| TokenizerError::Load {
                path: path.to_path_buf(),
                reason: e.to_string(),
            })?;
        Ok(Tokenizer {
            inner,
            config: None,
        })
    }

    /// The `tokenizer_config.json` settings, if the directory had them.
    pub fn config(&self) -> Option<&TokenizerConfig> {
        self.config.as_ref()
    }

    /// The chat template (Jinja source), if the model has one.
    pub fn chat_template(&self) -> Option<&str> {
        self.config.as_ref()?.chat_template.as_deref()
    }

    /// Vocabulary size including added (special) tokens.
    pub fn vocab_size(&self) -> usize {
        self.inner.get_vocab_size(true)
    }

    /// Token ids of `text`; `add_special_tokens` applies the tokenizer's
    /// post-processor (e.g. prepends BOS for Llama 3).
    pub fn encode(
        &self,
        text: &str,
        add_special_tokens: bool,
    ) -> Result<Vec<TokenId>, TokenizerError> {
        let enc =
            self.inner
                .encode(text, add_special_tokens)
                .map_err(|e| TokenizerError::Codec {
                    op: "encode",
                    reason: e.to_string(),
                })?;
        Ok(enc.get_ids().iter().map(|&i| TokenId(i)).collect())
    }

    /// The text of `ids`, leaving out special tokens (what a user sees).
    /// Ids the tokenizer does not know are skipped, as transformers does.
    pub fn decode(&self, ids: &[TokenId]) -> Result<String, TokenizerError> {
        self.decode_with(ids, true)
    }

    /// The text of `ids`, optionally including special tokens.
    pub fn decode_with(
        &self,
        ids: &[TokenId],
        skip_special_tokens: bool,
    ) -> Result<String, TokenizerError> {
        let raw: Vec<u32> = ids.iter().map(|t| t.0).collect();
        self.inner
            .decode(&raw, skip_special_tokens)
            .map_err(|e| TokenizerError::Codec {
                op: "decode",
                reason: e.to_string(),
            })
    }

    /// The id of a token string (special or regular), e.g. `<|eot_id|>`.
    pub fn token_to_id(&self, token: &str) -> Option<TokenId> {
        self.inner.token_to_id(token).map(TokenId)
    }

    /// The string of a token id, as stored in the vocabulary.
    pub fn id_to_token(&self, id: TokenId) -> Option<String> {
        self.inner.id_to_token(id.0)
    }

    /// Whether `id` is a special (added, special) token.
    pub fn is_special(&self, id: TokenId) -> bool {
        self.inner
            .get_added_tokens_decoder()
            .get(&id.0)
            .is_some_and(|t| t.special)
    }

    /// All special tokens, sorted by id.
    pub fn special_tokens(&self) -> Vec<(TokenId, String)> {
        let mut out: Vec<(TokenId, String)> = self
            .inner
            .get_added_tokens_decoder()
            .into_iter()
            .filter(|(_, t)| t.special)
            .map(|(id, t)| (TokenId(id), t.content))
            .collect();
        out.sort();
        out
    }

    /// The id of `tokenizer_config.json`'s `bos_token`, if both are known.
    pub fn bos_id(&self) -> Option<TokenId> {
        self.token_to_id(self.config.as_ref()?.bos_token.as_deref()?)
    }

    /// The id of `tokenizer_config.json`'s `eos_token`, if both are known.
    pub fn eos_id(&self) -> Option<TokenId> {
        self.token_to_id(self.config.as_ref()?.eos_token.as_deref()?)
    }

    /// An incremental decoder for one generated sequence (special tokens skipped).
    pub fn stream_decoder(&self) -> StreamDecoder<'_> {
        StreamDecoder::new(self, true)
    }

    /// The underlying `tokenizers` tokenizer.
    pub fn inner(&self) -> &tokenizers::Tokenizer {
        &self.inner
    }
}

/// Decodes a growing sequence of ids into text pieces. Each [`step`] returns
/// only newly completed text; text is held back while it ends in an
/// incomplete UTF-8 character (decoded as U+FFFD), and [`finish`] flushes
/// whatever is left. The concatenation of all pieces equals
/// `decode(all ids)` for byte-level BPE tokenizers (Llama 3, SmolLM), and for
/// SentencePiece-style ones (Llama 2, TinyLlama: the previous piece is
/// re-decoded with each new id, so the stripped leading space and word
/// boundaries come out right) as long as their byte-fallback runs are valid
/// UTF-8; transformers renders an invalid run as one U+FFFD per byte, valid
/// bytes included, which no incremental decoder can reproduce exactly.
///
/// [`step`]: StreamDecoder::step
/// [`finish`]: StreamDecoder::finish
pub struct StreamDecoder<'t> {
    tok: &'t Tokenizer,
    skip_special_tokens: bool,
    ids: Vec<TokenId>,
    /// Start of the context window that is re-decoded each step.
    prefix_offset: usize,
    /// End of the ids whose text has been emitted.
    read_offset: usize,
}

impl<'t> StreamDecoder<'t> {
    pub fn new(tok: &'t Tokenizer, skip_special_tokens: bool) -> Self {
        StreamDecoder {
            tok,
            skip_special_tokens,
            ids: Vec::new(),
            prefix_offset: 0,
            read_offset: 0,
        }
    }

    /// Adds one id; returns the text it completes, if any.
    pub fn step(&mut self, id: TokenId) -> Result<Option<String>, TokenizerError> {
        self.ids.push(id);
        let prefix = self.tok.decode_with(
            &self.ids[self.prefix_offset..self.read_offset],
            self.skip_special_tokens,
        )?;
        let full = self
            .tok
            .decode_with(&self.ids[self.prefix_offset..], self.skip_special_tokens)?;
        if full.len() > prefix.len() && !full.ends_with('\u{FFFD}') && full.starts_with(&prefix) {
            let piece = full[prefix.len()..].to_string();
            self.prefix_offset = self.read_offset;
            self.read_offset = self.ids.len();
            Ok(Some(piece))
        } else {
            Ok(None)
        }
    }

    /// Adds several ids; returns the text they complete (possibly empty).
    pub fn push(&mut self, ids: &[TokenId]) -> Result<String, TokenizerError> {
        let mut out = String::new();
        for &id in ids {
            if let Some(s) = self.step(id)? {
                out.push_str(&s);
            }
        }
        Ok(out)
    }

    /// Text still held back (e.g. an incomplete character at the end of
    /// generation); resets the hold-back so it is returned only once.
    pub fn finish(&mut self) -> Result<String, TokenizerError> {
        let prefix = self.tok.decode_with(
            &self.ids[self.prefix_offset..self.read_offset],
            self.skip_special_tokens,
        )?;
        let full = self
            .tok
            .decode_with(&self.ids[self.prefix_offset..], self.skip_special_tokens)?;
        self.prefix_offset = self.read_offset;
        self.read_offset = self.ids.len();
        Ok(match full.strip_prefix(&prefix) {
            Some(rest) => rest.to_string(),
            // Context changed the earlier text (not seen with byte-level or
            // SentencePiece decoders): return what follows the common part.
            None => {
                let common: usize = full
                    .chars()
                    .zip(prefix.chars())
                    .take_while(|(a, b)| a == b)
                    .map(|(a, _)| a.len_utf8())
                    .sum();
                full[common..].to_string()
            }
        })
    }

    /// All ids given so far.
    pub fn ids(&self) -> &[TokenId] {
        &self.ids
    }
}
