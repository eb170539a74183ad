//! The address guard: which addresses a page may reach, enforced on every
//! request the browser makes through an egress proxy.
//!
//! Not built yet: a placeholder so the workspace has the shape the design
//! fixes. Until it lands, the drivers do not restrict where a page connects.
