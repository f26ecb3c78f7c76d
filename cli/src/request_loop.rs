//! The blocking loop that drives the milestone judge's state machine
//! (`bench::judge::run::JudgeRun`): ask for the next request, wait as told, send it,
//! hand back the answer; the last endpoint error is reported on stderr before each
//! retry. (The conversation surface on the `reflect` branch, `bench::exchange` with
//! `endpoint::converse`, replaces this file when both are on main.)

use bench::encode::{FrameEncoder, ImageEncoder};
use bench::judge::run::{JudgeRun, JudgeStep};
use bench::protocol::endpoint::HttpRequest;
use bench::protocol::providers::ApiError;
use bench::protocol::retry::MAX_TRANSPORT_RETRIES;

use crate::endpoint::{send, unix_now, EndpointConfig};

/// A state machine that asks one request at a time.
pub trait Requests {
    /// The next request and the wait before it, or `None` when done.
    fn next_request(
        &mut self,
        enc: &mut dyn FrameEncoder,
        key: Option<&str>,
    ) -> Option<(HttpRequest, u64)>;
    fn on_response(
        &mut self,
        status: u16,
        retry_after: Option<&str>,
        now_unix_s: u64,
        body: &str,
        latency_ms: f64,
        key: Option<&str>,
    );
    fn on_network_error(&mut self, message: &str, latency_ms: f64, key: Option<&str>);
    fn last_error(&self) -> Option<&ApiError>;
}

/// Runs `machine` to the end; `who` names the model in retry messages, `progress` is
/// called before each request and at the end.
pub fn drive<M: Requests>(
    machine: &mut M,
    config: &EndpointConfig,
    who: &str,
    mut progress: impl FnMut(&M),
) {
    let mut encoder = ImageEncoder::new(config.image);
    let key = config.api_key.as_deref();
    loop {
        progress(machine);
        let Some((request, wait_ms)) = machine.next_request(&mut encoder, key) else {
            break;
        };
        if wait_ms > 0 {
            if let Some(e) = machine.last_error() {
                eprintln!(
                    "playbench: {who}: {} (retrying in {} s, at most {MAX_TRANSPORT_RETRIES} times)",
                    e.message,
                    wait_ms.div_ceil(1000)
                );
            }
        }
        let (answer, latency) = send(&request, wait_ms, config.timeout);
        match answer {
            Ok(response) => {
                let body = String::from_utf8_lossy(&response.body);
                machine.on_response(
                    response.status,
                    response.header("retry-after"),
                    unix_now(),
                    &body,
                    latency,
                    key,
                );
            }
            Err(message) => machine.on_network_error(&message, latency, key),
        }
    }
    progress(machine);
}

macro_rules! requests_for {
    ($run:ty, $step:ident) => {
        impl Requests for $run {
            fn next_request(
                &mut self,
                enc: &mut dyn FrameEncoder,
                key: Option<&str>,
            ) -> Option<(HttpRequest, u64)> {
                match self.next(enc, key) {
                    $step::Send { request, wait_ms } => Some((request, wait_ms)),
                    $step::Done => None,
                }
            }
            fn on_response(
                &mut self,
                status: u16,
                retry_after: Option<&str>,
                now_unix_s: u64,
                body: &str,
                latency_ms: f64,
                key: Option<&str>,
            ) {
                <$run>::on_response(self, status, retry_after, now_unix_s, body, latency_ms, key)
            }
            fn on_network_error(&mut self, message: &str, latency_ms: f64, key: Option<&str>) {
                <$run>::on_network_error(self, message, latency_ms, key)
            }
            fn last_error(&self) -> Option<&ApiError> {
                <$run>::last_error(self)
            }
        }
    };
}

requests_for!(JudgeRun, JudgeStep);
