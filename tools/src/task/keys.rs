//! What the keys of a `press` do, as the task judges them.

/// Keys that move about a page or close what covers it, and neither type
/// nor press anything: reading, on an origin the task only reads.
const READING_KEYS: &[&str] = &[
    "PageUp",
    "PageDown",
    "Home",
    "End",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "Escape",
    "Tab",
    "Shift",
];

/// Whether every key of a `press` is one of [`READING_KEYS`] (a chord's
/// each key included: `Shift+Tab`).
pub(super) fn reading_keys(keys: &str) -> bool {
    keys.split_whitespace()
        .all(|chord| chord.split('+').all(|key| READING_KEYS.contains(&key)))
}

/// Whether a `press` pastes (Control or Meta with V, however written):
/// what the browser's clipboard holds was copied where no call of the
/// task says (a page's own "copy" button, a key on another page), so a
/// paste would carry words no check has seen.
pub(super) fn pastes(keys: &str) -> bool {
    keys.split_whitespace()
        .filter_map(|chord| chord.parse::<driver_core::KeyPress>().ok())
        .any(|press| {
            (press.modifiers.ctrl || press.modifiers.meta)
                && matches!(press.key, driver_core::Key::Char('v' | 'V'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paste_is_told_however_written() {
        for keys in ["Control+v", "ctrl+V", "Meta+v", "Tab Control+Shift+v"] {
            assert!(pastes(keys), "{keys}");
        }
        for keys in ["v", "Shift+V", "Control+c", "Alt+v"] {
            assert!(!pastes(keys), "{keys}");
        }
    }
}
