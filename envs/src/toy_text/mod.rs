//! Toy Text: Taxi, CliffWalking and FrozenLake, tabular environments whose every step
//! draws one `random()` for its categorical transition (`docs/environments.md`,
//! "Toy Text").

pub mod cliff_walking;
pub mod frozen_lake;
mod oracle;
mod sprites;
pub mod taxi;

use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::core::spec::{wrap, EnvSpec, Family, Variant};
use cliff_walking::CliffWalking;
use frozen_lake::{FrozenLake, LakeMap};
use taxi::Taxi;

fn frozen_lake(
    spec: &'static EnvSpec,
    kw: &mut Kwargs,
    default_map: &str,
) -> Result<Box<dyn crate::Env>, EnvError> {
    let map = match kw
        .choice("map_name", &["4x4", "8x8"], default_map)?
        .as_str()
    {
        "8x8" => LakeMap::EightByEight,
        _ => LakeMap::FourByFour,
    };
    let slippery = kw.bool("is_slippery", true)?;
    Ok(wrap(spec, FrozenLake::new(spec.id, map, slippery)))
}

const NOT_SLIPPERY: &[Variant] = &[Variant {
    label: "not slippery",
    kwargs: r#"{"is_slippery": false}"#,
}];

pub static FAMILY: Family = Family {
    id: "toy_text",
    label: "Toy Text",
    frame_sha256: false,
    specs: SPECS,
};

static SPECS: &[EnvSpec] = &[
    EnvSpec {
        id: "Taxi-v3",
        aliases: &["Taxi-v4"],
        family: &FAMILY,
        variants: &[],
        max_episode_steps: Some(200),
        kwargs_doc: "none",
        summary: "Pick up the passenger and drop them at their destination.",
        make: |spec, _| Ok(wrap(spec, Taxi::new(spec.id))),
    },
    EnvSpec {
        id: "CliffWalking-v1",
        aliases: &["CliffWalking-v0"],
        family: &FAMILY,
        variants: &[],
        max_episode_steps: None,
        kwargs_doc: "none",
        summary: "Walk from start to goal along the cliff without falling.",
        make: |spec, _| Ok(wrap(spec, CliffWalking::new(spec.id))),
    },
    EnvSpec {
        id: "FrozenLake-v1",
        aliases: &[],
        family: &FAMILY,
        variants: NOT_SLIPPERY,
        max_episode_steps: Some(100),
        kwargs_doc:
            "map_name: \"4x4\" | \"8x8\" (default \"4x4\"); is_slippery: bool (default true)",
        summary: "Cross the frozen lake to the present without falling into a hole.",
        make: |spec, kw| frozen_lake(spec, kw, "4x4"),
    },
    EnvSpec {
        id: "FrozenLake8x8-v1",
        aliases: &[],
        family: &FAMILY,
        variants: NOT_SLIPPERY,
        max_episode_steps: Some(200),
        kwargs_doc:
            "map_name: \"4x4\" | \"8x8\" (default \"8x8\"); is_slippery: bool (default true)",
        summary: "FrozenLake on the 8×8 map.",
        make: |spec, kw| frozen_lake(spec, kw, "8x8"),
    },
];
