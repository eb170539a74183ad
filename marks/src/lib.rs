//! Set-of-Marks: the injected script that numbers every visible interactive
//! element, and the snapshot text a model reads.
//!
//! Not built yet: a placeholder so the workspace has the shape the design
//! fixes.
