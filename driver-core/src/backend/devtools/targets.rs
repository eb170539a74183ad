//! [`Targets`]: what a DevTools connection's events say of tabs, frames
//! and script worlds, kept the same way by both backends.
//!
//! A backend keeps one under its own lock and hands it every event
//! ([`Targets::observe`]) from its socket's listener, so that it is up to
//! date with everything the browser said before any answer a call gets:
//! a world made a moment ago is known by the time the command that made
//! it answers.

use super::names;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::socket::Event;
use super::{dialog_of, WORLD_NAME};
use crate::{Dialog, FileChooser};

/// Which script world of a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum World {
    /// The page's own.
    Page,
    /// tabwright's ([`WORLD_NAME`]): the page can neither see nor change
    /// what runs there.
    Isolated,
}

/// A script context of a frame's document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// Its id in its session (events name it by that; ids restart in each
    /// renderer).
    pub id: i64,
    /// Its unique id, which no other document's context can share: what
    /// evaluation names it by.
    pub unique: String,
}

/// The record: see the module docs. Sessions are flat DevTools sessions;
/// a tab's main frame id is its target id.
#[derive(Debug, Default)]
pub struct Targets {
    /// Each attached tab's session, by target id.
    tabs: HashMap<String, String>,
    /// The session of each cross-site frame attached as a target of its
    /// own, by frame id.
    frames: HashMap<String, String>,
    /// The session each such frame's session was attached from.
    parents: HashMap<String, String>,
    /// The script contexts: (session, frame, world) -> context.
    contexts: HashMap<(String, String, World), Context>,
    /// The dialog open in a session's page.
    dialogs: HashMap<String, Dialog>,
    /// How many dialogs have opened in a session's page.
    dialogs_opened: HashMap<String, u64>,
    /// The file chooser caught in a session's page, not yet taken.
    choosers: HashMap<String, FileChooser>,
    /// Sessions whose renderer crashed.
    crashed: HashSet<String>,
    /// The inspector sheet given to a frame's document (`backend::paint`):
    /// (session, frame) -> (the document's page context, the sheet's id,
    /// its text).
    sheets: HashMap<(String, String), (String, String, String)>,
    /// Sessions whose DOM and CSS domains are on, for the sheets.
    styled: HashSet<String>,
    /// When a paint probe last ended in a session.
    probed: HashMap<String, std::time::Instant>,
}

impl Targets {
    /// Follows one event; whether it changed the record.
    pub fn observe(&mut self, event: &Event) -> bool {
        let params = &event.params;
        let session = event.session.clone().unwrap_or_default();
        match event.method.as_str() {
            names::TARGET_ATTACHED_TO_TARGET => self.attached(event.session.as_deref(), params),
            names::TARGET_DETACHED_FROM_TARGET => match params["sessionId"].as_str() {
                Some(gone) => {
                    self.forget(gone);
                    true
                }
                None => false,
            },
            names::RUNTIME_EXECUTION_CONTEXT_CREATED => {
                self.context_created(session, &params["context"])
            }
            names::RUNTIME_EXECUTION_CONTEXT_DESTROYED => {
                let unique = params["executionContextUniqueId"].as_str();
                let id = params["executionContextId"].as_i64();
                let before = self.contexts.len();
                self.contexts.retain(|(owner, _, _), context| {
                    *owner != session
                        || !(unique == Some(context.unique.as_str()) || id == Some(context.id))
                });
                before != self.contexts.len()
            }
            names::RUNTIME_EXECUTION_CONTEXTS_CLEARED => {
                self.contexts.retain(|(owner, _, _), _| *owner != session);
                true
            }
            names::PAGE_JAVASCRIPT_DIALOG_OPENING => {
                *self.dialogs_opened.entry(session.clone()).or_default() += 1;
                self.dialogs.insert(session, dialog_of(params));
                true
            }
            names::PAGE_JAVASCRIPT_DIALOG_CLOSED => self.dialogs.remove(&session).is_some(),
            names::PAGE_FILE_CHOOSER_OPENED => match FileChooser::of_event(params) {
                Some(chooser) => {
                    self.choosers.insert(session, chooser);
                    true
                }
                None => false,
            },
            names::INSPECTOR_TARGET_CRASHED => self.crashed.insert(session),
            _ => false,
        }
    }

    /// A target attached (by auto-attach, or a call): a tab, or a
    /// cross-site frame, whose session `parent` is, if any.
    fn attached(&mut self, parent: Option<&str>, params: &Value) -> bool {
        let info = &params["targetInfo"];
        let (Some(session), Some(target)) =
            (params["sessionId"].as_str(), info["targetId"].as_str())
        else {
            return false;
        };
        match info["type"].as_str() {
            Some("page") => {
                self.tabs.insert(target.to_owned(), session.to_owned());
            }
            Some("iframe") => {
                self.frames.insert(target.to_owned(), session.to_owned());
                if let Some(parent) = parent {
                    self.parents.insert(session.to_owned(), parent.to_owned());
                }
            }
            _ => return false,
        }
        true
    }

    /// A frame's context came to be: the page's own world, or tabwright's.
    /// The first of ours a document gets is the one used (two would split
    /// what is kept in it).
    fn context_created(&mut self, session: String, context: &Value) -> bool {
        let (Some(frame), Some(id), Some(unique)) = (
            context["auxData"]["frameId"].as_str(),
            context["id"].as_i64(),
            context["uniqueId"].as_str(),
        ) else {
            return false;
        };
        let world = if context["auxData"]["isDefault"] == true {
            World::Page
        } else if context["name"] == WORLD_NAME {
            World::Isolated
        } else {
            return false;
        };
        let context = Context {
            id,
            unique: unique.to_owned(),
        };
        let key = (session, frame.to_owned(), world);
        match world {
            // A new document's page world replaces the old one's.
            World::Page => {
                self.contexts.insert(key, context);
            }
            World::Isolated => {
                self.contexts.entry(key).or_insert(context);
            }
        }
        true
    }

    /// Forgets a session that ended, and all that was kept of it.
    pub fn forget(&mut self, session: &str) {
        self.tabs.retain(|_, owner| owner != session);
        self.frames.retain(|_, owner| owner != session);
        self.parents.remove(session);
        self.contexts.retain(|(owner, _, _), _| owner != session);
        self.dialogs.remove(session);
        self.dialogs_opened.remove(session);
        self.choosers.remove(session);
        self.crashed.remove(session);
        self.sheets.retain(|(owner, _), _| owner != session);
        self.styled.remove(session);
        self.probed.remove(session);
    }

    /// Records that a paint probe ended in a session now.
    pub fn probed(&mut self, session: &str) {
        self.probed
            .insert(session.to_owned(), std::time::Instant::now());
    }

    /// Whether a paint probe ended in a session within `lately`.
    pub fn probed_lately(&self, session: &str, lately: std::time::Duration) -> bool {
        self.probed
            .get(session)
            .is_some_and(|at| at.elapsed() < lately)
    }

    /// Whether the document now in `frame` (of `session`) was given the
    /// inspector sheet with `text`: the sheet belongs to the document its
    /// page context was made for.
    pub fn has_sheet(&self, session: &str, frame: &str, text: &str) -> bool {
        let key = (session.to_owned(), frame.to_owned());
        match (
            self.sheets.get(&key),
            self.context(session, frame, World::Page),
        ) {
            (Some((document, _, given)), Some(context)) => {
                *document == context.unique && given == text
            }
            _ => false,
        }
    }

    /// Records that the document now in `frame` has the sheet `id` with
    /// `text`.
    pub fn sheet_given(&mut self, session: &str, frame: &str, id: &str, text: &str) {
        let Some(document) = self
            .context(session, frame, World::Page)
            .map(|context| context.unique.clone())
        else {
            return;
        };
        self.sheets.insert(
            (session.to_owned(), frame.to_owned()),
            (document, id.to_owned(), text.to_owned()),
        );
    }

    /// Whether a session's DOM and CSS domains are on; marks them on.
    pub fn styled(&mut self, session: &str) -> bool {
        !self.styled.insert(session.to_owned())
    }

    /// Records a tab's session, attached by a call of ours.
    pub fn tab_attached(&mut self, target: &str, session: &str) {
        self.tabs.insert(target.to_owned(), session.to_owned());
    }

    /// Records a cross-site frame's session, attached by a call of ours
    /// from `parent`.
    pub fn frame_attached(&mut self, frame: &str, session: &str, parent: &str) {
        self.frames.insert(frame.to_owned(), session.to_owned());
        self.parents.insert(session.to_owned(), parent.to_owned());
    }

    /// The session of an attached tab.
    pub fn tab_session(&self, target: &str) -> Option<&str> {
        self.tabs.get(target).map(String::as_str)
    }

    /// The session of a cross-site frame, if it is attached.
    pub fn frame_session(&self, frame: &str) -> Option<&str> {
        self.frames.get(frame).map(String::as_str)
    }

    /// The frame at the root of a session that is a cross-site frame's.
    pub fn frame_of_session(&self, session: &str) -> Option<&str> {
        self.frames
            .iter()
            .find(|(_, owner)| owner.as_str() == session)
            .map(|(frame, _)| frame.as_str())
    }

    /// Whether `owner` is the session `tab` or that of a cross-site frame
    /// inside it, at any depth.
    pub fn serves<'a>(&'a self, mut owner: &'a str, tab: &str) -> bool {
        loop {
            if owner == tab {
                return true;
            }
            match self.parents.get(owner) {
                Some(parent) => owner = parent,
                None => return false,
            }
        }
    }

    /// The session at the top of `session`'s chain of parents: its tab's.
    pub fn top_session<'a>(&'a self, mut session: &'a str) -> &'a str {
        while let Some(parent) = self.parents.get(session) {
            session = parent;
        }
        session
    }

    /// A frame's context in a world, if its document has it yet.
    pub fn context(&self, session: &str, frame: &str, world: World) -> Option<&Context> {
        self.contexts
            .get(&(session.to_owned(), frame.to_owned(), world))
    }

    /// The dialog open in a session's page.
    pub fn dialog(&self, session: &str) -> Option<&Dialog> {
        self.dialogs.get(session)
    }

    /// How many dialogs have opened in a session's page.
    pub fn dialogs_opened(&self, session: &str) -> u64 {
        self.dialogs_opened.get(session).copied().unwrap_or(0)
    }

    /// Whether the dialog that was the `opened`th in a session's page is
    /// closed: none is open, or a later one is (a page may open the next
    /// as soon as one is answered).
    pub fn dialog_closed(&self, session: &str, opened: u64) -> bool {
        self.dialog(session).is_none() || self.dialogs_opened(session) != opened
    }

    /// The file chooser caught in a session's page, if one is.
    pub fn chooser(&self, session: &str) -> Option<FileChooser> {
        self.choosers.get(session).copied()
    }

    /// Takes (or, with `None` wanted, forgets) the chooser caught in a
    /// session's page.
    pub fn take_chooser(&mut self, session: &str) -> Option<FileChooser> {
        self.choosers.remove(session)
    }

    /// Whether a session's renderer crashed.
    pub fn crashed(&self, session: &str) -> bool {
        self.crashed.contains(session)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn event(session: Option<&str>, method: &str, params: Value) -> Event {
        Event {
            session: session.map(str::to_owned),
            method: method.to_owned(),
            params,
        }
    }

    fn created(id: i64, unique: &str, frame: &str, name: &str, default: bool) -> Value {
        json!({ "context": {
            "id": id, "uniqueId": unique, "name": name,
            "auxData": { "frameId": frame, "isDefault": default },
        }})
    }

    #[test]
    fn worlds_frames_and_dialogs_follow_the_events() {
        let mut targets = Targets::default();
        let attached = json!({
            "sessionId": "TAB", "targetInfo": { "targetId": "T1", "type": "page" },
        });
        assert!(targets.observe(&event(None, "Target.attachedToTarget", attached)));
        let framed = json!({
            "sessionId": "FRAME", "targetInfo": { "targetId": "F1", "type": "iframe" },
        });
        targets.observe(&event(Some("TAB"), "Target.attachedToTarget", framed));
        assert_eq!(targets.tab_session("T1"), Some("TAB"));
        assert_eq!(targets.frame_session("F1"), Some("FRAME"));
        assert!(targets.serves("FRAME", "TAB"));
        assert_eq!(targets.top_session("FRAME"), "TAB");

        // The page's world, then two of ours: the first is the one kept.
        let created_event = |params| event(Some("TAB"), "Runtime.executionContextCreated", params);
        targets.observe(&created_event(created(1, "u1", "T1", "", true)));
        targets.observe(&created_event(created(2, "u2", "T1", WORLD_NAME, false)));
        targets.observe(&created_event(created(3, "u3", "T1", WORLD_NAME, false)));
        targets.observe(&created_event(created(
            4,
            "u4",
            "T1",
            "an extension",
            false,
        )));
        fn unique(targets: &Targets, world: World) -> Option<String> {
            targets
                .context("TAB", "T1", world)
                .map(|context| context.unique.clone())
        }
        assert_eq!(unique(&targets, World::Page).as_deref(), Some("u1"));
        assert_eq!(unique(&targets, World::Isolated).as_deref(), Some("u2"));
        targets.observe(&event(
            Some("TAB"),
            "Runtime.executionContextDestroyed",
            json!({ "executionContextId": 2, "executionContextUniqueId": "u2" }),
        ));
        assert_eq!(unique(&targets, World::Isolated), None);
        assert_eq!(unique(&targets, World::Page).as_deref(), Some("u1"));

        let opening = json!({ "type": "confirm", "message": "Sure?", "defaultPrompt": "" });
        targets.observe(&event(Some("TAB"), "Page.javascriptDialogOpening", opening));
        assert_eq!(
            targets.dialog("TAB").map(|dialog| dialog.message.clone()),
            Some("Sure?".into())
        );
        assert_eq!(targets.dialogs_opened("TAB"), 1);
        targets.observe(&event(
            Some("TAB"),
            "Page.javascriptDialogClosed",
            json!({}),
        ));
        assert!(targets.dialog("TAB").is_none());

        // A session that ends takes what was kept of it along.
        targets.observe(&event(
            None,
            "Target.detachedFromTarget",
            json!({ "sessionId": "TAB" }),
        ));
        assert_eq!(targets.tab_session("T1"), None);
        assert!(targets.context("TAB", "T1", World::Page).is_none());
    }
}
