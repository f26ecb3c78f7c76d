//! What the GameVerse conversation goldens' replays share (`tests/golden/gameverse/
//! conversation.py` and `memory_conversation.py`): the task of a recorded run, a scripted
//! endpoint, frames named by the step they show, requests in the golden's form.

use bench::model_episode::FrameEncoder;
use bench::protocol::endpoint::Endpoint;
use bench::protocol::providers::{EncodedImage, Provider, Sampling};
use bench::Task;
use envs::Frame;
use serde_json::{json, Value};

/// Names each encoded frame by the order it was encoded in: the episode encodes each
/// step's current frame once and takes earlier ones from its cache, so the k-th frame
/// encoded is the state after k actions.
pub struct StepTag(pub u32);

impl FrameEncoder for StepTag {
    fn encode(&mut self, _frame: &Frame) -> Result<EncodedImage, String> {
        let tag = format!("step {}", self.0);
        self.0 += 1;
        Ok(EncodedImage::new("image/png", tag))
    }
}

/// The suite's task for the run's game, with the run's kwargs, seed and step cap.
pub fn task(run: &Value) -> Result<Task, String> {
    let suite = bench::suites::latest("gameverse").map_err(|e| e.to_string())?;
    let mut task = suite
        .tasks
        .iter()
        .find(|t| t.env == run["env"])
        .ok_or_else(|| format!("no task for {}", run["env"]))?
        .clone();
    task.kwargs = run["kwargs"].as_object().cloned().unwrap_or_default();
    task.seed = run["seed"].as_u64().ok_or("no seed")?;
    task.max_steps = run["max_steps"].as_u64().ok_or("no step cap")? as u32;
    task.demos.clear();
    // The action mode names the presets (GUI: the JSON key presses).
    task.actions = envs::make(&task.env, &task.kwargs)
        .map_err(|e| e.to_string())?
        .action_names();
    Ok(task)
}

/// An OpenAI-style endpoint the test answers itself.
pub fn scripted_endpoint() -> Endpoint {
    Endpoint {
        provider: Provider::OpenAi,
        base_url: "http://scripted/v1".into(),
        sampling: Sampling {
            model: "scripted".into(),
            temperature: None,
            max_output_tokens: None,
        },
        headers: Vec::new(),
    }
}

/// A request body in the golden's form: the system text and the user parts, text
/// verbatim and images by their tag.
pub fn request_form(body: &str) -> Result<Value, String> {
    let body: Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
    let messages = body["messages"].as_array().ok_or("no messages")?;
    if messages.len() != 2 || messages[0]["role"] != "system" || messages[1]["role"] != "user" {
        return Err(format!("not a system + user request: {body}"));
    }
    let user = messages[1]["content"]
        .as_array()
        .ok_or("no user parts")?
        .iter()
        .map(|p| match p["type"].as_str() {
            Some("text") => Ok(json!({"text": p["text"]})),
            _ => {
                let url = p["image_url"]["url"].as_str().ok_or("no image url")?;
                match url.split_once(',') {
                    Some(("data:image/png;base64", data)) => Ok(json!({ "image": data })),
                    _ => Err(format!("not a PNG data URL: {url}")),
                }
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(json!({"system": messages[0]["content"], "user": user}))
}

/// An OpenAI chat answer with `text`.
pub fn reply(text: &str) -> String {
    json!({"choices": [{"message": {"role": "assistant", "content": text}}]}).to_string()
}

/// The golden state's fields of a snapshot.
pub fn fields(snapshot: &Value, like: &Value) -> Value {
    let keys = like
        .as_object()
        .map(|o| o.keys().cloned().collect::<Vec<_>>());
    Value::Object(
        keys.unwrap_or_default()
            .into_iter()
            .map(|k| (k.clone(), snapshot[&k].clone()))
            .collect(),
    )
}
