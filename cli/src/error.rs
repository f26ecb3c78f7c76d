//! What can go wrong on the command line, by kind; the exit code follows from the kind
//! (the table is in `docs/cli.md`).

use std::fmt;

use bench::episode::EpisodeError;
use bench::share::ShareError;
use bench::study::StudyError;
use bench::suites::SuiteError;
use bench::TaskError;
use envs::EnvError;

#[derive(Debug)]
pub enum CliError {
    /// Arguments the parser refused (clap prints these itself, with the usage).
    Args(clap::Error),
    /// Arguments that parse but cannot be used (an unset key variable).
    Usage(String),
    /// An input file that cannot be read.
    ReadInput {
        input: String,
        error: std::io::Error,
    },
    /// Neither a file nor an episode link.
    NotAnEpisode {
        input: String,
    },
    /// An episode file or link that cannot be read, or whose task cannot be resolved;
    /// `input` names the file when the error is about its content.
    Share {
        input: Option<String>,
        error: ShareError,
    },
    /// A suite id or version that is not built in.
    Suite(SuiteError),
    UnknownTask {
        suite: String,
        task: String,
    },
    /// `--filter` selected nothing.
    NoTaskMatches {
        filter: String,
    },
    /// A task that cannot be loaded or started.
    Task {
        task: Option<String>,
        error: TaskError,
    },
    /// A suite's recipes failed.
    SuiteBuild {
        id: String,
        error: TaskError,
    },
    /// A model episode that could not start (its task's demonstrations or session).
    ModelEpisode {
        task: String,
        message: String,
    },
    Episode(EpisodeError),
    Study(StudyError),
    Env(EnvError),
    /// Episodes that ended because the endpoint failed (`api_error`); the output was
    /// still printed.
    Endpoint {
        failed: usize,
        episodes: usize,
    },
    /// A file given to `audit` that is neither a results file nor an audit file, or
    /// one that cannot be audited.
    Audit {
        input: String,
        message: String,
    },
    /// Verdicts the auditor did not give (endpoint failures, broken output
    /// contracts); the audit was still printed.
    AuditIncomplete {
        missing: usize,
        verdicts: usize,
    },
    /// A file given to `judge` that cannot be judged.
    Judge {
        input: String,
        message: String,
    },
    /// Episodes the judge did not judge (endpoint failures, unparsable replies); the
    /// judge file was still printed.
    JudgeIncomplete {
        unjudged: usize,
        episodes: usize,
    },
    /// An episode that re-simulates differently: the first divergence.
    Diverged(String),
    /// A committed suite that differs from a fresh build of its recipes.
    SuiteStale {
        id: String,
        version: u32,
    },
    /// A committed baseline report that differs from a fresh run of its agent.
    BaselineStale {
        id: String,
        version: u32,
        agent: String,
    },
    /// Writing output failed.
    Io {
        what: String,
        error: std::io::Error,
    },
}

/// What kind of failure an error is: the exit code's meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A check found a difference (verification, the committed suite).
    Diverged,
    /// Bad arguments, or input that cannot be read or resolved.
    Input,
    /// The model endpoint failed.
    Endpoint,
    /// Output could not be written.
    Io,
}

impl ErrorKind {
    pub fn exit_code(self) -> u8 {
        match self {
            Self::Diverged => 1,
            Self::Input => 2,
            Self::Endpoint => 3,
            Self::Io => 4,
        }
    }
}

impl CliError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::Diverged(_) | Self::SuiteStale { .. } | Self::BaselineStale { .. } => {
                ErrorKind::Diverged
            }
            Self::Endpoint { .. } | Self::AuditIncomplete { .. } | Self::JudgeIncomplete { .. } => {
                ErrorKind::Endpoint
            }
            Self::Io { .. } => ErrorKind::Io,
            Self::Args(_)
            | Self::Usage(_)
            | Self::ReadInput { .. }
            | Self::NotAnEpisode { .. }
            | Self::Share { .. }
            | Self::Suite(_)
            | Self::UnknownTask { .. }
            | Self::NoTaskMatches { .. }
            | Self::Task { .. }
            | Self::SuiteBuild { .. }
            | Self::ModelEpisode { .. }
            | Self::Audit { .. }
            | Self::Judge { .. }
            | Self::Episode(_)
            | Self::Study(_)
            | Self::Env(_) => ErrorKind::Input,
        }
    }

    /// The process exit code: 1 diverged, 2 bad arguments or input, 3 endpoint
    /// failures, 4 output errors (0 is success, not an error).
    pub fn exit_code(&self) -> u8 {
        self.kind().exit_code()
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Args(e) => write!(f, "{}", e.render()),
            Self::Usage(m) | Self::Diverged(m) => f.write_str(m),
            Self::ReadInput { input, error } => write!(f, "reading {input}: {error}"),
            Self::NotAnEpisode { input } => {
                write!(f, "{input:?} is neither a file nor a Playbench episode link")
            }
            Self::Share {
                input: Some(input),
                error,
            } => write!(f, "{input}: {error}"),
            Self::Share { input: None, error } => write!(f, "{error}"),
            Self::Suite(e) => write!(f, "{e}"),
            Self::UnknownTask { suite, task } => {
                write!(f, "no task {task:?} in {suite} (see `playbench tasks`)")
            }
            Self::NoTaskMatches { filter } => write!(f, "no task id contains {filter:?}"),
            Self::Task {
                task: Some(task),
                error,
            } => write!(f, "task {task}: {error}"),
            Self::Task { task: None, error } => write!(f, "{error}"),
            Self::SuiteBuild { id, error } => write!(f, "building {id}: {error}"),
            Self::ModelEpisode { task, message } => {
                write!(f, "task {task}: the model episode cannot start: {message}")
            }
            Self::Episode(e) => write!(f, "{e}"),
            Self::Study(e) => write!(f, "{e}"),
            Self::Env(e) => write!(f, "{e}"),
            Self::Endpoint {
                failed: 1,
                episodes: 1,
            } => write!(f, "the endpoint failed: the episode ended with api_error"),
            Self::Endpoint { failed, episodes } => write!(
                f,
                "the endpoint failed: {failed} of {episodes} episodes ended with api_error"
            ),
            Self::Audit { input, message } | Self::Judge { input, message } => {
                write!(f, "{input}: {message}")
            }
            Self::JudgeIncomplete { unjudged, episodes } => write!(
                f,
                "the judging is incomplete: {unjudged} of {episodes} episodes have no judgment or were flagged (see the judge file)"
            ),
            Self::AuditIncomplete { missing, verdicts } => write!(
                f,
                "the audit is incomplete: {missing} of {verdicts} verdicts are missing (see the errors in the audit file)"
            ),
            Self::SuiteStale { id, version } => write!(
                f,
                "the committed {id} v{version} differs from a fresh build: run `playbench suite --suite-id {id} > bench/suites/{id}/v{version}.json`"
            ),
            Self::BaselineStale { id, version, agent } => {
                let which = if agent.starts_with("random") { "random" } else { "oracle" };
                write!(
                    f,
                    "the committed {which} baseline of {id} v{version} differs from a fresh run of {agent}: run `playbench baseline --suite-id {id} --agent {which} --report > bench/suites/{id}/v{version}.baseline-{which}.json`"
                )
            }
            Self::Io { what, error } => write!(f, "{what}: {error}"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<clap::Error> for CliError {
    fn from(e: clap::Error) -> Self {
        Self::Args(e)
    }
}

impl From<ShareError> for CliError {
    fn from(error: ShareError) -> Self {
        Self::Share { input: None, error }
    }
}

impl From<SuiteError> for CliError {
    fn from(e: SuiteError) -> Self {
        Self::Suite(e)
    }
}

impl From<TaskError> for CliError {
    fn from(error: TaskError) -> Self {
        Self::Task { task: None, error }
    }
}

impl From<EpisodeError> for CliError {
    fn from(e: EpisodeError) -> Self {
        Self::Episode(e)
    }
}

impl From<StudyError> for CliError {
    fn from(e: StudyError) -> Self {
        Self::Study(e)
    }
}

impl From<EnvError> for CliError {
    fn from(e: EnvError) -> Self {
        Self::Env(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_kind() {
        let io = || std::io::Error::other("disk full");
        let cases: Vec<(CliError, u8)> = vec![
            (CliError::Diverged("diverged at step 3".into()), 1),
            (
                CliError::SuiteStale {
                    id: "s".into(),
                    version: 1,
                },
                1,
            ),
            (CliError::Usage("--api-key-env".into()), 2),
            (CliError::NotAnEpisode { input: "x".into() }, 2),
            (SuiteError::Unknown { id: "nope".into() }.into(), 2),
            (
                TaskError {
                    field: "tasks[0]".into(),
                    message: "bad".into(),
                }
                .into(),
                2,
            ),
            (EnvError::NotReset.into(), 2),
            (EpisodeError::Finished.into(), 2),
            (
                CliError::Endpoint {
                    failed: 1,
                    episodes: 4,
                },
                3,
            ),
            (
                CliError::Io {
                    what: "writing out.json".into(),
                    error: io(),
                },
                4,
            ),
        ];
        for (e, code) in cases {
            assert_eq!(e.exit_code(), code, "{e}");
        }
    }

    #[test]
    fn wrapped_errors_keep_their_words() {
        let e = CliError::from(SuiteError::Unknown { id: "nope".into() });
        assert!(e.to_string().starts_with("unknown suite \"nope\""), "{e}");
        let e = CliError::Task {
            task: Some("taxi-s1".into()),
            error: TaskError {
                field: "actions[2]".into(),
                message: "no such action".into(),
            },
        };
        assert_eq!(e.to_string(), "task taxi-s1: actions[2]: no such action");
        let e = CliError::UnknownTask {
            suite: "playbench-core".into(),
            task: "nope".into(),
        };
        assert_eq!(
            e.to_string(),
            "no task \"nope\" in playbench-core (see `playbench tasks`)"
        );
    }
}
