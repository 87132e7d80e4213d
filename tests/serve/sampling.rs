//! Penalties, logit bias and log-probabilities over HTTP: each request gives
//! what the engine gives for the same parameters run directly, streamed and
//! not, in OpenAI's shapes.

use std::collections::BTreeMap;

use iree_llm::engine::{Engine, Event, Request};
use iree_llm::sampler::{LogitBias, LogitParams, Penalties, SampleParams, TokenLogprobs};
use iree_llm::types::TokenId;
use serde_json::{Value, json};

use crate::harness::{self, Options, TestServer, assert_same_logprobs, chunks, streamed_text};

const VOCAB: usize = 512;

/// Tokens and log-probabilities the engine gives for `prompt`, run directly.
fn direct(
    prompt: &[TokenId],
    max_tokens: usize,
    params: SampleParams,
    logit: LogitParams,
) -> (Vec<TokenId>, Vec<Option<TokenLogprobs>>) {
    let tok = harness::tokenizer();
    let mut engine = harness::engine(4, 64);
    let mut r = Request::greedy(prompt.to_vec(), max_tokens);
    r.params = params;
    r.logit = logit;
    r.stop_tokens = tok.eos_id().into_iter().collect();
    engine.submit(r).unwrap();
    let (mut tokens, mut lps) = (Vec::new(), Vec::new());
    while !engine.is_idle() {
        for e in engine.step() {
            if let Event::Token {
                token, logprobs, ..
            } = e
            {
                tokens.push(token);
                lps.push(logprobs);
            }
        }
    }
    (tokens, lps)
}

fn ids(tokens: &[TokenId]) -> Vec<u32> {
    tokens.iter().map(|t| t.0).collect()
}

fn f32s(v: &Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completion_logprobs_are_the_engines_in_openai_shape_streamed_and_not() {
    let server = TestServer::start(Options::default()).await;
    let tok = harness::tokenizer();
    let prompt = crate::common::prompt(6, 21, VOCAB);
    let (tokens, lps) = direct(
        &prompt,
        10,
        SampleParams::greedy(),
        LogitParams {
            logprobs: Some(3),
            ..LogitParams::default()
        },
    );
    let body = json!({"prompt": ids(&prompt), "max_tokens": 10, "temperature": 0, "logprobs": 3});
    let (status, whole) = server.post("/v1/completions", &body).await;
    assert_eq!(status, 200, "{whole}");
    let lp = &whole["choices"][0]["logprobs"];
    let n = tokens.len();
    assert_eq!(whole["usage"]["completion_tokens"], n);
    let want: Vec<f32> = lps.iter().map(|l| l.as_ref().unwrap().logprob).collect();
    assert_eq!(f32s(&lp["token_logprobs"]), want);
    let texts: Vec<String> = tokens
        .iter()
        .map(|&t| tok.decode_with(&[t], false).unwrap())
        .collect();
    assert_eq!(lp["tokens"], json!(texts));
    for (i, top) in lp["top_logprobs"].as_array().unwrap().iter().enumerate() {
        let top = top.as_object().unwrap();
        let mut want: BTreeMap<String, f32> = lps[i]
            .as_ref()
            .unwrap()
            .top
            .iter()
            .map(|&(id, l)| (tok.decode_with(&[id], false).unwrap(), l))
            .collect();
        want.entry(texts[i].clone())
            .or_insert(lps[i].as_ref().unwrap().logprob);
        let got: BTreeMap<String, f32> = top
            .iter()
            .map(|(k, v)| (k.clone(), v.as_f64().unwrap() as f32))
            .collect();
        assert_eq!(got, want, "token {i}");
        // Greedy: the chosen token is the most likely one.
        let best = got.values().fold(f32::NEG_INFINITY, |a, &v| a.max(v));
        assert_eq!(want[&texts[i]], best);
    }
    let offsets: Vec<u64> = lp["text_offset"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(offsets.len(), n);
    assert_eq!(offsets[0], 0);
    assert!(offsets.windows(2).all(|w| w[0] <= w[1]));

    // Streamed: the chunks' logprobs, concatenated, are the same.
    let mut sbody = body.clone();
    sbody["stream"] = json!(true);
    let parts = chunks(&server.stream("/v1/completions", &sbody).await);
    let mut streamed = Vec::new();
    let mut offsets_s = Vec::new();
    for c in &parts {
        let l = &c["choices"][0]["logprobs"];
        if l.is_object() {
            streamed.extend(f32s(&l["token_logprobs"]));
            offsets_s.extend(l["text_offset"].as_array().unwrap().iter().cloned());
        }
    }
    assert_eq!(streamed, want);
    assert_eq!(json!(offsets_s), lp["text_offset"]);
    assert_eq!(
        streamed_text(&parts),
        whole["choices"][0]["text"].as_str().unwrap()
    );

    // Without the field, `logprobs` is null.
    let (_, plain) = server
        .post(
            "/v1/completions",
            &json!({"prompt": ids(&prompt), "max_tokens": 2, "temperature": 0}),
        )
        .await;
    assert!(plain["choices"][0]["logprobs"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_logprobs_have_content_entries_with_bytes_streamed_and_not() {
    let server = TestServer::start(Options::default()).await;
    let body = json!({"messages": [{"role": "user", "content": "Hello there"}],
                      "max_tokens": 8, "temperature": 0.9, "seed": 5,
                      "logprobs": true, "top_logprobs": 2});
    let (status, whole) = server.post("/v1/chat/completions", &body).await;
    assert_eq!(status, 200, "{whole}");
    let content = whole["choices"][0]["logprobs"]["content"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(whole["usage"]["completion_tokens"], content.len());
    for e in &content {
        let token = e["token"].as_str().unwrap();
        assert_eq!(e["bytes"], json!(token.as_bytes()));
        assert!(e["logprob"].as_f64().unwrap() <= 0.0);
        let top = e["top_logprobs"].as_array().unwrap();
        assert_eq!(top.len(), 2);
        assert!(top[0]["logprob"].as_f64() >= top[1]["logprob"].as_f64());
        assert!(top[0]["bytes"].is_array());
    }
    let mut sbody = body.clone();
    sbody["stream"] = json!(true);
    let parts = chunks(&server.stream("/v1/chat/completions", &sbody).await);
    let streamed: Vec<Value> = parts
        .iter()
        .filter_map(|c| c["choices"].get(0)?["logprobs"]["content"].as_array())
        .flatten()
        .cloned()
        .collect();
    assert_same_logprobs(
        &json!(streamed),
        &json!(content),
        "seeded: the same tokens, the same entries",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn penalties_and_logit_bias_give_the_engines_tokens() {
    let server = TestServer::start(Options::default()).await;
    let tok = harness::tokenizer();
    let prompt = crate::common::prompt(5, 8, VOCAB);
    let logit = LogitParams {
        penalties: Penalties {
            repetition: 1.3,
            frequency: 0.7,
            presence: 0.4,
        },
        logit_bias: LogitBias::new([(TokenId(65), 6.0), (TokenId(66), -100.0)]),
        logprobs: None,
    };
    let params = SampleParams::with_temperature(0.8).seeded(11);
    let (want, _) = direct(&prompt, 24, params, logit.clone());
    let (plain, _) = direct(&prompt, 24, params, LogitParams::default());
    assert_ne!(want, plain, "the penalties change this run");
    let body = json!({"prompt": ids(&prompt), "max_tokens": 24, "temperature": 0.8, "seed": 11,
                      "repetition_penalty": 1.3, "frequency_penalty": 0.7,
                      "presence_penalty": 0.4, "logit_bias": {"65": 6, "66": -100}});
    let (status, got) = server.post("/v1/completions", &body).await;
    assert_eq!(status, 200, "{got}");
    assert_eq!(
        got["choices"][0]["text"].as_str().unwrap(),
        tok.decode(&want).unwrap()
    );
    // A bias of 100 on one token makes a greedy reply that token only.
    let (_, forced) = server
        .post(
            "/v1/chat/completions",
            &json!({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 5,
                    "temperature": 0, "logit_bias": {"300": 100}}),
        )
        .await;
    assert_eq!(
        forced["choices"][0]["message"]["content"].as_str().unwrap(),
        tok.decode(&[TokenId(300); 5]).unwrap()
    );
}
