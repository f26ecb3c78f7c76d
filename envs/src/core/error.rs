use std::fmt;

/// Everything that can go wrong when making or driving an environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvError {
    UnknownEnv(String),
    BadKwargs(String),
    InvalidAction(String),
    NotReset,
    /// Something the environment needs that Playbench does not ship and the user must
    /// supply (an Atari ROM): what is missing and how to supply it.
    MissingAsset(String),
    /// The id's family is not built into this copy (`spec::heavy`).
    NotBuiltIn(String),
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownEnv(id) => write!(f, "unknown environment id {id:?}"),
            Self::BadKwargs(why) => write!(f, "bad kwargs: {why}"),
            Self::InvalidAction(why) => write!(f, "invalid action: {why}"),
            Self::NotReset => write!(f, "step called before reset"),
            Self::MissingAsset(why) => write!(f, "missing asset: {why}"),
            Self::NotBuiltIn(id) => write!(
                f,
                "{id} is not built into this copy of the environments (built without the \
                 `every-family` feature)"
            ),
        }
    }
}

impl std::error::Error for EnvError {}
