//! What the backends share besides the contract: how Chrome is started
//! ([`launch`]), the page script behind the selector calls ([`locate`]), and
//! the [`supervisor`] every call runs through (lock, lazy start, deadline,
//! clearing a dead browser, recovery after a timeout).
//!
//! Behind the `backend` feature: a program that uses a driver never needs
//! these, and the facade does not re-export them.

pub mod input;
pub mod launch;
pub mod locate;
pub mod supervisor;
