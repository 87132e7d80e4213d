//! The OpenAI-compatible HTTP server (the "serve worker").
//!
//! It owns everything between a socket and the [`Engine`]: the engine thread
//! and its channels ([`worker`]), request and response shapes ([`openai`]),
//! chat templates ([`chat`]), turning a request into an engine request
//! ([`validate`]), stop strings ([`stop`]), turning engine events into text
//! for one request ([`generation`]), what differs between the generation
//! endpoints ([`endpoint`]), the endpoints ([`handlers`]), errors
//! ([`error`]) and `/metrics` ([`metrics`]).
//!
//! The engine runs on its own thread; tokio and axum run the HTTP side,
//! which never touches the engine except through the worker's channels.
//! Endpoints: `POST /v1/completions`, `POST /v1/chat/completions`,
//! `GET /v1/models`, `GET /v1/models/{id}`, `GET /health`, `GET /metrics`.
//! With an API key, the `/v1` endpoints need `Authorization: Bearer <key>`;
//! `/health` and `/metrics` stay open for probes and scrapers.
//! The user-facing description is `docs/serving.md`.

pub mod chat;
pub mod endpoint;
pub mod error;
pub mod generation;
pub mod handlers;
pub mod metrics;
pub mod openai;
pub mod stop;
pub mod validate;
pub mod worker;

use std::future::Future;
use std::sync::Arc;

use crate::engine::Engine;
use crate::tokenizer::Tokenizer;

pub use error::ApiError;
pub use metrics::{Metrics, Outcome};
pub use worker::{Worker, WorkerHandle};

/// How the server presents itself.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The model id clients name in requests and see in `/v1/models`.
    pub model_id: String,
    /// When set, `/v1` requests must carry `Authorization: Bearer <key>`.
    pub api_key: Option<String>,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Chat(#[from] chat::ChatError),
    #[error("cannot start the engine thread: {0}")]
    Thread(#[source] std::io::Error),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        #[source]
        source: std::io::Error,
    },
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
}

/// A server over one engine: the engine thread plus the router.
pub struct Server {
    state: Arc<handlers::AppState>,
    worker: Worker,
}

impl Server {
    /// Moves `engine` onto its thread and prepares the endpoints. Fails if
    /// the model's chat template does not compile.
    pub fn new(
        engine: Box<dyn Engine>,
        tokenizer: Tokenizer,
        options: ServeOptions,
    ) -> Result<Self, ServeError> {
        let chat = chat::ChatFormatter::new(tokenizer.config())?;
        let metrics = Arc::new(Metrics::new());
        let worker = Worker::spawn(engine, metrics.clone()).map_err(ServeError::Thread)?;
        let state = Arc::new(handlers::AppState::new(
            worker.handle(),
            Arc::new(tokenizer),
            chat,
            metrics,
            options.model_id,
            options.api_key,
        ));
        Ok(Server { state, worker })
    }

    /// The axum router of every endpoint.
    pub fn router(&self) -> axum::Router {
        handlers::router(self.state.clone())
    }

    pub fn metrics(&self) -> Arc<Metrics> {
        self.state.metrics.clone()
    }

    /// Whether chat requests use the model's template (false: the fallback format).
    pub fn has_chat_template(&self) -> bool {
        self.state.validator.chat.has_template()
    }

    /// Serves on `listener` until `shutdown` resolves. Then requests still
    /// running are cancelled (streams end with an error event, the others
    /// get 503), open connections are let finish, and the engine thread is
    /// joined.
    pub async fn serve<F>(
        self,
        listener: tokio::net::TcpListener,
        shutdown: F,
    ) -> Result<(), ServeError>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let Server { state, worker } = self;
        let handle = worker.handle();
        let app = handlers::router(state);
        let result = axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                shutdown.await;
                tracing::info!("shutting down: cancelling running requests");
                handle.shutdown();
            })
            .await;
        tokio::task::spawn_blocking(move || worker.shutdown())
            .await
            .ok();
        Ok(result?)
    }
}

/// Resolves on Ctrl-C (and SIGTERM on Unix).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
