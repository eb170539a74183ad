//! [`PackOptions`]: how a pack behaves.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use driver_core::ScreenshotFormat;

/// How a [`Pack`](crate::Pack) behaves. `PackOptions::default()` is the text
/// mode most models want.
#[derive(Debug, Clone)]
pub struct PackOptions {
    /// Vision mode: pointing tools answered with screenshots instead of
    /// snapshots. Default `false`.
    pub vision: bool,
    /// The most tokens (characters / 4) of snapshot text one answer carries;
    /// the rest is read in parts. Default 6,000: a screenful of a busy page
    /// fits with room to spare.
    pub budget_tokens: usize,
    /// The longest an action waits for the page to settle. Default 3 s; a
    /// page still busy then is read as it is, and the answer says so.
    pub settle_cap: Duration,
    /// How long the DOM must be still to count as settled. Default 40 ms:
    /// two to three frames.
    pub quiet: Duration,
    /// The encoding of vision-mode screenshots. Default JPEG at quality 60:
    /// about a tenth of a PNG's size, still legible.
    pub vision_format: ScreenshotFormat,
    /// What an action on the same page answers with: what changed since
    /// the model last read it (default), or the whole page every time.
    pub answers: Answers,
    /// The tool groups a model is offered: [`Group::Core`] always, the
    /// others when named. Default: core only.
    pub groups: Vec<Group>,
    /// The folder `upload` may take files from (files under it only,
    /// links out of it refused). Default: none, and `upload` says how to
    /// allow one.
    pub files_dir: Option<PathBuf>,
    /// Which of [`files_dir`](Self::files_dir)'s files `upload` may hand
    /// to which origin: a file or a folder (a path under it) and an origin
    /// it may go to. Naming any limits every upload to the files named,
    /// each to its origins (a file no rule names goes nowhere). Default:
    /// none, and a file may go to any page the task acts on.
    pub file_origins: Vec<(String, guard::TaskOrigin)>,
    /// The folder `pdf` writes into. Default: none, and `pdf` says how to
    /// name one.
    pub output_dir: Option<PathBuf>,
    /// The folder `state_save` and `state_load` keep saved logins in
    /// (created owner-only). Default: none, and they say how to name one.
    pub state_dir: Option<PathBuf>,
    /// Values the model types by name (`{{secret:NAME}}`) and never reads
    /// back: every answer has them replaced by `••••`.
    pub secrets: Vec<Secret>,
    /// Where each session writes its trace (every call, the answer the
    /// model read, a picture after each action; see [`crate::Trace`]).
    /// Default: none.
    pub trace_dir: Option<PathBuf>,
    /// What a person watching the session sees (a live view): filled
    /// after each call. Default: none.
    pub watch: Option<std::sync::Arc<crate::Watch>>,
    /// Ask a person before every page tool runs, not only those the page
    /// marks consequential (`page_tool`; the question goes where a
    /// consequential tool's does). Default `false`.
    pub confirm_page_tools: bool,
    /// The task names the origins it may read and act on (the guard's
    /// `Task`): with the person group, `ask_origin` is offered, for the
    /// person to add one. [`Pack::new`](crate::Pack::new) sets it from the
    /// guard's policy; set it for [`definitions`](crate::definitions) of
    /// such a server. Default `false`.
    pub task_origins: bool,
    /// The program `run` starts each script's engine with. Default: this
    /// program, whose `main` calls [`crate::serve_if_asked`] first.
    pub script_engine: crate::ScriptEngine,
}

/// A value the model may type but never read: see [`PackOptions::secrets`].
#[derive(Clone)]
pub struct Secret {
    /// The name the model writes in `{{secret:NAME}}`.
    pub name: String,
    /// The value typed in its place.
    pub value: String,
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({:?}, ••••)", self.name)
    }
}

/// A group of tools a pack offers: `core` always, the rest when asked for
/// (each tool's schema costs tokens on every request a model makes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// Opening, reading, clicking, typing, tabs, screenshots, dialogs.
    Core,
    /// `upload` and `pdf`.
    Files,
    /// `requests` and `request`: the page's network log.
    Network,
    /// `state_save`, `state_load`, `cookies`: logins kept between runs.
    State,
    /// `fill` (many fields at once), `drag`, and `screenshot` of one element.
    Forms,
    /// `emulate`: a phone, a window size, a place, a time zone, a language.
    Emulation,
    /// `evaluate`: the page's own JavaScript.
    Script,
    /// `handoff`: a person takes over the tab in the live view (offered
    /// where one is served).
    Person,
    /// `run`: a script that calls the session's tools, in a sandbox.
    Code,
    /// `page_tool`: the tools a page offers of its own (WebMCP), listed
    /// with the page and called through tabwright (Chromium started with
    /// `--enable-features=WebMCP`).
    PageTools,
}

impl Group {
    /// Every group, in the order the README lists them.
    pub const ALL: [Group; 10] = [
        Group::Core,
        Group::Files,
        Group::Network,
        Group::State,
        Group::Forms,
        Group::Emulation,
        Group::Script,
        Group::Person,
        Group::Code,
        Group::PageTools,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Group::Core => "core",
            Group::Files => "files",
            Group::Network => "network",
            Group::State => "state",
            Group::Forms => "forms",
            Group::Emulation => "emulation",
            Group::Script => "script",
            Group::Person => "person",
            Group::Code => "code",
            Group::PageTools => "page_tools",
        }
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Group {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim().to_ascii_lowercase();
        Group::ALL
            .into_iter()
            .find(|group| group.name() == text)
            .ok_or_else(|| {
                format!(
                    "{text:?} is not a tool group (the groups: {})",
                    Group::ALL.map(Group::name).join(", ")
                )
            })
    }
}

/// What an action that stays on the same page answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Answers {
    /// What changed since the model last read the page, unless the whole
    /// page is about as short; a navigation, a tab switch, a scroll or an
    /// explicit `snapshot` still gives the whole page.
    #[default]
    Changes,
    /// The whole page after every action.
    Full,
}

impl Default for PackOptions {
    fn default() -> Self {
        Self {
            vision: false,
            budget_tokens: 6_000,
            settle_cap: Duration::from_secs(3),
            quiet: Duration::from_millis(40),
            vision_format: ScreenshotFormat::Jpeg(60),
            answers: Answers::Changes,
            groups: vec![Group::Core],
            files_dir: None,
            file_origins: Vec::new(),
            output_dir: None,
            state_dir: None,
            secrets: Vec::new(),
            trace_dir: None,
            watch: None,
            confirm_page_tools: false,
            task_origins: false,
            script_engine: crate::ScriptEngine::this_program(),
        }
    }
}
