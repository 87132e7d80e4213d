//! Chat messages to prompt text.
//!
//! With a chat template (`chat_template` in `tokenizer_config.json`, or
//! `chat_template.jinja`), the messages are rendered with minijinja the way
//! transformers' `apply_chat_template` does: `trim_blocks` and
//! `lstrip_blocks` on, Python string and dict methods available (minijinja's
//! pycompat), `raise_exception(msg)` defined, and the context holding
//! `messages`, `add_generation_prompt = true` and the special-token strings
//! (`bos_token`, `eos_token`, `pad_token`, `unk_token`) of the tokenizer
//! config. The rendered text already contains the special tokens the template
//! wants, so it is tokenized without adding any ([`ChatPrompt::add_special_tokens`]
//! is false).
//!
//! Without a template, the **fallback format** is one line per message,
//! `"{role}: {content}\n"`, followed by `"assistant: "`, tokenized with the
//! tokenizer's special tokens (e.g. BOS) added as for a plain completion.

use std::collections::BTreeMap;

use minijinja::{Environment, Error, ErrorKind, Value};

use crate::tokenizer::TokenizerConfig;

/// One chat message, already flattened to text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// `system`, `user` or `assistant` (`developer` is passed as `system`).
    pub role: String,
    pub content: String,
    /// The optional participant name, passed to the template as `name`.
    pub name: Option<String>,
}

/// A rendered chat prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatPrompt {
    pub text: String,
    /// Whether tokenizing `text` should add the tokenizer's special tokens.
    pub add_special_tokens: bool,
}

/// Why a chat template could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    #[error("the model's chat template does not compile: {0:#}")]
    Compile(Error),
    /// The template refused the conversation (`raise_exception`) or failed.
    #[error("the chat template could not render these messages: {0}")]
    Render(String),
}

const TEMPLATE_NAME: &str = "chat_template";

/// Renders chat messages with the model's template, or the fallback format.
#[derive(Debug)]
pub struct ChatFormatter {
    /// `None`: the fallback format.
    env: Option<Environment<'static>>,
    special: BTreeMap<&'static str, String>,
}

impl ChatFormatter {
    /// Compiles the template of `config`, if it has one.
    pub fn new(config: Option<&TokenizerConfig>) -> Result<Self, ChatError> {
        let mut special = BTreeMap::new();
        if let Some(c) = config {
            for (key, v) in [
                ("bos_token", &c.bos_token),
                ("eos_token", &c.eos_token),
                ("pad_token", &c.pad_token),
                ("unk_token", &c.unk_token),
            ] {
                if let Some(v) = v {
                    special.insert(key, v.clone());
                }
            }
        }
        let env = match config.and_then(|c| c.chat_template.clone()) {
            None => None,
            Some(source) => Some(Self::environment(source).map_err(ChatError::Compile)?),
        };
        Ok(ChatFormatter { env, special })
    }

    fn environment(source: String) -> Result<Environment<'static>, Error> {
        let mut env = Environment::new();
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .build()?,
        );
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.add_function("raise_exception", |msg: String| -> Result<Value, Error> {
            Err(Error::new(ErrorKind::InvalidOperation, msg))
        });
        env.add_template_owned(TEMPLATE_NAME, source)?;
        Ok(env)
    }

    /// Whether the model's own template is used (false: the fallback format).
    pub fn has_template(&self) -> bool {
        self.env.is_some()
    }

    /// The prompt text for `messages`, ending where the assistant's reply starts.
    pub fn render(&self, messages: &[Message]) -> Result<ChatPrompt, ChatError> {
        let Some(env) = &self.env else {
            let mut text = String::new();
            for m in messages {
                text.push_str(&m.role);
                text.push_str(": ");
                text.push_str(&m.content);
                text.push('\n');
            }
            text.push_str("assistant: ");
            return Ok(ChatPrompt {
                text,
                add_special_tokens: true,
            });
        };
        let messages: Vec<Value> = messages
            .iter()
            .map(|m| {
                let mut map = BTreeMap::new();
                map.insert("role", Value::from(m.role.as_str()));
                map.insert("content", Value::from(m.content.as_str()));
                if let Some(name) = &m.name {
                    map.insert("name", Value::from(name.as_str()));
                }
                Value::from(map)
            })
            .collect();
        let mut ctx: BTreeMap<&str, Value> = self
            .special
            .iter()
            .map(|(k, v)| (*k, Value::from(v.as_str())))
            .collect();
        ctx.insert("messages", Value::from(messages));
        ctx.insert("add_generation_prompt", Value::from(true));
        let template = env
            .get_template(TEMPLATE_NAME)
            .map_err(|e| ChatError::Render(e.to_string()))?;
        let text = template.render(Value::from(ctx)).map_err(|e| {
            // raise_exception's message is the useful part for the client.
            let msg = match e.kind() {
                ErrorKind::InvalidOperation => e.detail().unwrap_or("").to_string(),
                _ => e.to_string(),
            };
            ChatError::Render(if msg.is_empty() { e.to_string() } else { msg })
        })?;
        Ok(ChatPrompt {
            text,
            add_special_tokens: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(role: &str, content: &str) -> Message {
        Message {
            role: role.into(),
            content: content.into(),
            name: None,
        }
    }

    fn config(template: &str) -> TokenizerConfig {
        TokenizerConfig {
            chat_template: Some(template.into()),
            bos_token: Some("<s>".into()),
            eos_token: Some("</s>".into()),
            ..Default::default()
        }
    }

    #[test]
    fn the_llama3_template_renders_as_transformers_does() {
        let f = ChatFormatter::new(Some(&config(crate::preset::LLAMA3_CHAT_TEMPLATE))).unwrap();
        let p = f
            .render(&[msg("system", "Be brief."), msg("user", " Hi! ")])
            .unwrap();
        assert_eq!(
            p.text,
            "<s><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>\
             <|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>\
             <|start_header_id|>assistant<|end_header_id|>\n\n"
        );
        assert!(!p.add_special_tokens);
    }

    #[test]
    fn without_a_template_the_fallback_format_is_used() {
        let f = ChatFormatter::new(None).unwrap();
        assert!(!f.has_template());
        let p = f
            .render(&[msg("system", "Be brief."), msg("user", "Hi")])
            .unwrap();
        assert_eq!(p.text, "system: Be brief.\nuser: Hi\nassistant: ");
        assert!(p.add_special_tokens);
    }

    #[test]
    fn python_methods_and_whitespace_control_work_as_in_transformers() {
        let t = "{% for m in messages %}\n{{ m['role'].upper() }}={{ m.content.strip() }};\n  {% endfor %}";
        let f = ChatFormatter::new(Some(&config(t))).unwrap();
        assert_eq!(f.render(&[msg("user", "  x ")]).unwrap().text, "USER=x;\n");
    }

    #[test]
    fn raise_exception_becomes_a_render_error_with_its_message() {
        let t = "{% if messages[0]['role'] != 'user' %}{{ raise_exception('Conversation must start with user') }}{% endif %}ok";
        let f = ChatFormatter::new(Some(&config(t))).unwrap();
        let err = f.render(&[msg("assistant", "x")]).unwrap_err();
        assert!(
            err.to_string()
                .contains("Conversation must start with user"),
            "{err}"
        );
        assert_eq!(f.render(&[msg("user", "x")]).unwrap().text, "ok");
    }

    #[test]
    fn a_broken_template_is_reported_at_startup() {
        assert!(matches!(
            ChatFormatter::new(Some(&config("{% for %}"))),
            Err(ChatError::Compile(_))
        ));
    }
}
