//! The OpenAI-compatible HTTP server (the "serve worker").
//!
//! It owns everything between a socket and the [`Engine`]: the engine thread
//! and its channels ([`worker`]), request and response shapes ([`openai`]),
//! chat templates ([`chat`]), turning a request into an engine request
//! ([`validate`]), stop strings ([`stop`]), turning engine events into text
//! for one request ([`generation`]), what differs between the generation
//! endpoints ([`endpoint`]), the endpoints ([`handlers`]), errors
//! ([`error`]) and `/metrics` ([`metrics`]), the guards every request passes
//! first ([`guard`]: `Host`, `Content-Type`) and the connections with their
//! timeouts, cap and shutdown drain ([`conn`]).
//!
//! The engine runs on its own thread; tokio and axum run the HTTP side,
//! which never touches the engine except through the worker's channels.
//! Endpoints: `POST /v1/completions`, `POST /v1/chat/completions`,
//! `GET /v1/models`, `GET /v1/models/{id}`, `GET /health`, `GET /metrics`.
//! With an API key, the `/v1` endpoints need `Authorization: Bearer <key>`
//! (the scheme in any case); `/health` and `/metrics` stay open for probes
//! and scrapers.
//! The user-facing description is `docs/serving.md`.

pub mod chat;
pub mod conn;
pub mod endpoint;
pub mod error;
pub mod generation;
pub mod guard;
pub mod handlers;
pub mod logprobs;
pub mod metrics;
pub mod openai;
pub mod stop;
pub mod validate;
pub mod worker;

use std::future::Future;
use std::sync::Arc;

use crate::engine::Engine;
use crate::tokenizer::Tokenizer;

pub use conn::HttpOptions;
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
    #[error("the API key is empty: pass a non-empty `--api-key`, or none to serve without one")]
    EmptyApiKey,
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
        if options
            .api_key
            .as_deref()
            .is_some_and(|k| k.trim().is_empty())
        {
            return Err(ServeError::EmptyApiKey);
        }
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

    /// [`Server::serve_with`] with the default [`HttpOptions`].
    pub async fn serve<F>(
        self,
        listener: tokio::net::TcpListener,
        shutdown: F,
    ) -> Result<(), ServeError>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.serve_with(listener, shutdown, HttpOptions::default())
            .await
    }

    /// Serves on `listener` until `shutdown` resolves, then drains: no new
    /// connections, running requests go on for up to `drain_timeout`, then
    /// those still running are cancelled (streams end with an error event,
    /// the others get 503). Returns once the connections are closed and the
    /// engine thread is joined.
    pub async fn serve_with<F>(
        self,
        listener: tokio::net::TcpListener,
        shutdown: F,
        http: HttpOptions,
    ) -> Result<(), ServeError>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let Server { state, worker } = self;
        let handle = worker.handle();
        let hosts =
            guard::HostPolicy::for_listener(listener.local_addr()?, http.allowed_hosts.as_deref());
        let app = handlers::router(state)
            .layer(axum::middleware::from_fn(guard::require_json))
            .layer(axum::middleware::from_fn_with_state(
                Arc::new(hosts),
                guard::check_host,
            ));
        let drain = http.drain_timeout;
        let shutdown = async move {
            shutdown.await;
            tracing::info!(
                "shutting down: no new connections, draining running requests for up to {drain:?}"
            );
        };
        conn::serve(listener, app, &http, shutdown, move || handle.shutdown()).await;
        tokio::task::spawn_blocking(move || worker.shutdown())
            .await
            .ok();
        Ok(())
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

/// Resolves on the first Ctrl-C or SIGTERM, which starts the drain; a
/// second one ends the process at once (exit status 130) for whoever does
/// not want to wait for it.
pub async fn shutdown_signals() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) else {
            return shutdown_signal().await;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        // The same streams, so a second signal cannot slip in unseen.
        tokio::spawn(async move {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            eprintln!("second signal: exiting without finishing the drain");
            std::process::exit(130);
        });
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        tokio::spawn(async {
            let _ = tokio::signal::ctrl_c().await;
            std::process::exit(130);
        });
    }
}
