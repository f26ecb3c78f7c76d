//! What a model run will send, shown before it starts: requests, images and bytes for
//! an episode played like the oracle's (the conversation replayed through the same
//! `ModelSession` the run uses) and for one that uses the whole decision budget, with
//! each image counted at the size of the task's first frame as the run encodes it.
//! Transport retries and reply retries come on top.

use bench::agents::OracleAgent;
use bench::encode::{FrameEncoder, ImageEncoder};
use bench::protocol::prompt::{Message, Part};
use bench::protocol::session::{ModelSession, Next, SessionConfig};
use bench::{run_episode, EpisodeRunner, Task};

/// Totals for one conversation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sent {
    pub requests: u32,
    pub images: u64,
    /// Base64 image data and text, in bytes (the JSON around them is small).
    pub bytes: u64,
    pub largest_request: u64,
}

impl Sent {
    fn add(&mut self, images: u64, text: u64, image_bytes: u64) {
        let bytes = images * image_bytes + text;
        self.requests += 1;
        self.images += images;
        self.bytes += bytes;
        self.largest_request = self.largest_request.max(bytes);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Played like the oracle (the fewest decisions that pass).
    pub like_oracle: Sent,
    /// Every decision of the budget used.
    pub whole_budget: Sent,
}

fn count(messages: &[Message]) -> (u64, u64) {
    let images = messages.iter().map(|m| m.images().count() as u64).sum();
    let text = messages
        .iter()
        .flat_map(|m| m.parts.iter())
        .map(|p| match p {
            Part::Text(t) => t.len() as u64,
            _ => 0,
        })
        .sum();
    (images, text)
}

/// The estimate for `task` under `config`, each image taken as `image_bytes` bytes
/// (base64). The whole budget continues the oracle's conversation: each later request
/// grows as the oracle's last one did over the one before.
pub fn estimate(task: &Task, config: SessionConfig, image_bytes: u64) -> Result<Estimate, String> {
    let oracle = run_episode(task, &mut OracleAgent::new()).map_err(|e| e.to_string())?;
    let mut runner = EpisodeRunner::start(task).map_err(|e| e.to_string())?;
    let mut session = ModelSession::new(task, config).map_err(|e| e.to_string())?;
    let mut like_oracle = Sent::default();
    let mut sizes = Vec::new();
    for d in &oracle.decisions {
        let Some(plan) = session.next_request(&runner) else {
            break;
        };
        let (images, text) = count(&plan.messages);
        like_oracle.add(images, text, image_bytes);
        sizes.push((images, text));
        match session.on_reply(&format!("[Action: {}]", d.action)) {
            Next::Decide(reply) => {
                ModelSession::settle(&mut runner, reply).map_err(|e| e.to_string())?
            }
            Next::Ask => return Err("the oracle's action was not accepted".into()),
        }
    }
    let mut whole_budget = like_oracle;
    let (mut images, mut text) = sizes.last().copied().unwrap_or((0, 0));
    let (step_images, step_text) = match sizes.as_slice() {
        [.., a, b] => (b.0.saturating_sub(a.0), b.1.saturating_sub(a.1)),
        _ => (0, 0),
    };
    for _ in sizes.len()..task.max_steps as usize {
        images += step_images;
        text += step_text;
        whole_budget.add(images, text, image_bytes);
    }
    Ok(Estimate {
        like_oracle,
        whole_budget,
    })
}

/// The estimate for `task` run with `settings`, in words: images at the size of the
/// task's first frame encoded as the run will encode it.
pub fn run_estimate_text(
    task: &Task,
    settings: &super::settings::RunSettings,
) -> Result<String, String> {
    let runner = EpisodeRunner::start(task).map_err(|e| e.to_string())?;
    let mut frame = envs::Frame::default();
    runner.env().render(&mut frame);
    let image = ImageEncoder::new(settings.image).encode(&frame)?;
    Ok(estimate(task, settings.session, image.base64.len() as u64)?.text())
}

/// Bytes in words: "812 KB", "3.4 MB".
pub fn bytes_text(n: u64) -> String {
    if n >= 1_000_000 {
        format!("{:.1} MB", n as f64 / 1_000_000.0)
    } else {
        format!("{} KB", n.div_ceil(1000))
    }
}

impl Estimate {
    /// One line for the run page.
    pub fn text(&self) -> String {
        let line = |s: &Sent| {
            format!(
                "{} requests, {} images, about {} (largest request {})",
                s.requests,
                s.images,
                bytes_text(s.bytes),
                bytes_text(s.largest_request)
            )
        };
        format!(
            "Before you start: played like the oracle, {}; using the whole budget, up to {}. \
             Retries come on top.",
            line(&self.like_oracle),
            line(&self.whole_budget)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench::protocol::session::HistoryWindow;

    #[test]
    fn the_estimate_counts_the_conversation_the_run_sends() {
        let suite = crate::suite_data::suite().unwrap();
        let task = suite.task("frozenlake-4x4-det-s0").unwrap();
        let config = SessionConfig::default();
        let e = estimate(task, config, 1000).unwrap();
        let oracle = run_episode(task, &mut OracleAgent::new()).unwrap();
        assert_eq!(e.like_oracle.requests as usize, oracle.decisions.len());
        assert_eq!(e.whole_budget.requests, task.max_steps);
        assert!(e.whole_budget.images > e.like_oracle.images);
        assert!(e.like_oracle.bytes >= e.like_oracle.images * 1000);
        assert!(e.whole_budget.largest_request >= e.like_oracle.largest_request);
        // A history window of one keeps later requests from growing.
        let windowed = SessionConfig {
            history: HistoryWindow::Last(1),
            ..config
        };
        let w = estimate(task, windowed, 1000).unwrap();
        assert!(w.whole_budget.images < e.whole_budget.images);
        assert!(e
            .text()
            .starts_with("Before you start: played like the oracle, "));
        let words =
            run_estimate_text(task, &crate::runner::settings::RunSettings::default()).unwrap();
        assert!(
            words.contains(&format!("{} requests", task.max_steps)),
            "{words}"
        );
        assert_eq!(bytes_text(812_300), "813 KB");
        assert_eq!(bytes_text(3_400_000), "3.4 MB");
    }
}
