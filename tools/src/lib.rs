//! The model-facing tool pack: tool definitions with JSON Schemas, dispatch,
//! and the text and images a model reads.
//!
//! Not built yet: a placeholder so the workspace has the shape the design
//! fixes.
