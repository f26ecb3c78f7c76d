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
    let mut replay = ClipReplay::start(task, clip)?;
    let (mut frames, mut captions) = (Vec::new(), Vec::new());
    while let Some((frame, caption)) = replay.next_frame()? {
        frames.push(frame);
        captions.push(caption);
    }
    Ok(ClipPlay {
        frames,
        captions,
        outcome: replay.outcome().unwrap_or(Outcome::TimeOut),
    })
}

/// How many frames [`play_clip`] gives for `clip`, from a replay that draws none.
pub fn clip_frame_count(task: &Task, clip: &DemoClip) -> Result<usize, TaskError> {
    let mut count = ClipWalk::start(task, clip, false)?;
    while count.step()? {}
    Ok(count.frames())
}

/// A clip's decisions replayed one at a time under the task's rules (frame skip, no-op
/// fill): drawn for [`ClipReplay`], or drawing nothing to count the frames.
struct ClipWalk {
    runner: EpisodeRunner,
    actions: Vec<String>,
    played: usize,
}

impl ClipWalk {
    fn start(task: &Task, clip: &DemoClip, drawn: bool) -> Result<Self, TaskError> {
        let runner = clip_runner(task, clip)?;
        Ok(Self {
            runner: if drawn {
                runner.unhashed()
            } else {
                runner.undrawn()
            },
            actions: clip.actions.clone(),
            played: 0,
        })
    }

    /// Replays one more decision; `false` once the clip is over.
    fn step(&mut self) -> Result<bool, TaskError> {
        match self.actions.get(self.played) {
            Some(name) if !self.runner.is_done() => {
                apply(&mut self.runner, self.played, name)?;
                self.played += 1;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The start, one frame per decision, the outcome.
    fn frames(&self) -> usize {
        self.played + 2
    }
}

/// The runner a clip is replayed on: the task's rules with the clip's budget, skip,
/// seed and prefix.
fn clip_runner(task: &Task, clip: &DemoClip) -> Result<EpisodeRunner, TaskError> {
    let mut t = task.clone();
    t.max_steps = clip.actions.len().max(1) as u32;
    t.init_skip = clip.init_skip.unwrap_or(t.init_skip);
    if let Some(kwargs) = &clip.kwargs {
        t.kwargs = kwargs.clone();
    }
    EpisodeRunner::start_from(&t, clip.seed, &clip.prefix)
}

fn apply(runner: &mut EpisodeRunner, i: usize, name: &str) -> Result<(), TaskError> {
    runner
        .apply_text(name, None, Vec::new())
        .map(|_| ())
        .map_err(|e| TaskError {
            field: format!("demos.actions[{i}]"),
            message: e.to_string(),
        })
}

/// A clip replayed a frame at a time, so that a caller draws only the frames it needs
/// when it needs them (a model episode draws and encodes them a piece of work at a time
/// before its first request: `crate::model_episode`).
pub struct ClipReplay {
    walk: ClipWalk,
    /// The last frame given (the outcome frame repeats it).
    last: Option<Frame>,
    outcome: Option<Outcome>,
}

impl ClipReplay {
    pub fn start(task: &Task, clip: &DemoClip) -> Result<Self, TaskError> {
        Ok(Self {
            walk: ClipWalk::start(task, clip, true)?,
            last: None,
            outcome: None,
        })
    }

    /// The next frame (without its caption strip) and its caption: the start, one per
    /// decision, then the outcome on a copy of the last; `None` after that.
    pub fn next_frame(&mut self) -> Result<Option<(Frame, String)>, TaskError> {
        if self.outcome.is_some() {
            return Ok(None);
        }
        let runner = &self.walk.runner;
        if self.last.is_none() {
            let mut frame = Frame::default();
            runner.env().render(&mut frame);
            self.last = Some(frame.clone());
            return Ok(Some((frame, "Start State".to_string())));
        }
        if self.walk.step()? {
            let runner = &self.walk.runner;
            // The runner draws the frame after each decision: taken, not drawn again.
            let frame = match runner.current_frame() {
                Some(drawn) => drawn.clone(),
                None => {
                    let mut frame = Frame::default();
                    runner.env().render(&mut frame);
                    frame
                }
            };
            self.last = Some(frame.clone());
            let i = self.walk.played - 1;
            let caption = format!("Step {}: Action: {}", i + 1, self.walk.actions[i]);
            return Ok(Some((frame, caption)));
        }
        let frame = self.last.clone().unwrap_or_default();
        let p = self.walk.runner.progress();
        let outcome = if p.draw {
            Outcome::Draw
        } else if p.success {
            Outcome::Victory
        } else if p.terminated {
            Outcome::Terminated
        } else {
            Outcome::TimeOut
        };
        self.outcome = Some(outcome);
        Ok(Some((frame, outcome.label().to_string())))
    }

    /// How the clip ended, once its last frame was given.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
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
    task.demos.iter().map(|c| clip_frame_count(task, c)).sum()
}

/// A task's demonstrations as captioned frames ([`render_clip`]'s), each clip drawn
/// only as far as asked and counted a decision at a time: a model episode's first
/// request counts and draws them a slice of work at a time, and an episode whose
/// images another episode of the task already encoded draws none (drawing them all up
/// front held the page for 50-170 ms per episode in Chromium; issue 17's model turns,
/// `docs/environments.md`).
pub struct DemoReels {
    /// Per clip, its frame count or the replay counting it.
    counts: Vec<Count>,
    drawn: Vec<Vec<Frame>>,
    /// The replays still drawing (`None` once a clip is whole).
    replays: Vec<Option<ClipReplay>>,
}

enum Count {
    Counting(Box<ClipWalk>),
    Counted(usize),
}

impl DemoReels {
    /// Makes the clips' environments; nothing is replayed yet.
    pub fn new(task: &Task) -> Result<Self, TaskError> {
        let counts = task
            .demos
            .iter()
            .map(|c| ClipWalk::start(task, c, false).map(|c| Count::Counting(Box::new(c))))
            .collect::<Result<Vec<_>, _>>()?;
        let replays = task
            .demos
            .iter()
            .map(|c| ClipReplay::start(task, c).map(Some))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            drawn: vec![Vec::new(); counts.len()],
            counts,
            replays,
        })
    }

    /// How many clips there are.
    pub fn clips(&self) -> usize {
        self.counts.len()
    }

    /// Frames per clip, once every clip is counted.
    pub fn counts(&self) -> Option<Vec<usize>> {
        self.counts
            .iter()
            .map(|c| match c {
                Count::Counted(n) => Some(*n),
                Count::Counting(_) => None,
            })
            .collect()
    }

    /// Counts one more decision of the first clip not yet counted; `false` when every
    /// clip is counted.
    pub fn count_step(&mut self) -> Result<bool, String> {
        for count in &mut self.counts {
            if let Count::Counting(c) = count {
                if c.step().map_err(|e| e.to_string())? {
                    return Ok(true);
                }
                *count = Count::Counted(c.frames());
            }
        }
        Ok(false)
    }

    /// Frames per clip, counting what is left.
    pub fn count_all(&mut self) -> Result<Vec<usize>, String> {
        while self.count_step()? {}
        self.counts()
            .ok_or_else(|| "the demonstrations were not counted".to_string())
    }

    /// Frames drawn so far, over all clips.
    pub fn drawn(&self) -> usize {
        self.drawn.iter().map(Vec::len).sum()
    }

    /// Whether frame `frame` of clip `clip` is drawn.
    pub fn is_drawn(&self, clip: usize, frame: usize) -> bool {
        self.drawn.get(clip).is_some_and(|d| d.len() > frame)
    }

    /// Frame `frame` of clip `clip`, drawing the clip up to it.
    pub fn frame(&mut self, clip: usize, frame: usize) -> Result<&Frame, String> {
        let missing = || format!("no frame {frame} in demonstration {clip}");
        let (Some(drawn), Some(replay)) = (self.drawn.get_mut(clip), self.replays.get_mut(clip))
        else {
            return Err(missing());
        };
        while drawn.len() <= frame {
            let next = match replay.as_mut() {
                Some(r) => r.next_frame().map_err(|e| e.to_string())?,
                None => None,
            };
            match next {
                Some((f, caption)) => drawn.push(caption_frame(&f, &caption)),
                None => {
                    *replay = None;
                    return Err(missing());
                }
            }
        }
        drawn.get(frame).ok_or_else(missing)
    }

    /// Every clip's frames, drawing what is left.
    pub fn all(&mut self) -> Result<&[Vec<Frame>], String> {
        for (clip, count) in self.count_all()?.into_iter().enumerate() {
            if count > 0 {
                self.frame(clip, count - 1)?;
            }
        }
        Ok(&self.drawn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clip's frames the way they were drawn before replays took each decision's
    /// own drawing: every frame drawn afresh after its decision.
    fn drawn_afresh(task: &Task, clip: &DemoClip) -> Vec<Frame> {
        let mut runner = clip_runner(task, clip).unwrap();
        let draw = |r: &EpisodeRunner| {
            let mut f = Frame::default();
            r.env().render(&mut f);
            f
        };
        let mut frames = vec![draw(&runner)];
        for (i, name) in clip.actions.iter().enumerate() {
            if runner.is_done() {
                break;
            }
            apply(&mut runner, i, name).unwrap();
            frames.push(draw(&runner));
        }
        frames.push(frames[frames.len() - 1].clone());
        frames
    }

    #[test]
    fn replays_give_the_frames_drawn_afresh_and_reels_draw_in_any_order() {
        let suite = crate::suites::latest("vical").unwrap();
        let mut envs = std::collections::BTreeSet::new();
        // One task per environment of the suite (Atari's need ROMs we do not ship).
        let playable = suite.tasks.iter().filter(|t| t.make_env().is_ok());
        for task in playable.filter(|t| envs.insert(t.env.clone())) {
            let plays: Vec<ClipPlay> = task
                .demos
                .iter()
                .map(|c| play_clip(task, c).unwrap())
                .collect();
            for (clip, play) in task.demos.iter().zip(&plays) {
                assert_eq!(play.frames, drawn_afresh(task, clip), "{}", task.id);
                assert_eq!(clip_frame_count(task, clip).unwrap(), play.frames.len());
            }
            // Last frames first, clips in reverse: the same captioned frames.
            let mut reels = DemoReels::new(task).unwrap();
            assert_eq!(reels.drawn(), 0);
            assert_eq!(reels.counts(), None, "nothing replayed yet");
            let counts: Vec<usize> = plays.iter().map(|p| p.frames.len()).collect();
            assert_eq!(reels.count_all().unwrap(), counts, "{}", task.id);
            assert_eq!(reels.drawn(), 0, "counting draws nothing");
            for (clip, play) in plays.iter().enumerate().rev() {
                for (k, (f, caption)) in play.frames.iter().zip(&play.captions).enumerate().rev() {
                    assert_eq!(*reels.frame(clip, k).unwrap(), caption_frame(f, caption));
                }
                assert!(
                    reels.frame(clip, play.frames.len()).is_err(),
                    "past the end"
                );
            }
            let whole: Vec<Vec<Frame>> = task
                .demos
                .iter()
                .map(|c| render_clip(task, c).unwrap())
                .collect();
            assert_eq!(reels.all().unwrap(), whole.as_slice(), "{}", task.id);
        }
        assert!(envs.len() > 10, "{envs:?}");
    }

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
