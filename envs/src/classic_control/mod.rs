//! Classic Control: CartPole, Acrobot, MountainCar and Pendulum
//! (`docs/environments.md`, "Classic Control"). Float64 physics in the reference's
//! evaluation order, float32 observations, and pygame-like renderings (same document,
//! "Rendering").

pub mod acrobot;
mod canvas;
pub mod cartpole;
pub mod mountain_car;
mod numpy_f32;
mod oracle;
pub mod pendulum;

use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::core::spec::{wrap, EnvSpec, Family};
use acrobot::Acrobot;
use cartpole::CartPole;
use mountain_car::MountainCar;
use pendulum::{ActionDtype, Pendulum};

fn pendulum(spec: &'static EnvSpec, kw: &mut Kwargs) -> Result<Box<dyn crate::Env>, EnvError> {
    let dtype = match kw
        .choice("action_dtype", &["float32", "float64"], "float32")?
        .as_str()
    {
        "float64" => ActionDtype::Float64,
        _ => ActionDtype::Float32,
    };
    Ok(wrap(spec, Pendulum::new(spec.id, dtype)))
}

pub static FAMILY: Family = Family {
    id: "classic_control",
    label: "Classic Control",
    frame_sha256: false,
    specs: SPECS,
};

static SPECS: &[EnvSpec] = &[
    EnvSpec {
        id: "CartPole-v1",
        aliases: &[],
        family: &FAMILY,
        variants: &[],
        max_episode_steps: Some(500),
        kwargs_doc: "none",
        summary: "Push the cart left or right to keep the pole upright.",
        make: |spec, _| Ok(wrap(spec, CartPole::new(spec.id))),
    },
    EnvSpec {
        id: "Acrobot-v1",
        aliases: &[],
        family: &FAMILY,
        variants: &[],
        max_episode_steps: Some(500),
        kwargs_doc: "none",
        summary: "Swing the two-link arm by its middle joint until the tip rises above the line.",
        make: |spec, _| Ok(wrap(spec, Acrobot::new(spec.id))),
    },
    EnvSpec {
        id: "MountainCar-v0",
        aliases: &[],
        family: &FAMILY,
        variants: &[],
        max_episode_steps: Some(200),
        kwargs_doc: "none",
        summary: "Rock the under-powered car back and forth to reach the flag on the hill.",
        make: |spec, _| Ok(wrap(spec, MountainCar::new(spec.id))),
    },
    EnvSpec {
        id: "Pendulum-v1",
        aliases: &[],
        family: &FAMILY,
        variants: &[],
        max_episode_steps: Some(200),
        kwargs_doc:
            "action_dtype: \"float32\" | \"float64\" (default \"float32\"): the dtype of the \
                     torque array the reference is stepped with, which changes its arithmetic",
        summary: "Swing the pendulum up and hold it upright with a limited torque.",
        make: pendulum,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_make_wrapped_envs() {
        for spec in SPECS {
            let kw = serde_json::Map::new();
            let mut env = crate::registry::make(spec.id, &kw).unwrap();
            assert_eq!(env.id(), spec.id);
            env.reset(Some(0));
            let action = env.preset_action(0).unwrap();
            assert!(env.step(action).is_ok());
        }
    }

    #[test]
    fn time_limits_truncate() {
        let mut env = crate::registry::make_default("Pendulum-v1").unwrap();
        env.reset(Some(1));
        for i in 1..=200 {
            let s = env.step(crate::Action::Value(0.0)).unwrap();
            assert_eq!(s.truncated, i == 200);
        }
    }

    #[test]
    fn pendulum_dtype_kwarg() {
        let kw = |v| json!({ "action_dtype": v }).as_object().cloned().unwrap();
        let mut f32_env = crate::registry::make("Pendulum-v1", &kw("float32")).unwrap();
        let mut f64_env = crate::registry::make("Pendulum-v1", &kw("float64")).unwrap();
        f32_env.reset(Some(0));
        f64_env.reset(Some(0));
        let a = f32_env.step(crate::Action::Value(0.5)).unwrap().reward;
        let b = f64_env.step(crate::Action::Value(0.5)).unwrap().reward;
        assert_ne!(a, b);
        assert!(matches!(
            crate::registry::make("Pendulum-v1", &kw("float16")),
            Err(EnvError::BadKwargs(_))
        ));
    }
}

#[cfg(test)]
mod invalid_action_tests {
    use super::acrobot::Acrobot;
    use super::cartpole::CartPole;
    use super::mountain_car::MountainCar;
    use crate::core::env::{Action, Env};
    use crate::core::error::EnvError;

    #[test]
    fn discrete_envs_reject_invalid_actions() {
        let envs: [(Box<dyn Env>, usize); 3] = [
            (Box::new(CartPole::new("CartPole-v1")), 2),
            (Box::new(Acrobot::new("Acrobot-v1")), 3),
            (Box::new(MountainCar::new("MountainCar-v0")), 3),
        ];
        for (mut env, n) in envs {
            assert!(
                matches!(env.step(Action::Index(0)), Err(EnvError::NotReset)),
                "{}",
                env.id()
            );
            env.reset(Some(0));
            assert!(
                matches!(env.step(Action::Index(n)), Err(EnvError::InvalidAction(_))),
                "{}",
                env.id()
            );
            assert!(
                matches!(
                    env.step(Action::Value(1.0)),
                    Err(EnvError::InvalidAction(_))
                ),
                "{}",
                env.id()
            );
        }
    }
}
