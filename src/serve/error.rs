//! OpenAI-shaped errors: `{"error": {"message", "type", "param", "code"}}`
//! with the HTTP status that goes with them.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::engine::SubmitError;
use crate::fit::FitError;

/// An error answered to the client.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// `invalid_request_error`, `authentication_error`, `rate_limit_error`,
    /// `server_error`...
    pub kind: &'static str,
    /// The offending request field, when known.
    pub param: Option<String>,
    pub code: Option<&'static str>,
    /// Seconds for a `Retry-After` header.
    pub retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            kind,
            param: None,
            code: None,
            retry_after: None,
        }
    }

    /// 400 about the request field `param`.
    pub fn invalid(param: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            message.into(),
        )
        .with_param(param)
    }

    /// 400 about the request as a whole (not one field).
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request_error", message)
    }

    /// 400 for a field this server does not implement (yet).
    pub fn unsupported(param: &str, detail: &str) -> Self {
        Self::invalid(
            param,
            format!("`{param}` is not supported by this server{detail}"),
        )
        .with_code("unsupported_parameter")
    }

    pub fn model_not_found(model: &str, served: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            format!("The model `{model}` does not exist; this server serves `{served}`."),
        )
        .with_param("model")
        .with_code("model_not_found")
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "authentication_error", message)
            .with_code("invalid_api_key")
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "invalid_request_error", message).with_code("not_found")
    }

    pub fn method_not_allowed() -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "invalid_request_error",
            "method not allowed for this endpoint",
        )
        .with_code("method_not_allowed")
    }

    pub fn server(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "server_error", message)
    }

    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "server_error", message)
            .with_code("engine_unavailable")
    }

    pub fn with_param(mut self, param: impl Into<String>) -> Self {
        self.param = Some(param.into());
        self
    }

    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    /// A refusal from `Engine::submit`. `prompt_field` and `max_tokens_field`
    /// name the request's fields for the prompt (`prompt` or `messages`) and
    /// the length (`max_tokens` or `max_completion_tokens`).
    pub fn from_submit(e: &SubmitError, prompt_field: &str, max_tokens_field: &str) -> Self {
        let message = e.to_string();
        match e {
            SubmitError::QueueFull { .. } => {
                let mut err = Self::new(StatusCode::TOO_MANY_REQUESTS, "rate_limit_error", message)
                    .with_code("queue_full");
                err.retry_after = Some(1);
                err
            }
            SubmitError::Params(p) => Self::invalid(p.field(), message),
            SubmitError::NoTokensRequested => Self::invalid(max_tokens_field, message),
            SubmitError::Fit(f) => Self::from_fit(f, prompt_field, max_tokens_field),
            SubmitError::GreedyOnly => Self::invalid("temperature", message),
            SubmitError::NoHostLogits { field } => Self::invalid(*field, message),
            SubmitError::TooManyChoices { .. } => Self::invalid("n", message),
        }
    }

    /// A request that does not fit a slot ([`crate::fit`]): the prompt is at
    /// fault when it alone fills the context, the length otherwise.
    pub fn from_fit(e: &FitError, prompt_field: &str, max_tokens_field: &str) -> Self {
        let message = e.to_string();
        match e {
            FitError::EmptyPrompt | FitError::TokenOutOfRange { .. } => {
                Self::invalid(prompt_field, message)
            }
            FitError::DoesNotFit {
                prompt, capacity, ..
            } => {
                let param = if prompt >= capacity {
                    prompt_field
                } else {
                    max_tokens_field
                };
                Self::invalid(param, message).with_code("context_length_exceeded")
            }
        }
    }

    /// The JSON body.
    pub fn body(&self) -> ErrorBody<'_> {
        ErrorBody {
            error: ErrorDetail {
                message: &self.message,
                kind: self.kind,
                param: self.param.as_deref(),
                code: self.code,
            },
        }
    }
}

/// `{"error": {...}}`, fields in OpenAI's order.
#[derive(Debug, Serialize)]
pub struct ErrorBody<'a> {
    pub error: ErrorDetail<'a>,
}

#[derive(Debug, Serialize)]
pub struct ErrorDetail<'a> {
    pub message: &'a str,
    #[serde(rename = "type")]
    pub kind: &'a str,
    pub param: Option<&'a str>,
    pub code: Option<&'a str>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status, self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut resp = (self.status, axum::Json(self.body())).into_response();
        if let Some(s) = self.retry_after {
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        if self.status == StatusCode::UNAUTHORIZED {
            resp.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        resp
    }
}
