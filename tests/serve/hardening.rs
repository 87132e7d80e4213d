//! Faults a hostile or careless client found (issue 12): each test sends the
//! request that showed the fault and checks what the server answers now.

use std::io::Write;
use std::time::{Duration, Instant};

use iree_llm::engine::{Engine, Fault, FinishReason, Request};
use serde_json::{Value, json};

use crate::common;
use crate::harness::{self, CAPACITY, Options, TestServer, chunks, eventually, streamed_text};

const VOCAB: usize = 512;

fn ids(len: usize, seed: u32) -> Vec<u32> {
    common::prompt(len, seed, VOCAB)
        .iter()
        .map(|t| t.0)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_max_tokens_that_would_wrap_the_fit_check_is_refused_naming_the_field() {
    let server = TestServer::start(Options::default()).await;
    let near_wrap = u64::MAX - (CAPACITY as u64 - 8) + 1;
    let cases = [
        (
            "/v1/completions",
            json!({"prompt": [1], "max_tokens": u64::MAX, "temperature": 0}),
            "max_tokens",
        ),
        (
            "/v1/completions",
            json!({"prompt": ids(CAPACITY as usize - 8, 2), "max_tokens": near_wrap,
                   "temperature": 0}),
            "max_tokens",
        ),
        (
            "/v1/chat/completions",
            json!({"messages": [{"role": "user", "content": "hi"}],
                   "max_completion_tokens": u64::MAX, "temperature": 0}),
            "max_completion_tokens",
        ),
    ];
    // An innocent stream runs beside them and must be unaffected.
    let innocent = json!({"prompt": ids(4, 5), "max_tokens": 60, "temperature": 0,
                          "stream": true});
    let solo = streamed_text(&chunks(&server.stream("/v1/completions", &innocent).await));
    let running = server.stream("/v1/completions", &innocent);
    let checks = async {
        for (path, body, field) in &cases {
            let (status, answer) = server.post(path, body).await;
            assert_eq!(status, 400, "{body} -> {answer}");
            assert_eq!(answer["error"]["param"], *field, "{answer}");
            assert_eq!(
                answer["error"]["code"], "context_length_exceeded",
                "{answer}"
            );
        }
    };
    let (stream, ()) = tokio::join!(running, checks);
    assert_eq!(streamed_text(&chunks(&stream)), solo);
}

#[test]
fn a_row_that_reaches_the_end_of_its_context_finishes_alone() {
    let capacity = CAPACITY as usize;
    let innocent = Request::greedy(common::prompt(4, 5, VOCAB), 60);
    let solo = {
        let mut engine = harness::engine(4, 64);
        let id = engine.submit(innocent.clone()).unwrap();
        common::drain(&mut engine).remove(&id).unwrap()
    };

    let mut engine = harness::engine(4, 64);
    let a = engine.submit(innocent.clone()).unwrap();
    // Past the fit rule (as a bug in it would let through): 120 + 50 > 128.
    engine.inject_fault(Fault::UncheckedSubmit);
    let overlong = engine
        .submit(Request::greedy(common::prompt(capacity - 8, 3, VOCAB), 50))
        .unwrap();
    let b = engine.submit(innocent.clone()).unwrap();
    // drain() fails the test if any request ends in an error.
    let mut done = common::drain(&mut engine);
    let long = done.remove(&overlong).unwrap();
    // Its prompt fills positions 0..120; it can feed tokens at 120..127, so
    // it generates at most 1 + 8 tokens.
    assert!(long.tokens.len() <= 9, "{}", long.tokens.len());
    if long.reason == FinishReason::Length {
        assert_eq!(long.tokens.len(), 9);
    } else {
        assert_eq!(long.reason, FinishReason::Stop);
    }
    for id in [a, b] {
        let o = done.remove(&id).unwrap();
        assert_eq!((o.tokens, o.reason), (solo.tokens.clone(), solo.reason));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_text_prompt_is_refused_before_it_is_tokenized() {
    let server = TestServer::start(Options::default()).await;
    // 1.5 MB of text: no tokenizer fits that in 128 tokens.
    let huge = "lorem ipsum dolor sit amet ".repeat(1_500_000 / 27);
    let body = json!({"prompt": huge, "max_tokens": 4}).to_string();
    let chat_body = json!({"messages": [{"role": "user", "content": huge}]}).to_string();
    let start = Instant::now();
    let server = &server;
    let refusals = futures_util::future::join_all((0..8).map(|i| {
        let (path, body) = if i % 2 == 0 {
            ("/v1/completions", &body)
        } else {
            ("/v1/chat/completions", &chat_body)
        };
        async move {
            let resp = server.post_raw(path, body).await;
            (path, resp.status(), resp.json::<Value>().await.unwrap())
        }
    }));
    // The request handlers stay responsive meanwhile.
    let health = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let t = Instant::now();
        let (status, _) = server.get("/health").await;
        (status, t.elapsed())
    };
    let (refusals, (status, health_latency)) = tokio::join!(refusals, health);
    let elapsed = start.elapsed();
    for (path, status, answer) in refusals {
        assert_eq!(status, 400, "{answer}");
        let field = if path == "/v1/completions" {
            "prompt"
        } else {
            "messages"
        };
        assert_eq!(answer["error"]["param"], field, "{answer}");
        assert_eq!(answer["error"]["code"], "context_length_exceeded");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("bytes"), "refused by size: {message}");
    }
    assert_eq!(status, 200);
    assert!(
        health_latency < Duration::from_millis(500),
        "/health took {health_latency:?} beside the oversized prompts"
    );
    assert!(
        elapsed < Duration::from_secs(3),
        "refusals took {elapsed:?}"
    );
    assert_eq!(
        server
            .metric("iree_llm_requests_total{outcome=\"rejected\"}")
            .await,
        8.0
    );
    // A text prompt that fits is still served.
    let (status, answer) = server
        .post(
            "/v1/completions",
            &json!({"prompt": "hello world", "max_tokens": 2}),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
}

/// The sum of `iree_llm_requests_total` over every outcome.
fn requests_total(metrics: &str) -> f64 {
    ["stop", "length", "cancelled", "error", "rejected"]
        .iter()
        .map(|o| {
            harness::metric_value(
                metrics,
                &format!("iree_llm_requests_total{{outcome=\"{o}\"}}"),
            )
        })
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_whose_client_leaves_right_after_sending_it_is_counted_once() {
    let server = TestServer::start(Options::default()).await;
    // A slow engine holds every submission for up to one step.
    server
        .control
        .step_delay_ms
        .store(300, std::sync::atomic::Ordering::SeqCst);
    let busy = json!({"prompt": [1, 2, 3], "max_tokens": 40, "temperature": 0});
    let running = server.post("/v1/completions", &busy);
    let leavers = async {
        tokio::time::sleep(Duration::from_millis(400)).await;
        let addr = server.base.trim_start_matches("http://").to_string();
        let body = json!({"prompt": [1, 2], "max_tokens": 2, "temperature": 0}).to_string();
        let request = format!(
            "POST /v1/completions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        for _ in 0..10 {
            let mut socket = std::net::TcpStream::connect(&addr).unwrap();
            socket.write_all(request.as_bytes()).unwrap();
            tokio::time::sleep(Duration::from_millis(20)).await;
            drop(socket);
        }
        let counted = eventually(Duration::from_secs(10), || async {
            requests_total(&server.metrics().await) == 10.0
        })
        .await;
        assert!(counted, "{}", server.metrics().await);
        server
            .control
            .step_delay_ms
            .store(0, std::sync::atomic::Ordering::SeqCst);
    };
    let ((status, _), ()) = tokio::join!(running, leavers);
    assert_eq!(status, 200);
    let settled = eventually(Duration::from_secs(10), || async {
        requests_total(&server.metrics().await) == 11.0
    })
    .await;
    assert!(settled, "{}", server.metrics().await);
}
