//! What differs between VisGym's two Fetch tasks (docs/fetch-reference.md §1): the model,
//! the starting joints, whether there is a cube and a gripper to work, the success
//! distance, how far the front camera's look-at point is jittered, and the words.

/// Fetch Reach or Fetch Pick-and-Place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    Reach,
    PickAndPlace,
}

impl Task {
    /// The model's name at the physics host (`fetch/reach.xml`, `fetch/pick_and_place.xml`).
    pub fn model(self) -> &'static str {
        match self {
            Task::Reach => "reach",
            Task::PickAndPlace => "pick_and_place",
        }
    }

    /// VisGym's environment name (`fetch_reach/easy`, …).
    pub fn name(self) -> &'static str {
        match self {
            Task::Reach => "fetch_reach",
            Task::PickAndPlace => "fetch_pick_and_place",
        }
    }

    /// Joint values set before the warm-up (`initial_qpos`).
    pub fn initial_qpos(self) -> Vec<(&'static str, Vec<f64>)> {
        let slide0 = match self {
            Task::Reach => 0.4049,
            Task::PickAndPlace => 0.405,
        };
        let mut q = vec![
            ("robot0:slide0", vec![slide0]),
            ("robot0:slide1", vec![0.48]),
            ("robot0:slide2", vec![0.0]),
        ];
        if self == Task::PickAndPlace {
            q.push(("object0:joint", vec![1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0]));
        }
        q
    }

    /// A cube to pick and place (`has_object`); the gripper works only then
    /// (`block_gripper` is Reach's).
    pub fn has_object(self) -> bool {
        self == Task::PickAndPlace
    }

    /// Success is a distance below this (VisGym's discrete classes: 0.1 for Reach).
    pub fn distance_threshold(self) -> f64 {
        match self {
            Task::Reach => 0.1,
            Task::PickAndPlace => 0.05,
        }
    }

    /// ± metres of the front camera's look-at jitter per axis.
    pub fn jitter_lookat(self) -> f64 {
        match self {
            Task::Reach => 0.1,
            Task::PickAndPlace => 0.2,
        }
    }

    /// The action functions, in the reference's order.
    pub fn function_names(self) -> &'static [&'static str] {
        match self {
            Task::Reach => &["move", "stop"],
            Task::PickAndPlace => &["move", "gripper", "stop"],
        }
    }
}
