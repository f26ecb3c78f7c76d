use std::fmt;

/// Everything that can go wrong when making or driving an environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvError {
    UnknownEnv(String),
    BadKwargs(String),
    InvalidAction(String),
    NotReset,
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownEnv(id) => write!(f, "unknown environment id {id:?}"),
            Self::BadKwargs(why) => write!(f, "bad kwargs: {why}"),
            Self::InvalidAction(why) => write!(f, "invalid action: {why}"),
            Self::NotReset => write!(f, "step called before reset"),
        }
    }
}

impl std::error::Error for EnvError {}
