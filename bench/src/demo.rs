//! Demonstration clips (`docs/vical-protocol.md`, "Demonstration clips"): a start
//! configuration and an action list, replayed deterministically into frames with a
//! 40-pixel caption strip.

use serde::{Deserialize, Serialize};

use super::episode::EpisodeRunner;
use super::task::{DemoClip, Task, TaskError};
use envs::core::frame::Frame;
use envs::render::font::{draw_text_outlined, text_width, GLYPH_H};

pub const CAPTION_HEIGHT: u32 = 40;

/// How a clip ends, shown on its last frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Victory,
    Terminated,
    TimeOut,
    Draw,
}

impl Outcome {
    pub fn label(self) -> &'static str {
        match self {
            Self::Victory => "Victory",
            Self::Terminated => "Terminated",
            Self::TimeOut => "Time Out",
            Self::Draw => "Draw",
        }
    }
}

/// A clip replayed: the environment frames (without captions), their captions, and
/// how it ended. `frames[0]` is the start; the last caption is the outcome label on a
/// copy of the last frame.
pub struct ClipPlay {
    pub frames: Vec<Frame>,
    pub captions: Vec<String>,
    pub outcome: Outcome,
}

/// Replays `clip` under the task's rules (frame skip, no-op fill), one frame per
/// decision. A clip whose environment ends early stops there.
pub fn play_clip(task: &Task, clip: &DemoClip) -> Result<ClipPlay, TaskError> {
    let mut t = task.clone();
    t.max_steps = clip.actions.len().max(1) as u32;
    t.init_skip = clip.init_skip.unwrap_or(t.init_skip);
    let mut runner = EpisodeRunner::start_from(&t, clip.seed, &clip.prefix)?;
    let mut frame = Frame::default();
    runner.env().render(&mut frame);
    let mut frames = vec![frame];
    let mut captions = vec!["Start State".to_string()];
    for (i, name) in clip.actions.iter().enumerate() {
        if runner.is_done() {
            break;
        }
        runner
            .apply_text(name, None, Vec::new())
            .map_err(|e| TaskError {
                field: format!("demos.actions[{i}]"),
                message: e.to_string(),
            })?;
        let mut frame = Frame::default();
        runner.env().render(&mut frame);
        frames.push(frame);
        captions.push(format!("Step {}: Action: {name}", i + 1));
    }
    let p = runner.progress();
    let outcome = if p.draw {
        Outcome::Draw
    } else if p.success {
        Outcome::Victory
    } else if p.terminated {
        Outcome::Terminated
    } else {
        Outcome::TimeOut
    };
    if let Some(last) = frames.last().cloned() {
        frames.push(last);
        captions.push(outcome.label().to_string());
    }
    Ok(ClipPlay {
        frames,
        captions,
        outcome,
    })
}

/// Splits `text` into lines of at most `max_chars` characters at spaces.
fn wrap(text: &str, max_chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= max_chars => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// `frame` with a black strip below it holding `caption`, centred, white with a black
/// outline; at double size when it fits, else small and wrapped.
pub fn caption_frame(frame: &Frame, caption: &str) -> Frame {
    let (w, h) = (frame.width(), frame.height());
    let mut out = Frame::new(w, h + CAPTION_HEIGHT);
    out.data_mut()[..frame.data().len()].copy_from_slice(frame.data());
    let margin = 8;
    let (scale, lines) = if text_width(caption, 2) + margin <= w {
        (2, vec![caption.to_string()])
    } else {
        let max_chars = ((w.saturating_sub(margin) + 1) / 6).max(1) as usize;
        (1, wrap(caption, max_chars))
    };
    let line_h = (GLYPH_H + 3) * scale;
    let block_h = line_h * lines.len() as u32 - 3 * scale;
    let top = i64::from(h) + (i64::from(CAPTION_HEIGHT) - i64::from(block_h)) / 2;
    for (i, line) in lines.iter().enumerate() {
        let x = (i64::from(w) - i64::from(text_width(line, scale))) / 2;
        let y = top + i as i64 * i64::from(line_h);
        draw_text_outlined(&mut out, x, y, line, scale, [255, 255, 255], [0, 0, 0]);
    }
    out
}

/// The clip's frames with their captions, as shown to agents and people.
pub fn render_clip(task: &Task, clip: &DemoClip) -> Result<Vec<Frame>, TaskError> {
    let play = play_clip(task, clip)?;
    Ok(play
        .frames
        .iter()
        .zip(&play.captions)
        .map(|(f, c)| caption_frame(f, c))
        .collect())
}

/// Total frames of a task's demonstrations (start, one per decision, outcome).
pub fn demo_frame_count(task: &Task) -> Result<usize, TaskError> {
    task.demos
        .iter()
        .map(|c| play_clip(task, c).map(|p| p.frames.len()))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_words_whole() {
        assert_eq!(
            wrap("Step 12: Action: move forward", 16),
            vec!["Step 12: Action:", "move forward"]
        );
    }

    #[test]
    fn captions_sit_in_a_black_strip_below() {
        let mut f = Frame::new(160, 160);
        f.fill([0, 255, 0]);
        let out = caption_frame(&f, "Step 3: Action: move forward");
        assert_eq!((out.width(), out.height()), (160, 200));
        assert_eq!(out.get(5, 100), Some([0, 255, 0]));
        assert_eq!(out.get(0, 199), Some([0, 0, 0]));
        let white = (160..200)
            .flat_map(|y| (0..160).map(move |x| (x, y)))
            .filter(|&(x, y)| out.get(x, y) == Some([255, 255, 255]))
            .count();
        assert!(white > 100, "{white} white caption pixels");
        let wide = caption_frame(&Frame::new(600, 400), "Start State");
        let white = (400..440)
            .flat_map(|y| (0..600).map(move |x| (x, y)))
            .filter(|&(x, y)| wide.get(x, y) == Some([255, 255, 255]))
            .count();
        assert!(white > 200);
    }
}
