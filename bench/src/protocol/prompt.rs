//! The V-ICAL conversation (`docs/vical-protocol.md`, "The conversation"), word for word.
//! Messages are text parts and image references; providers turn them into requests.

use serde::{Deserialize, Serialize};

use crate::Task;

/// Where an image in a message comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ImageRef {
    /// Frame `frame` (captioned) of demonstration `clip`, both 0-based.
    DemoFrame { clip: usize, frame: usize },
    /// All frames of demonstration `clip`, as one video (video-capable providers).
    DemoVideo { clip: usize },
    /// An episode's step video as one video (`crate::step_video`; video-capable
    /// providers): the failure GameVerse's reflection studies, what its judge watches.
    StepVideo,
    /// The live frame after `step` decisions (0 = the initial state).
    Current { step: u32 },
    /// The solved state: the frame after the oracle's whole plan from the start
    /// (VisGym's final-goal variant).
    FinalGoal,
    /// The last live frame captioned with how the episode ended (the trajectory
    /// auditor's evidence, `docs/audit.md`).
    EndingFrame,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Part {
    /// Text; adjacent text parts form one block of the request.
    Text(String),
    Image(ImageRef),
    /// Text that is a block of its own in the request, never joined with its
    /// neighbours (VisGym's final-goal sentence follows the turn's text as a second
    /// block).
    TextBlock(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Instructions outside the conversation (the trajectory auditor's; the V-ICAL
    /// conversation has none). Providers put it where their API takes it.
    System,
    User,
    Assistant,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub parts: Vec<Part>,
}

impl Message {
    /// The message as text, images shown as `<image>` (for logs, tests and the
    /// text-only observation setting).
    pub fn to_text(&self) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Text(t) | Part::TextBlock(t) => t.clone(),
                Part::Image(_) => "<image>".to_string(),
            })
            .collect()
    }

    pub fn images(&self) -> impl Iterator<Item = &ImageRef> {
        self.parts.iter().filter_map(|p| match p {
            Part::Image(r) => Some(r),
            Part::Text(_) | Part::TextBlock(_) => None,
        })
    }
}

/// How demonstrations are sent (images by default: every provider takes them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DemoMode {
    /// One video per clip.
    Video,
    /// The clip's frames as ordered images, with the frames sentence.
    #[default]
    Images,
}

pub const RETRY_FIRST_TURN: &str = "Your action is INVALID. Your response MUST start with the action on the FIRST LINE: [Action: <action_name>] The square brackets [ ] are REQUIRED. Use the EXACT action names I provided. Put [Action: ...] FIRST, then reasoning after.";

pub const RETRY_LATER_TURN: &str = "Your action is INVALID and not in the action space. You MUST respond using the exact format: [Action: <action_name>] Where <action_name> is one of the action names I provided. The square brackets [ ] are REQUIRED. Please try again with a valid action.";

/// The retry message after an invalid reply at decision `step` (0 = the first turn).
pub fn retry_message(step: u32) -> Message {
    let text = if step == 0 {
        RETRY_FIRST_TURN
    } else {
        RETRY_LATER_TURN
    };
    user(vec![Part::Text(text.to_string())])
}

fn user(parts: Vec<Part>) -> Message {
    Message {
        role: Role::User,
        parts,
    }
}

/// The first user turn: rules, budget, actions, the demonstrations (`frames[i]` frames
/// in clip i), then the initial state.
pub fn first_turn(task: &Task, game_name: &str, frames: &[usize], mode: DemoMode) -> Message {
    let mut head = format!(
        "You are interacting with the environment: {game_name}\nEnvironment Rules: {}\nMax Steps: {}\nAvailable actions:\n",
        task.rules, task.max_steps
    );
    for a in &task.actions {
        head.push_str(&format!("- {a}\n"));
    }
    head.push_str(&format!(
        "The next {} video(s) show EXAMPLE GAMEPLAY footage from previous runs of this environment ({game_name}). These are NOT necessarily good or optimal play. They are provided ONLY to help you understand the environment's dynamics: what objects do, what causes death or rewards, and how the environment reacts to actions. Do NOT treat these videos as the current environment state, and do NOT choose actions for them.\n",
        frames.len()
    ));
    let mut parts = vec![Part::Text(head)];
    for (i, &n) in frames.iter().enumerate() {
        let number = i + 1;
        match mode {
            DemoMode::Video => {
                parts.push(Part::Text(format!("Video {number}: ")));
                parts.push(Part::Image(ImageRef::DemoVideo { clip: i }));
                parts.push(Part::Text("\n".into()));
            }
            DemoMode::Images => {
                parts.push(Part::Text(format!(
                    "Video {number}: The following {n} image(s) are the ordered frames of Video {number}. Read them left-to-right, top-to-bottom as a single continuous clip.\n"
                )));
                parts
                    .extend((0..n).map(|f| Part::Image(ImageRef::DemoFrame { clip: i, frame: f })));
                parts.push(Part::Text("\n".into()));
            }
        }
    }
    parts.push(Part::Text(
        "The demonstrations end here. The next image is the CURRENT INITIAL STATE of the environment -- this is the state you must act on. Choose your next action ONLY for this current state.\nCurrent initial state image: ".into(),
    ));
    parts.push(Part::Image(ImageRef::Current { step: 0 }));
    parts.push(Part::Text(
        "\nYour task: Choose the best action for the CURRENT INITIAL STATE shown in the image above.\nIMPORTANT - Response format: Your response MUST start with your chosen action on the FIRST LINE in this exact format:\n[Action: <action_name>]\nFor example:\n[Action: FIRE]\n[Action: turn left]\nUse the EXACT action names from the list above. The square brackets [ ] are REQUIRED. The [Action: X] line MUST be the FIRST line of your response. You may add brief reasoning AFTER the action line.\nWhat action do you choose?".into(),
    ));
    user(parts)
}

/// A later user turn after `step` decisions; `reward` is (immediate, cumulative) when
/// the task shows rewards.
pub fn later_turn(step: u32, last_action: &str, reward: Option<(f64, f64)>) -> Message {
    later_turn_with_feedback(step, last_action, reward, None)
}

/// [`later_turn`] with VisGym's textual environment feedback (`docs/vical-protocol.md`,
/// "Feedback") after the previous action, e.g. `Feedback: executed; nothing visibly
/// changed`.
pub fn later_turn_with_feedback(
    step: u32,
    last_action: &str,
    reward: Option<(f64, f64)>,
    feedback: Option<&str>,
) -> Message {
    let mut head =
        format!("Step {step} - Result of your last action:\nPrevious action: {last_action}\n");
    if let Some(f) = feedback {
        head.push_str(&format!("Feedback: {f}\n"));
    }
    if let Some((now, total)) = reward {
        head.push_str(&format!("Reward: {now}\nCumulative reward: {total}\n"));
    }
    head.push_str("The next image is the CURRENT STATE after executing your previous action.\n");
    user(vec![
        Part::Text(head),
        Part::Image(ImageRef::Current { step }),
        Part::Text("\nChoose the next action for the CURRENT STATE shown in the image above.\nIMPORTANT: Your response MUST start with [Action: <action_name>] on the FIRST LINE. You may add brief reasoning after.".into()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task() -> Task {
        Task::from_json(
            r#"{"id": "t", "env": "MiniGrid-Empty-5x5-v0", "seed": 0, "max_steps": 30,
                "rules": "Mission: get to the green goal square.",
                "actions": ["turn left", "turn right", "move forward"],
                "demos": [{"label": "x", "seed": 1, "actions": ["move forward"]}],
                "pass": {"kind": "reach_goal"}, "score": {"kind": "navigation", "reference_steps": 4},
                "tags": {"family": "MiniGrid-Empty", "memory": "single", "dynamics": "static"}}"#,
        )
        .unwrap()
    }

    /// `docs/vical-protocol.md`, "Turn 1", with the placeholders filled in.
    const FIRST_TURN: &str = "You are interacting with the environment: MiniGrid-Empty-5x5-v0
Environment Rules: Mission: get to the green goal square.
Max Steps: 30
Available actions:
- turn left
- turn right
- move forward
The next 2 video(s) show EXAMPLE GAMEPLAY footage from previous runs of this environment (MiniGrid-Empty-5x5-v0). These are NOT necessarily good or optimal play. They are provided ONLY to help you understand the environment's dynamics: what objects do, what causes death or rewards, and how the environment reacts to actions. Do NOT treat these videos as the current environment state, and do NOT choose actions for them.
Video 1: <image>
Video 2: <image>
The demonstrations end here. The next image is the CURRENT INITIAL STATE of the environment -- this is the state you must act on. Choose your next action ONLY for this current state.
Current initial state image: <image>
Your task: Choose the best action for the CURRENT INITIAL STATE shown in the image above.
IMPORTANT - Response format: Your response MUST start with your chosen action on the FIRST LINE in this exact format:
[Action: <action_name>]
For example:
[Action: FIRE]
[Action: turn left]
Use the EXACT action names from the list above. The square brackets [ ] are REQUIRED. The [Action: X] line MUST be the FIRST line of your response. You may add brief reasoning AFTER the action line.
What action do you choose?";

    #[test]
    fn the_first_turn_is_the_published_text() {
        let m = first_turn(&task(), "MiniGrid-Empty-5x5-v0", &[5, 3], DemoMode::Video);
        assert_eq!(m.to_text(), FIRST_TURN);
        assert_eq!(m.images().count(), 3);
    }

    #[test]
    fn image_only_backends_get_the_frames_sentence() {
        let m = first_turn(&task(), "MiniGrid-Empty-5x5-v0", &[2], DemoMode::Images);
        let text = m.to_text();
        assert!(text.contains("Video 1: The following 2 image(s) are the ordered frames of Video 1. Read them left-to-right, top-to-bottom as a single continuous clip.\n<image><image>\nThe demonstrations end here."), "{text}");
        let refs: Vec<_> = m.images().copied().collect();
        assert_eq!(
            refs,
            vec![
                ImageRef::DemoFrame { clip: 0, frame: 0 },
                ImageRef::DemoFrame { clip: 0, frame: 1 },
                ImageRef::Current { step: 0 }
            ]
        );
    }

    #[test]
    fn later_turns_and_retries_are_the_published_text() {
        let m = later_turn(3, "move forward", None);
        assert_eq!(
            m.to_text(),
            "Step 3 - Result of your last action:\nPrevious action: move forward\nThe next image is the CURRENT STATE after executing your previous action.\n<image>\nChoose the next action for the CURRENT STATE shown in the image above.\nIMPORTANT: Your response MUST start with [Action: <action_name>] on the FIRST LINE. You may add brief reasoning after."
        );
        assert!(retry_message(0)
            .to_text()
            .starts_with("Your action is INVALID. Your response MUST start"));
        assert!(retry_message(2)
            .to_text()
            .starts_with("Your action is INVALID and not in the action space."));
    }
}
