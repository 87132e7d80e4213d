//! The OpenAI-compatible server, tested over HTTP against a real server on
//! an ephemeral loopback port serving the `tiny` preset: completions and chat,
//! streamed and not, give what the engine gives; concurrent streams each get
//! their solo result; stop strings never reach the client; seeds round-trip;
//! bad input gets an OpenAI-style error and hurts nobody else; a full queue
//! answers 429; the API key is enforced; a client that disconnects frees its
//! slot.

mod choices;
#[path = "../common/mod.rs"]
mod common;
mod hardening;
mod harness;
mod sampling;

use std::time::Duration;

use futures_util::future::join_all;
use harness::{
    CAPACITY, Options, TestServer, chunk_texts, chunks, eventually, metric_value,
    streamed_finish_reason, streamed_text,
};
use iree_llm::engine::{Engine, Request};
use iree_llm::types::TokenId;
use serde_json::{Value, json};

const VOCAB: usize = 512;

fn ids(tokens: &[TokenId]) -> Vec<u32> {
    tokens.iter().map(|t| t.0).collect()
}

/// What the engine generates for `prompt` greedily, decoded, run directly.
fn direct_greedy(prompts: &[(Vec<TokenId>, usize)]) -> Vec<(String, usize)> {
    let tok = harness::tokenizer();
    let mut engine = harness::engine(4, 64);
    let submitted: Vec<_> = prompts
        .iter()
        .map(|(p, max)| {
            let mut r = Request::greedy(p.clone(), *max);
            r.stop_tokens = tok.eos_id().into_iter().collect();
            engine.submit(r).unwrap()
        })
        .collect();
    let mut done = common::drain(&mut engine);
    submitted
        .iter()
        .map(|id| {
            let o = done.remove(id).unwrap();
            (tok.decode(&o.tokens).unwrap(), o.tokens.len())
        })
        .collect()
}

fn completion_text(body: &Value) -> String {
    body["choices"][0]["text"].as_str().unwrap().to_string()
}

fn chat_text(body: &Value) -> String {
    body["choices"][0]["message"]["content"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completions_give_the_engines_greedy_text_for_text_and_token_prompts() {
    let server = TestServer::start(Options::default()).await;
    let tok = harness::tokenizer();
    let text_prompt = "Hello world, the model";
    let prompt = tok.encode(text_prompt, true).unwrap();
    assert_eq!(prompt[0], TokenId(501), "BOS is added to text prompts");
    let want = direct_greedy(&[(prompt.clone(), 12)]).remove(0);

    let (status, by_text) = server
        .post(
            "/v1/completions",
            &json!({"model": "tiny", "prompt": text_prompt, "max_tokens": 12, "temperature": 0}),
        )
        .await;
    assert_eq!(status, 200, "{by_text}");
    assert_eq!(by_text["object"], "text_completion");
    assert_eq!(by_text["model"], "tiny");
    assert!(by_text["id"].as_str().unwrap().starts_with("cmpl-"));
    assert!(by_text["created"].as_u64().unwrap() > 1_600_000_000);
    assert!(by_text["system_fingerprint"].is_string());
    assert_eq!(completion_text(&by_text), want.0);
    let reason = by_text["choices"][0]["finish_reason"].as_str().unwrap();
    assert_eq!(reason, if want.1 == 12 { "length" } else { "stop" });
    assert_eq!(
        by_text["usage"],
        json!({"prompt_tokens": prompt.len(), "completion_tokens": want.1,
               "total_tokens": prompt.len() + want.1,
               "prompt_tokens_details": {"cached_tokens": 0}})
    );

    // The same prompt as token ids, and as a batch of one.
    for p in [json!(ids(&prompt)), json!([ids(&prompt)])] {
        let (status, by_ids) = server
            .post(
                "/v1/completions",
                &json!({"prompt": p, "max_tokens": 12, "temperature": 0}),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(completion_text(&by_ids), want.0);
        // The same prompt again: its slot held all of it but the last
        // token, which always runs (its logits give the first token).
        let mut usage = by_text["usage"].clone();
        usage["prompt_tokens_details"]["cached_tokens"] = json!(prompt.len() - 1);
        assert_eq!(by_ids["usage"], usage);
    }

    // Without max_tokens a completion gets OpenAI's default of 16.
    let (_, default) = server
        .post(
            "/v1/completions",
            &json!({"prompt": ids(&prompt[..3]), "temperature": 0}),
        )
        .await;
    let n = default["usage"]["completion_tokens"].as_u64().unwrap();
    assert!(
        n == 16 || default["choices"][0]["finish_reason"] == "stop",
        "{default}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_completions_carry_the_same_text_in_chunks_ending_with_done() {
    let server = TestServer::start(Options::default()).await;
    let prompt = common::prompt(9, 4, VOCAB);
    let body = json!({"prompt": ids(&prompt), "max_tokens": 30, "temperature": 0});
    let (_, whole) = server.post("/v1/completions", &body).await;

    let mut streamed = body.clone();
    streamed["stream"] = json!(true);
    let data = server.stream("/v1/completions", &streamed).await;
    let chunks = chunks(&data);
    assert!(chunks.len() > 2, "tokens arrive in several chunks");
    for c in &chunks {
        assert_eq!(c["object"], "text_completion");
        assert_eq!(c["id"], chunks[0]["id"], "one id for the whole stream");
        assert!(c.get("usage").is_none(), "no usage unless asked for");
    }
    assert_eq!(streamed_text(&chunks), completion_text(&whole));
    assert_eq!(
        streamed_finish_reason(&chunks),
        whole["choices"][0]["finish_reason"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_renders_the_models_template_streamed_and_not() {
    let server = TestServer::start(Options::default()).await;
    let tok = harness::tokenizer();
    let messages = json!([
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Say hello to the world."},
    ]);
    let rendered = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are terse.<|eot_id|>\
                    <|start_header_id|>user<|end_header_id|>\n\nSay hello to the world.<|eot_id|>\
                    <|start_header_id|>assistant<|end_header_id|>\n\n";
    let prompt = tok.encode(rendered, false).unwrap();
    let want = direct_greedy(&[(prompt.clone(), 20)]).remove(0);

    let body = json!({"model": "tiny", "messages": messages, "max_tokens": 20, "temperature": 0});
    let (status, whole) = server.post("/v1/chat/completions", &body).await;
    assert_eq!(status, 200, "{whole}");
    assert_eq!(whole["object"], "chat.completion");
    assert!(whole["id"].as_str().unwrap().starts_with("chatcmpl-"));
    assert_eq!(whole["choices"][0]["message"]["role"], "assistant");
    assert_eq!(chat_text(&whole), want.0);
    assert_eq!(whole["usage"]["prompt_tokens"], prompt.len());
    assert_eq!(whole["usage"]["completion_tokens"], want.1);

    let mut streamed = body.clone();
    streamed["stream"] = json!(true);
    let chunks = chunks(&server.stream("/v1/chat/completions", &streamed).await);
    assert_eq!(
        chunks[0]["choices"][0]["delta"],
        json!({"role": "assistant", "content": ""})
    );
    for c in &chunks {
        assert_eq!(c["object"], "chat.completion.chunk");
    }
    let last = chunks.last().unwrap();
    assert_eq!(last["choices"][0]["delta"], json!({}));
    assert_eq!(streamed_text(&chunks), chat_text(&whole));
    assert_eq!(
        streamed_finish_reason(&chunks),
        whole["choices"][0]["finish_reason"]
    );

    // Without max_tokens a chat reply may use the rest of the context.
    let (_, long) = server
        .post(
            "/v1/chat/completions",
            &json!({"messages": messages, "temperature": 0}),
        )
        .await;
    let reason = long["choices"][0]["finish_reason"].as_str().unwrap();
    let used = long["usage"]["total_tokens"].as_u64().unwrap();
    assert!(
        reason == "stop" || used == CAPACITY as u64,
        "{reason} after {used} tokens"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_without_a_chat_template_gets_the_documented_fallback_format() {
    let dir = harness::tiny_without_template_dir();
    let server = TestServer::start(Options {
        dir: Some(dir.clone()),
        ..Options::default()
    })
    .await;
    let tok = iree_llm::tokenizer::Tokenizer::from_dir(&dir).unwrap();
    assert!(tok.chat_template().is_none());
    let rendered = "system: Be brief.\nuser: Hi there\nassistant: ";
    let prompt = tok.encode(rendered, true).unwrap();
    let want = direct_greedy(&[(prompt.clone(), 10)]).remove(0);
    let (status, body) = server
        .post(
            "/v1/chat/completions",
            &json!({"messages": [{"role": "system", "content": "Be brief."},
                                 {"role": "user", "content": "Hi there"}],
                    "max_tokens": 10, "temperature": 0}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["usage"]["prompt_tokens"], prompt.len());
    assert_eq!(chat_text(&body), want.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn include_usage_adds_a_last_chunk_with_usage_and_no_choices() {
    let server = TestServer::start(Options::default()).await;
    for path in ["/v1/completions", "/v1/chat/completions"] {
        let mut body = json!({"max_tokens": 7, "temperature": 0, "stream": true,
                              "stream_options": {"include_usage": true}});
        if path.contains("chat") {
            body["messages"] = json!([{"role": "user", "content": "hi"}]);
        } else {
            body["prompt"] = json!(ids(&common::prompt(5, 8, VOCAB)));
        }
        let chunks = chunks(&server.stream(path, &body).await);
        let (last, rest) = chunks.split_last().unwrap();
        assert_eq!(last["choices"], json!([]), "{path}");
        let usage = &last["usage"];
        let completion = usage["completion_tokens"].as_u64().unwrap();
        assert!((1..=7).contains(&completion));
        assert_eq!(
            usage["total_tokens"].as_u64().unwrap(),
            usage["prompt_tokens"].as_u64().unwrap() + completion
        );
        for c in rest {
            assert!(c["usage"].is_null(), "usage is null before the last chunk");
        }
    }
}

/// A prompt that starts with what a slot's cache still holds reports those
/// tokens in `usage.prompt_tokens_details.cached_tokens`, whole or streamed;
/// one that found nothing reports 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_reports_the_prompt_tokens_found_in_a_slots_cache() {
    let server = TestServer::start(Options::default()).await;
    let first = common::prompt(20, 61, VOCAB);
    let body = json!({"prompt": ids(&first), "max_tokens": 6, "temperature": 0});
    let (status, whole) = server.post("/v1/completions", &body).await;
    assert_eq!(status, 200, "{whole}");
    assert_eq!(whole["usage"]["prompt_tokens_details"]["cached_tokens"], 0);

    let next = [first.clone(), common::prompt(5, 62, VOCAB)].concat();
    let body = json!({"prompt": ids(&next), "max_tokens": 3, "temperature": 0,
                      "stream": true, "stream_options": {"include_usage": true}});
    let parts = chunks(&server.stream("/v1/completions", &body).await);
    let usage = &parts.last().unwrap()["usage"];
    assert_eq!(usage["prompt_tokens"], next.len());
    let cached = usage["prompt_tokens_details"]["cached_tokens"]
        .as_u64()
        .unwrap() as usize;
    // The first prompt at least (and any of its reply that the new tokens
    // happen to repeat), never the last token, which gives the logits.
    assert!((first.len()..next.len()).contains(&cached), "{usage}");
}

/// 3 x B greedy streams at once: each gets exactly what it gets alone, and
/// what the engine gives it directly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_streams_each_get_their_solo_result() {
    for batch in [4usize, 8] {
        let server = TestServer::start(Options {
            batch,
            ..Options::default()
        })
        .await;
        let requests: Vec<(Vec<TokenId>, usize)> = (0..3 * batch)
            .map(|i| {
                (
                    common::prompt(2 + (i * 5) % 17, 40 + i as u32, VOCAB),
                    6 + (i * 7) % 25,
                )
            })
            .collect();
        let body = |i: usize| {
            json!({"prompt": ids(&requests[i].0), "max_tokens": requests[i].1,
                   "temperature": 0, "stream": true,
                   "stream_options": {"include_usage": true}})
        };
        let mut solo = Vec::new();
        for i in 0..requests.len() {
            solo.push(chunks(&server.stream("/v1/completions", &body(i)).await));
        }
        let together: Vec<Vec<Value>> = join_all((0..requests.len()).map(|i| {
            let server = &server;
            async move { chunks(&server.stream("/v1/completions", &body(i)).await) }
        }))
        .await;
        let direct = direct_greedy(&requests);
        for i in 0..requests.len() {
            let text = streamed_text(&together[i]);
            assert_eq!(
                text,
                streamed_text(&solo[i]),
                "B={batch}: request {i}: {:?}",
                solo[i]
            );
            assert_eq!(text, direct[i].0, "B={batch}: request {i} vs the engine");
            let usage = &together[i].last().unwrap()["usage"];
            assert_eq!(usage["completion_tokens"], direct[i].1, "B={batch}: {i}");
        }
        let m = server.metrics().await;
        let finished = metric_value(&m, "iree_llm_requests_total{outcome=\"stop\"}")
            + metric_value(&m, "iree_llm_requests_total{outcome=\"length\"}");
        assert_eq!(finished as usize, 6 * batch);
        assert_eq!(metric_value(&m, "iree_llm_active_slots"), 0.0);
        assert_eq!(metric_value(&m, "iree_llm_slots"), batch as f64);
        let tokens: usize = direct.iter().map(|d| d.1).sum();
        assert_eq!(
            metric_value(&m, "iree_llm_generated_tokens_total") as usize,
            2 * tokens
        );
        let with_tokens = direct.iter().filter(|d| d.1 > 0).count();
        assert_eq!(
            metric_value(&m, "iree_llm_time_to_first_token_seconds_count") as usize,
            2 * with_tokens
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_strings_cut_the_text_and_are_never_sent_even_across_chunks() {
    let server = TestServer::start(Options::default()).await;
    let prompt = ids(&common::prompt(6, 77, VOCAB));
    let base = json!({"prompt": prompt, "max_tokens": 40, "temperature": 0, "stream": true});
    let free = chunks(&server.stream("/v1/completions", &base).await);
    let pieces = chunk_texts(&free);
    let full = pieces.concat();
    // A stop string made of the end of one chunk and the start of the next,
    // whose first occurrence in the text straddles that chunk boundary.
    let mut boundary = 0;
    let mut pick = None;
    for k in 0..pieces.len() - 1 {
        boundary += pieces[k].len();
        let (a, b) = (&pieces[k], &pieces[k + 1]);
        let head: String = a
            .chars()
            .rev()
            .take(2)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let tail: String = b.chars().take(2).collect();
        let stop = format!("{head}{tail}");
        let at = full.find(&stop).unwrap();
        if at < boundary && at + stop.len() > boundary && at > 0 {
            pick = Some((stop, at));
            break;
        }
    }
    let (stop, at) = pick.expect("some chunk boundary can be straddled");
    let want = &full[..at];

    let mut with_stop = base.clone();
    with_stop["stop"] = json!(["never-appears-here", stop]);
    let chunks = chunks(&server.stream("/v1/completions", &with_stop).await);
    for c in chunk_texts(&chunks) {
        assert!(!c.contains(&stop), "chunk {c:?} leaks the stop string");
    }
    assert_eq!(streamed_text(&chunks), want);
    assert_eq!(streamed_finish_reason(&chunks), "stop");

    with_stop["stream"] = json!(false);
    with_stop["stop"] = json!(stop);
    let (status, whole) = server.post("/v1/completions", &with_stop).await;
    assert_eq!(status, 200);
    assert_eq!(completion_text(&whole), want);
    assert_eq!(whole["choices"][0]["finish_reason"], "stop");
    let used = whole["usage"]["completion_tokens"].as_u64().unwrap();
    assert!(used >= 1 && (used as usize) < 40, "{used}");

    // The engine stopped generating it: its slot is free again.
    assert!(
        eventually(Duration::from_secs(5), || async {
            server.metric("iree_llm_active_slots").await == 0.0
        })
        .await
    );
    assert_eq!(
        server
            .metric("iree_llm_requests_total{outcome=\"cancelled\"}")
            .await,
        0.0,
        "a stop string is a stop, not a cancellation"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reported_seed_reproduces_a_sampled_output() {
    let server = TestServer::start(Options::default()).await;
    let body = json!({"prompt": "The story of the", "max_tokens": 24, "temperature": 1.0,
                      "top_p": 0.95});
    let (_, first) = server.post("/v1/completions", &body).await;
    let seed = first["seed"].as_u64().expect("the seed is reported");
    assert!(
        seed < 1 << 53,
        "fresh seeds survive JSON parsers that use doubles"
    );
    let mut again = body.clone();
    again["seed"] = json!(seed);
    let (_, second) = server.post("/v1/completions", &again).await;
    assert_eq!(second["seed"], seed);
    assert_eq!(completion_text(&second), completion_text(&first));

    // A given seed is reported as given, streamed or not, with equal text.
    again["seed"] = json!(42);
    let (_, a) = server.post("/v1/completions", &again).await;
    assert_eq!(a["seed"], 42);
    again["stream"] = json!(true);
    let chunks = chunks(&server.stream("/v1/completions", &again).await);
    assert!(chunks.iter().all(|c| c["seed"] == 42));
    assert_eq!(streamed_text(&chunks), completion_text(&a));
}

struct Bad {
    path: &'static str,
    body: String,
    status: u16,
    param: Option<&'static str>,
    /// Text the message must contain.
    says: &'static str,
}

fn bad(
    path: &'static str,
    body: Value,
    status: u16,
    param: &'static str,
    says: &'static str,
) -> Bad {
    Bad {
        path,
        body: body.to_string(),
        status,
        param: Some(param),
        says,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_an_openai_error_and_hurts_nobody_else() {
    let server = TestServer::start(Options::default()).await;
    let c = "/v1/completions";
    let chat = "/v1/chat/completions";
    let hi = json!([{"role": "user", "content": "hi"}]);
    let long_prompt = ids(&common::prompt(130, 3, VOCAB));
    let cases = vec![
        Bad {
            path: c,
            body: "{\"prompt\": \"x\",".into(),
            status: 400,
            param: None,
            says: "not valid JSON",
        },
        Bad {
            path: chat,
            body: "[1, 2]".into(),
            status: 400,
            param: None,
            says: "JSON object",
        },
        bad(
            c,
            json!({"prompt": "x", "temperature": "hot"}),
            400,
            "temperature",
            "invalid type",
        ),
        bad(
            c,
            json!({"prompt": "x", "max_tokens": "many"}),
            400,
            "max_tokens",
            "invalid type",
        ),
        bad(
            c,
            json!({"prompt": "x", "stream": 1}),
            400,
            "stream",
            "invalid type",
        ),
        bad(
            c,
            json!({"prompt": "x", "temperature": -0.5}),
            400,
            "temperature",
            ">= 0",
        ),
        bad(
            c,
            json!({"prompt": "x", "top_p": 1.5}),
            400,
            "top_p",
            "(0, 1]",
        ),
        bad(
            c,
            json!({"prompt": "x", "top_p": 0}),
            400,
            "top_p",
            "(0, 1]",
        ),
        bad(
            c,
            json!({"prompt": "x", "min_p": 1}),
            400,
            "min_p",
            "[0, 1)",
        ),
        bad(
            c,
            json!({"prompt": "x", "top_k": -5}),
            400,
            "top_k",
            "got -5",
        ),
        bad(
            c,
            json!({"prompt": "x", "max_tokens": 0}),
            400,
            "max_tokens",
            "at least 1",
        ),
        bad(
            c,
            json!({"prompt": "x", "seed": -1}),
            400,
            "seed",
            "invalid value",
        ),
        bad(
            c,
            json!({"prompt": "x", "stop": [1]}),
            400,
            "stop",
            "list of strings",
        ),
        bad(c, json!({"prompt": ""}), 400, "prompt", "empty"),
        bad(c, json!({"prompt": []}), 400, "prompt", "empty"),
        bad(c, json!({"max_tokens": 3}), 400, "prompt", "required"),
        bad(chat, json!({"messages": []}), 400, "messages", "empty"),
        bad(
            chat,
            json!({"messages": [{"role": "user"}]}),
            400,
            "messages[0].content",
            "required",
        ),
        bad(
            chat,
            json!({"messages": [{"role": "bot", "content": "x"}]}),
            400,
            "messages[0].role",
            "bot",
        ),
        bad(
            c,
            json!({"prompt": long_prompt}),
            400,
            "prompt",
            "(130 tokens)",
        ),
        bad(
            c,
            json!({"prompt": [1, 2, 3], "max_tokens": 126}),
            400,
            "max_tokens",
            "the prompt (3 tokens) plus max_tokens (126) is 129 tokens, more than the context capacity of 128",
        ),
        bad(
            chat,
            json!({"messages": hi, "max_completion_tokens": 500}),
            400,
            "max_completion_tokens",
            "capacity of 128",
        ),
        bad(
            c,
            json!({"prompt": [1, 99999]}),
            400,
            "prompt",
            "outside the vocabulary",
        ),
        bad(
            c,
            json!({"prompt": "x", "model": "gpt-4"}),
            404,
            "model",
            "gpt-4",
        ),
        bad(
            chat,
            json!({"messages": hi, "model": "llama"}),
            404,
            "model",
            "does not exist",
        ),
        bad(
            chat,
            json!({"messages": hi, "n": 5}),
            400,
            "n",
            "n must be from 1 to 4",
        ),
        bad(c, json!({"prompt": "x", "n": 0}), 400, "n", "at least 1"),
        bad(
            c,
            json!({"prompt": "x", "best_of": 3}),
            400,
            "best_of",
            "not supported",
        ),
        bad(
            chat,
            json!({"messages": hi, "top_logprobs": 2}),
            400,
            "top_logprobs",
            "needs `logprobs: true`",
        ),
        bad(
            c,
            json!({"prompt": "x", "logprobs": 21}),
            400,
            "logprobs",
            "[0, 20]",
        ),
        bad(
            chat,
            json!({"messages": hi, "tools": [{"type": "function", "function": {"name": "f"}}]}),
            400,
            "tools",
            "not supported",
        ),
        bad(
            chat,
            json!({"messages": hi, "response_format": {"type": "json_object"}}),
            400,
            "response_format",
            "not supported",
        ),
        bad(
            c,
            json!({"prompt": "x", "presence_penalty": 2.5}),
            400,
            "presence_penalty",
            "[-2, 2]",
        ),
        bad(
            chat,
            json!({"messages": hi, "frequency_penalty": -3}),
            400,
            "frequency_penalty",
            "[-2, 2]",
        ),
        bad(
            c,
            json!({"prompt": "x", "repetition_penalty": 0}),
            400,
            "repetition_penalty",
            "> 0",
        ),
        bad(
            c,
            json!({"prompt": "x", "logit_bias": {"5": 101}}),
            400,
            "logit_bias",
            "[-100, 100]",
        ),
        bad(
            chat,
            json!({"messages": hi, "logit_bias": {"512": 1}}),
            400,
            "logit_bias",
            "outside the vocabulary",
        ),
    ];

    // A long stream runs while the bad requests come in; it must be unaffected.
    let long = json!({"prompt": ids(&common::prompt(4, 5, VOCAB)), "max_tokens": 100,
                      "temperature": 0, "stream": true});
    let solo = streamed_text(&chunks(&server.stream(c, &long).await));
    let running = server.stream(c, &long);
    let checks = async {
        for case in &cases {
            let resp = server.post_raw(case.path, &case.body).await;
            let status = resp.status().as_u16();
            let body: Value = resp.json().await.unwrap();
            assert_eq!(status, case.status, "{} -> {body}", case.body);
            let err = &body["error"];
            assert!(err["type"].is_string(), "{body}");
            assert!(err.get("code").is_some());
            assert_eq!(err["param"].as_str(), case.param, "{} -> {body}", case.body);
            let message = err["message"].as_str().unwrap();
            assert!(message.contains(case.says), "{} -> {message}", case.body);
        }
    };
    let (stream, ()) = tokio::join!(running, checks);
    assert_eq!(streamed_text(&chunks(&stream)), solo);

    // Unknown endpoints and methods are OpenAI-shaped too.
    let (status, text) = server.get("/v1/nothing").await;
    assert_eq!(status, 404);
    assert!(serde_json::from_str::<Value>(&text).unwrap()["error"].is_object());
    let (status, _) = server.get("/v1/completions").await;
    assert_eq!(status, 405);

    // Neutral values of the fields still unsupported are accepted.
    let (status, body) = server
        .post(
            chat,
            &json!({"messages": hi, "max_tokens": 3, "n": 1, "logprobs": false,
                    "presence_penalty": 0, "frequency_penalty": 0.0, "logit_bias": {},
                    "tools": [], "response_format": {"type": "text"}, "user": "me",
                    "best_of": null}),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    // The server is still up and every refusal was counted.
    let (status, _) = server.get("/health").await;
    assert_eq!(status, 200);
    let rejected = server
        .metric("iree_llm_requests_total{outcome=\"rejected\"}")
        .await;
    assert_eq!(rejected as usize, cases.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_answers_429_with_retry_after() {
    let server = TestServer::start(Options {
        batch: 4,
        max_queue: 2,
        ..Options::default()
    })
    .await;
    server
        .control
        .paused
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let body = json!({"prompt": [1, 2, 3], "max_tokens": 5, "temperature": 0, "stream": true});
    // Streaming responses start once the engine accepted the request.
    let mut queued = Vec::new();
    for _ in 0..2 {
        let resp = server.post_raw("/v1/completions", &body.to_string()).await;
        assert_eq!(resp.status(), 200);
        queued.push(resp);
    }
    let resp = server.post_raw("/v1/completions", &body.to_string()).await;
    assert_eq!(resp.status(), 429);
    assert_eq!(resp.headers()["retry-after"], "1");
    let err: Value = resp.json().await.unwrap();
    assert_eq!(err["error"]["type"], "rate_limit_error");
    assert_eq!(err["error"]["code"], "queue_full");
    assert_eq!(server.metric("iree_llm_queue_depth").await, 2.0);

    server
        .control
        .paused
        .store(false, std::sync::atomic::Ordering::SeqCst);
    for resp in queued {
        let data = harness::sse_data(&resp.text().await.unwrap());
        streamed_finish_reason(&chunks(&data));
    }
    let (status, _) = server
        .post(
            "/v1/completions",
            &json!({"prompt": [1, 2], "max_tokens": 2}),
        )
        .await;
    assert_eq!(status, 200, "the queue has room again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_an_api_key_requests_without_it_get_401() {
    let server = TestServer::start(Options {
        api_key: Some("sk-test-123".into()),
        ..Options::default()
    })
    .await;
    let body = json!({"prompt": [1, 2, 3], "max_tokens": 2}).to_string();
    let url = server.url("/v1/completions");
    for auth in [
        None,
        Some("Bearer wrong"),
        Some("sk-test-123"),
        Some("Basic sk-test-123"),
    ] {
        let mut req = server
            .client
            .post(&url)
            .header("content-type", "application/json")
            .body(body.clone());
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let resp = req.send().await.unwrap();
        assert_eq!(resp.status(), 401, "{auth:?}");
        assert_eq!(resp.headers()["www-authenticate"], "Bearer");
        let err: Value = resp.json().await.unwrap();
        assert_eq!(err["error"]["code"], "invalid_api_key");
    }
    let resp = server
        .client
        .get(server.url("/v1/models"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 401);
    // With the key (the harness sends it) everything works.
    let (status, _) = server
        .post(
            "/v1/completions",
            &json!({"prompt": [1, 2, 3], "max_tokens": 2}),
        )
        .await;
    assert_eq!(status, 200);
    // Probes and scrapers need no key.
    for path in ["/health", "/metrics"] {
        let resp = server.client.get(server.url(path)).send().await.unwrap();
        assert_eq!(resp.status(), 200, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_mid_stream_has_its_slot_freed() {
    let server = TestServer::start(Options::default()).await;
    // Slow steps so the request is surely still running when we leave.
    server
        .control
        .step_delay_ms
        .store(20, std::sync::atomic::Ordering::SeqCst);
    let body = json!({"prompt": [1, 2, 3], "max_tokens": 100, "temperature": 0, "stream": true});
    let mut resp = server.post_raw("/v1/completions", &body.to_string()).await;
    assert_eq!(resp.status(), 200);
    let first = tokio::time::timeout(Duration::from_secs(10), resp.chunk())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(first.starts_with(b"data: "));
    assert_eq!(server.metric("iree_llm_active_slots").await, 1.0);
    drop(resp);

    let freed = eventually(Duration::from_secs(10), || async {
        let m = server.metrics().await;
        metric_value(&m, "iree_llm_active_slots") == 0.0
            && metric_value(&m, "iree_llm_requests_total{outcome=\"cancelled\"}") == 1.0
    })
    .await;
    assert!(freed, "{}", server.metrics().await);
    let generated = server.metric("iree_llm_generated_tokens_total").await;
    assert!(
        generated < 100.0,
        "generation stopped early ({generated} tokens)"
    );
    // And the slot serves the next request.
    server
        .control
        .step_delay_ms
        .store(0, std::sync::atomic::Ordering::SeqCst);
    let (status, _) = server
        .post(
            "/v1/completions",
            &json!({"prompt": [1, 2], "max_tokens": 2}),
        )
        .await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn models_health_and_metrics_describe_the_server() {
    let server = TestServer::start(Options::default()).await;
    let (status, models) = server.get("/v1/models").await;
    assert_eq!(status, 200);
    let models: Value = serde_json::from_str(&models).unwrap();
    assert_eq!(models["object"], "list");
    assert_eq!(models["data"][0]["id"], "tiny");
    assert_eq!(models["data"][0]["object"], "model");
    assert_eq!(models["data"][0]["max_model_len"], CAPACITY);
    assert_eq!(models["data"][0]["max_logprobs"], 20);
    let (status, _) = server.get("/v1/models/tiny").await;
    assert_eq!(status, 200);
    let (status, _) = server.get("/v1/models/other").await;
    assert_eq!(status, 404);

    let (status, health) = server.get("/health").await;
    assert_eq!(status, 200);
    let health: Value = serde_json::from_str(&health).unwrap();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["slots"], 4);

    let resp = server
        .client
        .get(server.url("/metrics"))
        .send()
        .await
        .unwrap();
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = resp.text().await.unwrap();
    for family in [
        "iree_llm_requests_total",
        "iree_llm_queue_depth",
        "iree_llm_active_slots",
        "iree_llm_time_to_first_token_seconds",
        "iree_llm_inter_token_latency_seconds",
        "iree_llm_generated_tokens_total",
    ] {
        assert!(text.contains(&format!("# HELP {family} ")), "{family}");
        assert!(text.contains(&format!("# TYPE {family} ")), "{family}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_gives_up_on_a_non_streamed_request_has_its_slot_freed() {
    let server = TestServer::start(Options::default()).await;
    server
        .control
        .step_delay_ms
        .store(20, std::sync::atomic::Ordering::SeqCst);
    let body = json!({"prompt": [1, 2, 3], "max_tokens": 100, "temperature": 0});
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let result = impatient
        .post(server.url("/v1/completions"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await;
    assert!(result.unwrap_err().is_timeout());
    let freed = eventually(Duration::from_secs(10), || async {
        let m = server.metrics().await;
        metric_value(&m, "iree_llm_active_slots") == 0.0
            && metric_value(&m, "iree_llm_requests_total{outcome=\"cancelled\"}") == 1.0
    })
    .await;
    assert!(freed, "{}", server.metrics().await);
    assert!(server.metric("iree_llm_generated_tokens_total").await < 100.0);
}
