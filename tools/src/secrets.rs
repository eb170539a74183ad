//! Secrets: values a model types by name (`{{secret:NAME}}`) and never
//! reads back. What the pack types has the name replaced by the value;
//! every answer has the value, however a page may have echoed it, replaced
//! by `••••`: as it is, percent-encoded, JSON- or HTML-escaped; any part of
//! it of six characters or more (all of it when shorter), whatever its
//! case, spaced out or split by invisible characters; and every beginning
//! and ending of four or more (a page echoing keystrokes shows each
//! beginning on the way, one saying "ending in 1234" an ending).

use crate::error::ToolError;
use crate::options::Secret;

/// What a secret's value reads as in an answer.
pub(crate) const HIDDEN: &str = "••••";

/// The secrets of a pack, and the forms each value may take in what a page
/// shows or sends.
pub(crate) struct Secrets {
    names: Vec<String>,
    /// (name, value) to type.
    values: Vec<(String, String)>,
    /// Every form of every value, longest first (so a form that holds
    /// another is replaced whole).
    forms: Vec<String>,
    /// Every run of `run` characters (folded: lower case, without what a
    /// person cannot see) of every value, by the length of its secret's
    /// run: text holding a chain of them holds a part of a secret long
    /// enough to hide.
    grams: Vec<(usize, std::collections::HashSet<Vec<char>>)>,
    /// What was typed so far: which secrets, and the model's own words.
    typed: std::sync::Mutex<Typed>,
}

/// What the pack typed in a session.
#[derive(Default)]
struct Typed {
    /// Each secret typed, folded.
    secrets: Vec<Vec<char>>,
    /// The last texts the model typed with no secret in them.
    plain: std::collections::VecDeque<String>,
}

/// How many of the model's own texts are remembered as its words.
const PLAIN_KEPT: usize = 64;

/// The shortest piece of a typed secret a field's whole value is hidden
/// as (a single character says too little to hide ordinary values by).
const SHORTEST_PIECE: usize = 2;

impl Secrets {
    pub(crate) fn new(secrets: &[Secret]) -> Self {
        // Parts of the value a page may show are hidden too, down to a few
        // characters (shorter ones would hide ordinary words).
        let mut forms: Vec<String> = secrets
            .iter()
            .flat_map(|secret| parts(&secret.value))
            .flat_map(|part| forms_of(&part))
            .collect();
        forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
        forms.dedup();
        // Parts of the value itself; its encoded forms are hidden whole,
        // with their beginnings and endings (a part of "&amp;" would hide
        // ordinary words).
        let mut grams: Vec<(usize, std::collections::HashSet<Vec<char>>)> = Vec::new();
        for secret in secrets {
            let folded = fold(&secret.value);
            let run = SHORTEST_PART.min(folded.len()).max(1);
            let parts = folded.windows(run).map(<[char]>::to_vec);
            match grams.iter_mut().find(|(length, _)| *length == run) {
                Some((_, set)) => set.extend(parts),
                None => grams.push((run, parts.collect())),
            }
        }
        Self {
            names: secrets.iter().map(|secret| secret.name.clone()).collect(),
            values: secrets
                .iter()
                .map(|secret| (secret.name.clone(), secret.value.clone()))
                .collect(),
            forms,
            grams,
            typed: std::sync::Mutex::default(),
        }
    }

    /// `text` with every `{{secret:NAME}}` replaced by its value; a name
    /// that is not a secret is an error listing the names there are.
    pub(crate) fn fill_in(&self, tool: &'static str, text: &str) -> Result<String, ToolError> {
        const OPEN: &str = "{{secret:";
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(OPEN) {
            out.push_str(&rest[..start]);
            let after = &rest[start + OPEN.len()..];
            let Some(end) = after.find("}}") else {
                return Err(ToolError::bad(
                    tool,
                    "a {{secret:NAME}} is not closed with }}",
                ));
            };
            let name = after[..end].trim();
            match self.values.iter().find(|(known, _)| known == name) {
                Some((_, value)) => {
                    if let Ok(mut typed) = self.typed.lock() {
                        let folded = fold(value);
                        if !typed.secrets.contains(&folded) {
                            typed.secrets.push(folded);
                        }
                    }
                    out.push_str(value);
                }
                None => {
                    return Err(ToolError::bad(
                        tool,
                        if self.names.is_empty() {
                            format!("there is no secret {name:?}: no secrets were given (start tabwright with --secret NAME=ENV_VAR)")
                        } else {
                            format!(
                                "there is no secret {name:?}; the secrets are: {}",
                                self.names.join(", ")
                            )
                        },
                    ))
                }
            }
            rest = &after[end + 2..];
        }
        out.push_str(rest);
        if out == text {
            if let Ok(mut typed) = self.typed.lock() {
                if typed.plain.len() == PLAIN_KEPT {
                    typed.plain.pop_front();
                }
                typed.plain.push_back(out.clone());
            }
        }
        Ok(out)
    }

    /// Whether a secret was typed in this session.
    pub(crate) fn any_typed(&self) -> bool {
        self.typed
            .lock()
            .is_ok_and(|typed| !typed.secrets.is_empty())
    }

    /// A field's value as an answer shows it: `••••` where all of it is a
    /// piece of a secret typed in this session (a page that copied a
    /// secret's parts into fields of its own, or a field cut down to a
    /// piece), unless the model typed that value itself.
    pub(crate) fn hide_piece(&self, value: &mut driver_core::PageText) {
        let Ok(typed) = self.typed.lock() else {
            return;
        };
        #[allow(clippy::disallowed_methods)] // compared, never shown
        let value_words = value.untrusted();
        if typed.secrets.is_empty() || value_words == HIDDEN {
            return;
        }
        let folded = fold(value_words);
        if folded.len() < SHORTEST_PIECE || typed.plain.iter().any(|plain| plain == value_words) {
            return;
        }
        let piece = typed.secrets.iter().any(|secret| {
            secret
                .windows(folded.len())
                .any(|window| window == folded.as_slice())
        });
        if piece {
            *value = HIDDEN.into();
        }
    }

    /// Replaces every form of every secret's value in `text` by `••••`,
    /// and then every part of one long enough to hide (see the module
    /// docs).
    pub(crate) fn scrub(&self, text: &mut String) {
        for form in &self.forms {
            if text.contains(form.as_str()) {
                *text = text.replace(form.as_str(), HIDDEN);
            }
        }
        for (run, grams) in &self.grams {
            if let Some(hidden) = hide_runs(text, *run, grams) {
                *text = hidden;
            }
        }
    }
}

/// What a person typed during handoffs, hidden from the model as whole
/// words of theirs: each text, and each of its words of four characters or
/// more, wherever it stands alone (whatever its case), never as a part of
/// another word. (A secret's beginnings and parts are hidden because a page
/// echoing keys shows them; a person's ordinary words would then hide
/// every word that starts like one: "Continue" every "Cont…".)
#[derive(Default)]
pub(crate) struct PersonWords {
    /// Lower case, longest first.
    words: Vec<Vec<char>>,
}

/// The shortest word of a person's that is hidden (shorter ones would
/// hide ordinary words).
const SHORTEST_WORD: usize = 4;

impl PersonWords {
    pub(crate) fn new(typed: &[String]) -> Self {
        let mut words: Vec<Vec<char>> = typed
            .iter()
            .flat_map(|text| std::iter::once(text.trim()).chain(text.split_whitespace()))
            .map(|word| word.chars().map(lower).collect::<Vec<char>>())
            .filter(|word| word.len() >= SHORTEST_WORD)
            .collect();
        words.sort_by_key(|word| std::cmp::Reverse(word.len()));
        words.dedup();
        Self { words }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// `text` with each of the words, where it stands alone, as `••••`.
    pub(crate) fn scrub(&self, text: &mut String) {
        if self.words.is_empty() {
            return;
        }
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let lowered: Vec<char> = chars.iter().map(|(_, c)| lower(*c)).collect();
        let apart = |at: Option<usize>| {
            at.and_then(|at| chars.get(at))
                .is_none_or(|(_, c)| !c.is_alphanumeric())
        };
        let mut hidden = String::with_capacity(text.len());
        let (mut copied, mut at, mut any) = (0, 0, false);
        while at < chars.len() {
            let found = self.words.iter().find(|word| {
                lowered[at..].starts_with(word)
                    && apart(at.checked_sub(1))
                    && apart(Some(at + word.len()))
            });
            let Some(word) = found else {
                at += 1;
                continue;
            };
            let start = chars[at].0;
            let end = chars
                .get(at + word.len())
                .map_or(text.len(), |(byte, _)| *byte);
            hidden.push_str(&text[copied..start]);
            hidden.push_str(HIDDEN);
            copied = end;
            at += word.len();
            any = true;
        }
        if any {
            hidden.push_str(&text[copied..]);
            *text = hidden;
        }
    }
}

/// A character as words are compared: lower case (its first character,
/// where lowering makes several).
fn lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// Hides secrets in text the pack does not answer with (a program's own
/// logs), in every form an answer hides them in.
pub struct Scrubber(Secrets);

impl Scrubber {
    /// A scrubber of these secrets' values.
    pub fn new(secrets: &[Secret]) -> Self {
        Self(Secrets::new(secrets))
    }

    /// Whether there is nothing to hide.
    pub fn is_empty(&self) -> bool {
        self.0.values.is_empty()
    }

    /// Replaces every form of every secret in `text` by `••••`.
    pub fn scrub(&self, text: &mut String) {
        self.0.scrub(text);
    }
}

/// The shortest beginning of a secret that is hidden on its own.
const SHORTEST_HIDDEN: usize = 4;

/// The shortest part of a secret, anywhere in it, that is hidden.
const SHORTEST_PART: usize = 6;

/// Whether a person reads nothing of `c` between two letters: a space, or
/// a character page text drops or blanks (zero-width, format, control).
fn invisible(c: char) -> bool {
    c.is_whitespace() || marks::fate(c) != marks::Fate::Kept
}

/// Text as it is matched against secrets: lower case, without what a
/// person cannot see between its letters.
fn fold(text: &str) -> Vec<char> {
    text.chars()
        .filter(|c| !invisible(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// `text` with every stretch that is a chain of `grams` (runs of `run`
/// folded characters, each the next's but one character along) replaced
/// by `••••`, the invisible characters inside it too; `None` when it holds
/// none.
fn hide_runs(
    text: &str,
    run: usize,
    grams: &std::collections::HashSet<Vec<char>>,
) -> Option<String> {
    // The folded characters with where each began in `text` (a character
    // that folds to several keeps its place for each).
    let mut folded: Vec<(char, usize)> = Vec::new();
    for (at, c) in text.char_indices() {
        if invisible(c) {
            continue;
        }
        folded.extend(c.to_lowercase().map(|lower| (lower, at)));
    }
    if folded.len() < run {
        return None;
    }
    let letters: Vec<char> = folded.iter().map(|(c, _)| *c).collect();
    let mut covered = vec![false; folded.len()];
    let mut any = false;
    for start in 0..=folded.len() - run {
        if grams.contains(&letters[start..start + run]) {
            covered[start..start + run]
                .iter_mut()
                .for_each(|c| *c = true);
            any = true;
        }
    }
    if !any {
        return None;
    }
    let mut hidden = String::with_capacity(text.len());
    let mut copied = 0;
    let mut index = 0;
    while index < folded.len() {
        if !covered[index] {
            index += 1;
            continue;
        }
        let start = folded[index].1;
        while index < folded.len() && covered[index] {
            index += 1;
        }
        // To the end of the last covered character.
        let end = match folded.get(index) {
            Some((_, next)) if *next > folded[index - 1].1 => {
                let last = folded[index - 1].1;
                last + text[last..].chars().next().map_or(0, char::len_utf8)
            }
            Some((_, next)) => *next,
            None => {
                let last = folded[index - 1].1;
                last + text[last..].chars().next().map_or(0, char::len_utf8)
            }
        };
        hidden.push_str(&text[copied..start]);
        hidden.push_str(HIDDEN);
        copied = end;
    }
    hidden.push_str(&text[copied..]);
    Some(hidden)
}

/// The value and each of its beginnings and endings of at least
/// [`SHORTEST_HIDDEN`] characters (all of it, if it is shorter): a page
/// echoing keystrokes shows the beginnings on the way, one showing "ending
/// in 1234" an ending.
fn parts(value: &str) -> Vec<String> {
    let chars: Vec<char> = value.chars().collect();
    let shortest = SHORTEST_HIDDEN.min(chars.len()).max(1);
    let beginnings = (shortest..=chars.len()).map(|length| chars[..length].iter().collect());
    let endings =
        (shortest..chars.len()).map(|length| chars[chars.len() - length..].iter().collect());
    beginnings.chain(endings).collect()
}

/// The forms a value may take where a page echoes or sends it.
fn forms_of(value: &str) -> Vec<String> {
    let mut forms = vec![value.to_owned()];
    let json = serde_json::to_string(value).unwrap_or_default();
    forms.push(json.trim_matches('"').to_owned());
    forms.push(
        value
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&#39;"),
    );
    for upper in [true, false] {
        forms.push(percent(value, upper, false));
        forms.push(percent(value, upper, true));
    }
    forms.retain(|form| !form.is_empty());
    forms
}

/// `value` percent-encoded as `encodeURIComponent` does, or as a form
/// (`URLSearchParams`: a space is `+`), with upper- or lower-case hex.
fn percent(value: &str, upper: bool, form: bool) -> String {
    let mut out = String::new();
    for byte in value.bytes() {
        let keep = byte.is_ascii_alphanumeric()
            || if form {
                b"*-._".contains(&byte)
            } else {
                b"-_.!~*'()".contains(&byte)
            };
        if keep {
            out.push(byte as char);
        } else if form && byte == b' ' {
            out.push('+');
        } else if upper {
            out.push_str(&format!("%{byte:02X}"));
        } else {
            out.push_str(&format!("%{byte:02x}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets() -> Secrets {
        Secrets::new(&[Secret {
            name: "PASSWORD".to_owned(),
            value: "p@ss w\"ord&1".to_owned(),
        }])
    }

    #[test]
    fn names_are_filled_in_and_unknown_ones_listed() {
        let secrets = secrets();
        assert_eq!(
            secrets.fill_in("type", "x{{secret:PASSWORD}}y").ok(),
            Some("xp@ss w\"ord&1y".to_owned())
        );
        let error = secrets
            .fill_in("type", "{{secret:TOKEN}}")
            .expect_err("unknown");
        assert!(
            error.for_model().contains("the secrets are: PASSWORD"),
            "{}",
            error.for_model()
        );
    }

    #[test]
    fn beginnings_typed_one_key_at_a_time_are_scrubbed() {
        let secrets = secrets();
        let mut text = "typed p@s\ntyped p@ss\ntyped p@ss w\"or".to_owned();
        secrets.scrub(&mut text);
        assert_eq!(text, "typed p@s\ntyped ••••\ntyped ••••");
        let mut ending = "the one ending in d&1 or rd&1".to_owned();
        secrets.scrub(&mut ending);
        assert_eq!(ending, "the one ending in d&1 or ••••");
    }

    #[test]
    fn any_long_part_is_scrubbed_whatever_its_case_and_spacing() {
        let secrets = Secrets::new(&[Secret {
            name: "TOKEN".to_owned(),
            value: "Tr0ub4dor&3xyz".to_owned(),
        }]);
        for shown in [
            "r0ub4dor&3xy",   // without its first and last characters
            "ub4dor&3",       // three off each end
            "TR0UB4DOR&3XYZ", // upper-cased
            "T r 0 u b 4 d o r & 3 x y z",
            "Tr0\u{200B}ub4\u{2060}dor&3xyz",
        ] {
            let mut text = format!("it is {shown} now");
            secrets.scrub(&mut text);
            assert!(
                text.starts_with("it is ") && text.ends_with(" now"),
                "{shown}: {text}"
            );
            assert!(text.contains(HIDDEN), "{shown}: {text}");
            assert!(!text.to_lowercase().contains("dor&"), "{shown}: {text}");
        }
        // Five characters of it are not enough to hide ordinary text.
        let mut text = "the word 4dor& alone".to_owned();
        secrets.scrub(&mut text);
        assert_eq!(text, "the word 4dor& alone");
    }

    #[test]
    fn a_field_holding_a_piece_of_a_typed_secret_reads_hidden() {
        let secrets = Secrets::new(&[Secret {
            name: "PW".to_owned(),
            value: "Hunter-2024".to_owned(),
        }]);
        let hidden = |value: &str| {
            let mut value = driver_core::PageText::from(value);
            secrets.hide_piece(&mut value);
            value
        };
        // Nothing is hidden before the secret is typed.
        assert_eq!(hidden("hun"), "hun");
        secrets.fill_in("type", "{{secret:PW}}").expect("known");
        for piece in ["Hun", "ter-2", "024", "HUNTER", "r-", "Hunter-2024"] {
            assert_eq!(hidden(piece), HIDDEN, "{piece}");
        }
        for other in ["x", "2", "Hunt3r", "hello", ""] {
            assert_eq!(hidden(other), other, "{other}");
        }
        // The model's own words stay its own.
        secrets.fill_in("type", "Hunt").expect("plain");
        assert_eq!(hidden("Hunt"), "Hunt");
    }

    #[test]
    fn a_persons_words_are_hidden_whole_never_as_beginnings() {
        let words = PersonWords::new(&["Continue".to_owned(), "my p@ss-w0rd!".to_owned()]);
        let mut text =
            "Continue to Contact us; CONTINUE. continued. my p@ss-w0rd! (p@ss-w0rd!)".to_owned();
        words.scrub(&mut text);
        assert_eq!(text, "•••• to Contact us; ••••. continued. •••• (••••)");
        let mut short = "my pass".to_owned();
        words.scrub(&mut short);
        assert_eq!(short, "my pass");
    }

    #[test]
    fn every_form_is_scrubbed() {
        let secrets = secrets();
        for shown in [
            "p@ss w\"ord&1",
            "p%40ss%20w%22ord%261",
            "p%40ss+w%22ord%261",
            "p@ss w\\\"ord&1",
            "p@ss w&quot;ord&amp;1",
        ] {
            let mut text = format!("before {shown} after");
            secrets.scrub(&mut text);
            assert_eq!(text, "before •••• after", "{shown}");
        }
    }
}
