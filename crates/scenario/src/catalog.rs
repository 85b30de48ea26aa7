//! What the scenario is checked against beyond its own schema: the TCP
//! variants, congestion controls and variant parameters that exist.
//!
//! [`Tcp`] is the real catalog (the TCP crate's tables); every command that
//! loads a scenario (`run`, `validate`, `sweep`, `reproduce`, `bench`) goes
//! through [`crate::check`] / [`crate::check_file`], which use it. A plain
//! list of names ([`Names`]) is a catalog that knows only variant names and
//! accepts any `cc` and `params`: what [`crate::parse`] uses, for tests that
//! pretend variants exist.

use std::collections::BTreeMap;

use reorderlab_tcp::variant;

/// Variant names, congestion controls and parameter ranges a scenario is checked against.
pub trait Catalog {
    /// Every known TCP variant name, in the order messages list them.
    fn variants(&self) -> Vec<&str>;
    /// Every known `cc` name; `None` accepts any.
    fn cc_names(&self) -> Option<Vec<&str>> {
        None
    }
    /// Checks one `params` entry of a flow of `variant`: `Err((key, message))`
    /// names the parameter and says what was expected.
    fn check_param(&self, _variant: &str, _key: &str, _value: f64) -> Result<(), String> {
        Ok(())
    }
}

/// A catalog of variant names alone: any `cc` and `params` pass.
#[derive(Debug, Clone, Copy)]
pub struct Names<'a>(pub &'a [&'a str]);

impl Catalog for Names<'_> {
    fn variants(&self) -> Vec<&str> {
        self.0.to_vec()
    }
}

/// The TCP crate's variants (`reorderlab variants`), its `cc` names and each
/// variant's parameter table with the ranges from its paper or RFC.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tcp;

impl Catalog for Tcp {
    fn variants(&self) -> Vec<&str> {
        variant::names()
    }

    fn cc_names(&self) -> Option<Vec<&str>> {
        Some(variant::CC_NAMES.to_vec())
    }

    fn check_param(&self, name: &str, key: &str, value: f64) -> Result<(), String> {
        let Some(v) = variant::find(name) else {
            return Ok(()); // an unknown variant is reported at `variant`
        };
        v.check_params(&BTreeMap::from([(key.to_string(), value)]))
            .map_err(|(_, m)| m)
    }
}
