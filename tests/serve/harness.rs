//! A real server on an ephemeral loopback port over the `tiny` preset, and
//! a small client for it. Every request has a timeout, every wait is bounded.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use iree_llm::engine::{
    BatchEngine, BatchOptions, Engine, EngineStats, EngineStatus, Event, Request, SubmitError,
};
use iree_llm::model::{DeviceModel, LoadOptions, Quiet};
use iree_llm::runtime::Instance;
use iree_llm::serve::{ServeOptions, Server};
use iree_llm::tokenizer::Tokenizer;
use iree_llm::types::RequestId;
use iree_llm::weights::DType as WeightDType;
use reqwest::StatusCode;
use serde_json::Value;
use tokio::sync::oneshot;

use crate::common;

/// Context capacity of the test engines (the engine tests' graphs, cached).
pub const CAPACITY: i64 = 128;

pub fn tiny_dir() -> PathBuf {
    common::tiny_dir(WeightDType::F32)
}

pub fn tokenizer() -> Tokenizer {
    Tokenizer::from_dir(&tiny_dir()).unwrap()
}

/// Lets a test hold the engine still or slow it down.
#[derive(Default)]
pub struct Control {
    /// While set, steps do nothing: submitted requests stay queued.
    pub paused: AtomicBool,
    /// Milliseconds each step waits first (to keep requests running).
    pub step_delay_ms: AtomicU64,
}

/// A `BatchEngine` whose steps the test controls.
struct ControlledEngine {
    inner: BatchEngine,
    control: Arc<Control>,
}

impl Engine for ControlledEngine {
    fn submit(&mut self, request: Request) -> Result<RequestId, SubmitError> {
        self.inner.submit(request)
    }
    fn submit_choices(
        &mut self,
        request: Request,
        n: usize,
    ) -> Result<Vec<RequestId>, SubmitError> {
        self.inner.submit_choices(request, n)
    }
    fn cancel(&mut self, id: RequestId) -> bool {
        self.inner.cancel(id)
    }
    fn step(&mut self) -> Vec<Event> {
        if self.control.paused.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
            return Vec::new();
        }
        let delay = self.control.step_delay_ms.load(Ordering::SeqCst);
        if delay > 0 {
            std::thread::sleep(Duration::from_millis(delay));
        }
        self.inner.step()
    }
    fn is_idle(&self) -> bool {
        self.inner.is_idle()
    }
    fn status(&self) -> EngineStatus {
        self.inner.status()
    }
    fn stats(&self) -> EngineStats {
        self.inner.stats()
    }
    fn capacity(&self) -> usize {
        self.inner.capacity()
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    pub batch: usize,
    pub max_queue: usize,
    pub api_key: Option<String>,
    /// The model directory (default: `tiny`).
    pub dir: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            batch: 4,
            max_queue: 64,
            api_key: None,
            dir: None,
        }
    }
}

/// `tiny` without a chat template (a copy whose tokenizer_config.json has none).
pub fn tiny_without_template_dir() -> PathBuf {
    let src = tiny_dir();
    let dst = common::models_root().join("tiny-no-chat-template");
    if dst.join("config.json").exists() {
        return dst;
    }
    let tmp = common::models_root().join(format!(".tmp-no-template-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, tmp.join(path.file_name().unwrap())).unwrap();
    }
    let cfg_path = tmp.join("tokenizer_config.json");
    let mut cfg: Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg_path).unwrap()).unwrap();
    cfg.as_object_mut().unwrap().remove("chat_template");
    std::fs::write(&cfg_path, cfg.to_string()).unwrap();
    if std::fs::rename(&tmp, &dst).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    dst
}

/// A batch engine over `tiny` through the test module cache.
pub fn engine(batch: usize, max_queue: usize) -> BatchEngine {
    engine_for(&tiny_dir(), batch, max_queue)
}

/// The IREE instance of this test process (`Instance::new` shares the live
/// one, so engines of tests running in parallel threads use the same).
pub fn instance() -> Instance {
    Instance::new().unwrap()
}

/// A batch engine over the model in `dir`, loaded on the shared instance
/// through the test module cache (as `common::batch_engine` does).
pub fn engine_for(dir: &Path, batch: usize, max_queue: usize) -> BatchEngine {
    let plan = iree_llm::emit::EmitPlan::new(CAPACITY, &[batch as i64]).unwrap();
    let mut opts = LoadOptions::batched(common::device("local-task"), plan, batch as i64);
    opts.cache = common::test_cache();
    let model = DeviceModel::load(&instance(), dir, &opts, &Quiet).unwrap();
    BatchEngine::new(
        model,
        BatchOptions {
            batch,
            max_queue,
            ..Default::default()
        },
    )
    .unwrap()
}

/// A running server; shut down when dropped.
pub struct TestServer {
    pub base: String,
    pub client: reqwest::Client,
    pub control: Arc<Control>,
    api_key: Option<String>,
    shutdown: Option<oneshot::Sender<()>>,
}

impl TestServer {
    pub async fn start(opts: Options) -> Self {
        let control = Arc::new(Control::default());
        let dir = opts.dir.clone().unwrap_or_else(tiny_dir);
        let engine = ControlledEngine {
            inner: engine_for(&dir, opts.batch, opts.max_queue),
            control: control.clone(),
        };
        let server = Server::new(
            Box::new(engine),
            Tokenizer::from_dir(&dir).unwrap(),
            ServeOptions {
                model_id: "tiny".into(),
                api_key: opts.api_key.clone(),
            },
        )
        .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(server.serve(listener, async move {
            let _ = rx.await;
        }));
        TestServer {
            base,
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
            control,
            api_key: opts.api_key,
            shutdown: Some(tx),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    fn authed(&self, req: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.api_key {
            Some(k) => req.bearer_auth(k),
            None => req,
        }
    }

    /// POSTs a raw body.
    pub async fn post_raw(&self, path: &str, body: &str) -> reqwest::Response {
        self.authed(self.client.post(self.url(path)))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .unwrap()
    }

    /// POSTs JSON; returns the status and the JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> (StatusCode, Value) {
        let resp = self.post_raw(path, &body.to_string()).await;
        let status = resp.status();
        (status, resp.json().await.unwrap())
    }

    /// POSTs a streaming request; returns the `data:` payloads in order
    /// (`[DONE]` included).
    pub async fn stream(&self, path: &str, body: &Value) -> Vec<String> {
        let resp = self.post_raw(path, &body.to_string()).await;
        assert_eq!(resp.status(), 200, "stream refused: {body}");
        assert!(
            resp.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/event-stream")
        );
        sse_data(&resp.text().await.unwrap())
    }

    pub async fn get(&self, path: &str) -> (StatusCode, String) {
        let resp = self
            .authed(self.client.get(self.url(path)))
            .send()
            .await
            .unwrap();
        (resp.status(), resp.text().await.unwrap())
    }

    pub async fn metrics(&self) -> String {
        let (status, text) = self.get("/metrics").await;
        assert_eq!(status, 200);
        text
    }

    /// One sample of `/metrics`, e.g. `iree_llm_requests_total{outcome="stop"}`.
    pub async fn metric(&self, sample: &str) -> f64 {
        metric_value(&self.metrics().await, sample)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        // A paused engine could never report the cancellations of shutdown.
        self.control.paused.store(false, Ordering::SeqCst);
        self.control.step_delay_ms.store(0, Ordering::SeqCst);
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

pub fn metric_value(text: &str, sample: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(sample)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no sample {sample} in\n{text}"))
        .parse()
        .unwrap()
}

/// The `data:` payloads of an event stream.
pub fn sse_data(text: &str) -> Vec<String> {
    text.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(|d| d.strip_prefix(' ').unwrap_or(d))
                .collect();
            (!data.is_empty()).then(|| data.join("\n"))
        })
        .collect()
}

/// The JSON chunks of a stream, checking it ends with exactly one `[DONE]`.
pub fn chunks(data: &[String]) -> Vec<Value> {
    assert_eq!(data.last().map(String::as_str), Some("[DONE]"), "{data:?}");
    data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap_or_else(|e| panic!("{e}: {d}")))
        .collect()
}

/// The concatenated text of completion or chat stream chunks.
pub fn streamed_text(chunks: &[Value]) -> String {
    chunk_texts(chunks).concat()
}

/// The text of each chunk that has one.
pub fn chunk_texts(chunks: &[Value]) -> Vec<String> {
    chunks
        .iter()
        .filter_map(|c| {
            let choice = c["choices"].get(0)?;
            choice["text"]
                .as_str()
                .or(choice["delta"]["content"].as_str())
                .filter(|t| !t.is_empty())
                .map(str::to_string)
        })
        .collect()
}

/// The finish reason of the chunk that has one.
pub fn streamed_finish_reason(chunks: &[Value]) -> String {
    let reasons: Vec<&str> = chunks
        .iter()
        .filter_map(|c| c["choices"].get(0)?["finish_reason"].as_str())
        .collect();
    assert_eq!(reasons.len(), 1, "one chunk carries the finish reason");
    reasons[0].to_string()
}

/// Checks that two logprobs values agree: the same shape, tokens and bytes,
/// and every number within 1e-4. A request whose prompt starts with what a
/// slot's cache still holds reuses that K/V, computed by calls of other
/// shapes: its logprobs match a run without it up to rounding, not bit for
/// bit (docs/serving.md, prefix reuse).
pub fn assert_same_logprobs(got: &Value, want: &Value, what: &str) {
    match (got, want) {
        (Value::Number(a), Value::Number(b)) => {
            let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
            assert!((a - b).abs() <= 1e-4, "{what}: {a} vs {b}");
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{what}: {got} vs {want}");
            for (x, y) in a.iter().zip(b) {
                assert_same_logprobs(x, y, what);
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            assert!(a.keys().eq(b.keys()), "{what}: {got} vs {want}");
            for (k, x) in a {
                assert_same_logprobs(x, &b[k], what);
            }
        }
        _ => assert_eq!(got, want, "{what}"),
    }
}

/// Polls `cond` every 20 ms for at most `limit`.
pub async fn eventually<F, Fut>(limit: Duration, mut cond: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if cond().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}
