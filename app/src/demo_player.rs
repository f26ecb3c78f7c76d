//! The task page's demonstration player: the clip's captioned frames (replayed once,
//! captioned lazily and cached) and a play/pause/seek/speed state machine advanced by
//! `tick(ms)`. The page only drives a timer and draws the current frame.

use bench::demo::{caption_frame, play_clip, ClipPlay, Outcome};
use bench::{DemoClip, Task, TaskError};
use envs::Frame;

/// Playback speeds, in frames per second of agent decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    Half,
    /// One frame per decision per second, as V-ICAL samples its demonstrations.
    #[default]
    One,
    Two,
    Four,
}

impl Speed {
    pub const ALL: [Speed; 4] = [Speed::Half, Speed::One, Speed::Two, Speed::Four];

    pub fn fps(self) -> f64 {
        match self {
            Self::Half => 0.5,
            Self::One => 1.0,
            Self::Two => 2.0,
            Self::Four => 4.0,
        }
    }

    /// Milliseconds per frame.
    pub fn interval_ms(self) -> f64 {
        1000.0 / self.fps()
    }

    /// "0.5", "1", "2", "4" (also the `<select>` option values).
    pub fn label(self) -> &'static str {
        match self {
            Self::Half => "0.5",
            Self::One => "1",
            Self::Two => "2",
            Self::Four => "4",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.label() == text.trim())
    }
}

/// Where playback stands. Reaching the last frame pauses; playing again from there
/// starts over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    len: usize,
    pos: usize,
    playing: bool,
    speed: Speed,
    /// Time accumulated toward the next frame.
    carry_ms: f64,
}

/// The longest time step `tick` takes into account (a throttled background tab would
/// otherwise jump to the end at once).
const MAX_TICK_MS: f64 = 1000.0;

impl Player {
    /// A paused player on the first of `len` frames, at 1 FPS.
    pub fn new(len: usize) -> Self {
        Self {
            len,
            pos: 0,
            playing: false,
            speed: Speed::default(),
            carry_ms: 0.0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The frame shown, from 0.
    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn playing(&self) -> bool {
        self.playing
    }

    pub fn speed(&self) -> Speed {
        self.speed
    }

    pub fn at_end(&self) -> bool {
        self.pos + 1 >= self.len
    }

    pub fn play(&mut self) {
        if self.len < 2 {
            return;
        }
        if self.at_end() {
            self.pos = 0;
        }
        self.playing = true;
        self.carry_ms = 0.0;
    }

    pub fn pause(&mut self) {
        self.playing = false;
        self.carry_ms = 0.0;
    }

    pub fn toggle(&mut self) {
        if self.playing {
            self.pause();
        } else {
            self.play();
        }
    }

    /// One frame on (pauses).
    pub fn step_forward(&mut self) {
        self.pause();
        self.seek(self.pos + 1);
    }

    /// One frame back (pauses).
    pub fn step_back(&mut self) {
        self.pause();
        self.seek(self.pos.saturating_sub(1));
    }

    /// Shows frame `pos` (clamped); playback continues from there if it was playing.
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.len.saturating_sub(1));
        self.carry_ms = 0.0;
        if self.playing && self.at_end() {
            self.playing = false;
        }
    }

    pub fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
        self.carry_ms = self.carry_ms.min(speed.interval_ms());
    }

    /// Lets `ms` milliseconds pass; returns whether the frame changed.
    pub fn tick(&mut self, ms: f64) -> bool {
        if !self.playing || ms.is_nan() || ms <= 0.0 {
            return false;
        }
        self.carry_ms += ms.min(MAX_TICK_MS);
        let interval = self.speed.interval_ms();
        let start = self.pos;
        while self.carry_ms >= interval && self.playing {
            self.carry_ms -= interval;
            self.pos += 1;
            if self.at_end() {
                self.pause();
            }
        }
        self.pos != start
    }

    /// "Frame 3 of 25".
    pub fn counter_text(&self) -> String {
        format!("Frame {} of {}", self.pos + 1, self.len)
    }

    /// Applies a player key: Space plays or pauses, ← and → step, Home and End jump.
    pub fn press_key(&mut self, key: &str) -> bool {
        match key {
            " " | "Spacebar" => self.toggle(),
            "ArrowLeft" => self.step_back(),
            "ArrowRight" => self.step_forward(),
            "Home" => {
                self.pause();
                self.seek(0);
            }
            "End" => {
                self.pause();
                self.seek(self.len);
            }
            _ => return false,
        }
        true
    }
}

/// A clip replayed once: its frames, captioned on first display and kept.
pub struct ClipFrames {
    label: String,
    frames: Vec<Frame>,
    captions: Vec<String>,
    captioned: Vec<bool>,
    outcome: Outcome,
}

impl ClipFrames {
    pub fn new(task: &Task, clip: &DemoClip) -> Result<Self, TaskError> {
        Ok(Self::from_play(&clip.label, play_clip(task, clip)?))
    }

    pub fn from_play(label: &str, play: ClipPlay) -> Self {
        let n = play.frames.len();
        Self {
            label: label.to_string(),
            frames: play.frames,
            captions: play.captions,
            captioned: vec![false; n],
            outcome: play.outcome,
        }
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// Decisions the clip plays (frames minus the start and the outcome copy).
    pub fn decisions(&self) -> usize {
        self.len().saturating_sub(2)
    }

    pub fn caption(&self, i: usize) -> Option<&str> {
        self.captions.get(i).map(String::as_str)
    }

    /// The size of a captioned frame.
    pub fn size(&self) -> (u32, u32) {
        self.frames.first().map_or((0, 0), |f| {
            (
                f.width(),
                f.height() + bench::demo::CAPTION_HEIGHT * u32::from(!self.captioned[0]),
            )
        })
    }

    /// Frame `i` with its caption strip (drawn the first time, then cached).
    pub fn frame(&mut self, i: usize) -> Option<&Frame> {
        if !*self.captioned.get(i)? {
            self.frames[i] = caption_frame(&self.frames[i], &self.captions[i]);
            self.captioned[i] = true;
        }
        self.frames.get(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task_text::tests::lake_task;
    use bench::demo::render_clip;

    #[test]
    fn plays_at_one_frame_per_second_and_stops_at_the_end() {
        let mut p = Player::new(4);
        assert_eq!(p.counter_text(), "Frame 1 of 4");
        assert!(!p.playing());
        assert!(!p.tick(5000.0), "a paused player does not move");
        p.play();
        assert!(!p.tick(999.0));
        assert!(p.tick(1.0));
        assert_eq!(p.pos(), 1);
        assert!(p.tick(1000.0));
        assert_eq!(p.pos(), 2);
        assert!(p.tick(1000.0));
        assert_eq!(p.pos(), 3);
        assert!(!p.playing(), "the last frame pauses");
        assert!(p.at_end());
        assert!(!p.tick(1000.0));
        // Playing from the end starts over.
        p.toggle();
        assert!(p.playing());
        assert_eq!(p.pos(), 0);
        p.toggle();
        assert!(!p.playing());
    }

    #[test]
    fn speeds_change_the_interval() {
        let mut p = Player::new(20);
        p.set_speed(Speed::Four);
        p.play();
        assert!(p.tick(250.0));
        assert_eq!(p.pos(), 1);
        // Several frames in one long tick, capped at one second's worth.
        p.tick(600.0);
        assert_eq!(p.pos(), 3);
        p.tick(60_000.0);
        assert_eq!(p.pos(), 7);
        p.set_speed(Speed::Half);
        assert!(!p.tick(1800.0));
        assert_eq!(p.pos(), 7);
        assert_eq!(Speed::parse("0.5"), Some(Speed::Half));
        assert_eq!(Speed::parse("3"), None);
        assert_eq!(Speed::default().label(), "1");
        assert_eq!(Speed::ALL.map(Speed::fps), [0.5, 1.0, 2.0, 4.0]);
    }

    #[test]
    fn stepping_and_seeking() {
        let mut p = Player::new(5);
        p.play();
        p.step_forward();
        assert!(!p.playing(), "stepping pauses");
        assert_eq!(p.pos(), 1);
        p.step_back();
        p.step_back();
        assert_eq!(p.pos(), 0);
        p.seek(99);
        assert_eq!(p.pos(), 4);
        p.step_forward();
        assert_eq!(p.pos(), 4);
        p.play();
        p.seek(2);
        assert!(p.playing(), "seeking keeps playing");
        p.seek(4);
        assert!(!p.playing(), "seeking to the end stops");
        assert!(p.press_key("Home"));
        assert_eq!(p.pos(), 0);
        assert!(p.press_key("End"));
        assert_eq!(p.pos(), 4);
        assert!(p.press_key("ArrowLeft"));
        assert_eq!(p.pos(), 3);
        assert!(p.press_key(" "));
        assert!(p.playing());
        assert!(!p.press_key("x"));
        // Degenerate players never play.
        let mut one = Player::new(1);
        one.play();
        assert!(!one.playing());
        let mut none = Player::new(0);
        none.seek(3);
        assert_eq!(none.pos(), 0);
        assert!(none.is_empty());
    }

    #[test]
    fn clip_frames_are_the_captioned_clip() {
        let task = lake_task();
        let clip = &task.demos[0];
        let mut frames = ClipFrames::new(&task, clip).unwrap();
        // Start, six moves, the outcome copy.
        assert_eq!(frames.len(), 8);
        assert_eq!(frames.decisions(), 6);
        assert_eq!(frames.outcome(), Outcome::Victory);
        assert_eq!(frames.caption(0), Some("Start State"));
        assert_eq!(frames.caption(1), Some("Step 1: Action: Down"));
        assert_eq!(frames.caption(7), Some("Victory"));
        assert_eq!(frames.size(), (256, 296));
        let reference = render_clip(&task, clip).unwrap();
        for i in [3, 0, 7, 3] {
            assert_eq!(frames.frame(i), Some(&reference[i]), "frame {i}");
        }
        assert_eq!(frames.size(), (256, 296));
        assert!(frames.frame(8).is_none());
        let fail = ClipFrames::new(&task, &task.demos[1]).unwrap();
        assert_eq!(fail.outcome(), Outcome::Terminated);
        assert_eq!(fail.caption(3), Some("Terminated"));
        assert_eq!(fail.label(), "a failure");
    }
}
