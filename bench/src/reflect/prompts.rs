//! The two reflection requests of GameVerse (`docs/gameverse.md`, "Reflect and retry"),
//! as the reference's reflection module sends them to a model that takes images: a
//! system message and one user message of text items and images. The texts are data a
//! model must see byte for byte; `tests/golden/gameverse/reflection.py` records them
//! from the reference and `reflect::tests` compares.

use crate::protocol::prompt::{ImageRef, Message, Part, Role};
use crate::step_video::with_markers;

/// The longest experience, in whitespace-separated words (the reference's `max_length`).
pub const MAX_EXPERIENCE_WORDS: usize = 1000;

/// Stage 1's system prompt (an indented triple-quoted string in the reference: its later
/// lines keep four spaces and it ends with a newline and four spaces).
pub const FAILURE_SYSTEM: &str = "You are a game strategy analysis expert. Your task is to analyze failure scenarios and reasons from failed game videos.\n\n    Requirements:\n    1. Carefully observe the game process in the video\n    2. Identify key errors and issues that led to failure\n    3. Summarize failure scenarios and reasons, be specific and clear\n    4. Output format: Plain text, list failure scenarios and reasons in bullet points\n    ";

/// The text before the failure frames (image-only endpoints).
pub const FAILURE_FRAMES_LEAD: &str = "\nAll frames from the failure video:";

/// The text before the tutorial frames (image-only endpoints).
pub const TUTORIAL_FRAMES_LEAD: &str =
    "\nKey frames from the expert video (1 frame per 2 seconds):";

/// A `(Displayed k frames)` marker after every this many failure frames.
pub const FAILURE_MARKER_EVERY: usize = 10;
/// … and tutorial frames.
pub const TUTORIAL_MARKER_EVERY: usize = 5;

/// What fills the failure analysis of stage 2 when there is none (the tutorial-only
/// condition: Python's `None` in the f-string).
pub const NO_FAILURE_ANALYSIS: &str = "None";

/// Stage 1's user text.
pub fn failure_user(game_name: &str) -> String {
    format!(
        "Game name: {game_name}\n\nPlease analyze this failure video and summarize the failure scenarios and reasons.\n"
    )
}

/// Stage 2's system prompt.
pub fn tutorial_system(max_words: usize) -> String {
    format!(
        "You are a game strategy analysis expert. You have analyzed the failure video and understood the failure scenarios and reasons. Now please watch the expert video, learn successful strategies, and summarize experiences that can help avoid the previous failures.\n\nRequirements:\n1. Combine the previously analyzed failure scenarios and reasons\n2. Observe successful strategies in the expert video\n3. Summarize experiences that can avoid failures and improve game performance (no more than {max_words} words or tokens)\n4. Experiences should be specific and actionable, avoid vague suggestions\n5. Sort by importance, put the most important experiences first\n6. **IMPORTANT: Keep your response within {max_words} words or tokens. Be concise and focus on the most critical insights.**\n\nOutput format: Plain text, one experience per line, described in concise language."
    )
}

/// Stage 2's three user text items, in order.
pub fn tutorial_user(game_name: &str, failure_analysis: &str) -> [String; 3] {
    [
        format!("Game name: {game_name}\n\n"),
        format!("### Previously analyzed failure scenarios and reasons:\n{failure_analysis}\n\n"),
        "### Expert video:\nPlease watch the following expert video, learn successful strategies, and summarize experiences that can help avoid the previous failures.\n".to_string(),
    ]
}

/// How the frames of one request reach the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Media {
    /// The frames as images, in order (image-only endpoints).
    Frames(Vec<ImageRef>),
    /// One video (endpoints that take video): it comes first, as the reference puts
    /// the uploaded file before the text.
    Video(ImageRef),
}

fn system(text: String) -> Message {
    Message {
        role: Role::System,
        parts: vec![Part::Text(text)],
    }
}

fn user(texts: &[String], lead: &str, marker_every: usize, media: Media) -> Message {
    let mut parts: Vec<Part> = Vec::new();
    if let Media::Video(r) = &media {
        parts.push(Part::Image(*r));
    }
    parts.extend(texts.iter().map(|t| Part::TextBlock(t.clone())));
    if let Media::Frames(frames) = media {
        parts.push(Part::TextBlock(lead.to_string()));
        parts.extend(with_markers(frames, marker_every));
    }
    Message {
        role: Role::User,
        parts,
    }
}

/// Stage 1: what went wrong in the failed attempt.
pub fn failure_messages(game_name: &str, media: Media) -> Vec<Message> {
    vec![
        system(FAILURE_SYSTEM.to_string()),
        user(
            &[failure_user(game_name)],
            FAILURE_FRAMES_LEAD,
            FAILURE_MARKER_EVERY,
            media,
        ),
    ]
}

/// Stage 2: the experience, from the failure analysis and the expert tutorial.
pub fn tutorial_messages(
    game_name: &str,
    failure_analysis: &str,
    max_words: usize,
    media: Media,
) -> Vec<Message> {
    vec![
        system(tutorial_system(max_words)),
        user(
            &tutorial_user(game_name, failure_analysis),
            TUTORIAL_FRAMES_LEAD,
            TUTORIAL_MARKER_EVERY,
            media,
        ),
    ]
}
