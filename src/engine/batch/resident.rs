//! What each cache slot of the batch engine holds: the tokens whose K/V sit
//! at its positions `0..n`, kept after its request has gone. A prompt that
//! starts with a free slot's tokens is admitted into that slot and
//! prefilled from position `n` only (prefix reuse, per slot, as llama.cpp's
//! server keeps each slot's prompt): a conversation's next turn, which
//! repeats the turns before it, or requests that share a system prompt,
//! skip what is still in a free slot's cache. A prefix that another slot
//! holds, running or free, is copied from it on the device
//! ([`Resident::donor`]), so a shared system prompt is prefilled once in all.
//!
//! The record follows every write to the cache: a chunk's tokens, a running
//! row's token, a copy between slots. An idle decode row feeds its slot's
//! own first token at position 0 (see [`Resident::first`]), so it rewrites
//! that position's K/V with what was there and the record holds; any other
//! write of a filler ends the record at its position. A call that failed
//! may have written anywhere in the slots it was given, so they are
//! forgotten.
//!
//! A reused position's K/V was computed by an earlier call (a chunk of
//! another length, or a decode row) rather than by this prompt's own
//! chunks: the same values up to rounding, as with any chunking of a
//! prompt. [`super::BatchEngine::set_prefix_reuse`] turns reuse off where
//! results must not depend on what ran before.

use crate::types::TokenId;

pub(super) struct Resident {
    /// Per cache slot (the spare's last), its tokens from position 0.
    held: Vec<Vec<TokenId>>,
    /// Per cache slot, when a prompt was last admitted into it.
    admitted: Vec<u64>,
    admissions: u64,
    on: bool,
}

impl Resident {
    pub(super) fn new(slots: usize) -> Self {
        Resident {
            held: vec![Vec::new(); slots],
            admitted: vec![0; slots],
            admissions: 0,
            on: true,
        }
    }

    /// Turns reuse on or off; off, nothing is offered for reuse.
    pub(super) fn set_enabled(&mut self, on: bool) {
        self.on = on;
    }

    pub(super) fn enabled(&self) -> bool {
        self.on
    }

    /// How many leading tokens of `prompt` slot `slot` holds, short of the
    /// prompt's last token: that one is always prefilled, as its logits
    /// give the first generated token.
    pub(super) fn shared(&self, slot: usize, prompt: &[TokenId]) -> usize {
        if !self.on {
            return 0;
        }
        let same = self.held[slot]
            .iter()
            .zip(prompt)
            .take_while(|(a, b)| a == b)
            .count();
        same.min(prompt.len().saturating_sub(1))
    }

    /// Where in `free` the slot is that `prompt` goes into: the one where it
    /// saves most prefill net of the record it overwrites (the tokens it
    /// reuses, less those of the record past them, which a later turn of
    /// that record's conversation would have reused); among equals, the
    /// one least recently admitted into. So a request that shares only a
    /// system prompt with a long conversation takes an empty slot rather
    /// than that conversation's, and the conversation's next turn still
    /// finds its history.
    pub(super) fn choose(&self, free: &[usize], prompt: &[TokenId]) -> Option<usize> {
        (0..free.len()).max_by_key(|&i| {
            let slot = free[i];
            let shared = self.shared(slot, prompt) as i64;
            let lost = self.held[slot].len() as i64 - shared;
            (
                shared - lost,
                std::cmp::Reverse(self.admitted[slot]),
                std::cmp::Reverse(i),
            )
        })
    }

    /// Another slot that holds more of `prompt` than `slot` does, and how
    /// much: running or free, the spare's included, as positions below a
    /// record's end are never written again while it lasts. Copying those
    /// positions into `slot` costs a device copy instead of their prefill,
    /// so a system prompt is prefilled once for all slots, not once per
    /// slot. Among equals, the lowest slot.
    pub(super) fn donor(&self, slot: usize, prompt: &[TokenId]) -> Option<(usize, usize)> {
        let own = self.shared(slot, prompt);
        (0..self.held.len())
            .filter(|&s| s != slot)
            .map(|s| (s, self.shared(s, prompt)))
            .filter(|&(_, n)| n > own)
            .max_by_key(|&(s, n)| (n, std::cmp::Reverse(s)))
    }

    /// The token an idle decode row feeds at position 0 of `slot`: the
    /// slot's own first token (token 0 for an empty slot). Position 0
    /// attends to itself only, so its K/V is rewritten as it was.
    pub(super) fn first(&self, slot: usize) -> TokenId {
        self.held[slot].first().copied().unwrap_or(TokenId(0))
    }

    /// Positions `at..at + tokens.len()` of `slot` now hold `tokens`. A
    /// write that follows the record extends it; one that rewrites the
    /// same tokens keeps it; one that differs ends it there and continues
    /// with the new tokens; one past its end leaves a gap, so it adds
    /// nothing.
    pub(super) fn wrote(&mut self, slot: usize, at: usize, tokens: &[TokenId]) {
        let held = &mut self.held[slot];
        if at > held.len() {
            return;
        }
        let same = held[at..]
            .iter()
            .zip(tokens)
            .take_while(|(a, b)| a == b)
            .count();
        if same == tokens.len() {
            return;
        }
        held.truncate(at + same);
        held.extend_from_slice(&tokens[same..]);
    }

    /// An idle row wrote `token` at position `at` of `slot`: the record
    /// holds if that is the slot's own token there, and ends at `at`
    /// otherwise (the filler's K/V is not the record's).
    pub(super) fn filled(&mut self, slot: usize, at: usize, token: TokenId) {
        let held = &mut self.held[slot];
        if held.get(at) != Some(&token) {
            held.truncate(at);
        }
    }

    /// A prompt is admitted into `slot`: positions from `len` on are about
    /// to be rewritten.
    pub(super) fn keep(&mut self, slot: usize, len: usize) {
        self.held[slot].truncate(len);
        self.admissions += 1;
        self.admitted[slot] = self.admissions;
    }

    /// `slot`'s cache may hold anything.
    pub(super) fn forget(&mut self, slot: usize) {
        self.held[slot].clear();
    }

    /// Positions `0..len` of `from` were copied to `to`.
    pub(super) fn copied(&mut self, from: usize, to: usize, len: usize) {
        let tokens = self.held[from][..len.min(self.held[from].len())].to_vec();
        self.held[to] = tokens;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ids: &[u32]) -> Vec<TokenId> {
        ids.iter().map(|&i| TokenId(i)).collect()
    }

    #[test]
    fn a_prompt_shares_its_common_prefix_with_a_slot_but_never_its_last_token() {
        let mut r = Resident::new(2);
        r.wrote(0, 0, &t(&[5, 6, 7, 8]));
        assert_eq!(r.shared(0, &t(&[5, 6, 9])), 2);
        assert_eq!(r.shared(0, &t(&[5, 6, 7, 8, 1])), 4);
        // The whole record: the last token is still prefilled.
        assert_eq!(r.shared(0, &t(&[5, 6, 7, 8])), 3);
        assert_eq!(r.shared(0, &t(&[4])), 0);
        assert_eq!(r.shared(1, &t(&[5, 6])), 0);
        r.set_enabled(false);
        assert_eq!(r.shared(0, &t(&[5, 6, 7, 8, 1])), 0);
    }

    #[test]
    fn writes_extend_keep_or_cut_the_record() {
        let mut r = Resident::new(1);
        r.wrote(0, 0, &t(&[1, 2, 3]));
        r.wrote(0, 3, &t(&[4]));
        assert_eq!(r.held[0], t(&[1, 2, 3, 4]));
        // The same tokens again: nothing after them is lost.
        r.wrote(0, 1, &t(&[2, 3]));
        assert_eq!(r.held[0], t(&[1, 2, 3, 4]));
        // A different token ends the record there and continues with it.
        r.wrote(0, 2, &t(&[9, 8]));
        assert_eq!(r.held[0], t(&[1, 2, 9, 8]));
        // Past the end: a gap, nothing added.
        r.wrote(0, 6, &t(&[7]));
        assert_eq!(r.held[0], t(&[1, 2, 9, 8]));
    }

    #[test]
    fn an_idle_row_keeps_the_record_only_when_it_rewrites_the_slots_own_token() {
        let mut r = Resident::new(1);
        r.wrote(0, 0, &t(&[3, 4, 5]));
        let first = r.first(0);
        assert_eq!(first, TokenId(3));
        r.filled(0, 0, first);
        assert_eq!(r.held[0], t(&[3, 4, 5]));
        r.filled(0, 2, TokenId(0));
        assert_eq!(r.held[0], t(&[3, 4]));
        // At the end of the record a filler adds nothing.
        r.filled(0, 2, TokenId(0));
        assert_eq!(r.held[0], t(&[3, 4]));
        r.filled(0, 0, TokenId(0));
        assert!(r.held[0].is_empty());
        assert_eq!(r.first(0), TokenId(0));
    }

    #[test]
    fn a_prompt_goes_where_it_saves_most_net_of_the_record_it_overwrites() {
        let mut r = Resident::new(3);
        let system = [1, 2, 3];
        // Slot 0: a long conversation that starts with the system prompt.
        r.keep(0, 0);
        r.wrote(0, 0, &t(&[1, 2, 3, 10, 11, 12, 13, 14, 15, 16]));
        // A new request with the same system prompt takes an empty slot.
        let other = t(&[1, 2, 3, 20, 21]);
        assert_eq!(r.choose(&[0, 1, 2], &other), Some(1));
        // The conversation's next turn goes back to its own slot.
        let turn = t(&[1, 2, 3, 10, 11, 12, 13, 14, 15, 16, 17, 30]);
        assert_eq!(r.choose(&[0, 1, 2], &turn), Some(0));
        // With only the conversation's slot free, it is taken all the same.
        assert_eq!(r.choose(&[0], &other), Some(0));
        // A short record loses less than it saves: the prompt reuses it.
        r.keep(2, 0);
        r.wrote(2, 0, &t(&[1, 2, 3, 40]));
        assert_eq!(r.choose(&[0, 1, 2], &other), Some(2));
        assert_eq!(system.len(), r.shared(2, &other));
        // Among equals, the slot least recently admitted into.
        r.keep(1, 0);
        r.wrote(1, 0, &t(&[50, 51]));
        r.keep(2, 0);
        r.wrote(2, 0, &t(&[60, 61]));
        assert_eq!(r.choose(&[2, 1], &t(&[70, 71])), Some(1));
        assert_eq!(r.choose(&[], &other), None);
    }

    #[test]
    fn copies_carry_the_record_and_failures_forget_it() {
        let mut r = Resident::new(3);
        r.wrote(0, 0, &t(&[1, 2, 3, 4]));
        r.copied(0, 1, 2);
        assert_eq!(r.held[1], t(&[1, 2]));
        r.copied(0, 2, 10);
        assert_eq!(r.held[2], t(&[1, 2, 3, 4]));
        r.keep(2, 1);
        assert_eq!(r.held[2], t(&[1]));
        r.forget(0);
        assert!(r.held[0].is_empty());
    }
}
