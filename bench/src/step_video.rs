//! An episode's step video (`docs/gameverse.md`, "Step videos"): the frames the agent
//! received after each of its decisions, one video frame per decision at 2 fps, as
//! GameVerse's runner writes `obs_video.mp4` (the start state is not in it). Its
//! reflection and its milestone judge read this video; endpoints that take images only
//! get the frames as a list with a `(Displayed k frames)` marker after every few, and
//! when a list is longer than the endpoint takes, the sampling rate is halved (first and
//! last frame kept) until it fits.
//!
//! Frames are re-simulated from the record, never stored.

use envs::{Env, Frame};

use crate::latency::RecordReplay;
use crate::protocol::prompt::{ImageRef, Part};
use crate::protocol::providers::EncodedImage;
use crate::{EpisodeRecord, EpisodeRunner, Task};

/// Video frames per second of a step video (one decision per frame).
pub const STEP_VIDEO_FPS: u32 = 2;

/// The environment after each decision of `record` (`[k]` after decision k + 1), found
/// by playing the record again from the task's start as it was played
/// (`crate::latency::RecordReplay`: a model's real-time record on its thinking times);
/// an error names the first decision that does not replay.
pub fn decision_states(task: &Task, record: &EpisodeRecord) -> Result<Vec<Box<dyn Env>>, String> {
    if record.task != task.id {
        return Err(format!(
            "the episode is of task {:?}, not {:?}",
            record.task, task.id
        ));
    }
    let mut runner = EpisodeRunner::start(task).map_err(|e| e.to_string())?;
    let mut replay = RecordReplay::new(&runner, record);
    let mut states = Vec::with_capacity(record.decisions.len());
    for (i, d) in record.decisions.iter().enumerate() {
        replay
            .play(&mut runner, i, d, |r| {
                r.apply_text(&d.action, d.raw.clone(), d.rejected.clone())
                    .map(|_| ())
            })
            .map_err(|e| format!("decision {}: {e}", i + 1))?;
        states.push(runner.env().clone_box());
    }
    Ok(states)
}

/// The step video's frames: the frame after each decision.
pub fn step_frames(task: &Task, record: &EpisodeRecord) -> Result<Vec<Frame>, String> {
    Ok(decision_states(task, record)?
        .iter()
        .map(|env| {
            let mut f = Frame::default();
            env.render(&mut f);
            f
        })
        .collect())
}

/// The step video as one WebM at [`STEP_VIDEO_FPS`] (endpoints that take video;
/// `crate::video`).
pub fn step_video_webm(frames: &[Frame]) -> Result<EncodedImage, String> {
    crate::video::webm_video(frames, f64::from(STEP_VIDEO_FPS))
}

/// The frames GameVerse's frame extraction keeps of a video of `total` frames at
/// `video_fps` when it samples at `sample_fps`: every `⌊video_fps / sample_fps⌋`-th
/// (at least every one), from the first.
pub fn sample_every(total: usize, video_fps: f64, sample_fps: f64) -> Vec<usize> {
    let interval = if sample_fps > 0.0 && video_fps.is_finite() {
        (video_fps / sample_fps).floor().max(1.0) as usize
    } else {
        1
    };
    (0..total).step_by(interval).collect()
}

/// `indices` at half the rate: every other one, the last always kept.
pub fn halve(indices: &[usize]) -> Vec<usize> {
    let Some(&last) = indices.last() else {
        return Vec::new();
    };
    let mut halved: Vec<usize> = indices.iter().copied().step_by(2).collect();
    if halved.last() != Some(&last) {
        halved.push(last);
    }
    if halved.len() >= indices.len() && indices.len() > 2 {
        // Three frames cannot halve further with both ends kept.
        halved = vec![indices[0], last];
    }
    halved
}

/// `indices` halved (see [`halve`]) until at most `budget` remain. A budget under two
/// keeps the first (and nothing of an empty list).
pub fn fit_to_budget(mut indices: Vec<usize>, budget: usize) -> Vec<usize> {
    while indices.len() > budget.max(1) {
        if budget <= 1 || indices.len() <= 2 {
            indices.truncate(budget.max(1));
            break;
        }
        indices = halve(&indices);
    }
    indices
}

/// Images in order with GameVerse's progress marker `(Displayed k frames)` after every
/// `marker_every`-th (each a text item of its own, as the reference sends them).
pub fn with_markers(images: impl IntoIterator<Item = ImageRef>, marker_every: usize) -> Vec<Part> {
    let mut parts = Vec::new();
    for (i, r) in images.into_iter().enumerate() {
        parts.push(Part::Image(r));
        if marker_every > 0 && (i + 1) % marker_every == 0 {
            parts.push(Part::TextBlock(format!("(Displayed {} frames)", i + 1)));
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::RandomAgent;
    use crate::run_episode;

    #[test]
    fn step_frames_are_the_frames_after_each_decision() {
        let suite = crate::suites::latest("gameverse").unwrap();
        let task = suite.task("maze-s1").unwrap();
        let record = run_episode(task, &mut RandomAgent::new(5)).unwrap();
        let frames = step_frames(task, &record).unwrap();
        assert_eq!(frames.len(), record.decisions.len());
        let hashes: Vec<String> = frames
            .iter()
            .map(|f| format!("{:016x}", f.hash()))
            .collect();
        let recorded: Vec<&str> = record
            .decisions
            .iter()
            .map(|d| d.frame_hash.as_str())
            .collect();
        assert_eq!(hashes, recorded);
        let mut other = record.clone();
        other.task = "maze-s2".into();
        assert!(step_frames(task, &other).unwrap_err().contains("maze-s2"));
    }

    #[test]
    fn sampling_follows_the_reference_extraction() {
        // A 2 fps video sampled at one frame per 2 s keeps every fourth frame.
        assert_eq!(sample_every(10, 2.0, 0.5), vec![0, 4, 8]);
        assert_eq!(sample_every(3, 0.5, 0.5), vec![0, 1, 2]);
        assert_eq!(sample_every(3, 0.25, 0.5), vec![0, 1, 2]);
        assert_eq!(sample_every(0, 2.0, 0.5), Vec::<usize>::new());
    }

    #[test]
    fn halving_keeps_the_ends_and_fits() {
        let all: Vec<usize> = (0..10).collect();
        assert_eq!(fit_to_budget(all.clone(), 10), all);
        assert_eq!(fit_to_budget(all.clone(), 6), vec![0, 2, 4, 6, 8, 9]);
        assert_eq!(fit_to_budget(all.clone(), 4), vec![0, 4, 8, 9]);
        assert_eq!(fit_to_budget(all.clone(), 3), vec![0, 8, 9]);
        assert_eq!(fit_to_budget(all.clone(), 2), vec![0, 9]);
        assert_eq!(fit_to_budget(all, 0), vec![0]);
        assert_eq!(fit_to_budget(Vec::new(), 3), Vec::<usize>::new());
        for n in 1..200 {
            for budget in 1..20 {
                let kept = fit_to_budget((0..n).collect(), budget);
                assert!(kept.len() <= budget.max(1) && kept[0] == 0, "{n} {budget}");
                if budget >= 2 {
                    assert_eq!(kept.last(), Some(&(n - 1)), "{n} {budget}");
                }
            }
        }
    }

    #[test]
    fn markers_follow_every_tenth_image() {
        let parts = with_markers((0..21).map(|step| ImageRef::Current { step }), 10);
        assert_eq!(parts.len(), 23);
        assert_eq!(parts[10], Part::TextBlock("(Displayed 10 frames)".into()));
        assert_eq!(parts[21], Part::TextBlock("(Displayed 20 frames)".into()));
        assert_eq!(parts[22], Part::Image(ImageRef::Current { step: 20 }));
    }
}
