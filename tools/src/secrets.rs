//! Secrets: values a model types by name (`{{secret:NAME}}`) and never
//! reads back. What the pack types has the name replaced by the value;
//! every answer has the value, however a page may have echoed it (as it
//! is, percent-encoded, JSON- or HTML-escaped), replaced by `••••`.

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
}

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
        Self {
            names: secrets.iter().map(|secret| secret.name.clone()).collect(),
            values: secrets
                .iter()
                .map(|secret| (secret.name.clone(), secret.value.clone()))
                .collect(),
            forms,
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
                Some((_, value)) => out.push_str(value),
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
        Ok(out)
    }

    /// Replaces every form of every secret's value in `text` by `••••`.
    pub(crate) fn scrub(&self, text: &mut String) {
        for form in &self.forms {
            if text.contains(form.as_str()) {
                *text = text.replace(form.as_str(), HIDDEN);
            }
        }
    }
}

/// The shortest beginning of a secret that is hidden on its own.
const SHORTEST_HIDDEN: usize = 4;

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
