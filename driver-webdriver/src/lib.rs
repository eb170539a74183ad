//! tabwright's browser backend over W3C WebDriver (fantoccini), against a
//! chromedriver it starts or any remote end such as Selenium Grid.
//!
//! Not built yet: this crate is a placeholder so the workspace has the shape
//! the design fixes. It exports nothing, so nothing can mistake it for a
//! working backend; the conformance suite lists only the backends that exist.
