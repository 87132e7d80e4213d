//! The tokenizer wrapper and the synthesized preset tokenizers: loading,
//! round trips, special tokens, tokenizer_config.json, and streaming decode.

use iree_llm::TokenId;
use iree_llm::preset::{LLAMA3_CHAT_TEMPLATE, Preset, special_token_id, synth_tokenizer};
use iree_llm::tokenizer::{Tokenizer, TokenizerConfig};
use proptest::prelude::*;
use std::sync::OnceLock;

/// The tiny preset's tokenizer, built once for all tests.
fn tiny() -> &'static Tokenizer {
    static TOK: OnceLock<(tempfile::TempDir, Tokenizer)> = OnceLock::new();
    &TOK.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        synth_tokenizer(&Preset::Tiny.config(), dir.path()).unwrap();
        let tok = Tokenizer::from_dir(dir.path()).unwrap();
        (dir, tok)
    })
    .1
}

#[test]
fn tiny_tokenizer_vocab_matches_the_config_and_specials_match_bos_eos() {
    let cfg = Preset::Tiny.config();
    let tok = tiny();
    assert_eq!(tok.vocab_size(), cfg.vocab_size);
    let id = |s: &str| tok.token_to_id(s).unwrap_or_else(|| panic!("{s} missing"));
    assert_eq!(Some(id("<|begin_of_text|>")), cfg.bos_token_id);
    assert!(cfg.eos_token_ids.contains(&id("<|end_of_text|>")));
    assert!(cfg.eos_token_ids.contains(&id("<|eot_id|>")));
    assert!(cfg.eos_token_ids.contains(&id("<|eom_id|>")));
    for s in ["<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"] {
        assert_eq!(Some(id(s)), special_token_id(&cfg, s));
        assert!(tok.is_special(id(s)));
    }
    assert_eq!(tok.special_tokens().len(), 11);
    assert_eq!(tok.bos_id(), cfg.bos_token_id);
    assert_eq!(tok.eos_id(), Some(id("<|eot_id|>")));
    // Every id below BOS is a regular token; most are multi-byte.
    let multi = (0..501)
        .filter(|&i| tok.decode(&[TokenId(i)]).unwrap().len() > 1)
        .count();
    assert!(multi >= 240, "{multi} multi-byte tokens");
}

#[test]
fn llama_3_2_1b_tokenizer_has_the_real_special_ids() {
    let cfg = Preset::Llama32_1B.config();
    let dir = tempfile::tempdir().unwrap();
    synth_tokenizer(&cfg, dir.path()).unwrap();
    let tok = Tokenizer::from_dir(dir.path()).unwrap();
    assert_eq!(tok.vocab_size(), 128256);
    for (s, i) in [
        ("<|begin_of_text|>", 128000),
        ("<|end_of_text|>", 128001),
        ("<|start_header_id|>", 128006),
        ("<|end_header_id|>", 128007),
        ("<|eom_id|>", 128008),
        ("<|eot_id|>", 128009),
        ("<|reserved_special_token_3|>", 128011),
        ("<|reserved_special_token_247|>", 128255),
    ] {
        assert_eq!(tok.token_to_id(s), Some(TokenId(i)), "{s}");
    }
    let text = "The model answered: hello world, 1234!";
    let ids = tok.encode(text, false).unwrap();
    assert!(
        ids.len() < text.len() / 2,
        "{} tokens for {} bytes",
        ids.len(),
        text.len()
    );
    assert_eq!(tok.decode(&ids).unwrap(), text);
}

#[test]
fn encode_adds_bos_only_when_asked_and_decode_skips_specials() {
    let tok = tiny();
    let bos = tok.token_to_id("<|begin_of_text|>").unwrap();
    let plain = tok.encode("the cat", false).unwrap();
    let with = tok.encode("the cat", true).unwrap();
    assert_eq!(with[0], bos);
    assert_eq!(&with[1..], &plain[..]);
    assert_eq!(tok.decode(&with).unwrap(), "the cat");
    assert_eq!(
        tok.decode_with(&with, false).unwrap(),
        "<|begin_of_text|>the cat"
    );
    // Special tokens written in text are recognised as such.
    let chat = tok
        .encode(
            "<|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>",
            false,
        )
        .unwrap();
    assert_eq!(chat[0], tok.token_to_id("<|start_header_id|>").unwrap());
    assert_eq!(
        *chat.last().unwrap(),
        tok.token_to_id("<|eot_id|>").unwrap()
    );
    // Common words are single tokens.
    assert_eq!(tok.encode(" the", false).unwrap().len(), 1);
}

#[test]
fn round_trips_fixed_texts() {
    let tok = tiny();
    for text in [
        "",
        "Hello, world!",
        "  leading and trailing spaces  ",
        "tabs\tand\nnew\r\nlines",
        "naïve café — “quotes” ½ € 𝄞 日本語のテキスト 🦙🦙",
        "\u{0}\u{1}\u{7f} control bytes",
        "1234567890 + 3.14159 = ?",
    ] {
        let ids = tok.encode(text, false).unwrap();
        assert_eq!(tok.decode(&ids).unwrap(), text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn round_trips_arbitrary_text(text in "\\PC{0,40}|[a-z ]{0,60}|.{0,20}") {
        let tok = tiny();
        let ids = tok.encode(&text, false).unwrap();
        prop_assert_eq!(tok.decode(&ids).unwrap(), text);
    }

    /// Streaming any id sequence (including ones that split or break UTF-8
    /// characters) yields exactly the full decode, and never a partial
    /// character in between.
    #[test]
    fn stream_decoding_equals_full_decoding(ids in proptest::collection::vec(0u32..512, 0..40)) {
        let tok = tiny();
        let ids: Vec<TokenId> = ids.into_iter().map(TokenId).collect();
        let mut dec = tok.stream_decoder();
        let mut streamed = String::new();
        for &id in &ids {
            if let Some(piece) = dec.step(id).unwrap() {
                prop_assert!(!piece.ends_with(char::REPLACEMENT_CHARACTER), "piece ends in a partial character");
                streamed.push_str(&piece);
            }
        }
        streamed.push_str(&dec.finish().unwrap());
        prop_assert_eq!(streamed, tok.decode(&ids).unwrap());
    }

    #[test]
    fn stream_decoding_of_encoded_text_gives_the_text(text in "\\PC{0,30}") {
        let tok = tiny();
        let ids = tok.encode(&text, true).unwrap();
        let mut dec = tok.stream_decoder();
        let streamed = dec.push(&ids).unwrap() + &dec.finish().unwrap();
        prop_assert_eq!(streamed, text);
    }
}

#[test]
fn stream_decoder_holds_back_split_characters() {
    let tok = tiny();
    // "é" is two bytes; with byte tokens each half alone is not text.
    let byte_id = |b: u8| {
        let table = iree_llm::preset::byte_to_char_table();
        tok.token_to_id(&table[b as usize].to_string()).unwrap()
    };
    let mut dec = tok.stream_decoder();
    assert_eq!(dec.step(byte_id(b'a')).unwrap().as_deref(), Some("a"));
    assert_eq!(dec.step(byte_id(0xC3)).unwrap(), None);
    assert_eq!(dec.step(byte_id(0xA9)).unwrap().as_deref(), Some("é"));
    // A dangling lead byte at the end is flushed by finish().
    assert_eq!(dec.step(byte_id(0xE2)).unwrap(), None);
    assert_eq!(dec.finish().unwrap(), "\u{FFFD}");
}

#[test]
fn tokenizer_config_exposes_the_chat_template_and_special_strings() {
    let dir = tempfile::tempdir().unwrap();
    synth_tokenizer(&Preset::Tiny.config(), dir.path()).unwrap();
    let tok = Tokenizer::from_dir(dir.path()).unwrap();
    let cfg = tok.config().unwrap();
    assert_eq!(cfg.bos_token.as_deref(), Some("<|begin_of_text|>"));
    assert_eq!(cfg.eos_token.as_deref(), Some("<|eot_id|>"));
    assert_eq!(tok.chat_template(), Some(LLAMA3_CHAT_TEMPLATE));

    // The template renders with minijinja into Llama 3 chat markup that
    // tokenizes into the special tokens.
    let env = minijinja::Environment::new();
    let out = env
        .render_str(
            LLAMA3_CHAT_TEMPLATE,
            minijinja::context! {
                messages => vec![
                    minijinja::context!{ role => "system", content => "Be brief." },
                    minijinja::context!{ role => "user", content => " Hi! " },
                ],
                bos_token => "<|begin_of_text|>",
                add_generation_prompt => true,
            },
        )
        .unwrap();
    assert_eq!(
        out,
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>\
         <|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>\
         <|start_header_id|>assistant<|end_header_id|>\n\n"
    );
    let ids = tok.encode(&out, false).unwrap();
    assert_eq!(ids[0], tok.bos_id().unwrap());
    assert_eq!(ids.iter().filter(|&&i| Some(i) == tok.eos_id()).count(), 2);
}

#[test]
fn tokenizer_config_variants_are_understood() {
    // Llama 2 / TinyLlama style: AddedToken objects, list-form templates.
    let v = serde_json::json!({
        "bos_token": {"__type": "AddedToken", "content": "<s>", "lstrip": false},
        "eos_token": "</s>",
        "add_bos_token": true,
        "chat_template": [
            {"name": "default", "template": "{{ messages }}"},
            {"name": "tool_use", "template": "{{ tools }}"}
        ]
    });
    let c = TokenizerConfig::from_value(v);
    assert_eq!(c.bos_token.as_deref(), Some("<s>"));
    assert_eq!(c.eos_token.as_deref(), Some("</s>"));
    assert_eq!(c.add_bos_token, Some(true));
    assert_eq!(c.chat_template.as_deref(), Some("{{ messages }}"));
    assert_eq!(c.named_chat_templates.len(), 2);

    // Newer transformers keep the template in chat_template.jinja.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tokenizer_config.json"),
        r#"{"eos_token": "</s>"}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("chat_template.jinja"), "{{ bos_token }}").unwrap();
    let c = TokenizerConfig::from_dir(dir.path()).unwrap().unwrap();
    assert_eq!(c.chat_template.as_deref(), Some("{{ bos_token }}"));
    assert!(
        TokenizerConfig::from_dir(tempfile::tempdir().unwrap().path())
            .unwrap()
            .is_none()
    );
}

#[test]
fn a_missing_tokenizer_is_a_clear_error_only_when_text_is_needed() {
    let dir = tempfile::tempdir().unwrap();
    assert!(!Tokenizer::exists_in(dir.path()));
    let e = Tokenizer::from_dir(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("tokenizer.json") && e.contains("token ids"),
        "{e}"
    );
    std::fs::write(dir.path().join("tokenizer.json"), "{}").unwrap();
    let e = Tokenizer::from_dir(dir.path()).unwrap_err().to_string();
    assert!(e.contains("tokenizer.json"), "{e}");
}

/// A Llama 2 / TinyLlama style tokenizer (SentencePiece BPE with byte
/// fallback, `▁` for spaces, a decoder that strips the first leading space),
/// built by hand: streaming must match full decoding there too.
fn sentencepiece_style() -> &'static Tokenizer {
    static TOK: OnceLock<(tempfile::TempDir, Tokenizer)> = OnceLock::new();
    &TOK.get_or_init(|| {
        let mut vocab = serde_json::Map::new();
        for (i, t) in ["<unk>", "<s>", "</s>"].iter().enumerate() {
            vocab.insert(t.to_string(), i.into());
        }
        for b in 0..256u32 {
            vocab.insert(format!("<0x{b:02X}>"), (3 + b).into());
        }
        let mut merges = Vec::new();
        let mut add = |vocab: &mut serde_json::Map<String, serde_json::Value>, a: &str, b: &str| {
            let id = vocab.len();
            vocab.insert(format!("{a}{b}"), id.into());
            merges.push(format!("{a} {b}"));
        };
        for c in "▁abcdefghijklmnopqrstuvwxyz".chars() {
            let id = vocab.len();
            vocab.insert(c.to_string(), id.into());
        }
        add(&mut vocab, "▁", "t");
        add(&mut vocab, "h", "e");
        add(&mut vocab, "▁t", "he");
        add(&mut vocab, "▁", "c");
        add(&mut vocab, "a", "t");
        add(&mut vocab, "▁c", "at");
        let json = serde_json::json!({
            "version": "1.0",
            "truncation": null,
            "padding": null,
            "added_tokens": [
                {"id": 0, "content": "<unk>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
                {"id": 1, "content": "<s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
                {"id": 2, "content": "</s>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}
            ],
            "normalizer": {"type": "Sequence", "normalizers": [
                {"type": "Prepend", "prepend": "▁"},
                {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}
            ]},
            "pre_tokenizer": null,
            "post_processor": null,
            "decoder": {"type": "Sequence", "decoders": [
                {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
                {"type": "ByteFallback"},
                {"type": "Fuse"},
                {"type": "Strip", "content": " ", "start": 1, "stop": 0}
            ]},
            "model": {"type": "BPE", "dropout": null, "unk_token": "<unk>",
                "continuing_subword_prefix": null, "end_of_word_suffix": null,
                "fuse_unk": true, "byte_fallback": true, "vocab": vocab, "merges": merges}
        });
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("tokenizer.json"), json.to_string()).unwrap();
        let tok = Tokenizer::from_dir(dir.path()).unwrap();
        (dir, tok)
    })
    .1
}

#[test]
fn sentencepiece_style_streaming_keeps_spaces_between_words() {
    let tok = sentencepiece_style();
    let ids = tok.encode("the cat sat on the mat, café", false).unwrap();
    assert_eq!(tok.decode(&ids).unwrap(), "the cat sat on the mat, café");
    let mut dec = tok.stream_decoder();
    let pieces: Vec<String> = ids.iter().filter_map(|&i| dec.step(i).unwrap()).collect();
    assert_eq!(pieces[0], "the");
    assert_eq!(pieces[1], " cat");
    assert_eq!(
        pieces.concat() + &dec.finish().unwrap(),
        "the cat sat on the mat, café"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Any mix of word pieces and byte-fallback runs that are valid UTF-8
    /// streams to the full decode. (A byte run that is not valid UTF-8 is
    /// rendered by ByteFallback as one U+FFFD per byte, valid bytes included,
    /// so its text depends on bytes that come later; that case is not exact.)
    #[test]
    fn sentencepiece_style_stream_decoding_equals_full_decoding(
        parts in proptest::collection::vec(
            prop_oneof![
                (259u32..298).prop_map(|i| vec![TokenId(i)]),
                "\\PC{1,3}".prop_map(|t| sentencepiece_style().encode(&t, false).unwrap()),
            ],
            0..20,
        )
    ) {
        let tok = sentencepiece_style();
        let ids: Vec<TokenId> = parts.concat();
        let mut dec = tok.stream_decoder();
        let mut streamed = String::new();
        for &id in &ids {
            if let Some(piece) = dec.step(id).unwrap() {
                prop_assert!(!piece.ends_with(char::REPLACEMENT_CHARACTER));
                streamed.push_str(&piece);
            }
        }
        streamed.push_str(&dec.finish().unwrap());
        prop_assert_eq!(streamed, tok.decode(&ids).unwrap());
    }
}
