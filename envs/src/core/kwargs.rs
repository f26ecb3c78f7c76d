//! Constructor keyword arguments, checked strictly: an unknown key or a wrong type is an
//! error naming the key.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::error::EnvError;

pub struct Kwargs {
    env_id: String,
    values: Map<String, Value>,
}

impl Kwargs {
    pub fn new(env_id: &str, values: Map<String, Value>) -> Self {
        Self {
            env_id: env_id.to_string(),
            values,
        }
    }

    fn bad(&self, key: &str, expected: &str, got: &Value) -> EnvError {
        EnvError::BadKwargs(format!(
            "{}: `{key}` must be {expected}, got {got}",
            self.env_id
        ))
    }

    pub fn bool(&mut self, key: &str, default: bool) -> Result<bool, EnvError> {
        match self.values.remove(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(b),
            Some(other) => Err(self.bad(key, "true or false", &other)),
        }
    }

    /// A string that must be one of `allowed`.
    pub fn choice(
        &mut self,
        key: &str,
        allowed: &[&str],
        default: &str,
    ) -> Result<String, EnvError> {
        let expected = format!("one of {allowed:?}");
        match self.values.remove(key) {
            None => Ok(default.to_string()),
            Some(Value::String(s)) if allowed.contains(&s.as_str()) => Ok(s),
            Some(other) => Err(self.bad(key, &expected, &other)),
        }
    }

    /// Any value serde reads from JSON (a number, a string, an array, an object, or
    /// null for an `Option`), described to people as `expected` when it does not fit.
    pub fn value<T: DeserializeOwned>(
        &mut self,
        key: &str,
        expected: &str,
        default: T,
    ) -> Result<T, EnvError> {
        match self.values.remove(key) {
            None => Ok(default),
            Some(v) => serde_json::from_value(v.clone()).map_err(|_| self.bad(key, expected, &v)),
        }
    }

    /// Fails if any key was not consumed by the constructor.
    pub fn finish(self) -> Result<(), EnvError> {
        match self.values.keys().next() {
            None => Ok(()),
            Some(key) => Err(EnvError::BadKwargs(format!(
                "{}: unknown keyword argument `{key}`",
                self.env_id
            ))),
        }
    }
}
