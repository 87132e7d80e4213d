//! Stop strings, matched on the decoded text as it grows.
//!
//! [`StopMatcher::push`] takes each new piece of text and returns what may be
//! sent to the client now. Text that could be the beginning of a stop string
//! is held back until it either completes a stop string (then it is dropped,
//! along with everything after it) or can no longer be one (then it is
//! released). So a stop string is never sent, even when it is split across
//! tokens or stream chunks, and the concatenation of everything released is
//! the generated text cut just before the first occurrence of any stop string.

/// What one [`StopMatcher::push`] released.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Released {
    /// Text that can be sent to the client.
    pub text: String,
    /// A stop string was found; `text` ends right before it and nothing more
    /// should be generated.
    pub stopped: bool,
}

/// Holds back text that may start a stop string. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct StopMatcher {
    stops: Vec<String>,
    /// Received but not yet released (always a possible start of a stop string).
    held: String,
    stopped: bool,
}

impl StopMatcher {
    /// A matcher for `stops`; empty strings are ignored (they would match
    /// before any text).
    pub fn new(stops: impl IntoIterator<Item = String>) -> Self {
        StopMatcher {
            stops: stops.into_iter().filter(|s| !s.is_empty()).collect(),
            held: String::new(),
            stopped: false,
        }
    }

    /// Adds newly decoded text; returns what can be sent now.
    pub fn push(&mut self, text: &str) -> Released {
        if self.stopped {
            return Released {
                text: String::new(),
                stopped: true,
            };
        }
        if self.stops.is_empty() {
            return Released {
                text: text.to_string(),
                stopped: false,
            };
        }
        self.held.push_str(text);
        // The earliest occurrence of any stop string ends the text.
        if let Some(at) = self.stops.iter().filter_map(|s| self.held.find(s)).min() {
            self.stopped = true;
            let mut out = std::mem::take(&mut self.held);
            out.truncate(at);
            return Released {
                text: out,
                stopped: true,
            };
        }
        // Keep the longest suffix that is a proper prefix of a stop string.
        let keep_from = self
            .held
            .char_indices()
            .map(|(i, _)| i)
            .find(|&i| {
                let tail = &self.held[i..];
                self.stops.iter().any(|s| s.starts_with(tail))
            })
            .unwrap_or(self.held.len());
        let rest = self.held.split_off(keep_from);
        Released {
            text: std::mem::replace(&mut self.held, rest),
            stopped: false,
        }
    }

    /// The end of generation: releases whatever was held back (it did not
    /// turn into a stop string).
    pub fn finish(&mut self) -> String {
        if self.stopped {
            return String::new();
        }
        std::mem::take(&mut self.held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(stops: &[&str], pieces: &[&str]) -> (Vec<String>, bool) {
        let mut m = StopMatcher::new(stops.iter().map(|s| s.to_string()));
        let mut out = Vec::new();
        for p in pieces {
            let r = m.push(p);
            out.push(r.text);
            if r.stopped {
                return (out, true);
            }
        }
        out.push(m.finish());
        (out, false)
    }

    #[test]
    fn no_stop_strings_pass_text_through_unchanged() {
        let (out, stopped) = run(&[], &["a", "b"]);
        assert_eq!(out, ["a", "b", ""]);
        assert!(!stopped);
    }

    #[test]
    fn a_stop_string_inside_one_piece_cuts_the_text_before_it() {
        let (out, stopped) = run(&["STOP"], &["hello STOP world"]);
        assert_eq!(out, ["hello "]);
        assert!(stopped);
    }

    #[test]
    fn a_stop_string_split_across_pieces_is_never_released() {
        let (out, stopped) = run(&["</end>"], &["text </", "e", "nd> more"]);
        assert!(stopped);
        assert_eq!(out.concat(), "text ");
        // The held-back part was not released early.
        assert_eq!(out[0], "text ");
        assert!(out.iter().all(|p| !p.contains('<')));
    }

    #[test]
    fn a_false_start_is_released_once_it_cannot_match() {
        let (out, stopped) = run(&["abc"], &["xa", "b", "d", "e"]);
        assert!(!stopped);
        assert_eq!(out, ["x", "", "abd", "e", ""]);
    }

    #[test]
    fn held_text_is_flushed_at_the_end() {
        let (out, stopped) = run(&["abc"], &["zab"]);
        assert!(!stopped);
        assert_eq!(out, ["z", "ab"]);
    }

    #[test]
    fn the_earliest_of_several_stop_strings_wins() {
        let (out, _) = run(&["world", "lo w"], &["hello world"]);
        assert_eq!(out, ["hel"]);
        // Overlapping candidates: "aab" must still be found after "aa".
        let (out, stopped) = run(&["aab"], &["a", "a", "a", "b", "c"]);
        assert!(stopped);
        assert_eq!(out.concat(), "a");
    }

    #[test]
    fn multibyte_text_is_cut_on_character_boundaries() {
        let (out, stopped) = run(&["é!"], &["caf", "é", "é", "!"]);
        assert!(stopped);
        assert_eq!(out.concat(), "café");
        let (out, stopped) = run(&["日本"], &["今日", "は"]);
        assert!(!stopped);
        assert_eq!(out.concat(), "今日は");
    }

    #[test]
    fn empty_stop_strings_are_ignored() {
        let (out, stopped) = run(&[""], &["abc"]);
        assert!(!stopped);
        assert_eq!(out.concat(), "abc");
    }

    /// Whatever the chunking, the released text is the full text cut before
    /// the first stop string, and no released piece contains a stop string.
    #[test]
    fn released_text_does_not_depend_on_how_the_text_is_chunked() {
        let text = "the cat sat on the mat; the end. more after";
        let stops = ["the end", "mat;", "zzz"];
        let first = stops.iter().filter_map(|s| text.find(s)).min().unwrap();
        for chunk in 1..8 {
            let pieces: Vec<&str> = text
                .as_bytes()
                .chunks(chunk)
                .map(|c| std::str::from_utf8(c).unwrap())
                .collect();
            let (out, stopped) = run(&stops, &pieces);
            assert!(stopped);
            assert_eq!(out.concat(), &text[..first], "chunk {chunk}");
        }
    }
}
