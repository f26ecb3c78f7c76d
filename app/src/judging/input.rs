//! What `/judge` judges, as `playbench judge` takes it: one results file (any agent),
//! or episode files and share links in the order given; a judge file dropped on the
//! page is shown as it is. Anything else is refused with a sentence that says why.

use bench::judge::file::{JudgeFile, JUDGE_FORMAT};
use bench::judge::run::{milestone_list, JudgeSource};
use bench::results::{ResultsFile, RESULTS_FORMAT};
use bench::share::{EpisodeFile, EPISODE_FILE_FORMAT};
use bench::Task;

use crate::replay::source::{open_file, open_link, Origin};
use crate::routes::JUDGE;

/// Whether the judge can judge episodes of `task` (its environment has a milestone
/// list).
pub fn can_judge(task: &Task) -> bool {
    milestone_list(task).is_ok()
}

/// `/judge` opened with the episode of a share link's fragment (`e=pb1.…`).
pub fn judge_href(fragment: &str) -> String {
    format!("{JUDGE}#{}", fragment.trim_start_matches('#'))
}

/// A file or link read.
pub enum Dropped {
    Results(Box<ResultsFile>),
    Episode(Box<EpisodeFile>),
    Judge(Box<JudgeFile>),
}

/// Reads the file `name` holding `text`: a results, episode or judge file, or text
/// holding an episode's share link.
pub fn read_dropped(name: &str, text: &str) -> Result<Dropped, String> {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if !trimmed.starts_with('{') {
        return open_file(name, text)
            .map(|f| Dropped::Episode(Box::new(f)))
            .map_err(|e| e.to_string());
    }
    let value: serde_json::Value =
        serde_json::from_str(trimmed).map_err(|e| format!("{name} is not a JSON file ({e})"))?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(RESULTS_FORMAT) => ResultsFile::from_json(trimmed)
            .map(|r| Dropped::Results(Box::new(r)))
            .map_err(|e| format!("{name} is not a usable results file: {e}")),
        Some(EPISODE_FILE_FORMAT) => open_file(name, trimmed)
            .map(|f| Dropped::Episode(Box::new(f)))
            .map_err(|e| e.to_string()),
        Some(JUDGE_FORMAT) => JudgeFile::from_json(trimmed)
            .map(|j| Dropped::Judge(Box::new(j)))
            .map_err(|e| format!("{name} is not a usable judge file: {e}")),
        Some(other) => Err(format!(
            "{name} is a {other} file: drop a results file ({RESULTS_FORMAT}), episode files ({EPISODE_FILE_FORMAT}) or a judge file ({JUDGE_FORMAT})"
        )),
        None => Err(format!(
            "{name} is not a Playbench file: drop a results file ({RESULTS_FORMAT}), episode files ({EPISODE_FILE_FORMAT}) or a judge file ({JUDGE_FORMAT})"
        )),
    }
}

/// Reads a pasted share link (a full URL, a fragment or the bare payload).
pub fn read_link(text: &str) -> Result<EpisodeFile, String> {
    open_link(Origin::Link, text.trim()).map_err(|e| e.to_string())
}

/// The episodes chosen for judging: one results file, or episode files in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chosen {
    pub results: Option<(String, ResultsFile)>,
    pub episodes: Vec<(String, EpisodeFile)>,
}

impl Chosen {
    pub fn is_empty(&self) -> bool {
        self.results.is_none() && self.episodes.is_empty()
    }

    /// A results file replaces what was chosen (it is judged alone, as the command
    /// line judges one source at a time).
    pub fn set_results(&mut self, name: String, file: ResultsFile) {
        *self = Self {
            results: Some((name, file)),
            episodes: Vec::new(),
        };
    }

    /// An episode file or link joins the others; not beside a results file.
    pub fn add_episode(&mut self, name: String, file: EpisodeFile) -> Result<(), String> {
        if let Some((results, _)) = &self.results {
            return Err(format!(
                "{results} is chosen: a results file is judged alone (clear it to judge episode files)"
            ));
        }
        self.episodes.push((name, file));
        Ok(())
    }

    /// What the judging reads, as `playbench judge` makes it of the same inputs.
    pub fn source(&self) -> Result<JudgeSource, String> {
        match &self.results {
            Some((name, file)) => {
                JudgeSource::from_results(file).map_err(|e| format!("{name}: {e}"))
            }
            None if self.episodes.is_empty() => {
                Err("Choose a results file, episode files or share links first.".into())
            }
            None => {
                let files: Vec<EpisodeFile> =
                    self.episodes.iter().map(|(_, f)| f.clone()).collect();
                JudgeSource::from_episode_files(&files)
            }
        }
    }

    /// `run.json: my run · gameverse · 11 episodes`, or `2 episode files: a.json, link 1`.
    pub fn describe(&self) -> String {
        match &self.results {
            Some((name, f)) => format!(
                "{name}: {} · {} · {} episodes",
                f.label,
                f.suite,
                f.episodes.len()
            ),
            None => {
                let names: Vec<&str> = self.episodes.iter().map(|(n, _)| n.as_str()).collect();
                format!(
                    "{} episode file{}: {}",
                    names.len(),
                    if names.len() == 1 { "" } else { "s" },
                    names.join(", ")
                )
            }
        }
    }

    /// Episodes to judge.
    pub fn count(&self) -> usize {
        match &self.results {
            Some((_, f)) => f.episodes.len(),
            None => self.episodes.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::view::tests::{episode_file, results_file};

    #[test]
    fn results_episode_and_judge_files_and_links_are_read_the_rest_refused() {
        let results = results_file();
        assert!(matches!(
            read_dropped("r.json", &results.to_json()),
            Ok(Dropped::Results(_))
        ));
        let episode = episode_file("maze-s1", true);
        assert!(matches!(
            read_dropped("e.json", &episode.to_json()),
            Ok(Dropped::Episode(_))
        ));
        let link = episode.to_link_fragment().unwrap();
        assert!(matches!(
            read_dropped("link.txt", &format!("http://x/episode#{link}\n")),
            Ok(Dropped::Episode(_))
        ));
        assert_eq!(read_link(&link).unwrap().record, episode.record);
        let e = read_link("nonsense").unwrap_err();
        assert!(e.starts_with("Could not open the link"), "{e}");
        let e = read_dropped("t.json", r#"{"format": "playbench-task/1"}"#)
            .err()
            .unwrap();
        assert!(
            e.starts_with("t.json is a playbench-task/1 file: drop a results file"),
            "{e}"
        );
        let e = read_dropped("o.json", "{}").err().unwrap();
        assert!(e.starts_with("o.json is not a Playbench file"), "{e}");
        let e = read_dropped("b.json", "{not json").err().unwrap();
        assert!(e.starts_with("b.json is not a JSON file"), "{e}");
    }

    #[test]
    fn games_with_milestones_link_to_the_judge() {
        let gameverse = bench::suites::latest("gameverse").unwrap();
        assert!(can_judge(gameverse.task("maze-s1").unwrap()));
        let core = bench::suites::latest(bench::suites::DEFAULT_SUITE).unwrap();
        assert!(!can_judge(&core.tasks[0]));
        assert_eq!(judge_href("e=pb1.x"), "/judge#e=pb1.x");
        assert_eq!(judge_href("#e=pb1.x"), "/judge#e=pb1.x");
    }

    #[test]
    fn a_results_file_is_judged_alone_and_episodes_in_order() {
        let mut chosen = Chosen::default();
        assert!(chosen.is_empty());
        assert!(chosen.source().is_err());
        chosen
            .add_episode("a.json".into(), episode_file("maze-s1", true))
            .unwrap();
        chosen
            .add_episode("link 1".into(), episode_file("maze-s1", false))
            .unwrap();
        assert_eq!(chosen.describe(), "2 episode files: a.json, link 1");
        let source = chosen.source().unwrap();
        assert_eq!(source.items.len(), 2);
        assert_eq!(source.label, "episode files");
        chosen.set_results("r.json".into(), results_file());
        assert_eq!(chosen.count(), 2);
        assert!(chosen.describe().starts_with("r.json: "));
        let e = chosen
            .add_episode("b.json".into(), episode_file("maze-s1", true))
            .unwrap_err();
        assert!(e.starts_with("r.json is chosen"), "{e}");
        assert_eq!(chosen.source().unwrap().items.len(), 2);
    }
}
