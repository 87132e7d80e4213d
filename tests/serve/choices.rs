//! `n` over HTTP: a request with `n` choices answers `choices[i]` with
//! `index: i`, each the same as the request sent alone with `seed + i`,
//! streamed and not; `usage` counts the prompt once and sums the choices'
//! completion tokens; `n` beyond the batch is a 400 naming `n`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::harness::{Options, TestServer, assert_same_logprobs, chunks};

const VOCAB: usize = 512;

fn ids(n: usize, salt: u32) -> Vec<u32> {
    crate::common::prompt(n, salt, VOCAB)
        .iter()
        .map(|t| t.0)
        .collect()
}

/// `body` with `fields` set (or replaced).
fn with(body: &Value, fields: Value) -> Value {
    let mut b = body.clone();
    b.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    b
}

/// Per choice index, the texts of a stream's chunks concatenated, its
/// finish reasons, and its log-probability entries.
#[derive(Default, Debug)]
struct StreamedChoice {
    text: String,
    finish: Vec<String>,
    roles: usize,
    logprobs: Vec<Value>,
}

fn by_index(parts: &[Value]) -> BTreeMap<u64, StreamedChoice> {
    let mut out: BTreeMap<u64, StreamedChoice> = BTreeMap::new();
    for c in parts {
        let choices = c["choices"].as_array().unwrap();
        assert!(choices.len() <= 1, "one choice per chunk: {c}");
        let Some(choice) = choices.first() else {
            continue;
        };
        let s = out.entry(choice["index"].as_u64().unwrap()).or_default();
        if let Some(t) = choice["text"]
            .as_str()
            .or(choice["delta"]["content"].as_str())
        {
            s.text.push_str(t);
        }
        if choice["delta"]["role"].is_string() {
            s.roles += 1;
        }
        if let Some(f) = choice["finish_reason"].as_str() {
            s.finish.push(f.to_string());
        }
        if let Some(c) = choice["logprobs"]["content"].as_array() {
            s.logprobs.extend(c.iter().cloned());
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_completion_choice_is_the_request_alone_with_seed_plus_its_index() {
    let server = TestServer::start(Options::default()).await;
    let body = json!({"prompt": ids(7, 31), "max_tokens": 14, "temperature": 1.3,
                      "seed": 40, "logprobs": 2});
    let (status, got) = server
        .post("/v1/completions", &with(&body, json!({"n": 3})))
        .await;
    assert_eq!(status, 200, "{got}");
    let choices = got["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 3);
    let mut completion_tokens = 0;
    let mut texts = Vec::new();
    for (i, choice) in choices.iter().enumerate() {
        assert_eq!(choice["index"], i);
        let (status, alone) = server
            .post("/v1/completions", &with(&body, json!({"seed": 40 + i})))
            .await;
        assert_eq!(status, 200, "{alone}");
        let want = &alone["choices"][0];
        assert_eq!(choice["text"], want["text"], "choice {i}");
        assert_eq!(choice["finish_reason"], want["finish_reason"], "choice {i}");
        assert_eq!(choice["logprobs"], want["logprobs"], "choice {i}");
        assert_eq!(
            got["usage"]["prompt_tokens"],
            alone["usage"]["prompt_tokens"]
        );
        completion_tokens += alone["usage"]["completion_tokens"].as_u64().unwrap();
        texts.push(choice["text"].as_str().unwrap().to_string());
    }
    assert!(
        texts[0] != texts[1] || texts[1] != texts[2],
        "the choices draw from different streams: {texts:?}"
    );
    assert_eq!(got["usage"]["completion_tokens"], completion_tokens);
    assert_eq!(
        got["usage"]["total_tokens"],
        got["usage"]["prompt_tokens"].as_u64().unwrap() + completion_tokens
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unseeded_choices_follow_the_reported_seed_plus_their_index() {
    let server = TestServer::start(Options::default()).await;
    let body = json!({"prompt": ids(5, 9), "max_tokens": 10, "temperature": 1.0});
    let (status, got) = server
        .post("/v1/completions", &with(&body, json!({"n": 2})))
        .await;
    assert_eq!(status, 200, "{got}");
    let seed = got["seed"].as_u64().unwrap();
    for i in 0..2u64 {
        let (_, alone) = server
            .post(
                "/v1/completions",
                &with(&body, json!({"seed": seed.wrapping_add(i)})),
            )
            .await;
        assert_eq!(
            got["choices"][i as usize]["text"], alone["choices"][0]["text"],
            "choice {i}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_chat_choices_carry_their_index_and_match_the_requests_alone() {
    let server = TestServer::start(Options::default()).await;
    let body = json!({"messages": [{"role": "user", "content": "Tell me a story"}],
                      "max_tokens": 12, "temperature": 1.2, "seed": 77,
                      "logprobs": true, "top_logprobs": 1});
    let streamed = with(
        &body,
        json!({"n": 2, "stream": true, "stream_options": {"include_usage": true}}),
    );
    let parts = chunks(&server.stream("/v1/chat/completions", &streamed).await);
    let got = by_index(&parts);
    assert_eq!(got.keys().copied().collect::<Vec<_>>(), [0, 1]);
    let usage = &parts.last().unwrap()["usage"];
    assert!(
        parts.last().unwrap()["choices"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let mut completion_tokens = 0;
    for (i, s) in &got {
        let (status, alone) = server
            .post(
                "/v1/chat/completions",
                &with(&body, json!({"seed": 77 + i})),
            )
            .await;
        assert_eq!(status, 200, "{alone}");
        let want = &alone["choices"][0];
        assert_eq!(s.roles, 1, "choice {i} opens with its role once");
        assert_eq!(
            s.text,
            want["message"]["content"].as_str().unwrap(),
            "choice {i}"
        );
        assert_eq!(
            s.finish,
            [want["finish_reason"].as_str().unwrap()],
            "choice {i} finishes once"
        );
        assert_same_logprobs(
            &json!(s.logprobs),
            &want["logprobs"]["content"],
            &format!("choice {i}"),
        );
        assert_eq!(usage["prompt_tokens"], alone["usage"]["prompt_tokens"]);
        completion_tokens += alone["usage"]["completion_tokens"].as_u64().unwrap();
    }
    assert_ne!(got[&0].text, got[&1].text, "different draw streams");
    assert_eq!(usage["completion_tokens"], completion_tokens);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_strings_end_each_choice_on_its_own() {
    let server = TestServer::start(Options::default()).await;
    let body = json!({"prompt": ids(6, 3), "max_tokens": 20, "temperature": 1.5, "seed": 5});
    // A stop string taken from what choice 1 would generate alone.
    let (_, alone) = server
        .post("/v1/completions", &with(&body, json!({"seed": 6})))
        .await;
    let text1 = alone["choices"][0]["text"].as_str().unwrap().to_string();
    let stop: String = text1.chars().skip(3).take(3).collect();
    assert!(!stop.is_empty(), "choice 1 alone says {text1:?}");
    let stopped = with(&body, json!({"stop": [stop.clone()]}));
    let (status, got) = server
        .post("/v1/completions", &with(&stopped, json!({"n": 2})))
        .await;
    assert_eq!(status, 200, "{got}");
    for i in 0..2 {
        let (_, want) = server
            .post("/v1/completions", &with(&stopped, json!({"seed": 5 + i})))
            .await;
        assert_eq!(
            got["choices"][i]["text"], want["choices"][0]["text"],
            "choice {i}"
        );
        assert_eq!(
            got["choices"][i]["finish_reason"], want["choices"][0]["finish_reason"],
            "choice {i}"
        );
    }
    assert_eq!(got["choices"][1]["finish_reason"], "stop");
    assert!(!got["choices"][1]["text"].as_str().unwrap().contains(&stop));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn more_choices_than_the_batch_is_a_400_naming_n() {
    let server = TestServer::start(Options {
        batch: 2,
        ..Options::default()
    })
    .await;
    for path in ["/v1/completions", "/v1/chat/completions"] {
        let body = json!({"prompt": "hi", "messages": [{"role": "user", "content": "hi"}],
                          "max_tokens": 2, "n": 3});
        let (status, err) = server.post(path, &body).await;
        assert_eq!(status, 400, "{err}");
        assert_eq!(err["error"]["param"], "n", "{err}");
        assert!(
            err["error"]["message"]
                .as_str()
                .unwrap()
                .contains("from 1 to 2"),
            "{err}"
        );
        let (status, ok) = server.post(path, &with(&body, json!({"n": 2}))).await;
        assert_eq!(status, 200, "{ok}");
        assert_eq!(ok["choices"].as_array().unwrap().len(), 2);
    }
}
