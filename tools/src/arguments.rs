//! The arguments each tool takes, as Rust types: what `validate::parse` reads a
//! model's call into, and what `schema` turns into the JSON Schemas a model
//! is shown. The doc comment of every field is that field's description in
//! the schema, so it is written for a model; the types' own doc comments
//! are not shown.
//!
//! They are private to the crate: a model sees their schemas, a library user
//! calls [`Pack::call`](crate::Pack::call) with JSON.

use schemars::JsonSchema;
use serde::Deserialize;

/// The largest token budget a snapshot may be asked for.
pub(crate) const MAX_TOKENS: usize = 50_000;

/// `open`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OpenArgs {
    /// An http or https URL.
    pub(crate) url: String,
    /// Open it in a new tab and switch to it.
    #[serde(default)]
    pub(crate) new_tab: bool,
}

/// `snapshot`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SnapshotArgs {
    /// The whole page, not just around the screen.
    #[serde(default)]
    pub(crate) full_page: bool,
    /// Only inside this element (a dialog, a form).
    pub(crate) scope: Option<u32>,
    /// At most this many tokens (up to 50000); the rest in parts.
    pub(crate) max_tokens: Option<u32>,
    /// Which part, from 1.
    pub(crate) part: Option<u32>,
}

/// `read`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReadArgs {
    /// Only inside this element.
    pub(crate) element: Option<u32>,
    /// All of the page: navigation, header, footer and sidebars too.
    #[serde(default)]
    pub(crate) whole_page: bool,
    /// At most this many tokens (up to 50000); the rest in parts.
    pub(crate) max_tokens: Option<u32>,
    /// Which part, from 1.
    pub(crate) part: Option<u32>,
}

/// `find`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FindArgs {
    /// Words to look for, ignoring case.
    pub(crate) text: Option<String>,
    /// Only elements of this role: button, link, textbox, menuitem, …
    pub(crate) role: Option<String>,
}

/// `click` in text mode.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClickArgs {
    /// The element's number.
    pub(crate) element: Option<u32>,
    /// Or a point: CSS pixels from the left.
    pub(crate) x: Option<f64>,
    /// And from the top.
    pub(crate) y: Option<f64>,
    /// Default left.
    pub(crate) button: Option<ButtonArg>,
    /// 2: double, 3: triple.
    #[schemars(range(min = 1, max = 3))]
    pub(crate) count: Option<u8>,
    /// Keys held while clicking.
    pub(crate) modifiers: Option<Vec<ModifierArg>>,
}

/// `console`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConsoleArgs {
    /// The least level listed (error: page errors too). Default: all.
    pub(crate) level: Option<LevelArg>,
}

/// A console level, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum LevelArg {
    Debug,
    Info,
    Warning,
    Error,
}

impl LevelArg {
    /// Whether a message of `level` is at least this.
    pub(crate) fn admits(self, level: driver_core::ConsoleLevel) -> bool {
        use driver_core::ConsoleLevel;
        let of = match level {
            ConsoleLevel::Debug => LevelArg::Debug,
            ConsoleLevel::Info => LevelArg::Info,
            ConsoleLevel::Warning => LevelArg::Warning,
            ConsoleLevel::Error | ConsoleLevel::PageError => LevelArg::Error,
        };
        of >= self
    }
}

/// A mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ButtonArg {
    Left,
    Right,
    Middle,
}

// A key held while clicking (no doc comment: the schema says it once,
// on the list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
pub(crate) enum ModifierArg {
    Alt,
    Control,
    Meta,
    Shift,
}

/// How `click` clicks, from its arguments: a count out of range is the
/// model's to fix.
pub(crate) fn click_kind(
    button: Option<ButtonArg>,
    count: Option<u8>,
    modifiers: &Option<Vec<ModifierArg>>,
) -> Result<driver_core::Click, crate::error::ToolError> {
    let count = count.unwrap_or(1);
    if !(1..=3).contains(&count) {
        return Err(crate::error::ToolError::bad(
            "click",
            format!("count {count} is not 1, 2 (a double click) or 3 (a triple click)"),
        ));
    }
    let mut held = driver_core::Modifiers::default();
    for modifier in modifiers.iter().flatten() {
        match modifier {
            ModifierArg::Alt => held.alt = true,
            ModifierArg::Control => held.ctrl = true,
            ModifierArg::Meta => held.meta = true,
            ModifierArg::Shift => held.shift = true,
        }
    }
    Ok(driver_core::Click {
        button: match button.unwrap_or(ButtonArg::Left) {
            ButtonArg::Left => driver_core::MouseButton::Left,
            ButtonArg::Right => driver_core::MouseButton::Right,
            ButtonArg::Middle => driver_core::MouseButton::Middle,
        },
        count,
        modifiers: held,
        moved: false,
    })
}

/// What was done, as the answer opens: `Double-clicked [3] with Control held.`
pub(crate) fn clicked(click: driver_core::Click, what: &str) -> String {
    let button = match click.button {
        driver_core::MouseButton::Left => "",
        driver_core::MouseButton::Right => "Right-",
        driver_core::MouseButton::Middle => "Middle-",
    };
    let times = match click.count {
        2 => "double-",
        3 => "triple-",
        _ => "",
    };
    let verb = format!("{button}{times}clicked");
    let mut letters = verb.chars();
    let verb: String = letters
        .next()
        .map(|first| first.to_uppercase().chain(letters).collect())
        .unwrap_or_default();
    let modifiers = click.modifiers;
    let held: Vec<&str> = [
        (modifiers.ctrl, "Control"),
        (modifiers.shift, "Shift"),
        (modifiers.alt, "Alt"),
        (modifiers.meta, "Meta"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    if held.is_empty() {
        format!("{verb} {what}.")
    } else {
        format!("{verb} {what} with {} held.", held.join("+"))
    }
}

/// `type` in text mode.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TypeArgs {
    /// The field's number; none: the focused element.
    pub(crate) element: Option<u32>,
    pub(crate) text: String,
    /// Press Enter afterwards.
    #[serde(default)]
    pub(crate) submit: bool,
    /// Add to the field's text instead of replacing it.
    #[serde(default)]
    pub(crate) append: bool,
}

/// `press`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PressArgs {
    /// Keys in order, separated by spaces: "Tab Tab Enter", "Control+a".
    pub(crate) keys: String,
}

/// `select`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SelectArgs {
    /// The select's number.
    pub(crate) element: u32,
    /// Labels or values (several only for a multiple select).
    pub(crate) options: Vec<String>,
}

/// `hover` in text mode.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HoverArgs {
    /// The element's number.
    pub(crate) element: Option<u32>,
    /// Or a point: CSS pixels from the left.
    pub(crate) x: Option<f64>,
    /// And from the top.
    pub(crate) y: Option<f64>,
}

/// Which way to scroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// `scroll` in text mode.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScrollArgs {
    /// Which way, by most of a screen or of the box `element` names.
    pub(crate) direction: Option<Direction>,
    /// Alone: into view, or a scroll box's next part; else the box to
    /// scroll.
    pub(crate) element: Option<u32>,
    /// How far, in CSS pixels.
    pub(crate) pixels: Option<f64>,
    /// Or the box under this point: x.
    pub(crate) x: Option<f64>,
    /// And y.
    pub(crate) y: Option<f64>,
}

/// What `tabs` does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum TabAction {
    #[default]
    List,
    Switch,
    Close,
    New,
}

/// `tabs`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TabsArgs {
    /// Default list.
    #[serde(default)]
    pub(crate) action: TabAction,
    /// The tab's number (close without it: the current one).
    pub(crate) tab: Option<u32>,
    /// For new: the URL to open in it.
    pub(crate) url: Option<String>,
}

/// Screenshot encodings a model can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ImageFormat {
    Png,
    Jpeg,
}

/// `screenshot`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScreenshotArgs {
    /// Draw each element's number on it.
    #[serde(default)]
    pub(crate) numbers: bool,
    /// Default png (jpeg in vision mode).
    pub(crate) format: Option<ImageFormat>,
    /// The whole page, not just the viewport.
    #[serde(default)]
    pub(crate) full_page: bool,
    /// No picture if unchanged since your last one of this tab.
    #[serde(default)]
    pub(crate) if_changed: bool,
    /// Only this element (the forms group's; the core schema leaves it out).
    pub(crate) element: Option<u32>,
}

/// `wait_for`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct WaitForArgs {
    /// Until this text is on the page.
    pub(crate) text: Option<String>,
    /// Until this text is gone.
    pub(crate) gone: Option<String>,
    /// Or this many seconds (at most 30).
    pub(crate) seconds: Option<f64>,
}

/// `dialog`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DialogArgs {
    /// true: OK or Leave; false: Cancel or Stay.
    pub(crate) accept: bool,
    /// A prompt's answer.
    pub(crate) text: Option<String>,
}

/// `handoff`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HandoffArgs {
    /// What the person should do.
    pub(crate) reason: String,
    /// Default 300, at most 1800.
    pub(crate) seconds: Option<f64>,
}

/// `ask_origin`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AskOriginArgs {
    /// The origin, e.g. `https://shop.example` (or `https://*.example.com`;
    /// or the part of one a refusal named, `https://shop.example/settings`).
    pub(crate) origin: String,
    /// Ask to act there (type, submit, click), not only to read it.
    #[serde(default)]
    pub(crate) act: bool,
    /// Ask instead to type there what was read on this origin (a flow the
    /// task refused, e.g. the same origin: a number its page shows).
    pub(crate) from: Option<String>,
    /// With `from`: ask for this one word read there (the one a refusal
    /// named), not every word of it.
    pub(crate) word: Option<String>,
    /// Why the task needs it, in a sentence the person reads.
    pub(crate) reason: String,
}

/// Tools without arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoArgs {}

/// `click` and `hover` in vision mode: a point only.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PointArgs {
    /// CSS pixels from the viewport's left (the screenshot's pixels).
    pub(crate) x: f64,
    /// From its top.
    pub(crate) y: f64,
}

/// `click` in vision mode: a point, and how to click it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClickPointArgs {
    /// CSS pixels from the viewport's left (the screenshot's pixels).
    pub(crate) x: f64,
    /// From its top.
    pub(crate) y: f64,
    /// Default left.
    pub(crate) button: Option<ButtonArg>,
    /// 2: a double click, 3: a triple. Default 1.
    #[schemars(range(min = 1, max = 3))]
    pub(crate) count: Option<u8>,
    /// Keys held while clicking.
    pub(crate) modifiers: Option<Vec<ModifierArg>>,
}

/// `type` in vision mode: into whatever has focus.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TypeTextArgs {
    pub(crate) text: String,
    /// Press Enter afterwards.
    #[serde(default)]
    pub(crate) submit: bool,
}

/// `scroll` in vision mode.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScrollAtArgs {
    pub(crate) direction: Direction,
    /// How far, in CSS pixels (default most of a screen).
    pub(crate) pixels: Option<f64>,
    /// Where the mouse is (default the middle).
    pub(crate) x: Option<f64>,
    /// Where the mouse is (default the middle).
    pub(crate) y: Option<f64>,
}

/// `upload`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UploadArgs {
    /// The file field, or the button or label that opens the file chooser.
    pub(crate) element: u32,
    /// Paths relative to the uploads folder (or absolute ones inside it).
    pub(crate) paths: Vec<String>,
}

/// `pdf`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PdfArgs {
    /// A file name in the output folder, e.g. "receipt.pdf".
    pub(crate) path: String,
}

/// `requests`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RequestsArgs {
    /// Only those whose URL, method, type or status holds this, e.g. "api/", "POST", "404".
    pub(crate) filter: Option<String>,
}

/// `request`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RequestArgs {
    /// Its number in the requests list.
    pub(crate) id: u32,
}

/// `state_save` and `state_load`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StateArgs {
    /// Letters, digits, - and _, e.g. "shop-login".
    pub(crate) name: String,
}

/// One field of `fill`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Field {
    /// The field's number.
    pub(crate) element: u32,
    /// Text; a select's option; "true" or "false" for a checkbox; "true" for a radio.
    pub(crate) value: String,
}

/// `fill`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FillArgs {
    /// Filled in this order.
    pub(crate) fields: Vec<Field>,
}

/// `drag`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DragArgs {
    /// The element to pick up.
    pub(crate) from: Option<u32>,
    /// Or a point to press at (from_y too), in CSS pixels.
    pub(crate) from_x: Option<f64>,
    /// And from its top.
    pub(crate) from_y: Option<f64>,
    /// The element to drop it on.
    pub(crate) to: Option<u32>,
    /// Or a point to drop it at: CSS pixels from the viewport's left.
    pub(crate) x: Option<f64>,
    /// And from its top.
    pub(crate) y: Option<f64>,
}

/// `emulate`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EmulateArgs {
    /// "iPhone 15", "Pixel 7", "iPad", or "Desktop" (the default window again).
    pub(crate) device: Option<String>,
    /// Or a viewport width in CSS pixels.
    pub(crate) width: Option<u32>,
    /// And height.
    pub(crate) height: Option<u32>,
    /// A phone's layout (the meta viewport honoured).
    pub(crate) mobile: Option<bool>,
    /// Touch events instead of a mouse's.
    pub(crate) touch: Option<bool>,
    /// {"latitude": .., "longitude": ..}.
    pub(crate) geolocation: Option<Geolocation>,
    /// An IANA time zone, e.g. "Europe/Paris".
    pub(crate) timezone: Option<String>,
    /// A language tag, e.g. "fr-FR".
    pub(crate) locale: Option<String>,
}

/// A place on Earth.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Geolocation {
    /// Degrees north (negative: south).
    pub(crate) latitude: f64,
    /// Degrees east (negative: west).
    pub(crate) longitude: f64,
}

/// `page_tool`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PageToolArgs {
    /// The page tool's name, as the page's list of tools gives it.
    pub(crate) name: String,
    /// Its arguments: a JSON object, written as text (`{"item": "socks"}`);
    /// `{{secret:NAME}}` in a string is typed as the secret. Default `{}`.
    pub(crate) input: Option<String>,
    /// The origin that offers it, where two of the page's frames offer one
    /// of that name.
    pub(crate) origin: Option<String>,
    /// Seconds to wait for its answer (1 to 120). Default 30.
    pub(crate) timeout: Option<u32>,
}

/// `evaluate`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EvaluateArgs {
    /// A JavaScript expression; a promise is awaited.
    pub(crate) expression: String,
}

/// `run`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RunArgs {
    /// JavaScript (an async function's body): `await tw.TOOL({...})` per
    /// call, `return` a value.
    pub(crate) script: String,
    /// Seconds it may run (default 30, at most 300).
    pub(crate) timeout: Option<u32>,
}
