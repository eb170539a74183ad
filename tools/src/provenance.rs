//! [`Provenance`]: what the model read, by the origin it was read on, as
//! the words of it that carry data (see `task`, which holds calls to it).

use std::collections::{HashMap, HashSet};

use guard::Task;
use url::Url;

/// The most origins whose words are remembered, and the most words of one.
const ORIGINS_KEPT: usize = 64;
const WORDS_KEPT: usize = 20_000;

/// What the model read, by the origin it was read on.
#[derive(Debug, Default)]
pub(crate) struct Provenance {
    words: HashMap<String, HashSet<String>>,
}

impl Provenance {
    /// Remembers the data-carrying words of `text`, read on `origin`.
    pub(crate) fn read(&mut self, origin: &str, text: &str) {
        if self.words.len() >= ORIGINS_KEPT && !self.words.contains_key(origin) {
            return;
        }
        let kept = self.words.entry(origin.to_owned()).or_default();
        for word in data_words(text) {
            if kept.len() >= WORDS_KEPT {
                break;
            }
            kept.insert(word.to_lowercase());
        }
    }

    /// The first data-carrying word of `sent` read on an origin from which
    /// it may not go to `destination`, with that origin.
    pub(crate) fn astray(
        &self,
        sent: &str,
        destination: &Url,
        task: &Task,
    ) -> Option<(String, String)> {
        let to = destination.origin().ascii_serialization();
        if task.may_act(destination) {
            return None;
        }
        for word in data_words(sent) {
            let word = word.to_lowercase();
            for (origin, words) in &self.words {
                if *origin != to && words.contains(&word) {
                    return Some((origin.clone(), word));
                }
            }
        }
        None
    }

    /// The first data-carrying word of `sent` read anywhere, with its
    /// origin: for what may go anywhere (a script in the page).
    pub(crate) fn any(&self, sent: &str) -> Option<(String, String)> {
        data_words(sent).find_map(|word| {
            let word = word.to_lowercase();
            self.words
                .iter()
                .find(|(_, words)| words.contains(&word))
                .map(|(origin, _)| (origin.clone(), word))
        })
    }
}

/// The words of `text` that carry data: runs of letters, digits and
/// `@._+-` holding four digits or more, an e-mail address, or letters and
/// digits mixed in six characters or more.
pub(crate) fn data_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || "@._+-".contains(c)))
        .map(|word| word.trim_matches(|c: char| ".-_+".contains(c)))
        // (An address is where something is, not what it says.)
        .filter(|word| word.parse::<std::net::IpAddr>().is_err())
        .filter(|word| {
            let digits = word.chars().filter(char::is_ascii_digit).count();
            let letters = word.chars().filter(|c| c.is_alphabetic()).count();
            digits >= 4
                || (word.contains('@') && word.contains('.') && letters >= 3)
                || (digits > 0 && letters > 0 && word.chars().count() >= 6)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_words_are_codes_addresses_and_mixed_words() {
        let words: Vec<&str> = data_words(
            "Your code is 482913. Write to ada@mail.test, account DE44-5001-0517, ref AB12CD; the cat sat 12 times.",
        )
        .collect();
        assert_eq!(
            words,
            ["482913", "ada@mail.test", "DE44-5001-0517", "AB12CD"]
        );
    }

    #[test]
    fn words_go_back_where_they_were_read_or_to_act_origins() {
        let task = Task {
            read: vec![
                guard::TaskOrigin::parse("http://mail.test").expect("an origin"),
                guard::TaskOrigin::parse("http://forum.test").expect("an origin"),
            ],
            act: vec![guard::TaskOrigin::parse("http://shop.test").expect("an origin")],
            strict: false,
        };
        let mut read = Provenance::default();
        read.read("http://mail.test", "Your code is 482913.");
        let url = |text: &str| Url::parse(text).expect("a URL");
        assert_eq!(
            read.astray("?c=482913", &url("http://forum.test/?c=482913"), &task),
            Some(("http://mail.test".to_owned(), "482913".to_owned()))
        );
        assert_eq!(
            read.astray("482913", &url("http://shop.test/pay"), &task),
            None
        );
        assert_eq!(
            read.astray("482913", &url("http://mail.test/inbox"), &task),
            None
        );
        assert_eq!(
            read.astray("hello there", &url("http://forum.test/"), &task),
            None
        );
    }
}
