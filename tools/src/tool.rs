//! What a tool is ([`Tool`]): its name, group, mode, title and hints,
//! whether it works under an open dialog, its argument type and handler
//! (made together by [`takes!`]), its short form in the shell; and what a
//! model is told of it ([`ToolDef`]). Every file of tools takes its words
//! from here; the catalogue of them all is `table`.
//!
//! A tool is one of three kinds, by what it acts on:
//!
//! - a page tool (`takes!(tab ClickArgs => click)`): a method of [`Tab`],
//!   the tab-level context, which holds the session's state and answers
//!   with the page;
//! - a browser-level tool (`takes!(browser TabsArgs => tabs)`): a method of
//!   [`Browser`] given the state, for what acts on the browser as a whole
//!   (tabs, cookies, the network log, emulation, handoffs);
//! - `run` (`takes!(pack RunArgs => run_script)`), whose script's calls go
//!   back through the pack.

use std::future::Future;
use std::pin::Pin;

use serde_json::{json, Value};

use crate::browser::Browser;
use crate::error::ToolError;
use crate::options::Group;
use crate::output::{Outcome, ToolOutput};
use crate::schema::strict_for_openai;
use crate::state::State;
use crate::tab::Tab;

/// A page tool's handler: reads its arguments and runs its [`Tab`] method.
pub(crate) type TabHandler =
    for<'a> fn(Tab<'a>, &'static str, Value) -> Pin<Box<dyn Future<Output = Outcome> + Send + 'a>>;

/// A browser-level tool's handler: reads its arguments and runs its
/// [`Browser`] method.
pub(crate) type BrowserHandler = for<'a> fn(
    &'a Browser,
    &'a mut State,
    &'static str,
    Value,
) -> Pin<Box<dyn Future<Output = Outcome> + Send + 'a>>;

/// A call of a tool under way, as a script's host answers it.
pub(crate) type Answering<'a> = Pin<Box<dyn Future<Output = ToolOutput> + Send + 'a>>;

/// What a handler the pack runs itself (`run`, whose script calls tools)
/// may reach of it: its tools, the browser, a call answered as the model's
/// would be, and stopping one. The pack is the one host; `run` names no
/// more of it than this.
pub(crate) trait Host: Send + Sync {
    /// The browser-level context.
    fn browser(&self) -> &Browser;
    /// The tools it offers.
    fn offered(&self) -> &[&'static Tool];
    /// The tool called `name` among them.
    fn find(&self, name: &str) -> Result<&'static Tool, ToolError>;
    /// The answer a call of `name` gets while a person has the session.
    fn handed_over(&self, name: &str) -> Option<ToolOutput>;
    /// A call of a tool, answered as the model's would be (traced as a
    /// step of its own).
    fn answer_in<'a>(
        &'a self,
        state: &'a mut State,
        name: &'a str,
        arguments: Value,
    ) -> Answering<'a>;
    /// Stops a call under way (see `Pack::stop`).
    fn stop<'a>(&'a self, call: Answering<'a>) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>>;
}

/// A handler the pack runs itself, with the whole session in hand: `run`,
/// whose script's calls go back through the pack (its [`Host`]).
pub(crate) type PackHandler = for<'a> fn(
    &'a dyn Host,
    &'a mut State,
    Value,
) -> Pin<Box<dyn Future<Output = ToolOutput> + Send + 'a>>;

/// Who answers a tool.
#[derive(Clone, Copy)]
pub(crate) enum Handler {
    /// A method of the tab-level context.
    Tab(TabHandler),
    /// A method of the browser-level context.
    Browser(BrowserHandler),
    /// The pack.
    Pack(PackHandler),
}

/// What a tool takes, and what handles it: made together by [`takes!`], so
/// the schema a model is shown is the type the call is read into.
#[derive(Clone, Copy)]
pub(crate) struct Takes {
    pub(crate) schema: fn() -> Value,
    pub(crate) handler: Handler,
}

/// `takes!(tab ClickArgs => click)`: the schema of `arguments::ClickArgs`,
/// and a handler that reads a call's arguments into one and runs
/// `Tab::click`; `takes!(browser TabsArgs => tabs)` the same with a
/// `Browser` method; `takes!(pack RunArgs => run_script)` a method of the
/// pack's [`Host`]
/// given the raw arguments.
macro_rules! takes {
    (tab $args:ident => $method:ident) => {
        $crate::tool::Takes {
            schema: $crate::schema::schema_of::<$crate::arguments::$args>,
            handler: $crate::tool::Handler::Tab(|mut tab, tool, arguments| {
                Box::pin(async move {
                    let args: $crate::arguments::$args = $crate::validate::parse(tool, arguments)?;
                    tab.$method(args).await
                })
            }),
        }
    };
    (browser $args:ident => $method:ident) => {
        $crate::tool::Takes {
            schema: $crate::schema::schema_of::<$crate::arguments::$args>,
            handler: $crate::tool::Handler::Browser(|browser, state, tool, arguments| {
                Box::pin(async move {
                    let args: $crate::arguments::$args = $crate::validate::parse(tool, arguments)?;
                    browser.$method(state, args).await
                })
            }),
        }
    };
    (pack $args:ident => $method:ident) => {
        $crate::tool::Takes {
            schema: $crate::schema::schema_of::<$crate::arguments::$args>,
            handler: $crate::tool::Handler::Pack(|pack, state, arguments| {
                Box::pin(pack.$method(state, arguments))
            }),
        }
    };
}
pub(crate) use takes;

/// How a tool is written short: the word a line starts with, how to write
/// the rest (for help), and the reader of the rest (its words, and the rest
/// as typed, for text that keeps its spaces); `None` when the words do not
/// fit.
#[derive(Clone, Copy)]
pub(crate) struct Form {
    pub(crate) word: &'static str,
    pub(crate) usage: &'static str,
    pub(crate) read: fn(&[&str], &str) -> Option<Read>,
}

/// What a form read: the arguments, and a file to save a picture to.
pub(crate) type Read = (Value, Option<String>);

/// Which mode of the pack offers a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Both modes.
    Both,
    /// Text mode: numbers and snapshots.
    Text,
    /// Vision mode: points and pictures.
    Vision,
}

/// What a tool's answer holds beyond its first line, as its description
/// says once (the sentence is written here, not in each description).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Returns {
    /// Only what it says.
    Itself,
    /// The page afterwards: what changed on it (text mode), or a picture
    /// (vision mode).
    Page,
}

/// What a host needs to know to decide whether to ask a person first (the
/// MCP annotations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    /// It changes nothing: a page, the browser, files.
    pub read_only: bool,
    /// It may destroy something: what a click on "Delete" does, a session
    /// closed, a saved state overwritten.
    pub destructive: bool,
    /// Called twice with the same arguments, it does no more than once.
    pub idempotent: bool,
    /// It reaches beyond this machine: pages on the web, and what they do.
    pub open_world: bool,
}

impl Hints {
    /// Reads what is already there.
    pub(crate) const READ: Hints = Hints {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };
    /// Acts on a page as a person's input does: whatever the page does
    /// with a click (delete, pay, send) may follow.
    pub(crate) const ACT: Hints = Hints {
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
    };
    /// Moves about the web (another page, another part of one) without
    /// pressing anything.
    pub(crate) const MOVE: Hints = Hints {
        destructive: false,
        ..Hints::ACT
    };
    /// Changes only this machine's or the browser's own state (a file
    /// written, an emulated device).
    pub(crate) const LOCAL: Hints = Hints {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
    };
}

/// One tool: see the module docs.
#[derive(Clone, Copy)]
pub(crate) struct Tool {
    pub(crate) name: &'static str,
    pub(crate) group: Group,
    pub(crate) mode: Mode,
    /// A human-readable name (MCP's `title`).
    pub(crate) title: &'static str,
    pub(crate) hints: Hints,
    /// It can be called while a JavaScript dialog blocks the page.
    pub(crate) under_dialog: bool,
    /// What it does, for the model; [`Returns`] adds what it answers.
    pub(crate) description: &'static str,
    pub(crate) returns: Returns,
    pub(crate) takes: Takes,
    /// Offered in place of the core tool of the same name when its group
    /// is on (the forms group's `screenshot` of one element).
    pub(crate) widens_core: bool,
    /// It loads pages: the session's memory is weighed after it.
    pub(crate) loads_pages: bool,
    /// A `run` script may call it (not `run` itself, nor a handoff, which
    /// would leave the script waiting on a person).
    pub(crate) in_scripts: bool,
    /// It may be called while a person has the session (the handoff's own
    /// call); every other call is told to wait.
    pub(crate) during_handoff: bool,
    /// It ends the browser: no picture of the page after it.
    pub(crate) ends_browser: bool,
    /// Offered only where the task names its origins
    /// ([`PackOptions::task_origins`]): `ask_origin`.
    pub(crate) for_tasks: bool,
    /// Its short form in `tabwright shell`, if it has one.
    pub(crate) short: Option<Form>,
    /// Example arguments, for the README's table of tools (which a test
    /// holds to this table).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) example: &'static str,
}

impl Tool {
    /// A core tool acting on the page, in both modes, answered with the
    /// page (the fields most tools share; each entry says what differs).
    pub(crate) const fn action(
        name: &'static str,
        title: &'static str,
        description: &'static str,
        takes: Takes,
    ) -> Tool {
        Tool {
            name,
            group: Group::Core,
            mode: Mode::Both,
            title,
            hints: Hints::ACT,
            under_dialog: false,
            description,
            returns: Returns::Page,
            takes,
            widens_core: false,
            loads_pages: false,
            in_scripts: true,
            during_handoff: false,
            ends_browser: false,
            for_tasks: false,
            short: None,
            example: "`{}`",
        }
    }

    /// A core tool that reads and changes nothing, answered with what it
    /// read.
    pub(crate) const fn reader(
        name: &'static str,
        title: &'static str,
        description: &'static str,
        takes: Takes,
    ) -> Tool {
        Tool {
            hints: Hints::READ,
            returns: Returns::Itself,
            ..Tool::action(name, title, description, takes)
        }
    }

    /// It acts on a page as a person's input does (a click, typing, a
    /// form, a page's own tool, a script in the page): what a task may do
    /// only on its act origins (`task`). `run` is not: each call of its
    /// script is judged as the model's own.
    pub(crate) fn acts_on_page(&self) -> bool {
        !self.hints.read_only
            && self.hints.destructive
            && self.hints.open_world
            && !matches!(self.takes.handler, Handler::Pack(_))
    }

    /// What the model reads of it, in this mode.
    pub(crate) fn def(&self, vision: bool) -> ToolDef {
        let mut description = self.description.to_owned();
        if self.returns == Returns::Page {
            description.push_str(if vision { VISION_AFTER } else { TEXT_AFTER });
        }
        ToolDef {
            name: self.name,
            title: self.title,
            description,
            input_schema: (self.takes.schema)(),
            hints: self.hints,
            group: self.group,
        }
    }
}

/// What an acting tool's description says of its answer in text mode:
/// nothing, since `snapshot`'s description tells once that acting tools
/// answer with a change list, and what its signs mean.
const TEXT_AFTER: &str = "";

/// The same, in vision mode.
const VISION_AFTER: &str = " Answers with a screenshot and the console lines since.";

/// One tool as a model is told of it, and as each API takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDef {
    /// The name the model calls it by.
    pub name: &'static str,
    /// A human-readable name, for a person (MCP's `title`).
    pub title: &'static str,
    /// What it does and what it answers, for the model.
    pub description: String,
    /// The JSON Schema of its arguments (an object; draft 2020-12).
    pub input_schema: Value,
    /// What a host needs to decide whether to ask a person first.
    pub hints: Hints,
    /// The group that offers it.
    pub group: Group,
}

impl ToolDef {
    /// As an MCP `tools/list` entry, with its title and annotations.
    pub fn to_mcp(&self) -> Value {
        json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "annotations": {
                "readOnlyHint": self.hints.read_only,
                "destructiveHint": self.hints.destructive,
                "idempotentHint": self.hints.idempotent,
                "openWorldHint": self.hints.open_world,
            },
        })
    }

    /// As a tool of OpenAI's Chat Completions API (`tools: [...]`), in
    /// strict mode (see [`to_openai_responses`](Self::to_openai_responses)).
    pub fn to_openai_chat(&self) -> Value {
        json!({
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": strict_for_openai(&self.input_schema),
                "strict": true,
            }
        })
    }

    /// As a tool of OpenAI's Responses API, whose function tools are flat
    /// (no `function` wrapper), in strict mode: every property required,
    /// the optional ones nullable (a `null` is read as absent).
    pub fn to_openai_responses(&self) -> Value {
        json!({
            "type": "function",
            "name": self.name,
            "description": self.description,
            "parameters": strict_for_openai(&self.input_schema),
            "strict": true,
        })
    }

    /// As an Anthropic Messages API tool.
    pub fn to_anthropic(&self) -> Value {
        json!({ "name": self.name, "description": self.description, "input_schema": self.input_schema })
    }
}
