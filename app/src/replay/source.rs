//! Where the viewer's episodes come from, and why one could not be opened.
//!
//! `/episode` reads:
//!
//! - the URL fragment `#e=pb1.…` (a share link, `EpisodeFile::to_link_fragment`), with
//!   `&e2=pb1.…` for a second episode shown side by side and `&t=N` for the decision to
//!   show first (0 is the start state);
//! - the query `?stored=KEY`: the **stored-episode contract**. A page holding an episode
//!   too large for a link writes the episode file's JSON (`playbench-episode-file/1`, as
//!   `EpisodeFile::to_json` writes it) to the storage entry
//!   `storage_keys::stored_episode(KEY)` (`localStorage["playbench.episode." + KEY]`) and
//!   opens `/episode?stored=KEY` (or `/task/play?fork=T&stored=KEY`). KEY is made of
//!   letters, digits and `-_.~` (at most 64). Readers never modify or delete the entry:
//!   the page that wrote it owns its lifetime. Same origin only, as `localStorage` is;
//! - an episode file chosen with a file input or dropped on the page (its JSON, or a
//!   text file holding a share link).

use std::fmt;

use bench::share::{resolve_task, EpisodeFile, ShareError, TaskRef, LINK_PARAM};
use envs::atari::Game;
use serde_json::{Map, Value};

use crate::storage::{Store, StoreError};
use crate::storage_keys::stored_episode;
/// The fragment parameter of the second episode of a side-by-side view.
pub const COMPARE_PARAM: &str = "e2=";
/// The fragment parameter of the decision shown first.
pub const AT_PARAM: &str = "t=";
/// The longest stored key accepted.
const STORED_KEY_MAX: usize = 64;

/// What the viewer's URL fragment asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewerFragment {
    /// The first episode's link text (`e=` value), or whatever unknown text the fragment
    /// holds instead, so that it is reported rather than silently ignored.
    pub primary: Option<String>,
    /// The second episode's payload (`e2=` value).
    pub compare: Option<String>,
    /// The decision to show first.
    pub at: Option<usize>,
}

/// Splits `#e=pb1.A&e2=pb1.B&t=3` (with or without `#`).
pub fn parse_viewer_fragment(hash: &str) -> ViewerFragment {
    let mut out = ViewerFragment::default();
    let mut unknown = None;
    for part in hash.trim().trim_start_matches('#').split('&') {
        if let Some(v) = part.strip_prefix(COMPARE_PARAM) {
            out.compare = Some(v.to_string());
        } else if let Some(v) = part.strip_prefix(LINK_PARAM) {
            out.primary = Some(v.to_string());
        } else if let Some(v) = part.strip_prefix(AT_PARAM) {
            out.at = v.parse().ok();
        } else if !part.is_empty() && unknown.is_none() {
            unknown = Some(part.to_string());
        }
    }
    if out.primary.is_none() {
        out.primary = unknown;
    }
    out
}

/// Whether a stored-episode key follows the contract.
pub fn valid_stored_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= STORED_KEY_MAX
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~'))
}

/// Writes an episode file's JSON under `key` for a page opened with `?stored=KEY`.
pub fn store_episode(store: &dyn Store, key: &str, json: &str) -> Result<(), StoreError> {
    store.set(&stored_episode(key), json)
}

/// Reads `?stored=KEY` from the store.
pub fn read_stored(store: &dyn Store, key: &str) -> Result<EpisodeFile, OpenError> {
    let text = valid_stored_key(key)
        .then(|| store.get(&stored_episode(key)))
        .flatten();
    open_stored(key, text.as_deref())
}

/// Where an episode was read from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Link,
    /// The second link of a side-by-side view (`e2=`).
    CompareLink,
    Stored(String),
    File(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Link => write!(f, "the link"),
            Self::CompareLink => write!(f, "the second link (e2=)"),
            Self::Stored(key) => write!(f, "the stored episode {key:?}"),
            Self::File(name) => write!(f, "the file {name:?}"),
        }
    }
}

/// Why an episode could not be opened.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// The link, file or its task could not be read.
    Share(ShareError),
    /// `?stored=KEY` with a key outside the contract.
    BadKey,
    /// Nothing is stored under the key (another browser, or cleared).
    NothingStored,
    /// The file is empty.
    Empty,
    /// The episode's environment needs a ROM this browser does not have; the file,
    /// kept to open once the ROM is supplied.
    MissingRom {
        env: String,
        game: &'static Game,
        file: Box<EpisodeFile>,
    },
    /// The episode plays a set of pictures this tab has not loaded (a bundled set is
    /// fetched, a person's folder picked again).
    MissingPictures { set: String, file: Box<EpisodeFile> },
    /// The episode runs MuJoCo (a Fetch task), not loaded in this tab yet (it is
    /// fetched).
    MissingPhysics { env: String, file: Box<EpisodeFile> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpenError {
    pub origin: Origin,
    pub reason: Reason,
}

impl OpenError {
    pub fn new(origin: Origin, reason: Reason) -> Self {
        Self { origin, reason }
    }

    pub fn share(origin: Origin, e: ShareError) -> Self {
        Self::new(origin, Reason::Share(e))
    }

    /// A heading for the message.
    pub fn title(&self) -> &'static str {
        use bench::link_codec::PayloadError as P;
        use ShareError as S;
        match &self.reason {
            Reason::Share(S::Link(P::Truncated)) => "This episode link is cut off",
            Reason::Share(S::Link(P::Checksum { .. } | P::Corrupt(_) | P::Base64(_))) => {
                "This episode was altered or damaged"
            }
            Reason::Share(S::Link(P::NotALink | P::LinkVersion(_))) => {
                "This is not a Playbench episode"
            }
            Reason::Share(S::Suite(_) | S::UnknownTask { .. } | S::Task(_)) => {
                "The episode's task is not available"
            }
            Reason::Share(_) | Reason::Empty => "This episode could not be read",
            Reason::BadKey | Reason::NothingStored => "No stored episode",
            Reason::MissingRom { .. } => "This episode needs a ROM",
            Reason::MissingPictures { .. } => "This episode needs its pictures",
            Reason::MissingPhysics { .. } => "This episode needs MuJoCo",
        }
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let origin = &self.origin;
        match &self.reason {
            Reason::Share(e) => write!(f, "Could not open {origin}: {e}."),
            Reason::BadKey => write!(
                f,
                "Could not open {origin}: a key is 1-64 letters, digits, '-', '_', '.' or '~'."
            ),
            Reason::NothingStored => write!(
                f,
                "Nothing is stored under {origin} in this browser (stored episodes stay in \
                 the browser that saved them): open the episode file instead."
            ),
            Reason::Empty => write!(f, "Could not open {origin}: it is empty."),
            Reason::MissingRom { env, game, .. } => write!(
                f,
                "{origin} plays {env}, which needs the {} ROM ({}.bin, MD5 {}).",
                game.name, game.id, game.md5
            ),
            Reason::MissingPictures { set, .. } => {
                write!(
                    f,
                    "{origin} plays the pictures {set:?}, not loaded in this tab."
                )
            }
            Reason::MissingPhysics { env, .. } => {
                write!(
                    f,
                    "{origin} plays {env}, which runs MuJoCo, not loaded in this tab."
                )
            }
        }
    }
}

impl std::error::Error for OpenError {}

/// Reads a share link (a full URL, a fragment or the bare `pb1.` payload).
pub fn open_link(origin: Origin, text: &str) -> Result<EpisodeFile, OpenError> {
    EpisodeFile::from_link_fragment(text).map_err(|e| OpenError::share(origin, e))
}

/// Reads `?stored=KEY`; `stored` is what the store holds for it (see [`read_stored`]).
pub fn open_stored(key: &str, stored: Option<&str>) -> Result<EpisodeFile, OpenError> {
    let origin = Origin::Stored(key.to_string());
    if !valid_stored_key(key) {
        return Err(OpenError::new(origin, Reason::BadKey));
    }
    let json = stored.ok_or_else(|| OpenError::new(origin.clone(), Reason::NothingStored))?;
    EpisodeFile::from_json(json).map_err(|e| OpenError::share(origin, e))
}

/// Reads a chosen or dropped file: episode-file JSON, or text holding a share link.
pub fn open_file(name: &str, text: &str) -> Result<EpisodeFile, OpenError> {
    let origin = Origin::File(name.to_string());
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Err(OpenError::new(origin, Reason::Empty));
    }
    let read = if text.starts_with('{') {
        EpisodeFile::from_json(text)
    } else {
        EpisodeFile::from_link_fragment(text)
    };
    read.map_err(|e| OpenError::share(origin, e))
}

/// The environment a task plays and its constructor kwargs.
pub fn task_env(task: &TaskRef) -> Option<(String, Map<String, Value>)> {
    // An inline task is not resolved first: validating it makes its environment.
    match task {
        TaskRef::Inline(t) => Some((t.env.clone(), t.kwargs.clone())),
        other => resolve_task(other).ok().map(|t| (t.env, t.kwargs)),
    }
}

/// The environment a task plays and the game whose ROM it needs but this browser lacks.
pub fn rom_needed(task: &TaskRef) -> Option<(String, &'static Game)> {
    let (env, _) = task_env(task)?;
    let game = crate::rom_shelf::missing_rom(&env)?;
    Some((env, game))
}

/// The file, or an error asking for the ROM, the physics engine or the pictures its
/// environment needs.
pub fn check_assets(origin: Origin, file: EpisodeFile) -> Result<EpisodeFile, OpenError> {
    if let Some((env, game)) = rom_needed(&file.task) {
        return Err(OpenError::new(
            origin,
            Reason::MissingRom {
                env,
                game,
                file: Box::new(file),
            },
        ));
    }
    if let Some((env, _)) =
        task_env(&file.task).filter(|(env, _)| crate::physics::needs_loading(env))
    {
        return Err(OpenError::new(
            origin,
            Reason::MissingPhysics {
                env,
                file: Box::new(file),
            },
        ));
    }
    let set = task_env(&file.task)
        .and_then(|(env, kwargs)| crate::image_sets::missing_set(&env, &kwargs));
    match set {
        Some(set) => Err(OpenError::new(
            origin,
            Reason::MissingPictures {
                set,
                file: Box::new(file),
            },
        )),
        None => Ok(file),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::tests::lake_file;

    #[test]
    fn fragments_name_both_episodes_and_the_start_decision() {
        let f = parse_viewer_fragment("#e=pb1.AAA&e2=pb1.BBB&t=3");
        assert_eq!(f.primary.as_deref(), Some("pb1.AAA"));
        assert_eq!(f.compare.as_deref(), Some("pb1.BBB"));
        assert_eq!(f.at, Some(3));
        assert_eq!(parse_viewer_fragment(""), ViewerFragment::default());
        assert_eq!(parse_viewer_fragment("#"), ViewerFragment::default());
        // Unknown text is kept as the primary link so that it is reported.
        let junk = parse_viewer_fragment("#hello&t=x");
        assert_eq!(junk.primary.as_deref(), Some("hello"));
        assert_eq!(junk.at, None);
    }

    #[test]
    fn links_open_and_damaged_links_say_why() {
        let file = lake_file(&["Down", "Down", "Right"]);
        let link = file.to_link_fragment().unwrap();
        assert_eq!(open_link(Origin::Link, &link).unwrap(), file);
        let payload = parse_viewer_fragment(&format!("#{link}")).primary.unwrap();
        assert_eq!(open_link(Origin::Link, &payload).unwrap(), file);

        let cut = open_link(Origin::Link, &link[..link.len() - 7]).unwrap_err();
        assert_eq!(cut.title(), "This episode link is cut off");
        assert!(cut
            .to_string()
            .starts_with("Could not open the link: the link is truncated"));

        // One character changed in the checksum: refused as altered.
        let mut bytes = link.clone().into_bytes();
        let i = "e=pb1.".len() + 2;
        bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
        let tampered = open_link(Origin::Link, &String::from_utf8(bytes).unwrap()).unwrap_err();
        assert_eq!(tampered.title(), "This episode was altered or damaged");
        assert!(tampered.to_string().contains("altered"), "{tampered}");

        let junk = open_link(Origin::CompareLink, "hello").unwrap_err();
        assert_eq!(junk.title(), "This is not a Playbench episode");
        assert!(junk.to_string().contains("the second link (e2=)"));
    }

    #[test]
    fn an_episode_on_pictures_this_tab_lacks_asks_for_them() {
        let file = lake_file(&["Down"]);
        assert_eq!(check_assets(Origin::Link, file.clone()).unwrap(), file);
        let mut task = bench::suites::latest("visgym")
            .unwrap()
            .task("jigsaw-easy-s0")
            .unwrap()
            .clone();
        task.kwargs
            .insert("sample_dir".into(), "A folder never picked".into());
        let mut on_folder = file;
        on_folder.task = TaskRef::Inline(Box::new(task));
        let e = check_assets(Origin::Link, on_folder.clone()).unwrap_err();
        assert_eq!(e.title(), "This episode needs its pictures");
        assert_eq!(
            e.reason,
            Reason::MissingPictures {
                set: "A folder never picked".into(),
                file: Box::new(on_folder),
            }
        );
        assert!(e.to_string().contains("\"A folder never picked\""), "{e}");
    }

    #[test]
    fn stored_episodes_follow_the_contract() {
        let file = lake_file(&["Down"]);
        let json = file.to_json();
        assert_eq!(open_stored("abc", Some(&json)).unwrap(), file);
        let store = crate::storage::MemoryStore::new();
        assert_eq!(
            read_stored(&store, "abc").unwrap_err().reason,
            Reason::NothingStored
        );
        store_episode(&store, "abc", &json).unwrap();
        assert_eq!(read_stored(&store, "abc").unwrap(), file);
        assert_eq!(
            read_stored(&store, "a/b").unwrap_err().reason,
            Reason::BadKey
        );
        let none = open_stored("abc", None).unwrap_err();
        assert_eq!(none.reason, Reason::NothingStored);
        assert!(none.to_string().contains("\"abc\""), "{none}");
        for bad in ["", "a b", "x/y", &"k".repeat(65)] {
            assert_eq!(
                open_stored(bad, Some(&json)).unwrap_err().reason,
                Reason::BadKey
            );
        }
        let broken = open_stored("abc", Some("{\"format\": 1}")).unwrap_err();
        assert!(broken.to_string().contains("format"), "{broken}");
    }

    #[test]
    fn files_hold_json_or_a_link() {
        let file = lake_file(&["Down", "Right"]);
        assert_eq!(open_file("a.json", &file.to_json()).unwrap(), file);
        let link = format!(
            "https://x.org/episode#{}\n",
            file.to_link_fragment().unwrap()
        );
        assert_eq!(open_file("link.txt", &link).unwrap(), file);
        assert_eq!(
            open_file("e.json", " \n").unwrap_err().reason,
            Reason::Empty
        );
        let half = file.to_json();
        let e = open_file("half.json", &half[..half.len() / 2]).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("Could not open the file \"half.json\": bad episode file"));
        let png = open_file("x.png", "\u{89}PNG garbage").unwrap_err();
        assert_eq!(png.title(), "This is not a Playbench episode");
    }
}
