//! What the backends share besides the contract: the narrow trait a
//! backend implements ([`BrowserSession`]) and the one [`Driver`](crate::Driver)
//! made of it ([`SessionDriver`]), with the [`supervisor`] every call runs
//! through (lock, lazy start, deadline, clearing a dead browser, recovery
//! after a timeout); how Chrome is started ([`launch`]); the page script
//! behind the selector calls ([`locate`]); input events ([`input`]); the
//! [`network`] log kept from Chrome's events; the [`screencast`] behind a
//! live view; the pictures text is judged by ([`paint`], and beyond
//! Chrome's viewport [`beyond`]); a picture made of
//! strips for a browser that cannot scale one ([`strips`]); what the browser
//! knows of elements that no script reads ([`tree`]); and a browser's own
//! [`devtools`] socket.
//!
//! Behind the `backend` feature: a program that uses a driver never needs
//! these, and the facade does not re-export them.

pub mod beyond;
pub mod devtools;
pub mod input;
pub mod launch;
pub mod locate;
pub mod network;
pub mod paint;
pub mod procfs;
pub mod screencast;
mod session;
mod session_driver;
pub mod strips;
pub mod supervisor;
pub mod tree;

pub use session::BrowserSession;
pub use session_driver::SessionDriver;

/// Most console entries a backend keeps between two `console()` calls (per
/// browser context); older ones are dropped so a page logging in a loop
/// cannot grow memory without bound. The pack reads them after every
/// action, so this is how many one action can log and still be counted.
pub const CONSOLE_LIMIT: usize = 10_000;

/// The longest console message a backend keeps, in characters (the pack
/// shows 500).
pub const CONSOLE_TEXT_LIMIT: usize = 2_000;

/// `text` cut to [`CONSOLE_TEXT_LIMIT`] characters.
pub fn console_text(mut text: String) -> String {
    if let Some((cut, _)) = text.char_indices().nth(CONSOLE_TEXT_LIMIT) {
        text.truncate(cut);
    }
    text
}
