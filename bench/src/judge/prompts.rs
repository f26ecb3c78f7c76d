//! The judge's texts, as data (`docs/judge.md`, "The request"). The matcher is not in
//! GameVerse's repository; its prompt is the paper's Fig. 9 as the spec's §9.2
//! reconstructs it (JSON braces restored), word for word. The milestone lines are
//! Playbench's format (the paper does not give one).

use super::milestones::MilestoneList;

/// A prompt file without its final line break.
fn text(raw: &'static str) -> &'static str {
    raw.trim_end_matches('\n')
}

pub fn system() -> &'static str {
    text(include_str!("prompts/system.txt"))
}

/// `Milestone {i}: {title} - {description}`, one line per milestone, 0-based.
pub fn milestones_text(list: &MilestoneList) -> String {
    list.milestones
        .iter()
        .enumerate()
        .map(|(i, m)| format!("Milestone {i}: {} - {}", m.title, m.description))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The user text that follows the frames.
pub fn user_text(game_name: &str, list: &MilestoneList) -> String {
    // One pass, so a title holding `{game_name}` stays as written.
    let template = text(include_str!("prompts/user.txt"));
    let (head, tail) = template
        .split_once("{milestones_text}")
        .unwrap_or((template, ""));
    format!(
        "{}{}{tail}",
        head.replace("{game_name}", game_name),
        milestones_text(list)
    )
}
