//! Acting on numbered elements: readying one (found by its number, checked
//! to be the element the model read, scrolled into view), then the input a
//! person would give it; and pointing: the numbered element at a point, and
//! a screenshot with the numbers drawn on it.

use crate::request::{Act, ActAction, ActHow, FrameFields, Holds, MarkBox, Request};
use driver_core::{Driver, PageText, ScreenshotFormat, ScreenshotOptions};

use driver_core::Capability;

use crate::frames::MAX_FRAME_DEPTH;
use crate::numbering::Pointee;
use crate::page::{
    self, ActAnswer, Answer, ArmKeysAnswer, AtAnswer, Code, CoverAnswer, Empty, FrameBoxAnswer,
    HeldAnswer, HoveredAnswer, ReachedAnswer, Refusal, SendsAnswer, WireReached, WireSeen,
};
use crate::{Marks, MarksError, Rect, Snapshot, SnapshotOptions, Unsuitable};

mod fields;

/// An element an action's input reached, as a model is told of it: by the
/// number it has (given one now if it had none), or by its tag.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Landed {
    /// Its number, where it (or what holds it) is something to act on.
    pub number: Option<u32>,
    /// Its role (empty where it has no number).
    pub role: PageText,
    /// Its name, or its first words where it has no number.
    pub name: PageText,
    /// Its tag, lower case.
    pub tag: PageText,
}

/// The events of a pointer action, and of typing, whose targets are checked.
const POINTER_EVENTS: &[&str] = &["pointerdown", "mousedown", "mouseup", "click"];
const KEY_EVENTS: &[&str] = &["keydown", "input"];

/// Where an action's input went, when it was not the element acted on:
/// the first event (`pointerdown`, `mousedown`, `mouseup`, `click`, or for
/// typing `keydown`, `input`) whose target was neither the element, nor
/// inside it, nor its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elsewhere {
    /// The event.
    pub event: String,
    /// What it reached.
    pub reached: Landed,
    /// The name the model was shown for the element it acted on.
    pub meant: PageText,
}

/// What an action on a numbered element did, beyond doing it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Acted {
    /// Where the input went instead, if its events reached another element.
    pub elsewhere: Option<Elsewhere>,
    /// The other elements the page's script passed the click on to (a
    /// handler's `click()` on another control, a label pointing elsewhere).
    pub also: Vec<Landed>,
}

/// What typing into a numbered field did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Typed {
    /// What the field held before (a password's as `••••`), so the caller
    /// can tell what it should hold now.
    pub before: Option<PageText>,
    /// Where the keys went instead, if not into the field.
    pub elsewhere: Option<Elsewhere>,
    /// When any of the text went elsewhere (the page moved the focus as
    /// the keys came): each run of it, in order, and where it went.
    pub went: Vec<Went>,
    /// A secret's typing that was stopped: where the first key stopped was
    /// headed (no key reached it, nor any after).
    pub stopped: Option<Landed>,
    /// Text was typed and no element took any of it (the element takes
    /// no text: a link, a button), as far as the page's events tell.
    pub took_none: bool,
    /// What a field whose value is picked (a date, a colour, a slider)
    /// took as its value from the text, in its own form (`#00ff00`, a
    /// slider's stop nearest): no keys were typed.
    pub picked: Option<PageText>,
}

/// What had the focus as keys were pressed (see [`Marks::arm_keys`]).
#[derive(Debug, Clone)]
pub struct KeysArmed(Pointee);

/// A run of typed text and where it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Went {
    /// The text (empty for a secret's: only its length is said).
    pub text: String,
    /// How many characters.
    pub length: usize,
    /// Whether it went into the field typed into.
    pub into_field: bool,
    /// The element it went into.
    pub reached: Landed,
}

/// What a readied element's recorded events reached (see `reached`).
#[derive(Default)]
struct Reached {
    elsewhere: Option<Elsewhere>,
    went: Vec<Went>,
    stopped: Option<Landed>,
    /// The page answered, and no element took text.
    took_none: bool,
    /// What else the page passed a click on to.
    also: Vec<Landed>,
    /// For pressed keys: the event that went where the page moved the
    /// focus while its key was on its way, and what that was.
    moved: Option<(String, Landed)>,
    /// The page answered.
    answered: bool,
    /// A click event reached something in the element's document.
    clicked: bool,
}

/// A numbered element readied for an action of the caller's own: where it
/// is (scrolled into view) and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// Its centre, in top-viewport CSS pixels (a cross-origin frame's
    /// offset added).
    pub x: f64,
    /// Its centre's y.
    pub y: f64,
    /// Its box, in top-viewport CSS pixels.
    pub rect: Rect,
    /// Its tag, upper case (`INPUT`, `SELECT`).
    pub tag: String,
    /// A form control's type (`checkbox`, `text`), if it has one.
    pub input_type: Option<String>,
    /// A checkbox's or radio's state, if it has one.
    pub checked: Option<bool>,
    /// A field's value (a password's as `••••`), if it has one.
    pub value: Option<PageText>,
    /// (for `"file"`) the file field it stands for, if it has one.
    pub file: Option<FileField>,
    /// What covers its centre, if something does.
    pub covered: Option<PageText>,
}

/// The file field an element stands for (itself, the one its label is
/// for, or one inside it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileField {
    /// It takes several files.
    pub multiple: bool,
    /// The names of the files it holds now.
    pub files: Vec<PageText>,
    /// A selector that finds it by its position in the document alone
    /// (`None` inside a shadow tree).
    pub path: Option<String>,
}

/// What an action asks of the element besides readying it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Nothing more.
    None,
    /// Take the keyboard focus (emptied first if asked).
    Focus,
    /// Mark the file field it stands for.
    File,
    /// Choose options.
    Select,
}

impl Action {
    fn wire(self) -> ActAction {
        match self {
            Self::None => ActAction::None,
            Self::Focus => ActAction::Focus,
            Self::File => ActAction::File,
            Self::Select => ActAction::Select,
        }
    }

    /// What the model is told could not be done.
    fn done(self) -> &'static str {
        match self {
            Self::Focus => "typed into",
            Self::Select => "selected in",
            Self::None | Self::File => "used",
        }
    }
}

impl Marks {
    /// Finds a numbered element, checks it is the one the model read, runs
    /// `action` on it and answers where to press it (top-viewport
    /// coordinates).
    async fn ready(
        &self,
        driver: &dyn Driver,
        number: u32,
        action: Action,
        how: ActHow,
    ) -> Result<(f64, f64, ActAnswer), MarksError> {
        self.ready_target(driver, number, action, how)
            .await
            .map(|(x, y, answer, _)| (x, y, answer))
    }

    /// [`ready`](Self::ready), and the element as the numbering holds it.
    async fn ready_target(
        &self,
        driver: &dyn Driver,
        number: u32,
        action: Action,
        how: ActHow,
    ) -> Result<(f64, f64, ActAnswer, Pointee), MarksError> {
        let tab = driver.current_tab().await?;
        let target = self.target(&tab, number)?;
        let wanted = how.values.clone().unwrap_or_default();
        // What the model read of it: acting on something else (a node a
        // re-render reused, a forged registry) is refused.
        let (role, name) = match &target.seen_as {
            Some((role, name)) => (Some(role.clone()), Some(name.clone())),
            None => (None, None),
        };
        let request = Request::Act(Act {
            id: target.local,
            doc: target.doc.clone(),
            action: action.wire(),
            role,
            name,
            how,
        });
        let answer = match page::run::<ActAnswer>(driver, &target.path, &request).await? {
            Answer::Done(answer) => answer,
            Answer::Refused(refusal) => {
                return Err(refused(number, action, refusal, &target.seen_as, wanted))
            }
        };
        let mut x = page::finite(answer.x, "x")?;
        let mut y = page::finite(answer.y, "y")?;
        if !target.path.is_empty() {
            // A cross-origin frame answers in its own viewport: add where the
            // frame sits now.
            let placed = Request::FrameBox {
                frame: target.path.clone(),
            };
            match page::run::<FrameBoxAnswer>(driver, &[], &placed).await? {
                Answer::Done(placed) => {
                    // (In its own pixels, which a transform on it scales.)
                    let scale = placed.offset.scale();
                    x = page::finite(placed.offset.x, "frame offset")? + x * scale;
                    y = page::finite(placed.offset.y, "frame offset")? + y * scale;
                }
                Answer::Refused(_) => return Err(MarksError::Gone { number }),
            }
        }
        Ok((x, y, answer, target))
    }

    /// What a readied element's recorded events reached (see `act.js`'s
    /// `reached`): the first that was not the element, numbered. `None`
    /// where the page could not be asked (it navigated, a dialog opened).
    async fn reached(
        &self,
        driver: &dyn Driver,
        target: &Pointee,
        events: &[&str],
        holds: Option<Holds>,
    ) -> Reached {
        let request = Request::Reached {
            id: target.local,
            doc: target.doc.clone(),
            holds,
        };
        let Ok(Answer::Done(answer)) =
            page::run::<ReachedAnswer>(driver, &target.path, &request).await
        else {
            return Reached::default();
        };
        let mut went = Vec::new();
        for piece in answer.pieces {
            went.push(Went {
                text: piece.text,
                length: piece.length,
                into_field: piece.inside,
                reached: self.landed(driver, target, piece.seen).await,
            });
        }
        let stopped = match answer.blocked {
            Some(seen) => Some(self.landed(driver, target, seen).await),
            None => None,
        };
        let mut also = Vec::new();
        for seen in answer.also {
            also.push(self.landed(driver, target, seen).await);
        }
        let moved = match answer.moved {
            Some(moved) => Some((moved.kind, self.landed(driver, target, moved.seen).await)),
            None => None,
        };
        let clicked = answer.events.iter().any(|event| event.kind == "click");
        let elsewhere = self.elsewhere(driver, target, events, answer.events).await;
        Reached {
            elsewhere,
            went,
            stopped,
            took_none: !answer.took,
            also,
            moved,
            answered: true,
            clicked,
        }
    }

    /// The first of the action's own kind of events that reached another
    /// element than the one acted on, numbered.
    async fn elsewhere(
        &self,
        driver: &dyn Driver,
        target: &Pointee,
        events: &[&str],
        reached: Vec<WireReached>,
    ) -> Option<Elsewhere> {
        // Only the action's own kind of event: a click that makes the page
        // fire `input` on a field of its own is no typing gone astray.
        let first = reached
            .into_iter()
            .find(|event| !event.inside && events.contains(&event.kind.as_str()))?;
        let pressed = matches!(first.kind.as_str(), "mouseup" | "click");
        let reached = self.landed(driver, target, first.seen).await;
        // The press reached the element and what it opened (a menu's
        // backdrop, an overlay) took the release: the page's answer to the
        // press, not a swap, unless what took it is a control of its own.
        if pressed && reached.number.is_none() {
            return None;
        }
        Some(Elsewhere {
            event: first.kind,
            reached,
            meant: target.meant(),
        })
    }

    /// An element the page answered of, numbered in the document it is in.
    async fn landed(&self, driver: &dyn Driver, target: &Pointee, seen: WireSeen) -> Landed {
        let number = match (seen.id, driver.current_tab().await) {
            (Some(id), Ok(tab)) => Some(self.with_tab(&tab, |marks| {
                marks.number_all(&target.path, &target.doc, std::iter::once(id))[0]
            })),
            _ => None,
        };
        Landed {
            number,
            role: seen.role,
            name: seen.name,
            tag: seen.tag,
        }
    }

    /// Clicks a numbered element as a person's hand does: once it holds
    /// still (its box the same over two frames: what slides in, or a row a
    /// folder pushes down, is pressed where it comes to rest), at a point
    /// where a hit test finds it (its centre, or another point of it where
    /// something lies over the centre; a point on its own label counts,
    /// one on another control does not), the pointer moves there and rests
    /// a frame (so what reacts to the pointer arriving, a menu moving its
    /// focus, a hover state, has happened); if the page then put something
    /// else under the pointer, nothing is pressed and the error says what;
    /// else the button is pressed and released, and the answer says where
    /// the events went if they reached another element.
    pub async fn click(&self, driver: &dyn Driver, number: u32) -> Result<Acted, MarksError> {
        self.click_with(driver, number, driver_core::Click::default())
            .await
    }

    /// [`click`](Self::click) as `click` says: another button, a double
    /// or triple click, keys held.
    pub async fn click_with(
        &self,
        driver: &dyn Driver,
        number: u32,
        click: driver_core::Click,
    ) -> Result<Acted, MarksError> {
        let (x, y, target, record) = self.point(driver, number).await?;
        // The pointer is there, and what lies under it was checked.
        let click = driver_core::Click {
            moved: true,
            ..click
        };
        driver.click_with(x, y, click).await?;
        let reached = if record {
            self.reached(driver, &target, POINTER_EVENTS, None).await
        } else {
            Reached::default()
        };
        let mut elsewhere = reached.elsewhere;
        // A left click the page answered of, with no click event in the
        // element's document at all: its release went to something else,
        // a frame of another document laid over it as it went down, say.
        if reached.answered
            && !reached.clicked
            && elsewhere.is_none()
            && click.button == driver_core::MouseButton::Left
        {
            elsewhere = self.released_elsewhere(driver, &target, number, x, y).await;
        }
        Ok(Acted {
            elsewhere,
            also: reached.also,
        })
    }

    /// What lies where a click was released that made no click in the
    /// element's document: numbered where it can be, or, where nothing
    /// of the page's is there (another site's frame), said as nothing.
    async fn released_elsewhere(
        &self,
        driver: &dyn Driver,
        target: &Pointee,
        number: u32,
        x: f64,
        y: f64,
    ) -> Option<Elsewhere> {
        let reached = match self.element_at(driver, x, y).await {
            Ok(Some((at, _, _))) if at == number => return None,
            Ok(Some((at, role, name))) => Landed {
                number: Some(at),
                role,
                name,
                tag: PageText::default(),
            },
            _ => Landed::default(),
        };
        Some(Elsewhere {
            event: "click".to_owned(),
            reached,
            meant: target.meant(),
        })
    }

    /// Readies a numbered element for a pointer, moves the pointer onto it
    /// and checks it is still what lies there (see [`click`](Self::click)):
    /// where to press, the element, and whether its events are recorded
    /// (only in tabwright's own world, out of the page's sight).
    async fn point(
        &self,
        driver: &dyn Driver,
        number: u32,
    ) -> Result<(f64, f64, Pointee, bool), MarksError> {
        // A still page pays the one frame the pointer's move costs; an
        // element that moved meanwhile is readied again, held still first.
        match self.point_with(driver, number, true).await? {
            Some(pointed) => Ok(pointed),
            None => self
                .point_with(driver, number, false)
                .await?
                .ok_or(MarksError::Gone { number }),
        }
    }

    /// [`point`](Self::point), the fast way (its box noted, checked after
    /// the move: `None` if it moved) or the steady way (waiting for it to
    /// hold still over two frames, then a frame's rest after the move).
    async fn point_with(
        &self,
        driver: &dyn Driver,
        number: u32,
        fast: bool,
    ) -> Result<Option<(f64, f64, Pointee, bool)>, MarksError> {
        let record = driver.capabilities().supports(Capability::IsolatedWorld);
        let how = if fast {
            ActHow {
                note: Some(true),
                record: Some(record),
                press: Some(true),
                ..ActHow::default()
            }
        } else {
            ActHow {
                steady: Some(true),
                record: Some(record),
                press: Some(true),
                ..ActHow::default()
            }
        };
        let (x, y, answer, target) = self
            .ready_target(driver, number, Action::None, how)
            .await
            .map_err(|error| match error {
                MarksError::Unsuitable { number, why, .. } => MarksError::Unsuitable {
                    number,
                    action: "clicked",
                    why,
                },
                other => other,
            })?;
        if let Some(by) = answer.covered {
            return Err(MarksError::Covered { number, by });
        }
        driver.move_mouse(x, y).await?;
        let mut target = target;
        let name = target.seen_as.as_ref().map(|(_, name)| name.clone());
        let request = Request::Hovered {
            id: target.local,
            x: answer.lx,
            y: answer.ly,
            name,
            noted: fast,
            settle: self.settle_key.clone(),
        };
        match page::run::<HoveredAnswer>(driver, &target.path, &request).await? {
            Answer::Done(HoveredAnswer { moved: true, .. }) => return Ok(None),
            Answer::Done(HoveredAnswer {
                still: true,
                replaced,
                ..
            }) => {
                // What the events reach is checked against the element
                // pressed: the re-rendered one, where the page redrew it.
                if let Some(local) = replaced {
                    target.local = local;
                }
            }
            Answer::Done(HoveredAnswer { now: Some(now), .. }) => {
                let now = self.landed(driver, &target, now).await;
                return Err(MarksError::Swapped { number, now });
            }
            Answer::Done(_) => {}
            Answer::Refused(_) => return Err(MarksError::Gone { number }),
        }
        Ok(Some((x, y, target, record)))
    }

    /// Moves the mouse over a numbered element (scrolled into view first,
    /// once it holds still), so hover menus open and tooltips show.
    pub async fn hover(&self, driver: &dyn Driver, number: u32) -> Result<(), MarksError> {
        let (x, y, answer) = self
            .ready(
                driver,
                number,
                Action::None,
                ActHow {
                    steady: Some(true),
                    ..ActHow::default()
                },
            )
            .await?;
        if let Some(by) = answer.covered {
            return Err(MarksError::Covered { number, by });
        }
        driver.move_mouse(x, y).await?;
        Ok(())
    }
}

/// A screenshot with every field of the page that holds a secret (see
/// [`Marks::type_into`]) covered by an opaque box: a picture shows that a
/// field holds one, never what it holds, even where the field is no
/// password box. (Fields in frames are not covered.)
pub async fn screenshot_covering_secrets(
    driver: &dyn Driver,
    options: ScreenshotOptions,
) -> Result<Vec<u8>, MarksError> {
    cover_secrets(driver).await?;
    let picture = driver.screenshot(options).await;
    uncover(driver).await;
    Ok(picture?)
}

/// Covers every field of the page that holds a secret with an opaque box,
/// for a picture taken some other way; [`uncover`] takes the boxes away.
pub async fn cover_secrets(driver: &dyn Driver) -> Result<(), MarksError> {
    page::run::<CoverAnswer>(driver, &[], &Request::Cover).await?;
    Ok(())
}

/// Takes away what [`cover_secrets`] (and a marked picture) drew.
pub async fn uncover(driver: &dyn Driver) {
    let _ = page::run::<Empty>(driver, &[], &Request::Unmark).await;
}

/// After a secret was typed without a number (into whatever had the
/// focus): the focused field holds it from now on, its value read as
/// `••••` in every answer (see [`Marks::type_into`]), and the document
/// says it held one ([`holds_secret`]).
pub async fn hold_focused(driver: &dyn Driver) -> Result<(), MarksError> {
    page::run::<Empty>(driver, &[], &Request::Hold { focused: true }).await?;
    Ok(())
}

/// Whether a secret was ever typed in the current tab's document or a
/// frame of it: its fields, or the page's own copies, may still hold it, so
/// nothing that runs the page's script may read there.
pub async fn holds_secret(driver: &dyn Driver) -> Result<bool, MarksError> {
    let answer = page::run::<HeldAnswer>(driver, &[], &Request::Held).await?;
    match answer {
        Answer::Done(answer) => Ok(answer.held),
        // A page the walker cannot answer in is taken to hold one.
        _ => Ok(true),
    }
}

/// Clicks at a point of the viewport as a person does: the pointer moves
/// there and rests for a frame and a moment, then the button is pressed and released.
/// A menu that moves its focus to the item the pointer arrives on a moment
/// later takes the click on that item, not on the one it had.
pub async fn press_at(driver: &dyn Driver, x: f64, y: f64) -> Result<(), driver_core::DriverError> {
    press_at_with(driver, x, y, driver_core::Click::default()).await
}

/// [`press_at`] as `click` says.
pub async fn press_at_with(
    driver: &dyn Driver,
    x: f64,
    y: f64,
    click: driver_core::Click,
) -> Result<(), driver_core::DriverError> {
    driver.move_mouse(x, y).await?;
    rest(driver).await;
    driver.click_with(x, y, click).await
}

/// Waits for the page to react to the pointer arriving: a frame, and the
/// timers that frame set going (a re-render a `mouseenter` handler put off).
/// Best effort: a page that cannot be asked (a dialog opened) is not.
async fn rest(driver: &dyn Driver) {
    const REST: &str =
        "new Promise((done) => { const later = () => setTimeout(() => done(true), 0); \
        requestAnimationFrame(later); setTimeout(later, 50); })";
    let _ = driver.eval_isolated(&[], REST).await;
}

/// The error a refusal of the walker is, for element `number`.
fn refused(
    number: u32,
    action: Action,
    refusal: Refusal,
    seen_as: &Option<(String, PageText)>,
    wanted: Vec<String>,
) -> MarksError {
    let unsuitable = |why| MarksError::Unsuitable {
        number,
        action: action.done(),
        why,
    };
    match refusal.error {
        Code::Gone => MarksError::Gone { number },
        Code::Hidden => MarksError::Hidden { number },
        Code::Navigated => MarksError::Navigated { number },
        Code::Changed => MarksError::Changed {
            number,
            was: seen_as
                .as_ref()
                .map(|(_, name)| name.clone())
                .unwrap_or_default(),
            now: refusal.now.unwrap_or_default(),
        },
        Code::NoOption => MarksError::NoOption {
            number,
            wanted,
            options: refusal.options.unwrap_or_default(),
        },
        Code::Disabled => unsuitable(Unsuitable::Disabled),
        Code::NotSelect => unsuitable(Unsuitable::NotASelect),
        Code::FrameFile => unsuitable(Unsuitable::FileFieldInFrame),
        Code::NoText => unsuitable(Unsuitable::NoText),
        Code::NotItsKind => unsuitable(Unsuitable::NotItsKind),
        Code::Unsteady => MarksError::Unsteady { number },
        code @ (Code::Loading | Code::Nothing) => {
            MarksError::Script(format!("the walker refused to act: {code:?}"))
        }
    }
}
