//! The auditor's texts, as data (`docs/audit.md`, "The two requests"). The two audit
//! requests reproduce the V-ICAL paper's Appendix C.4 word for word: its system
//! instructions, rubrics, output formats and the payload's fixed sentences (the
//! paper's extraction flattens line breaks; they are restored at headings and list
//! items, and the words and punctuation are the paper's). The demonstration-derived
//! reference request is ours: the paper describes that reference but does not print
//! its prompt.

/// A prompt file without its final line break.
fn text(raw: &'static str) -> &'static str {
    raw.trim_end_matches('\n')
}

pub fn transfer_system() -> &'static str {
    text(include_str!("prompts/transfer_system.txt"))
}

pub fn transfer_task() -> &'static str {
    text(include_str!("prompts/transfer_task.txt"))
}

pub fn transfer_output_format() -> &'static str {
    text(include_str!("prompts/transfer_output_format.txt"))
}

pub fn attribution_system() -> &'static str {
    text(include_str!("prompts/attribution_system.txt"))
}

pub fn attribution_task() -> &'static str {
    text(include_str!("prompts/attribution_task.txt"))
}

pub fn attribution_output_format() -> &'static str {
    text(include_str!("prompts/attribution_output_format.txt"))
}

/// The payload's closing section (C.4.3), before the output format repeated.
pub fn final_output_requirement() -> &'static str {
    text(include_str!("prompts/final_output_requirement.txt"))
}

/// The payload context's `preprocessing.media_transport` sentence (C.4.3).
pub fn media_transport() -> &'static str {
    text(include_str!("prompts/media_transport.txt"))
}

pub fn reference_system() -> &'static str {
    text(include_str!("prompts/reference_system.txt"))
}

pub fn reference_task() -> &'static str {
    text(include_str!("prompts/reference_task.txt"))
}

pub fn reference_output_format() -> &'static str {
    text(include_str!("prompts/reference_output_format.txt"))
}

pub fn reference_final() -> &'static str {
    text(include_str!("prompts/reference_final.txt"))
}
