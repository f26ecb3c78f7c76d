//! The play page's URL: `/play?env=ID&seed=N&kwargs=<JSON object>[&highlight=0][&view=1]`.
//!
//! The URL is the whole description of an episode's start, so a reload or a shared link
//! starts the same episode. It also keeps how a MiniGrid level is shown ([`ViewOptions`]),
//! which is not part of the episode. Parsing takes the already-decoded query values (what
//! the router's query map holds); formatting percent-encodes them.

use std::fmt;

use serde_json::{Map, Value};

use crate::routes::PLAY;

/// Everything needed to start an episode: `envs::make(env_id, kwargs)` then `reset(seed)`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayRequest {
    /// The canonical id (an alias in the URL is resolved to its spec's id).
    pub env_id: String,
    pub kwargs: Map<String, Value>,
    pub seed: u64,
}

impl PlayRequest {
    pub fn new(env_id: &str, kwargs: Map<String, Value>, seed: u64) -> Self {
        Self {
            env_id: env_id.to_string(),
            kwargs,
            seed,
        }
    }

    /// The same start with another seed.
    pub fn with_seed(&self, seed: u64) -> Self {
        Self {
            seed,
            ..self.clone()
        }
    }

    /// `/play?env=…&seed=…[&kwargs=…]` (kwargs left out when empty).
    pub fn href(&self) -> String {
        format!("{PLAY}?{}", self.query())
    }

    /// The query string without the leading `?`.
    pub fn query(&self) -> String {
        let mut q = format!("env={}&seed={}", encode_component(&self.env_id), self.seed);
        if !self.kwargs.is_empty() {
            let json = Value::Object(self.kwargs.clone()).to_string();
            q.push_str("&kwargs=");
            q.push_str(&encode_component(&json));
        }
        q
    }
}

/// How the play page shows a MiniGrid level (environments with a grid observation).
///
/// Not part of the episode: changing it redraws, it never restarts. In the URL only what
/// differs from the default is written: `highlight=0` and `view=1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewOptions {
    /// Lighten the cells the agent sees (the reference's default picture).
    pub highlight: bool,
    /// Also show the agent's-eye view (its 7×7 cells) beside the whole grid.
    pub agent_view: bool,
}

impl Default for ViewOptions {
    fn default() -> Self {
        Self {
            highlight: true,
            agent_view: false,
        }
    }
}

impl ViewOptions {
    /// Reads the decoded `highlight=` and `view=` values. A missing or unreadable value
    /// keeps its default (these only change the picture, so a typo is not an error).
    pub fn parse(highlight: Option<&str>, view: Option<&str>) -> Self {
        let d = Self::default();
        Self {
            highlight: highlight.and_then(parse_flag).unwrap_or(d.highlight),
            agent_view: view.and_then(parse_flag).unwrap_or(d.agent_view),
        }
    }

    /// The query parameters that differ from the default, each as `&key=value`
    /// (empty for the default view).
    pub fn query_suffix(&self) -> String {
        let d = Self::default();
        let mut q = String::new();
        if self.highlight != d.highlight {
            q.push_str(if self.highlight {
                "&highlight=1"
            } else {
                "&highlight=0"
            });
        }
        if self.agent_view != d.agent_view {
            q.push_str(if self.agent_view {
                "&view=1"
            } else {
                "&view=0"
            });
        }
        q
    }

    pub fn with_highlight(self, highlight: bool) -> Self {
        Self { highlight, ..self }
    }

    pub fn with_agent_view(self, agent_view: bool) -> Self {
        Self { agent_view, ..self }
    }
}

/// An on/off query value: `1`/`true`/`on`/`yes` or `0`/`false`/`off`/`no` (any case,
/// surrounding spaces allowed); anything else is `None`.
pub fn parse_flag(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

/// Why a play URL cannot start an episode. Each has a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// No `env=` in the query.
    MissingEnv,
    /// `env=` names no registered environment.
    UnknownEnv(String),
    /// `kwargs=` is not valid JSON (the parser's message).
    KwargsJson(String),
    /// `kwargs=` is valid JSON but not an object.
    KwargsNotObject(String),
    /// The environment rejected the kwargs (the environment's message).
    BadKwargs(String),
    /// `seed=` is not a non-negative integer that fits in 64 bits.
    BadSeed(String),
    /// The environment needs a file Playbench does not ship (an Atari ROM): the
    /// environment's message. Pages offer to supply it (`rom_shelf`).
    MissingAsset(String),
    /// The environment was made but its first reset started no episode (a VisGym image
    /// environment whose picture cannot be read): what the reference raises.
    ResetFailed(String),
}

impl LoadError {
    /// A short title for the error box.
    pub fn title(&self) -> &'static str {
        match self {
            Self::MissingEnv => "No environment chosen",
            Self::UnknownEnv(_) => "Unknown environment",
            Self::KwargsJson(_) | Self::KwargsNotObject(_) | Self::BadKwargs(_) => {
                "Bad environment arguments"
            }
            Self::BadSeed(_) => "Bad seed",
            Self::MissingAsset(_) => "A file is needed",
            Self::ResetFailed(_) => "The episode cannot start",
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingEnv => write!(f, "The link names no environment: add ?env=ID."),
            Self::UnknownEnv(id) => write!(f, "There is no environment called {id:?}."),
            Self::KwargsJson(why) => write!(f, "kwargs is not valid JSON: {why}."),
            Self::KwargsNotObject(got) => {
                write!(
                    f,
                    "kwargs must be a JSON object like {{\"key\": value}}, not {got}."
                )
            }
            Self::BadKwargs(why) => write!(f, "The environment refused its kwargs: {why}."),
            Self::MissingAsset(why) => write!(f, "{why}."),
            Self::ResetFailed(why) => write!(f, "The environment's reset failed: {why}."),
            Self::BadSeed(got) => {
                write!(
                    f,
                    "The seed must be a whole number from 0 to {}, not {got:?}.",
                    u64::MAX
                )
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Parses a seed as typed by a person (surrounding spaces allowed).
pub fn parse_seed(text: &str) -> Result<u64, LoadError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LoadError::BadSeed(text.to_string()));
    }
    t.parse().map_err(|_| LoadError::BadSeed(text.to_string()))
}

/// Parses the kwargs JSON; empty or missing means no kwargs.
pub fn parse_kwargs(text: Option<&str>) -> Result<Map<String, Value>, LoadError> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(Map::new());
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(LoadError::KwargsNotObject(other.to_string())),
        Err(e) => Err(LoadError::KwargsJson(e.to_string())),
    }
}

/// Parses the decoded query values of a play URL. A missing seed means 0.
///
/// Only the id is checked against the registry here; whether the environment accepts
/// the kwargs is known once it is made (`PlaySession::new`).
pub fn parse_play_query(
    env: Option<&str>,
    seed: Option<&str>,
    kwargs: Option<&str>,
) -> Result<PlayRequest, LoadError> {
    let env = env.map(str::trim).filter(|e| !e.is_empty());
    let env = env.ok_or(LoadError::MissingEnv)?;
    let spec = envs::spec(env).ok_or_else(|| LoadError::UnknownEnv(env.to_string()))?;
    let kwargs = parse_kwargs(kwargs)?;
    let seed = match seed {
        None => 0,
        Some(s) => parse_seed(s)?,
    };
    Ok(PlayRequest::new(spec.id, kwargs, seed))
}

/// Parses a raw query string (`a=1&b=2`, with or without the leading `?`), decoding
/// percent-escapes and `+` as a space the way the browser's `URLSearchParams` does.
pub fn parse_search(search: &str) -> Result<PlayRequest, LoadError> {
    let pairs = decode_search(search);
    let get = |key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    parse_play_query(get("env"), get("seed"), get("kwargs"))
}

/// The view options of a raw query string (see [`parse_search`]).
pub fn parse_search_view(search: &str) -> ViewOptions {
    let pairs = decode_search(search);
    let get = |key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    ViewOptions::parse(get("highlight"), get("view"))
}

/// `application/x-www-form-urlencoded` decoding of a query string into key/value pairs.
pub fn decode_search(search: &str) -> Vec<(String, String)> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            (decode_component(k), decode_component(v))
        })
        .collect()
}

/// Percent-decodes one query component (`+` is a space); bad escapes are kept as written.
pub fn decode_component(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).and_then(|h| {
                    std::str::from_utf8(h)
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                });
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encodes one query component. Keeps what needs no escape in a query value
/// (letters, digits, `-_.~`, and `:,` so JSON stays readable) and escapes the rest,
/// including `&=+#%` and quotes.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b':' | b',') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn parses_a_full_query() {
        let r = parse_play_query(
            Some("FrozenLake-v1"),
            Some("42"),
            Some(r#"{"is_slippery":false}"#),
        )
        .unwrap();
        assert_eq!(r.env_id, "FrozenLake-v1");
        assert_eq!(r.seed, 42);
        assert_eq!(r.kwargs, obj(json!({"is_slippery": false})));
    }

    #[test]
    fn defaults_seed_and_kwargs_and_resolves_aliases() {
        let r = parse_play_query(Some("Taxi-v4"), None, None).unwrap();
        assert_eq!(r, PlayRequest::new("Taxi-v3", Map::new(), 0));
        let r = parse_play_query(Some("Taxi-v3"), Some(" 7 "), Some("  ")).unwrap();
        assert_eq!(r.seed, 7);
        assert!(r.kwargs.is_empty());
    }

    #[test]
    fn errors_name_what_is_wrong() {
        assert_eq!(
            parse_play_query(None, None, None),
            Err(LoadError::MissingEnv)
        );
        assert_eq!(
            parse_play_query(Some(" "), None, None),
            Err(LoadError::MissingEnv)
        );
        assert_eq!(
            parse_play_query(Some("Nope-v0"), None, None),
            Err(LoadError::UnknownEnv("Nope-v0".into()))
        );
        assert!(matches!(
            parse_play_query(Some("Taxi-v3"), None, Some("{is_slippery")),
            Err(LoadError::KwargsJson(_))
        ));
        assert_eq!(
            parse_play_query(Some("Taxi-v3"), None, Some("[1]")),
            Err(LoadError::KwargsNotObject("[1]".into()))
        );
        for bad in ["-1", "1.5", "abc", "", "18446744073709551616"] {
            assert_eq!(
                parse_play_query(Some("Taxi-v3"), Some(bad), None),
                Err(LoadError::BadSeed(bad.into())),
                "{bad}"
            );
        }
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn messages_are_for_people() {
        let m = LoadError::UnknownEnv("Nope-v0".into()).to_string();
        assert!(m.contains("Nope-v0"), "{m}");
        assert_eq!(
            LoadError::UnknownEnv(String::new()).title(),
            "Unknown environment"
        );
        let m = LoadError::BadSeed("x".into()).to_string();
        assert!(m.contains("whole number"), "{m}");
    }

    #[test]
    fn href_round_trips_through_the_query_string() {
        let r = PlayRequest::new("FrozenLake-v1", obj(json!({"is_slippery": false})), 3);
        let href = r.href();
        assert_eq!(
            href,
            "/play?env=FrozenLake-v1&seed=3&kwargs=%7B%22is_slippery%22:false%7D"
        );
        let query = href.split_once('?').unwrap().1;
        assert_eq!(parse_search(query).unwrap(), r);
        assert_eq!(
            PlayRequest::new("Taxi-v3", Map::new(), 0).href(),
            "/play?env=Taxi-v3&seed=0"
        );
        assert_eq!(r.with_seed(9).seed, 9);
    }

    #[test]
    fn decoding_matches_url_search_params() {
        assert_eq!(decode_component("a+b%20c"), "a b c");
        assert_eq!(decode_component("%7b%22x%22%7D"), "{\"x\"}");
        assert_eq!(decode_component("100%"), "100%");
        assert_eq!(decode_component("%zz%4"), "%zz%4");
        assert_eq!(decode_component("%C3%A9"), "é");
        assert_eq!(
            decode_search("?env=Taxi-v3&&seed=&x"),
            vec![
                ("env".into(), "Taxi-v3".into()),
                ("seed".into(), String::new()),
                ("x".into(), String::new())
            ]
        );
        // A browser leaves braces and quotes as typed in some cases: both forms parse.
        let raw = r#"env=FrozenLake-v1&kwargs={"is_slippery":false}&seed=0"#;
        assert_eq!(
            parse_search(raw).unwrap().kwargs,
            obj(json!({"is_slippery": false}))
        );
    }

    #[test]
    fn view_options_default_to_the_reference_picture() {
        let d = ViewOptions::default();
        assert!(d.highlight && !d.agent_view);
        assert_eq!(ViewOptions::parse(None, None), d);
        assert_eq!(d.query_suffix(), "");
        assert_eq!(parse_search_view("env=MiniGrid-Empty-5x5-v0&seed=0"), d);
    }

    #[test]
    fn view_options_parse_and_format() {
        let off = ViewOptions::parse(Some("0"), None);
        assert_eq!(
            off,
            ViewOptions {
                highlight: false,
                agent_view: false
            }
        );
        assert_eq!(off.query_suffix(), "&highlight=0");
        let both = ViewOptions::parse(Some("0"), Some("1"));
        assert_eq!(both.query_suffix(), "&highlight=0&view=1");
        let eye = ViewOptions::parse(Some("1"), Some("1"));
        assert_eq!(eye.query_suffix(), "&view=1");
        // Spelled other ways, or unreadable (which keeps the default).
        assert_eq!(
            ViewOptions::parse(Some(" False "), Some("ON")),
            ViewOptions {
                highlight: false,
                agent_view: true
            }
        );
        assert_eq!(
            ViewOptions::parse(Some("maybe"), Some("")),
            ViewOptions::default()
        );
        assert_eq!(parse_flag("yes"), Some(true));
        assert_eq!(parse_flag("no"), Some(false));
        assert_eq!(parse_flag("2"), None);
        assert_eq!(
            ViewOptions::default()
                .with_highlight(false)
                .with_agent_view(true),
            both
        );
    }

    #[test]
    fn view_options_round_trip_through_the_query_string() {
        let r = PlayRequest::new("MiniGrid-DoorKey-5x5-v0", Map::new(), 1);
        for highlight in [false, true] {
            for agent_view in [false, true] {
                let v = ViewOptions {
                    highlight,
                    agent_view,
                };
                let query = format!("{}{}", r.query(), v.query_suffix());
                assert_eq!(parse_search(&query).unwrap(), r, "{query}");
                assert_eq!(parse_search_view(&query), v, "{query}");
            }
        }
        // A repeated key: the last value wins, as in the router's query map.
        assert!(!parse_search_view("view=1&view=0").agent_view);
    }

    #[test]
    fn encoding_escapes_query_syntax() {
        assert_eq!(encode_component("a&b=c+d #%"), "a%26b%3Dc%2Bd%20%23%25");
        assert_eq!(encode_component("é"), "%C3%A9");
        let tricky = r#"{"s":"a&b=c+d"}"#;
        assert_eq!(decode_component(&encode_component(tricky)), tricky);
    }
}
