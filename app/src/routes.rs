//! Every page's path, the site's sections and the links between pages, in one place:
//! the router (`app.rs`) and every link are made from these. Links to what a suite
//! holds (its page, a task, a person's play, a model run, a study) carry the suite's id
//! (`suite=`), so they keep pointing at the same suite when the default changes.

use crate::url::encode_component;

/// The pages, each at one path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Home,
    Play,
    Suite,
    Task,
    TaskPlay,
    Models,
    Run,
    RunSuite,
    Episode,
    Study,
    StudyTake,
    Compare,
    Roms,
    Audit,
    Reflect,
    Attempts,
    Judge,
}

pub const HOME: &str = "/";
pub const PLAY: &str = "/play";
pub const SUITE: &str = "/suite";
pub const TASK: &str = "/task";
pub const TASK_PLAY: &str = "/task/play";
pub const MODELS: &str = "/models";
pub const RUN: &str = "/run";
pub const RUN_SUITE: &str = "/run/suite";
pub const EPISODE: &str = "/episode";
pub const STUDY: &str = "/study";
pub const STUDY_TAKE: &str = "/study/take";
pub const COMPARE: &str = "/compare";
pub const ROMS: &str = "/roms";
pub const AUDIT: &str = "/audit";
pub const REFLECT: &str = "/reflect";
pub const ATTEMPTS: &str = "/attempts";
pub const JUDGE: &str = "/judge";

impl Page {
    pub const ALL: [Page; 17] = [
        Self::Home,
        Self::Play,
        Self::Suite,
        Self::Task,
        Self::TaskPlay,
        Self::Models,
        Self::Run,
        Self::RunSuite,
        Self::Episode,
        Self::Study,
        Self::StudyTake,
        Self::Compare,
        Self::Roms,
        Self::Audit,
        Self::Reflect,
        Self::Attempts,
        Self::Judge,
    ];

    pub fn path(self) -> &'static str {
        match self {
            Self::Home => HOME,
            Self::Play => PLAY,
            Self::Suite => SUITE,
            Self::Task => TASK,
            Self::TaskPlay => TASK_PLAY,
            Self::Models => MODELS,
            Self::Run => RUN,
            Self::RunSuite => RUN_SUITE,
            Self::Episode => EPISODE,
            Self::Study => STUDY,
            Self::StudyTake => STUDY_TAKE,
            Self::Compare => COMPARE,
            Self::Roms => ROMS,
            Self::Audit => AUDIT,
            Self::Reflect => REFLECT,
            Self::Attempts => ATTEMPTS,
            Self::Judge => JUDGE,
        }
    }

    /// The path's segments, as the router matches them (`[""]` for the home page).
    pub fn segments(self) -> Vec<&'static str> {
        self.path().trim_start_matches('/').split('/').collect()
    }

    /// The page at a path, if any (a trailing slash is ignored).
    pub fn at(path: &str) -> Option<Self> {
        let path = match path.trim_end_matches('/') {
            "" => HOME,
            p => p,
        };
        Self::ALL.into_iter().find(|p| p.path() == path)
    }

    pub fn section(self) -> Section {
        match self {
            Self::Home | Self::Play => Section::Envs,
            Self::Suite | Self::Task | Self::TaskPlay => Section::Suite,
            Self::Models
            | Self::Run
            | Self::RunSuite
            | Self::Audit
            | Self::Reflect
            | Self::Judge => Section::Run,
            Self::Episode | Self::Attempts => Section::Episode,
            Self::Study | Self::StudyTake => Section::Study,
            Self::Compare => Section::Compare,
            Self::Roms => Section::Roms,
        }
    }
}

/// The header's sections, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Envs,
    Suite,
    Run,
    Episode,
    Study,
    Compare,
    Roms,
}

impl Section {
    pub const ALL: [Section; 7] = [
        Self::Envs,
        Self::Suite,
        Self::Run,
        Self::Episode,
        Self::Study,
        Self::Compare,
        Self::Roms,
    ];

    /// Where the navigation link leads.
    pub fn href(self) -> &'static str {
        match self {
            Self::Envs => HOME,
            Self::Suite => SUITE,
            Self::Run => RUN_SUITE,
            Self::Episode => EPISODE,
            Self::Study => STUDY,
            Self::Compare => COMPARE,
            Self::Roms => ROMS,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Envs => "Environments",
            Self::Suite => "Benchmark suite",
            Self::Run => "Run a model",
            Self::Episode => "Replay",
            Self::Study => "Human study",
            Self::Compare => "Compare",
            Self::Roms => "ROMs",
        }
    }

    /// The navigation link's `data-testid`.
    pub fn testid(self) -> &'static str {
        match self {
            Self::Envs => "nav-envs",
            Self::Suite => "nav-suite",
            Self::Run => "nav-run",
            Self::Episode => "nav-episode",
            Self::Study => "nav-study",
            Self::Compare => "nav-compare",
            Self::Roms => "nav-roms",
        }
    }

    /// The section of the page at `path` (none for unknown paths).
    pub fn of_path(path: &str) -> Option<Self> {
        Page::at(path).map(Page::section)
    }
}

fn suite_param(suite: &str) -> String {
    format!("suite={}", encode_component(suite))
}

/// `/suite?suite=S`: a suite's tasks.
pub fn suite_href(suite: &str) -> String {
    format!("{SUITE}?{}", suite_param(suite))
}

/// `/task?id=ID&suite=S`: a task's rules and demonstrations.
pub fn task_href(suite: &str, id: &str) -> String {
    format!("{TASK}?id={}&{}", encode_component(id), suite_param(suite))
}

/// `/task/play?id=ID&suite=S`, with `&record=1` in record-a-demo mode.
pub fn task_play_href(suite: &str, id: &str, record: bool) -> String {
    let mut href = format!(
        "{TASK_PLAY}?id={}&{}",
        encode_component(id),
        suite_param(suite)
    );
    if record {
        href.push_str("&record=1");
    }
    href
}

/// `/run?task=ID&suite=S`: the task with a model.
pub fn task_run_href(suite: &str, id: &str) -> String {
    format!("{RUN}?task={}&{}", encode_component(id), suite_param(suite))
}

/// `/reflect?task=ID&suite=S`: reflect-and-retry on a GameVerse task.
pub fn task_reflect_href(suite: &str, id: &str) -> String {
    format!(
        "{REFLECT}?task={}&{}",
        encode_component(id),
        suite_param(suite)
    )
}

/// `/run/suite?suite=S`: the suite with a model.
pub fn suite_run_href(suite: &str) -> String {
    format!("{RUN_SUITE}?{}", suite_param(suite))
}

/// `/study?suite=S`: a study built from the suite's tasks.
pub fn study_href(suite: &str) -> String {
    format!("{STUDY}?{}", suite_param(suite))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_has_one_path_and_a_section() {
        for (i, p) in Page::ALL.iter().enumerate() {
            assert_eq!(Page::at(p.path()), Some(*p));
            assert!(Page::ALL[i + 1..].iter().all(|q| q.path() != p.path()));
            assert!(Section::ALL.contains(&p.section()));
        }
        assert_eq!(Page::Home.segments(), [""]);
        assert_eq!(Page::TaskPlay.segments(), ["task", "play"]);
        assert_eq!(Page::at("/run/suite/"), Some(Page::RunSuite));
        assert_eq!(Page::at("/nope"), None);
        assert_eq!(Section::of_path("/task/play"), Some(Section::Suite));
        assert_eq!(Section::of_path("/play"), Some(Section::Envs));
        assert_eq!(Section::of_path("/models"), Some(Section::Run));
        assert_eq!(Section::of_path("/study/take"), Some(Section::Study));
        assert_eq!(Section::of_path("/roms"), Some(Section::Roms));
        assert_eq!(Section::of_path("/audit"), Some(Section::Run));
        assert_eq!(Section::of_path("/reflect"), Some(Section::Run));
        assert_eq!(Section::of_path("/attempts"), Some(Section::Episode));
        for s in Section::ALL {
            assert_eq!(Section::of_path(s.href()), Some(s), "{s:?}");
            assert!(s.testid().starts_with("nav-") && !s.label().is_empty());
        }
    }

    #[test]
    fn suite_links_carry_the_suite() {
        assert_eq!(
            task_href("playbench-core", "taxi-s1"),
            "/task?id=taxi-s1&suite=playbench-core"
        );
        assert_eq!(
            task_play_href("s", "a b", true),
            "/task/play?id=a%20b&suite=s&record=1"
        );
        assert_eq!(task_run_href("s", "t"), "/run?task=t&suite=s");
        assert_eq!(
            task_reflect_href("gameverse", "maze-s1"),
            "/reflect?task=maze-s1&suite=gameverse"
        );
        assert_eq!(suite_href("s"), "/suite?suite=s");
        assert_eq!(suite_run_href("s"), "/run/suite?suite=s");
        assert_eq!(study_href("s"), "/study?suite=s");
    }
}
