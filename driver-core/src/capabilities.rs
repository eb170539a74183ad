//! [`Capabilities`]: what a backend can do, as a typed list, so that a
//! caller (and the conformance suite) asks about exactly one thing and a
//! misspelt name cannot pass silently.

use std::fmt;

use serde::Serialize;

/// One thing some backend cannot do. Everything not named here is part of
/// the [`Driver`](crate::Driver) contract and every backend does it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum Capability {
    /// Screenshots in JPEG and WebP besides PNG.
    LossyScreenshots,
    /// Screenshots of the whole page, not only the viewport.
    FullPageScreenshots,
    /// Console messages and page errors ([`Driver::console`](crate::Driver::console)).
    Console,
    /// A live view through [`Options::on_frame`](crate::Options::on_frame).
    Screencast,
    /// Refused downloads reported by [`Driver::downloads`](crate::Driver::downloads).
    DownloadReports,
    /// A script world of tabwright's own, which the page's scripts can
    /// neither see nor change ([`Driver::eval_isolated`](crate::Driver::eval_isolated)).
    IsolatedWorld,
    /// Requests in flight seen from the protocol
    /// ([`Driver::requests_in_flight`](crate::Driver::requests_in_flight)).
    RequestTracking,
    /// Many sessions in one browser, each in a browser context of its own
    /// (where it is unsupported, each session has a browser of its own).
    SharedBrowser,
    /// Chrome DevTools Protocol commands sent to the current tab
    /// ([`Driver::devtools`](crate::Driver::devtools)): printing to PDF,
    /// device emulation, cookies, setting a file input's files.
    DevTools,
    /// The requests of the current page, kept as they happen
    /// ([`Driver::network_log`](crate::Driver::network_log)).
    NetworkLog,
    /// Pictures of what the compositor draws, with some of the page's
    /// paint taken away for a moment out of the page's sight
    /// ([`Driver::paint_probe`](crate::Driver::paint_probe)): how `marks`
    /// tells what a person sees.
    PaintProbe,
    /// What the browser knows of elements that no script can read, handed
    /// to tabwright's world ([`Driver::hand_over`](crate::Driver::hand_over)):
    /// closed shadow roots, and Chromium's accessibility tree (roles, names
    /// and states set through `ElementInternals`).
    BrowserTree,
    /// Tools a page offers of its own (WebMCP), listed and called in
    /// tabwright's script world: the browser started with the feature
    /// ([`Options::page_tools`](crate::Options::page_tools)) and an
    /// isolated world to ask it from.
    PageTools,
    /// The words CSS counts, read as drawn: a `counter()` in a `::before`
    /// or `::after`, a `::marker` of a style the walker does not number
    /// itself (`lower-greek`), handed over with
    /// [`Handover::generated`](crate::Handover::generated) from Chromium's
    /// accessibility tree. Where it is unsupported, the page's counters are
    /// counted by tabwright's script as CSS scopes them, in the decimal,
    /// alphabetic and roman styles (words in another style are left out).
    CountedWords,
    /// A script or a page that spins past the time allowed is stopped and
    /// the session goes on in the same browser, its tabs kept. Where it is
    /// unsupported, the call answers that the browser was ended (its
    /// `BrowserGone` says why), and the next call starts a fresh one.
    StopScripts,
    /// A drag by pointer input fires the page's HTML drag-and-drop events
    /// (`dragstart`, `drop`), so an element marked `draggable` can be
    /// picked up and dropped. A drag by mouse events alone (a slider, a
    /// canvas) needs only the pointer.
    HtmlDrag,
    /// The paint probe's pictures are the compositor's: they draw what a
    /// backdrop filter does to what lies under it and leave out a backface
    /// turned away. Where unsupported (Firefox paints its pictures apart
    /// from its compositor, which alone does both), text a box with a
    /// backdrop filter lies over, and text a transform turns, are judged by
    /// their style.
    CompositedPictures,
    /// The paint probe pictures any part of the page, beyond the viewport's
    /// top and bottom edges too ([`PaintProbe::area`](crate::PaintProbe::area)),
    /// without the page noticing: text in the margin a snapshot reads is
    /// judged by its pixels too, and a picture is of what is judged alone.
    /// Firefox paints any part of the document; Chrome, which pictures
    /// beyond its viewport only by growing it for the moment
    /// (`captureBeyondViewport`, a resize the page hears), replays the
    /// document's own layer as the compositor recorded it, and leaves
    /// unknown what other layers may lie over (there its style judges).
    PicturesBeyondViewport,
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::LossyScreenshots => "lossy screenshots",
            Self::FullPageScreenshots => "full-page screenshots",
            Self::Console => "the console",
            Self::Screencast => "a live view",
            Self::DownloadReports => "download reports",
            Self::IsolatedWorld => "an isolated script world",
            Self::RequestTracking => "watching requests in flight",
            Self::SharedBrowser => "sessions sharing one browser",
            Self::DevTools => "DevTools commands",
            Self::NetworkLog => "the network log",
            Self::PaintProbe => "judging text by the pixels drawn",
            Self::BrowserTree => "reading closed shadow roots and the accessibility tree",
            Self::PageTools => "tools a page offers of its own (WebMCP)",
            Self::CountedWords => "the words CSS counts (counters, markers)",
            Self::StopScripts => "stopping a script that spins, the session kept",
            Self::HtmlDrag => "HTML drag and drop",
            Self::CompositedPictures => "pictures as the compositor draws them",
            Self::PicturesBeyondViewport => "pictures beyond the viewport",
        })
    }
}

/// Why a session made without `Options::network_log` has no log, on any
/// backend.
pub(crate) const NETWORK_NOT_KEPT: &str =
    "the session was started without a network log (Options::network_log; tabwright --caps network asks for it)";

/// What a backend can do: everything but the capabilities it lists as
/// unsupported, each with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    /// The backend's name, e.g. `"cdp"` or `"webdriver"`.
    pub backend: &'static str,
    /// What it cannot do, and why.
    pub unsupported: Vec<(Capability, &'static str)>,
}

impl Capabilities {
    /// A backend that can do everything the trait asks.
    pub fn full(backend: &'static str) -> Self {
        Self {
            backend,
            unsupported: Vec::new(),
        }
    }

    /// The same, but without `capability`, for the reason given.
    pub fn without(mut self, capability: Capability, why: &'static str) -> Self {
        self.unsupported.push((capability, why));
        self
    }

    /// The same, without what a session must ask for in its options and
    /// did not: the network log ([`Options::network_log`](crate::Options::network_log))
    /// and page tools ([`Options::page_tools`](crate::Options::page_tools)).
    pub fn as_asked(self, options: &crate::Options) -> Self {
        let capabilities = if options.network_log {
            self
        } else {
            self.without(Capability::NetworkLog, NETWORK_NOT_KEPT)
        };
        if options.page_tools {
            capabilities
        } else {
            capabilities.without(
                Capability::PageTools,
                "the browser was started without WebMCP, so pages offer no tools (Options::page_tools; tabwright --caps page_tools asks for it)",
            )
        }
    }

    /// Whether the backend can do it.
    pub fn supports(&self, capability: Capability) -> bool {
        self.reason(capability).is_none()
    }

    /// Why `capability` is unsupported, or `None` if it is supported.
    pub fn reason(&self, capability: Capability) -> Option<&'static str> {
        self.unsupported
            .iter()
            .find(|(missing, _)| *missing == capability)
            .map(|(_, why)| *why)
    }

    /// The error a call needing `capability` answers, if it is unsupported.
    pub fn check(&self, capability: Capability) -> crate::Result<()> {
        match self.reason(capability) {
            None => Ok(()),
            Some(reason) => Err(crate::DriverError::Unsupported {
                backend: self.backend,
                feature: capability,
                reason,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capability_is_unsupported_only_when_listed() {
        let capabilities =
            Capabilities::full("test").without(Capability::Screencast, "no frames here");
        assert!(capabilities.supports(Capability::Console));
        assert!(!capabilities.supports(Capability::Screencast));
        assert_eq!(
            capabilities.reason(Capability::Screencast),
            Some("no frames here")
        );
        let error = capabilities
            .check(Capability::Screencast)
            .expect_err("unsupported");
        assert_eq!(
            error.to_string(),
            "a live view is not supported by the test backend: no frames here"
        );
    }
}
