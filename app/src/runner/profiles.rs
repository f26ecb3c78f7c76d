//! Named endpoint profiles and their keys. Profiles are kept on the device without
//! their keys; a key lives in memory for the tab's life unless its profile says
//! "remember on this device", and then it is stored apart from the profiles, so no
//! export of the profiles (or of anything else) can carry it.

use std::collections::BTreeMap;

use bench::protocol::endpoint::{Endpoint, Prices};
use bench::protocol::providers::{Provider, Sampling};
use serde::{Deserialize, Serialize};

use crate::storage::{Store, StoreError};
use crate::storage_keys::{ENDPOINT_KEYS, ENDPOINT_PROFILES};

/// One named endpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Profile {
    pub name: String,
    pub provider: Provider,
    pub base_url: String,
    pub model: String,
    pub temperature: Option<f64>,
    pub max_output_tokens: Option<u32>,
    /// Extra headers, one `Name: value` per entry.
    pub headers: Vec<(String, String)>,
    /// Per request, in seconds.
    pub timeout_s: u32,
    pub prices: Prices,
    /// Keep the key in this browser's storage.
    pub remember_key: bool,
}

impl Default for Profile {
    fn default() -> Self {
        Self {
            name: "My model".into(),
            provider: Provider::OpenAi,
            base_url: default_base_url(Provider::OpenAi).into(),
            model: String::new(),
            temperature: None,
            max_output_tokens: None,
            headers: Vec::new(),
            timeout_s: 120,
            prices: Prices::default(),
            remember_key: false,
        }
    }
}

/// The usual base URL of each API.
pub fn default_base_url(p: Provider) -> &'static str {
    match p {
        Provider::OpenAi => "https://api.openai.com/v1",
        Provider::Anthropic => "https://api.anthropic.com/v1",
        Provider::Gemini => "https://generativelanguage.googleapis.com/v1beta",
    }
}

/// What the provider select shows.
pub fn provider_label(p: Provider) -> &'static str {
    match p {
        Provider::OpenAi => {
            "OpenAI-compatible Chat Completions (OpenAI, OpenRouter, vLLM, Ollama, LM Studio, llama.cpp, LiteLLM)"
        }
        Provider::Anthropic => "Anthropic Messages",
        Provider::Gemini => "Google Gemini generateContent",
    }
}

pub const PROVIDERS: [Provider; 3] = [Provider::OpenAi, Provider::Anthropic, Provider::Gemini];

impl Profile {
    /// What to say before a run with this profile, when it cannot be used.
    pub fn unusable(&self) -> Option<String> {
        let problems = self.problems();
        (!problems.is_empty()).then(|| {
            format!(
                "The endpoint profile needs fixing on /models: {}",
                problems.join(" ")
            )
        })
    }

    /// Everything wrong with the profile, in words (empty when it can be used).
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.name.trim().is_empty() {
            out.push("Give the profile a name.".to_string());
        }
        let url = self.base_url.trim();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            out.push(format!(
                "The base URL must start with http:// or https:// (got {url:?})."
            ));
        }
        if self.model.trim().is_empty() {
            out.push(
                "Name the model (e.g. gpt-4o, claude-sonnet-4-5, gemini-2.5-flash, llava).".into(),
            );
        }
        if self.timeout_s == 0 {
            out.push("The request timeout must be at least one second.".into());
        }
        if let Some(t) = self.temperature {
            if !(0.0..=2.0).contains(&t) {
                out.push("The temperature must be between 0 and 2.".into());
            }
        }
        for (n, _) in &self.headers {
            if n.trim().is_empty() || n.contains([' ', ':']) {
                out.push(format!("{n:?} is not a header name."));
            }
        }
        out
    }

    /// The endpoint as the browser calls it: Anthropic refuses browser requests
    /// unless they carry its opt-in header, so that header is added.
    pub fn endpoint(&self) -> Endpoint {
        let mut headers = self.headers.clone();
        let browser_access = "anthropic-dangerous-direct-browser-access";
        if self.provider == Provider::Anthropic
            && !headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(browser_access))
        {
            headers.push((browser_access.to_string(), "true".to_string()));
        }
        Endpoint {
            provider: self.provider,
            base_url: self.base_url.trim().to_string(),
            sampling: Sampling {
                model: self.model.trim().to_string(),
                temperature: self.temperature,
                max_output_tokens: self.max_output_tokens,
            },
            headers,
        }
    }

    /// The headers as the text area shows them.
    pub fn headers_text(&self) -> String {
        self.headers
            .iter()
            .map(|(n, v)| format!("{n}: {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Reads `Name: value` lines (blank lines skipped).
pub fn parse_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.split_once(':')
                .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                .filter(|(n, _)| !n.is_empty() && !n.contains(' '))
                .ok_or_else(|| format!("{l:?} is not a `Name: value` header line."))
        })
        .collect()
}

/// Reads an optional number field ("" is none).
pub fn parse_optional<T: std::str::FromStr>(text: &str, what: &str) -> Result<Option<T>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse()
        .map(Some)
        .map_err(|_| format!("{what}: {t:?} is not a valid number."))
}

/// The saved profiles and which one is in use.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profiles {
    pub list: Vec<Profile>,
    pub selected: usize,
}

impl Default for Profiles {
    fn default() -> Self {
        Self {
            list: vec![Profile::default()],
            selected: 0,
        }
    }
}

impl Profiles {
    /// From storage; anything unreadable gives the default (with the reason).
    pub fn from_storage(text: Option<&str>) -> (Self, Option<String>) {
        match text {
            None => (Self::default(), None),
            Some(t) => match serde_json::from_str::<Self>(t) {
                Ok(mut p) if !p.list.is_empty() => {
                    p.selected = p.selected.min(p.list.len() - 1);
                    (p, None)
                }
                Ok(_) => (Self::default(), None),
                Err(e) => (
                    Self::default(),
                    Some(format!(
                        "The saved endpoint profiles could not be read ({e}); starting afresh."
                    )),
                ),
            },
        }
    }

    /// For storage: the profiles carry no key field at all.
    pub fn to_storage(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The saved profiles (and a message when the store held something unreadable).
    pub fn load(store: &dyn Store) -> (Self, Option<String>) {
        Self::from_storage(store.get(ENDPOINT_PROFILES.key).as_deref())
    }

    pub fn save(&self, store: &dyn Store) -> Result<(), StoreError> {
        store.set(ENDPOINT_PROFILES.key, &self.to_storage())
    }

    /// Saves the profiles and the keys they remember: the keys first, so that a tab
    /// that goes away between the two writes never leaves on the device a key that the
    /// new profiles no longer remember (and [`Keys::load`] ignores one the old profiles
    /// did not).
    pub fn save_with_keys(&self, store: &dyn Store, keys: &Keys) -> Result<(), StoreError> {
        keys.save(store, self)?;
        self.save(store)
    }

    pub fn current(&self) -> &Profile {
        &self.list[self.selected.min(self.list.len() - 1)]
    }

    pub fn by_name(&self, name: &str) -> Option<&Profile> {
        self.list.iter().find(|p| p.name == name)
    }

    /// Saves `p` under its name (replacing a profile of that name, else the selected
    /// one when `rename_from` names it) and selects it.
    pub fn upsert(&mut self, p: Profile, rename_from: Option<&str>) {
        let at = self
            .list
            .iter()
            .position(|q| q.name == p.name)
            .or_else(|| rename_from.and_then(|r| self.list.iter().position(|q| q.name == r)));
        match at {
            Some(i) => {
                self.list[i] = p;
                self.selected = i;
            }
            None => {
                self.list.push(p);
                self.selected = self.list.len() - 1;
            }
        }
    }

    /// Removes the selected profile (one always remains).
    pub fn remove_selected(&mut self) {
        if self.list.len() > 1 {
            self.list.remove(self.selected);
        } else {
            self.list[0] = Profile::default();
        }
        self.selected = self.selected.min(self.list.len() - 1);
    }

    /// A name not used yet, for "New profile".
    pub fn fresh_name(&self) -> String {
        (1..)
            .map(|i| format!("Profile {i}"))
            .find(|n| self.by_name(n).is_none())
            .unwrap_or_default()
    }
}

/// Keys by profile name: all in memory, the remembered ones also in storage.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Keys {
    keys: BTreeMap<String, String>,
}

impl Keys {
    /// The remembered keys from storage.
    pub fn from_storage(text: Option<&str>) -> Self {
        Self {
            keys: text
                .and_then(|t| serde_json::from_str(t).ok())
                .unwrap_or_default(),
        }
    }

    pub fn get(&self, profile: &str) -> Option<&str> {
        self.keys
            .get(profile)
            .map(String::as_str)
            .filter(|k| !k.is_empty())
    }

    pub fn set(&mut self, profile: &str, key: &str) {
        if key.is_empty() {
            self.keys.remove(profile);
        } else {
            self.keys.insert(profile.to_string(), key.to_string());
        }
    }

    pub fn rename(&mut self, from: &str, to: &str) {
        if let Some(k) = self.keys.remove(from) {
            self.keys.insert(to.to_string(), k);
        }
    }

    /// Every key that may be written: secrets.
    pub fn all(&self) -> impl Iterator<Item = &str> {
        self.keys.values().map(String::as_str)
    }

    /// What goes to storage: only the keys of profiles that say "remember".
    pub fn to_storage(&self, profiles: &Profiles) -> String {
        let kept: BTreeMap<&str, &str> = self
            .keys
            .iter()
            .filter(|(name, _)| profiles.by_name(name).is_some_and(|p| p.remember_key))
            .map(|(n, k)| (n.as_str(), k.as_str()))
            .collect();
        serde_json::to_string(&kept).unwrap_or_default()
    }

    /// The remembered keys in the store, of the profiles that say "remember" (a key
    /// left by a write cut short, before the profiles said otherwise, is not used).
    pub fn load(store: &dyn Store, profiles: &Profiles) -> Self {
        let mut keys = Self::from_storage(store.get(ENDPOINT_KEYS.key).as_deref());
        keys.keys
            .retain(|name, _| profiles.by_name(name).is_some_and(|p| p.remember_key));
        keys
    }

    /// Stores the keys of the profiles that say "remember" (and only those).
    pub fn save(&self, store: &dyn Store, profiles: &Profiles) -> Result<(), StoreError> {
        store.set(ENDPOINT_KEYS.key, &self.to_storage(profiles))
    }
}

/// The settings form's fields, as typed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileDraft {
    pub name: String,
    pub provider: String,
    pub base_url: String,
    pub model: String,
    pub temperature: String,
    pub max_output_tokens: String,
    pub headers: String,
    pub timeout_s: String,
    pub price_in: String,
    pub price_out: String,
    pub remember_key: bool,
}

fn number_text<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

impl ProfileDraft {
    pub fn from_profile(p: &Profile) -> Self {
        Self {
            name: p.name.clone(),
            provider: p.provider.name().to_string(),
            base_url: p.base_url.clone(),
            model: p.model.clone(),
            temperature: number_text(p.temperature),
            max_output_tokens: number_text(p.max_output_tokens),
            headers: p.headers_text(),
            timeout_s: p.timeout_s.to_string(),
            price_in: number_text(p.prices.input_per_million),
            price_out: number_text(p.prices.output_per_million),
            remember_key: p.remember_key,
        }
    }

    /// The profile, or every problem with the fields.
    pub fn to_profile(&self) -> Result<Profile, Vec<String>> {
        let mut errors = Vec::new();
        fn keep<T>(errors: &mut Vec<String>, r: Result<Option<T>, String>) -> Option<T> {
            r.map_err(|e| errors.push(e)).ok().flatten()
        }
        let provider = Provider::parse(&self.provider);
        let temperature = keep(
            &mut errors,
            parse_optional(&self.temperature, "Temperature"),
        );
        let max_output_tokens = keep(
            &mut errors,
            parse_optional(&self.max_output_tokens, "Max output tokens"),
        );
        let timeout_s = keep(
            &mut errors,
            parse_optional(&self.timeout_s, "Request timeout"),
        );
        let input: Option<f64> = keep(&mut errors, parse_optional(&self.price_in, "Input price"));
        let output: Option<f64> =
            keep(&mut errors, parse_optional(&self.price_out, "Output price"));
        let headers = parse_headers(&self.headers).unwrap_or_else(|e| {
            errors.push(e);
            Vec::new()
        });
        if provider.is_none() {
            errors.push(format!("Unknown provider {:?}.", self.provider));
        }
        if [input, output].iter().flatten().any(|p| *p < 0.0) {
            errors.push("Prices cannot be negative.".into());
        }
        let p = Profile {
            name: self.name.trim().to_string(),
            provider: provider.unwrap_or(Provider::OpenAi),
            base_url: self.base_url.trim().to_string(),
            model: self.model.trim().to_string(),
            temperature,
            max_output_tokens,
            headers,
            timeout_s: timeout_s.unwrap_or(120),
            prices: Prices {
                input_per_million: input,
                output_per_million: output,
            },
            remember_key: self.remember_key,
        };
        errors.extend(p.problems());
        if errors.is_empty() {
            Ok(p)
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(name: &str, remember: bool) -> Profile {
        Profile {
            name: name.into(),
            model: "m".into(),
            remember_key: remember,
            ..Profile::default()
        }
    }

    #[test]
    fn storage_never_holds_keys_of_profiles_that_do_not_remember() {
        let mut ps = Profiles::default();
        ps.upsert(profile("a", false), None);
        ps.upsert(profile("b", true), None);
        let mut keys = Keys::default();
        keys.set("a", "sk-A-secret");
        keys.set("b", "sk-B-secret");
        assert!(!ps.to_storage().contains("sk-"));
        let store = crate::storage::MemoryStore::new();
        ps.save(&store).unwrap();
        keys.save(&store, &ps).unwrap();
        let everything: String = store.keys().iter().filter_map(|k| store.get(k)).collect();
        assert!(!everything.contains("sk-A-secret"));
        assert!(everything.contains("sk-B-secret"));
        let back = Keys::load(&store, &ps);
        assert_eq!(back.get("b"), Some("sk-B-secret"));
        assert_eq!(back.get("a"), None);
        assert_eq!(Profiles::load(&store), (ps.clone(), None));
        assert_eq!(
            Keys::load(&crate::storage::MemoryStore::new(), &ps),
            Keys::default()
        );
    }

    /// A profile that remembers its key, then stops remembering it, then is renamed;
    /// the tab goes away after every possible number of writes. The key is used after a
    /// reload only while the stored profile remembers it, and once "remember" is
    /// unticked it is nowhere in storage, whatever write came last.
    #[test]
    fn a_reload_between_any_two_writes_keeps_keys_where_they_belong() {
        use crate::storage::RecordingStore;
        let store = RecordingStore::new();
        let mut ps = Profiles::default();
        let mut keys = Keys::default();
        ps.upsert(profile("a", true), None);
        keys.set("a", "sk-A-secret");
        ps.save_with_keys(&store, &keys).unwrap();
        let unticked_from = store.writes() + 1;
        ps.upsert(profile("a", false), Some("a"));
        ps.save_with_keys(&store, &keys).unwrap();
        ps.upsert(profile("b", false), Some("a"));
        keys.rename("a", "b");
        ps.save_with_keys(&store, &keys).unwrap();
        assert_eq!(store.writes(), 6);
        for k in 0..=store.writes() {
            let cut = store.cut(k);
            let (profiles, note) = Profiles::load(&cut);
            assert_eq!(note, None);
            let loaded = Keys::load(&cut, &profiles);
            // Only after write 2 do both the key and a profile remembering it exist.
            assert_eq!(loaded.get("a").is_some(), k == 2, "{k} writes");
            assert_eq!(loaded.get("b"), None, "{k} writes");
            let everything: String = cut.keys().iter().filter_map(|x| cut.get(x)).collect();
            assert_eq!(
                everything.contains("sk-A-secret"),
                (1..unticked_from).contains(&k),
                "{k} writes"
            );
        }
    }

    #[test]
    fn profiles_round_trip_and_bad_storage_starts_afresh() {
        let mut ps = Profiles::default();
        ps.upsert(profile("x", false), None);
        assert_eq!(ps.current().name, "x");
        let (back, err) = Profiles::from_storage(Some(&ps.to_storage()));
        assert_eq!((back, err), (ps.clone(), None));
        let (d, err) = Profiles::from_storage(Some("{not json"));
        assert_eq!(d, Profiles::default());
        assert!(err.unwrap().contains("could not be read"));
        // Renaming replaces the profile in place.
        let mut renamed = profile("y", false);
        renamed.model = "n".into();
        ps.upsert(renamed, Some("x"));
        assert!(ps.by_name("x").is_none());
        assert_eq!(ps.current().model, "n");
        ps.remove_selected();
        assert!(ps.by_name("y").is_none());
        assert_ne!(ps.fresh_name(), "");
    }

    #[test]
    fn anthropic_endpoints_opt_in_to_browser_access() {
        let p = Profile {
            provider: Provider::Anthropic,
            ..profile("a", false)
        };
        let h = p.endpoint().headers;
        assert_eq!(
            h,
            vec![(
                "anthropic-dangerous-direct-browser-access".into(),
                "true".into()
            )]
        );
        assert!(profile("o", false).endpoint().headers.is_empty());
    }

    #[test]
    fn problems_are_named() {
        let mut p = profile("", false);
        p.base_url = "localhost:11434".into();
        p.model = " ".into();
        p.temperature = Some(3.0);
        let found = p.problems();
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(profile("ok", false).problems().is_empty());
        assert_eq!(
            parse_headers("A: 1\n\n B : two words ").unwrap(),
            vec![("A".into(), "1".into()), ("B".into(), "two words".into())]
        );
        assert!(parse_headers("no colon").is_err());
        assert_eq!(parse_optional::<f64>(" ", "t").unwrap(), None);
        assert!(parse_optional::<u32>("x", "max").is_err());
    }

    #[test]
    fn drafts_round_trip_and_report_every_problem() {
        let p = Profile {
            name: "local".into(),
            model: "llava".into(),
            base_url: "http://localhost:11434/v1".into(),
            temperature: Some(0.2),
            headers: vec![("X-A".into(), "b".into())],
            prices: Prices {
                input_per_million: Some(0.5),
                output_per_million: None,
            },
            ..Profile::default()
        };
        let d = ProfileDraft::from_profile(&p);
        assert_eq!(d.to_profile().unwrap(), p);
        let bad = ProfileDraft {
            temperature: "hot".into(),
            price_in: "-1".into(),
            headers: "oops".into(),
            ..d
        };
        let errors = bad.to_profile().unwrap_err();
        assert_eq!(errors.len(), 3, "{errors:?}");
    }
}
