//! The OpenAI request and response shapes.
//!
//! Requests are parsed field by field from a JSON object so that every
//! mistake names its field (`param` of the error). `null` counts as absent
//! for every field, and unknown fields are ignored, as OpenAI clients send
//! many. Fields that would change the result but are not implemented are
//! refused with a 400 naming them, unless they carry their neutral value
//! (see [`UNSUPPORTED`]).
//!
//! Sampling defaults are OpenAI's, not the model's `generation_config.json`:
//! temperature 1, top_p 1, no top_k, no min_p, no penalties, no logit bias,
//! no log-probabilities. Penalties are checked here (400 naming the field);
//! `logit_bias` ids are checked against the model's vocabulary when the
//! engine takes the request (also a 400 naming `logit_bias`).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::chat::Message;
use super::error::ApiError;
use super::logprobs::{ChatLogprobs, CompletionLogprobs};
use crate::sampler::{LogitBias, LogitParams, MAX_TOP_LOGPROBS, Penalties, SampleParams};
use crate::types::TokenId;

/// Most stop strings a request may give.
pub const MAX_STOP_STRINGS: usize = 16;
/// `max_tokens` of a completion request that gives none (OpenAI's legacy default).
pub const DEFAULT_COMPLETION_MAX_TOKENS: usize = 16;

/// Parses a request body: it must be a JSON object.
pub fn parse_object(body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(format!(
            "the request body is not valid JSON: {e}; send a JSON object"
        ))
        .with_code("invalid_json")
    })?;
    match value {
        Value::Object(map) => Ok(map),
        other => Err(ApiError::bad_request(format!(
            "the request body must be a JSON object, got {}",
            kind_of(&other)
        ))
        .with_code("invalid_json")),
    }
}

/// A request type read from a JSON object, every refusal naming its field.
pub trait FromObject: Sized {
    fn from_object(obj: &Map<String, Value>) -> Result<Self, ApiError>;
}

/// Extractor of a request body as `T`: the body is read, checked to be a
/// JSON object and parsed by [`FromObject`]; every refusal is an OpenAI
/// error (a handler takes `Result<OpenAi<T>, ApiError>` to count them).
pub struct OpenAi<T>(pub T);

impl<S: Send + Sync, T: FromObject> FromRequest<S> for OpenAi<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let body = Bytes::from_request(req, state).await.map_err(|e| {
            let mut err =
                ApiError::bad_request(format!("cannot read the request body: {}", e.body_text()));
            err.status = e.status();
            err
        })?;
        T::from_object(&parse_object(&body)?).map(OpenAi)
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Typed access to the fields of a request object.
struct Fields<'a>(&'a Map<String, Value>);

impl Fields<'_> {
    /// The field, or `None` when absent or `null`.
    fn raw(&self, name: &str) -> Option<&Value> {
        self.0.get(name).filter(|v| !v.is_null())
    }

    fn get<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, ApiError> {
        self.raw(name)
            .map(|v| {
                serde_json::from_value(v.clone())
                    .map_err(|e| ApiError::invalid(name, format!("invalid `{name}`: {e}")))
            })
            .transpose()
    }
}

/// A field that is not implemented, and the test for its neutral value
/// (which is accepted and ignored).
pub struct Unsupported {
    pub field: &'static str,
    pub neutral: fn(&Value) -> bool,
    /// Said in the error after "`field` is not supported by this server".
    pub detail: &'static str,
}

fn is_number(v: &Value, x: f64) -> bool {
    v.as_f64() == Some(x)
}

/// Fields refused with a 400 unless neutral (`null` is always neutral).
pub const UNSUPPORTED: &[Unsupported] = &[
    Unsupported {
        field: "best_of",
        neutral: |v| is_number(v, 1.0),
        detail: " with a value other than 1",
    },
    Unsupported {
        field: "echo",
        neutral: |v| v == &Value::Bool(false),
        detail: "; send `echo: false` or leave it out",
    },
    Unsupported {
        field: "suffix",
        neutral: |v| v.as_str() == Some(""),
        detail: " (insertion)",
    },
    Unsupported {
        field: "tools",
        neutral: |v| v.as_array().is_some_and(Vec::is_empty),
        detail: " (no tool calling yet)",
    },
    Unsupported {
        field: "tool_choice",
        neutral: |v| matches!(v.as_str(), Some("none" | "auto")),
        detail: " (no tool calling yet)",
    },
    Unsupported {
        field: "functions",
        neutral: |v| v.as_array().is_some_and(Vec::is_empty),
        detail: " (no function calling yet)",
    },
    Unsupported {
        field: "function_call",
        neutral: |v| matches!(v.as_str(), Some("none" | "auto")),
        detail: " (no function calling yet)",
    },
    Unsupported {
        field: "response_format",
        neutral: |v| v.get("type").and_then(Value::as_str) == Some("text"),
        detail: " except `{\"type\": \"text\"}` (no structured output yet)",
    },
    Unsupported {
        field: "modalities",
        neutral: |v| v.as_array().is_some_and(|a| a.iter().all(|m| m == "text")),
        detail: " except [\"text\"]",
    },
    Unsupported {
        field: "audio",
        neutral: |_| false,
        detail: " (text only)",
    },
];

fn check_unsupported(fields: &Fields) -> Result<(), ApiError> {
    for u in UNSUPPORTED {
        if let Some(v) = fields.raw(u.field)
            && !(u.neutral)(v)
        {
            return Err(ApiError::unsupported(u.field, u.detail));
        }
    }
    Ok(())
}

/// The fields both endpoints share.
#[derive(Clone, Debug, PartialEq)]
pub struct Common {
    pub model: Option<String>,
    /// `None`: the endpoint's default.
    pub max_tokens: Option<usize>,
    /// The field `max_tokens` came from (`max_tokens` or `max_completion_tokens`).
    pub max_tokens_field: &'static str,
    /// With OpenAI's defaults filled in; the seed is `None` when not given.
    pub params: SampleParams,
    /// Penalties and logit bias (from here), log-probabilities (set by the
    /// endpoint, whose fields for them differ).
    pub logit: LogitParams,
    pub stop: Vec<String>,
    pub stream: bool,
    pub include_usage: bool,
    /// Choices of the one prompt (OpenAI's `n`, default 1); at least 1 here,
    /// at most the engine's batch when it takes the request.
    pub n: usize,
}

impl Common {
    fn parse(f: &Fields, max_tokens_fields: &[&'static str]) -> Result<Self, ApiError> {
        check_unsupported(f)?;
        let model = f.get::<String>("model")?;
        let mut max_tokens = None;
        let mut max_tokens_field = "max_tokens";
        for &name in max_tokens_fields {
            if let Some(n) = f.get::<u64>(name)? {
                if n == 0 {
                    return Err(ApiError::invalid(
                        name,
                        format!("`{name}` must be at least 1"),
                    ));
                }
                max_tokens = Some(usize::try_from(n).unwrap_or(usize::MAX));
                max_tokens_field = name;
                break;
            }
        }
        let top_k = match f.get::<i64>("top_k")? {
            None | Some(-1) | Some(0) => 0,
            Some(k) if k < 0 => {
                return Err(ApiError::invalid(
                    "top_k",
                    format!(
                        "invalid sampling parameter `top_k`: must be >= 1, or 0 or -1 for off, got {k}"
                    ),
                ));
            }
            Some(k) => usize::try_from(k).unwrap_or(usize::MAX),
        };
        let params = SampleParams {
            temperature: f.get::<f32>("temperature")?.unwrap_or(1.0),
            top_k,
            top_p: f.get::<f32>("top_p")?.unwrap_or(1.0),
            min_p: f.get::<f32>("min_p")?.unwrap_or(0.0),
            seed: f.get::<u64>("seed")?,
        };
        params
            .validate()
            .map_err(|e| ApiError::invalid(e.field(), e.to_string()))?;
        let penalties = Penalties {
            repetition: f.get::<f32>("repetition_penalty")?.unwrap_or(1.0),
            frequency: f.get::<f32>("frequency_penalty")?.unwrap_or(0.0),
            presence: f.get::<f32>("presence_penalty")?.unwrap_or(0.0),
        };
        penalties
            .validate()
            .map_err(|e| ApiError::invalid(e.field(), e.to_string()))?;
        let logit = LogitParams {
            penalties,
            logit_bias: parse_logit_bias(f.raw("logit_bias"))?,
            logprobs: None,
        };
        let stop = match f.raw("stop") {
            None => Vec::new(),
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(items)) => items
                .iter()
                .map(|s| {
                    s.as_str().map(str::to_string).ok_or_else(|| {
                        ApiError::invalid("stop", "`stop` must be a string or a list of strings")
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(ApiError::invalid(
                    "stop",
                    "`stop` must be a string or a list of strings",
                ));
            }
        };
        if stop.len() > MAX_STOP_STRINGS {
            return Err(ApiError::invalid(
                "stop",
                format!(
                    "at most {MAX_STOP_STRINGS} stop strings, got {}",
                    stop.len()
                ),
            ));
        }
        let stream = f.get::<bool>("stream")?.unwrap_or(false);
        let include_usage = match f.raw("stream_options") {
            None => false,
            Some(Value::Object(o)) => Fields(o)
                .get::<bool>("include_usage")
                .map_err(|e| e.with_param("stream_options.include_usage"))?
                .unwrap_or(false),
            Some(_) => {
                return Err(ApiError::invalid(
                    "stream_options",
                    "`stream_options` must be an object",
                ));
            }
        };
        let n = match f.get::<i64>("n")? {
            None => 1,
            Some(n) if n >= 1 => usize::try_from(n).unwrap_or(usize::MAX),
            Some(n) => {
                return Err(ApiError::invalid(
                    "n",
                    format!("`n` (the number of choices) must be at least 1, got {n}"),
                ));
            }
        };
        // Accepted and unused.
        let _user = f.get::<String>("user")?;
        Ok(Common {
            model,
            max_tokens,
            max_tokens_field,
            params,
            logit,
            stop,
            stream,
            include_usage,
            n,
        })
    }
}

/// `logit_bias`: an object of token id (a string of digits) -> bias, a
/// number in [-100, 100]. Ids are checked against the vocabulary later.
fn parse_logit_bias(v: Option<&Value>) -> Result<LogitBias, ApiError> {
    let bad = |m: String| ApiError::invalid("logit_bias", m);
    let Some(v) = v else {
        return Ok(LogitBias::default());
    };
    let Value::Object(map) = v else {
        return Err(bad(
            "`logit_bias` must be an object of token id -> bias".into()
        ));
    };
    let mut entries = Vec::with_capacity(map.len());
    for (k, b) in map {
        let id = k.trim().parse::<u32>().map_err(|_| {
            bad(format!(
                "`logit_bias` key `{k}` is not a token id (a non-negative integer)"
            ))
        })?;
        let b = b
            .as_f64()
            .ok_or_else(|| bad(format!("the bias of token {id} must be a number")))?;
        entries.push((TokenId(id), b as f32));
    }
    let bias = LogitBias::new(entries);
    // Range and size now; the vocabulary when the engine takes the request.
    bias.validate(usize::MAX)
        .map_err(|e| ApiError::invalid("logit_bias", e.to_string()))?;
    Ok(bias)
}

/// A count of top log-probabilities in `[0, MAX_TOP_LOGPROBS]`, from `field`.
fn parse_top_n(f: &Fields, field: &'static str) -> Result<Option<usize>, ApiError> {
    match f.get::<i64>(field)? {
        None => Ok(None),
        Some(n) if (0..=MAX_TOP_LOGPROBS as i64).contains(&n) => Ok(Some(n as usize)),
        Some(n) => Err(ApiError::invalid(
            field,
            format!("`{field}` must be an integer in [0, {MAX_TOP_LOGPROBS}], got {n}"),
        )),
    }
}

/// A completion prompt: text, or token ids used as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prompt {
    Text(String),
    Tokens(Vec<TokenId>),
}

/// `POST /v1/completions`.
#[derive(Clone, Debug, PartialEq)]
pub struct CompletionRequest {
    pub prompt: Prompt,
    pub common: Common,
}

impl FromObject for CompletionRequest {
    fn from_object(obj: &Map<String, Value>) -> Result<Self, ApiError> {
        let f = Fields(obj);
        let mut common = Common::parse(&f, &["max_tokens"])?;
        if f.raw("top_logprobs").is_some() {
            return Err(ApiError::invalid(
                "top_logprobs",
                "`top_logprobs` is a chat completions field; here send `logprobs: N` (0 to 20)",
            ));
        }
        if f.raw("logprobs").is_some_and(Value::is_boolean) {
            return Err(ApiError::invalid(
                "logprobs",
                "`logprobs` of a completion is the number of top tokens to report (0 to 20)",
            ));
        }
        common.logit.logprobs = parse_top_n(&f, "logprobs")?;
        let prompt = match f.raw("prompt") {
            None => return Err(ApiError::invalid("prompt", "`prompt` is required")),
            Some(v) => parse_prompt(v)?,
        };
        Ok(CompletionRequest { prompt, common })
    }
}

fn parse_prompt(v: &Value) -> Result<Prompt, ApiError> {
    let empty = || ApiError::invalid("prompt", "`prompt` is empty; give some text or token ids");
    let shape = || {
        ApiError::invalid(
            "prompt",
            "`prompt` must be a string or a list of token ids (integers)",
        )
    };
    match v {
        Value::String(s) if s.is_empty() => Err(empty()),
        Value::String(s) => Ok(Prompt::Text(s.clone())),
        Value::Array(items) if items.is_empty() => Err(empty()),
        Value::Array(items) if items.iter().all(Value::is_number) => items
            .iter()
            .enumerate()
            .map(|(i, t)| {
                t.as_u64()
                    .and_then(|t| u32::try_from(t).ok())
                    .map(TokenId)
                    .ok_or_else(|| {
                        ApiError::invalid(
                            "prompt",
                            format!("prompt[{i}] = {t} is not a token id (a non-negative integer)"),
                        )
                    })
            })
            .collect::<Result<_, _>>()
            .map(Prompt::Tokens),
        // A batch of one prompt.
        Value::Array(items)
            if items.len() == 1 && (items[0].is_string() || items[0].is_array()) =>
        {
            parse_prompt(&items[0])
        }
        Value::Array(items) if items.iter().all(|i| i.is_string() || i.is_array()) => {
            Err(ApiError::unsupported(
                "prompt",
                " as a list of several prompts; send one request per prompt",
            ))
        }
        _ => Err(shape()),
    }
}

/// `POST /v1/chat/completions`.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatRequest {
    pub messages: Vec<Message>,
    pub common: Common,
}

impl FromObject for ChatRequest {
    fn from_object(obj: &Map<String, Value>) -> Result<Self, ApiError> {
        let f = Fields(obj);
        let mut common = Common::parse(&f, &["max_completion_tokens", "max_tokens"])?;
        let top = parse_top_n(&f, "top_logprobs")?;
        common.logit.logprobs = match (f.get::<bool>("logprobs")?, top) {
            (Some(true), top) => Some(top.unwrap_or(0)),
            (_, Some(n)) if n > 0 => {
                return Err(ApiError::invalid(
                    "top_logprobs",
                    "`top_logprobs` needs `logprobs: true`",
                ));
            }
            _ => None,
        };
        let messages = match f.raw("messages") {
            None => return Err(ApiError::invalid("messages", "`messages` is required")),
            Some(Value::Array(items)) if items.is_empty() => {
                return Err(ApiError::invalid(
                    "messages",
                    "`messages` is empty; give at least one message",
                ));
            }
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, m)| parse_message(i, m))
                .collect::<Result<Vec<_>, _>>()?,
            Some(_) => {
                return Err(ApiError::invalid(
                    "messages",
                    "`messages` must be a list of {\"role\", \"content\"} objects",
                ));
            }
        };
        Ok(ChatRequest { messages, common })
    }
}

fn parse_message(i: usize, m: &Value) -> Result<Message, ApiError> {
    let at = format!("messages[{i}]");
    let Some(obj) = m.as_object() else {
        return Err(ApiError::invalid(
            &at,
            format!("`{at}` must be an object with `role` and `content`"),
        ));
    };
    let f = Fields(obj);
    let role = f
        .get::<String>("role")
        .map_err(|e| e.with_param(format!("{at}.role")))?
        .ok_or_else(|| {
            ApiError::invalid(format!("{at}.role"), format!("`{at}.role` is required"))
        })?;
    let role = match role.as_str() {
        "system" | "user" | "assistant" => role,
        "developer" => "system".to_string(),
        "tool" | "function" => {
            return Err(ApiError::unsupported(
                &format!("{at}.role"),
                &format!(" as `{role}` (no tool calling yet)"),
            ));
        }
        other => {
            return Err(ApiError::invalid(
                format!("{at}.role"),
                format!("`{at}.role` must be system, developer, user or assistant, got `{other}`"),
            ));
        }
    };
    if f.raw("tool_calls")
        .is_some_and(|v| !v.as_array().is_some_and(Vec::is_empty))
    {
        return Err(ApiError::unsupported(
            &format!("{at}.tool_calls"),
            " (no tool calling yet)",
        ));
    }
    let content_param = format!("{at}.content");
    let content = match f.raw("content") {
        None => {
            return Err(ApiError::invalid(
                &content_param,
                format!("`{content_param}` is required"),
            ));
        }
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            let mut texts = Vec::with_capacity(parts.len());
            for (j, part) in parts.iter().enumerate() {
                let kind = part.get("type").and_then(Value::as_str);
                match (kind, part.get("text").and_then(Value::as_str)) {
                    (Some("text"), Some(text)) => texts.push(text),
                    _ => {
                        return Err(ApiError::unsupported(
                            &format!("{content_param}[{j}]"),
                            "; only text parts {\"type\": \"text\", \"text\": ...} are",
                        ));
                    }
                }
            }
            texts.join("\n")
        }
        Some(_) => {
            return Err(ApiError::invalid(
                &content_param,
                format!("`{content_param}` must be a string or a list of text parts"),
            ));
        }
    };
    let name = f
        .get::<String>("name")
        .map_err(|e| e.with_param(format!("{at}.name")))?;
    Ok(Message {
        role,
        content,
        name,
    })
}

// ---------------------------------------------------------------------------
// Responses

/// Token counts of a request.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Usage {
    pub prompt_tokens: usize,
    pub completion_tokens: usize,
    pub total_tokens: usize,
    pub prompt_tokens_details: PromptTokensDetails,
}

/// Of the prompt's tokens, those found in a slot's cache (prefix reuse)
/// rather than prefilled, as OpenAI reports its prompt caching.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct PromptTokensDetails {
    pub cached_tokens: usize,
}

impl Usage {
    pub fn new(prompt_tokens: usize, completion_tokens: usize, cached_tokens: usize) -> Self {
        Usage {
            prompt_tokens,
            completion_tokens,
            total_tokens: prompt_tokens + completion_tokens,
            prompt_tokens_details: PromptTokensDetails { cached_tokens },
        }
    }
}

/// What every response and stream chunk carries about where it came from.
/// `seed` is an extension: the seed the request was sampled with (its own,
/// or a fresh one), so an unseeded output can be reproduced.
#[derive(Clone, Debug, Serialize)]
pub struct Header {
    pub id: String,
    pub object: &'static str,
    pub created: u64,
    pub model: String,
    pub system_fingerprint: String,
    pub seed: u64,
}

/// `text_completion`: a whole completion, or one stream chunk of it.
#[derive(Clone, Debug, Serialize)]
pub struct Completion {
    #[serde(flatten)]
    pub header: Header,
    pub choices: Vec<CompletionChoice>,
    /// Absent: not reported; `Some(None)`: `null` (stream chunks with
    /// `include_usage`, before the last).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Option<Usage>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CompletionChoice {
    pub index: u32,
    pub text: String,
    pub logprobs: Option<CompletionLogprobs>,
    pub finish_reason: Option<&'static str>,
}

/// `chat.completion`.
#[derive(Clone, Debug, Serialize)]
pub struct ChatCompletion {
    #[serde(flatten)]
    pub header: Header,
    pub choices: Vec<ChatChoice>,
    pub usage: Usage,
}

#[derive(Clone, Debug, Serialize)]
pub struct ChatChoice {
    pub index: u32,
    pub message: ChatMessage,
    pub logprobs: Option<ChatLogprobs>,
    pub finish_reason: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct ChatMessage {
    pub role: &'static str,
    pub content: String,
}

/// `chat.completion.chunk`.
#[derive(Clone, Debug, Serialize)]
pub struct ChatChunk {
    #[serde(flatten)]
    pub header: Header,
    pub choices: Vec<ChatChunkChoice>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Option<Usage>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ChatChunkChoice {
    pub index: u32,
    pub delta: ChatDelta,
    pub logprobs: Option<ChatLogprobs>,
    pub finish_reason: Option<&'static str>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct ChatDelta {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    fn completion_err(v: Value) -> ApiError {
        CompletionRequest::from_object(&obj(v)).unwrap_err()
    }

    #[test]
    fn defaults_are_openai_defaults() {
        let r = CompletionRequest::from_object(&obj(json!({"prompt": "hi"}))).unwrap();
        assert_eq!(r.prompt, Prompt::Text("hi".into()));
        assert_eq!(r.common.params, SampleParams::with_temperature(1.0));
        assert_eq!(r.common.max_tokens, None);
        assert!(!r.common.stream);
        assert!(r.common.stop.is_empty());
    }

    #[test]
    fn every_field_is_read() {
        let r = CompletionRequest::from_object(&obj(json!({
            "model": "tiny", "prompt": [1, 2, 3], "max_tokens": 5, "temperature": 0.5,
            "top_p": 0.9, "top_k": 40, "min_p": 0.1, "seed": 7, "stop": ["a", "b"],
            "stream": true, "stream_options": {"include_usage": true}, "user": "u",
            "n": 1, "logprobs": 3, "presence_penalty": 0.5, "frequency_penalty": -1.0,
            "repetition_penalty": 1.1, "logit_bias": {"7": -100, " 9": 2.5},
            "some_future_field": 3,
        })))
        .unwrap();
        assert_eq!(
            r.prompt,
            Prompt::Tokens(vec![TokenId(1), TokenId(2), TokenId(3)])
        );
        let c = r.common;
        assert_eq!(c.model.as_deref(), Some("tiny"));
        assert_eq!(c.max_tokens, Some(5));
        assert_eq!(
            c.params,
            SampleParams {
                temperature: 0.5,
                top_k: 40,
                top_p: 0.9,
                min_p: 0.1,
                seed: Some(7)
            }
        );
        assert_eq!(c.stop, ["a", "b"]);
        assert!(c.stream && c.include_usage);
        assert_eq!(c.n, 1);
        assert_eq!(
            c.logit,
            LogitParams {
                penalties: Penalties {
                    repetition: 1.1,
                    frequency: -1.0,
                    presence: 0.5,
                },
                logit_bias: LogitBias::new([(TokenId(7), -100.0), (TokenId(9), 2.5)]),
                logprobs: Some(3),
            }
        );
    }

    #[test]
    fn chat_logprobs_need_logprobs_true_and_top_logprobs_is_read() {
        let chat = |extra: Value| {
            let mut body = json!({"messages": [{"role": "user", "content": "x"}]});
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            ChatRequest::from_object(&obj(body))
        };
        let lp = |v| chat(v).unwrap().common.logit.logprobs;
        assert_eq!(lp(json!({})), None);
        assert_eq!(lp(json!({"logprobs": false})), None);
        assert_eq!(lp(json!({"logprobs": true})), Some(0));
        assert_eq!(lp(json!({"logprobs": true, "top_logprobs": 20})), Some(20));
        let param = |v| chat(v).unwrap_err().param.unwrap();
        assert_eq!(param(json!({"top_logprobs": 2})), "top_logprobs");
        assert_eq!(
            param(json!({"logprobs": true, "top_logprobs": 21})),
            "top_logprobs"
        );
        assert_eq!(param(json!({"logprobs": 3})), "logprobs");
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            (json!({"prompt": "x", "temperature": "hot"}), "temperature"),
            (json!({"prompt": "x", "temperature": -1}), "temperature"),
            (json!({"prompt": "x", "top_p": 1.5}), "top_p"),
            (json!({"prompt": "x", "min_p": 1}), "min_p"),
            (json!({"prompt": "x", "top_k": -2}), "top_k"),
            (json!({"prompt": "x", "max_tokens": 0}), "max_tokens"),
            (json!({"prompt": "x", "max_tokens": -3}), "max_tokens"),
            (json!({"prompt": "x", "seed": "s"}), "seed"),
            (json!({"prompt": "x", "stop": 3}), "stop"),
            (json!({"prompt": "x", "stop": ["a", 1]}), "stop"),
            (json!({"prompt": "x", "stream": "yes"}), "stream"),
            (json!({"prompt": "x", "model": 5}), "model"),
            (json!({"prompt": ""}), "prompt"),
            (json!({"prompt": []}), "prompt"),
            (json!({"prompt": [1, -1]}), "prompt"),
            (json!({"prompt": 5}), "prompt"),
            (json!({"prompt": ["a", "b"]}), "prompt"),
            (json!({}), "prompt"),
            (
                json!({"prompt": "x", "presence_penalty": 2.5}),
                "presence_penalty",
            ),
            (
                json!({"prompt": "x", "frequency_penalty": -3}),
                "frequency_penalty",
            ),
            (
                json!({"prompt": "x", "frequency_penalty": "lots"}),
                "frequency_penalty",
            ),
            (
                json!({"prompt": "x", "repetition_penalty": 0}),
                "repetition_penalty",
            ),
            (json!({"prompt": "x", "logit_bias": {"a": 1}}), "logit_bias"),
            (
                json!({"prompt": "x", "logit_bias": {"5": 101}}),
                "logit_bias",
            ),
            (
                json!({"prompt": "x", "logit_bias": {"5": "up"}}),
                "logit_bias",
            ),
            (json!({"prompt": "x", "logit_bias": [1]}), "logit_bias"),
            (json!({"prompt": "x", "logprobs": 21}), "logprobs"),
            (json!({"prompt": "x", "logprobs": -1}), "logprobs"),
            (json!({"prompt": "x", "logprobs": true}), "logprobs"),
            (json!({"prompt": "x", "top_logprobs": 2}), "top_logprobs"),
            (json!({"prompt": "x", "n": 0}), "n"),
            (json!({"prompt": "x", "n": "two"}), "n"),
        ];
        for (body, field) in cases {
            let e = completion_err(body.clone());
            assert_eq!(e.status, 400, "{body}");
            assert_eq!(e.param.as_deref(), Some(field), "{body}: {}", e.message);
        }
    }

    #[test]
    fn unsupported_fields_are_refused_unless_neutral() {
        let refused = [
            ("best_of", json!(3)),
            ("echo", json!(true)),
            ("suffix", json!("end")),
            ("tools", json!([{"type": "function"}])),
            ("tool_choice", json!("required")),
            ("response_format", json!({"type": "json_object"})),
        ];
        for (field, value) in refused {
            let mut body = json!({"prompt": "x"});
            body[field] = value.clone();
            let e = completion_err(body);
            assert_eq!(e.param.as_deref(), Some(field), "{field}={value}");
            assert!(e.message.contains(field));
        }
        let neutral = json!({
            "prompt": "x", "n": 1, "best_of": 1,
            "echo": false, "suffix": "", "tools": [], "tool_choice": "none",
            "response_format": {"type": "text"}, "presence_penalty": 0,
            "frequency_penalty": 0, "logit_bias": {}, "functions": null,
        });
        CompletionRequest::from_object(&obj(neutral)).unwrap();
    }

    #[test]
    fn prompts_in_a_batch_of_one_are_accepted() {
        let p = |v| CompletionRequest::from_object(&obj(json!({ "prompt": v }))).map(|r| r.prompt);
        assert_eq!(p(json!(["hi"])).unwrap(), Prompt::Text("hi".into()));
        assert_eq!(
            p(json!([[4, 5]])).unwrap(),
            Prompt::Tokens(vec![TokenId(4), TokenId(5)])
        );
        assert_eq!(
            p(json!([[1], [2]])).unwrap_err().param.as_deref(),
            Some("prompt")
        );
    }

    #[test]
    fn chat_messages_are_flattened_and_checked() {
        let r = ChatRequest::from_object(&obj(json!({
            "messages": [
                {"role": "developer", "content": "rules"},
                {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "name": "bob"},
                {"role": "assistant", "content": "ok", "tool_calls": []},
            ],
            "max_completion_tokens": 9, "max_tokens": 3,
        })))
        .unwrap();
        assert_eq!(r.common.max_tokens, Some(9), "max_completion_tokens wins");
        assert_eq!(r.messages[0].role, "system");
        assert_eq!(r.messages[1].content, "a\nb");
        assert_eq!(r.messages[1].name.as_deref(), Some("bob"));

        let err = |v: Value| {
            ChatRequest::from_object(&obj(v))
                .unwrap_err()
                .param
                .unwrap()
        };
        assert_eq!(err(json!({})), "messages");
        assert_eq!(err(json!({"messages": []})), "messages");
        assert_eq!(err(json!({"messages": "hi"})), "messages");
        assert_eq!(
            err(json!({"messages": [{"content": "x"}]})),
            "messages[0].role"
        );
        assert_eq!(
            err(json!({"messages": [{"role": "wizard", "content": "x"}]})),
            "messages[0].role"
        );
        assert_eq!(
            err(json!({"messages": [{"role": "user"}]})),
            "messages[0].content"
        );
        assert_eq!(
            err(json!({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]})),
            "messages[0].content[0]"
        );
        assert_eq!(
            err(
                json!({"messages": [{"role": "user", "content": "x"}], "max_completion_tokens": 0})
            ),
            "max_completion_tokens"
        );
    }

    #[test]
    fn malformed_bodies_are_400s() {
        assert_eq!(parse_object(b"{not json").unwrap_err().status, 400);
        assert_eq!(parse_object(b"[1, 2]").unwrap_err().status, 400);
        assert!(parse_object(b"{}").is_ok());
    }

    #[test]
    fn stream_chunks_have_openai_shapes() {
        let header = Header {
            id: "chatcmpl-1".into(),
            object: "chat.completion.chunk",
            created: 1,
            model: "tiny".into(),
            system_fingerprint: "fp".into(),
            seed: 3,
        };
        let chunk = ChatChunk {
            header,
            choices: vec![ChatChunkChoice {
                index: 0,
                delta: ChatDelta {
                    role: None,
                    content: Some("hi".into()),
                },
                logprobs: None,
                finish_reason: None,
            }],
            usage: Some(None),
        };
        assert_eq!(
            serde_json::to_value(&chunk).unwrap(),
            json!({
                "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
                "model": "tiny", "system_fingerprint": "fp", "seed": 3,
                "choices": [{"index": 0, "delta": {"content": "hi"}, "logprobs": null, "finish_reason": null}],
                "usage": null,
            })
        );
    }
}
