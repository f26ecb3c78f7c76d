//! The keyword arguments of the reference's `solve(...)`, read strictly: each
//! environment names the keywords its solver takes and the values we reproduce; an
//! unknown keyword or a value we do not reproduce is an error naming it.

use serde_json::{Map, Value};

pub struct SolveKwargs {
    values: Map<String, Value>,
}

impl SolveKwargs {
    pub fn new(values: &Map<String, Value>) -> Self {
        Self {
            values: values.clone(),
        }
    }

    /// A string keyword, `default` when absent or null; it must be one of `allowed`.
    pub fn choice(
        &mut self,
        key: &str,
        default: &'static str,
        allowed: &[&'static str],
    ) -> Result<&'static str, String> {
        match self.values.remove(key) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::String(s)) => allowed.iter().find(|a| **a == s).copied().ok_or_else(|| {
                format!("solve: {key}={s:?} is not reproduced (use one of {allowed:?})")
            }),
            Some(other) => Err(format!("solve: {key} must be a string, got {other}")),
        }
    }

    /// A non-negative integer keyword, `None` when absent or null.
    pub fn count(&mut self, key: &str) -> Result<Option<u64>, String> {
        match self.values.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| format!("solve: {key} must be a non-negative integer, got {v}")),
        }
    }

    /// A keyword taken only at its default (null or absent, or `default` itself).
    pub fn default_only(&mut self, key: &str, default: Value) -> Result<(), String> {
        match self.values.remove(key) {
            None | Some(Value::Null) => Ok(()),
            Some(v) if v == default => Ok(()),
            Some(v) => Err(format!(
                "solve: {key}={v} is not reproduced (only its default)"
            )),
        }
    }

    /// A keyword the chosen strategy does not read (accepted and ignored, as the
    /// reference does).
    pub fn ignored(&mut self, key: &str) {
        self.values.remove(key);
    }

    /// Fails on any keyword the solver does not take.
    pub fn finish(self) -> Result<(), String> {
        match self.values.keys().next() {
            None => Ok(()),
            Some(k) => Err(format!("solve: unknown keyword argument {k:?}")),
        }
    }
}
