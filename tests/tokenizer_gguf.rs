//! The tokenizer and chat template read from a GGUF file give the ids of the
//! model's own tokenizer: SmolLM2-135M-Instruct's (fixture made with Hugging
//! Face tokenizers by scripts/tokenizer_fixtures.py) and tiny `llama` and
//! byte-level files (ids from transformers, scripts/tokenizer_tiny_fixtures.py).

use std::path::{Path, PathBuf};

use iree_llm::serve::chat::{ChatFormatter, Message};
use iree_llm::tokenizer::{Tokenizer, TokenizerError};
use iree_llm::types::TokenId;
use serde_json::Value;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

fn json(rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture(rel)).unwrap()).unwrap()
}

fn ids(v: &Value) -> Vec<TokenId> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|i| TokenId(i.as_u64().unwrap() as u32))
        .collect()
}

fn smollm2() -> PathBuf {
    iree_llm::compile::cache_root().join("models/SmolLM2-135M-Instruct.Q4_1.gguf")
}

#[test]
#[ignore = "needs the SmolLM2 GGUF that scripts/bootstrap.sh fetches; run with --ignored"]
fn smollm2_tokenizes_the_whole_corpus_as_its_own_tokenizer() {
    let tok = Tokenizer::from_dir(&smollm2()).unwrap();
    let fx = json("smollm2/tokenizer.json");
    let cases = fx["cases"].as_array().unwrap();
    let mut wrong = Vec::new();
    for case in cases {
        let text = case["text"].as_str().unwrap();
        let expected = ids(&case["ids"]);
        let got = tok.encode(text, true).unwrap();
        if got != expected {
            wrong.push(format!(
                "{text:?}\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
        assert_eq!(tok.decode_with(&expected, false).unwrap(), text);
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases differ:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[test]
#[ignore = "needs the SmolLM2 GGUF that scripts/bootstrap.sh fetches; run with --ignored"]
fn smollm2_special_tokens_and_flags_come_from_the_file() {
    let tok = Tokenizer::from_dir(&smollm2()).unwrap();
    let fx = json("smollm2/tokenizer.json");
    let config = tok.config().unwrap();
    assert_eq!(config.bos_token.as_deref(), fx["bos_token"].as_str());
    assert_eq!(config.eos_token.as_deref(), fx["eos_token"].as_str());
    assert_eq!(config.add_bos_token, fx["add_bos_token"].as_bool());
    assert_eq!(tok.bos_id(), Some(TokenId(1)));
    assert_eq!(tok.eos_id(), Some(TokenId(2)));
    assert_eq!(tok.vocab_size() as u64, fx["vocab_size"].as_u64().unwrap());
    assert!(tok.is_special(TokenId(0)) && tok.is_special(TokenId(1)) && tok.is_special(TokenId(2)));
    assert!(Tokenizer::exists_in(&smollm2()));
}

#[test]
#[ignore = "needs the SmolLM2 GGUF that scripts/bootstrap.sh fetches; run with --ignored"]
fn smollm2_chat_template_renders_and_tokenizes_as_transformers() {
    let tok = Tokenizer::from_dir(&smollm2()).unwrap();
    let chat = ChatFormatter::new(tok.config()).unwrap();
    assert!(chat.has_template());
    let fx = json("smollm2/tokenizer.json");
    let mut checked = 0;
    for case in fx["chat"].as_array().unwrap() {
        // The server always renders up to the assistant's turn.
        if !case["add_generation_prompt"].as_bool().unwrap() {
            continue;
        }
        let messages: Vec<Message> = case["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| Message {
                role: m["role"].as_str().unwrap().into(),
                content: m["content"].as_str().unwrap().into(),
                name: None,
            })
            .collect();
        let prompt = chat.render(&messages).unwrap();
        assert_eq!(prompt.text, case["prompt"].as_str().unwrap());
        assert_eq!(
            tok.encode(&prompt.text, prompt.add_special_tokens).unwrap(),
            ids(&case["ids"])
        );
        checked += 1;
    }
    assert_eq!(checked, 2);
}

fn check_tiny(name: &str) {
    let tok = Tokenizer::from_dir(&fixture(&format!("gguf_tokenizer/{name}"))).unwrap();
    let fx = json("gguf_tokenizer/ids.json");
    let file = &fx["files"][name];
    assert_eq!(
        tok.config().unwrap().bos_token.as_deref(),
        file["bos_token"].as_str()
    );
    assert_eq!(
        tok.config().unwrap().eos_token.as_deref(),
        file["eos_token"].as_str()
    );
    for case in file["cases"].as_array().unwrap() {
        let text = case["text"].as_str().unwrap();
        let expected = ids(&case["ids"]);
        assert_eq!(tok.encode(text, true).unwrap(), expected, "ids of {text:?}");
        assert_eq!(
            tok.decode(&expected).unwrap(),
            case["decoded"].as_str().unwrap(),
            "text of {expected:?}"
        );
    }
}

#[test]
fn a_sentencepiece_gguf_tokenizes_as_transformers_with_bos_and_byte_fallback() {
    check_tiny("tiny-spm.gguf");
    let tok = Tokenizer::from_dir(&fixture("gguf_tokenizer/tiny-spm.gguf")).unwrap();
    assert_eq!(tok.config().unwrap().add_bos_token, Some(true));
    assert!(tok.chat_template().unwrap().contains("eos_token"));
}

#[test]
fn a_byte_level_gguf_with_the_llama_bpe_split_tokenizes_as_transformers() {
    check_tiny("tiny-bpe-llama-bpe.gguf");
}

#[test]
fn a_byte_level_gguf_with_the_default_split_tokenizes_as_transformers() {
    check_tiny("tiny-bpe-default.gguf");
}

#[test]
fn an_unknown_pre_tokenizer_is_an_error_naming_it() {
    use iree_llm::gguf::{GgufWriter, MetaValue};
    let dir = std::env::temp_dir().join(format!("iree-llm-tok-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("odd.gguf");
    let mut w = GgufWriter::new();
    w.meta("general.architecture", MetaValue::Str("llama".into()))
        .meta("tokenizer.ggml.model", MetaValue::Str("gpt2".into()))
        .meta("tokenizer.ggml.pre", MetaValue::Str("nonesuch".into()))
        .meta(
            "tokenizer.ggml.tokens",
            MetaValue::Array(vec![MetaValue::Str("a".into()), MetaValue::Str("b".into())]),
        )
        .meta("tokenizer.ggml.merges", MetaValue::Array(vec![]));
    w.write(&path, |_| Ok(Vec::new())).unwrap();
    let err = Tokenizer::from_dir(&path).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(err, TokenizerError::Unsupported { .. }), "{err}");
    assert!(err.to_string().contains("nonesuch"), "{err}");
}
