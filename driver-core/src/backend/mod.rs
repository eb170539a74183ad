//! What the backends share besides the contract: the narrow trait a
//! backend implements ([`BrowserSession`]) and the one [`Driver`](crate::Driver)
//! made of it ([`SessionDriver`]), with the [`supervisor`] every call runs
//! through (lock, lazy start, deadline, clearing a dead browser, recovery
//! after a timeout); how Chrome is started ([`launch`]); the page script
//! behind the selector calls ([`locate`]); input events ([`input`]); the
//! [`network`] log kept from Chrome's events; the [`screencast`] behind a
//! live view; the pictures text is judged by ([`paint`]); a picture made of
//! strips for a browser that cannot scale one ([`strips`]); what the browser
//! knows of elements that no script reads ([`tree`]); and a browser's own
//! [`devtools`] socket.
//!
//! Behind the `backend` feature: a program that uses a driver never needs
//! these, and the facade does not re-export them.

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
