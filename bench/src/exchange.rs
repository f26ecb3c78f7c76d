//! What every model conversation of the benchmark shares with whoever sends its
//! requests (`docs/architecture.md`, "Model conversations"): a model episode, an audit,
//! a reflect-and-retry run. Each is a plain state machine: ask it for the next request,
//! wait and send it however the platform sends things (the browser's fetch, the command
//! line's blocking client), hand back the answer. One driver per platform serves all.

use crate::encode::FrameEncoder;
use crate::protocol::endpoint::HttpRequest;
use crate::protocol::providers::ApiError;

/// What to do next.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Wait `wait_ms`, then send `request`.
    Send { request: HttpRequest, wait_ms: u64 },
    /// The conversation is over.
    Done,
}

pub trait Exchange {
    /// The next request, or `Done`.
    fn next(&mut self, enc: &mut dyn FrameEncoder, api_key: Option<&str>) -> Step;
    /// An HTTP answer to the last request: `retry_after` is the raw `Retry-After`
    /// header, `now_unix_s` the current time (for HTTP-date values).
    fn on_response(
        &mut self,
        status: u16,
        retry_after: Option<&str>,
        now_unix_s: u64,
        body: &str,
        latency_ms: f64,
        api_key: Option<&str>,
    );
    /// The last request failed without an HTTP answer (network, CORS, timeout).
    fn on_network_error(&mut self, message: &str, latency_ms: f64, api_key: Option<&str>);
    /// The last request error (key redacted), for people.
    fn last_error(&self) -> Option<&ApiError>;
    /// The caller's own time spent around the last request.
    fn add_work(&mut self, _ms: f64) {}
}

/// Implements [`Exchange`] by the type's inherent methods of the same names (and
/// `add_work` too when named).
#[macro_export]
macro_rules! exchange_by_inherent_methods {
    ($t:ty) => {
        $crate::exchange_by_inherent_methods!($t, {});
    };
    ($t:ty, add_work) => {
        $crate::exchange_by_inherent_methods!($t, {
            fn add_work(&mut self, ms: f64) {
                <$t>::add_work(self, ms)
            }
        });
    };
    ($t:ty, { $($extra:tt)* }) => {
        impl $crate::exchange::Exchange for $t {
            fn next(
                &mut self,
                enc: &mut dyn $crate::encode::FrameEncoder,
                api_key: Option<&str>,
            ) -> $crate::exchange::Step {
                <$t>::next(self, enc, api_key)
            }
            fn on_response(
                &mut self,
                status: u16,
                retry_after: Option<&str>,
                now_unix_s: u64,
                body: &str,
                latency_ms: f64,
                api_key: Option<&str>,
            ) {
                <$t>::on_response(self, status, retry_after, now_unix_s, body, latency_ms, api_key)
            }
            fn on_network_error(&mut self, message: &str, latency_ms: f64, api_key: Option<&str>) {
                <$t>::on_network_error(self, message, latency_ms, api_key)
            }
            fn last_error(&self) -> Option<&$crate::protocol::providers::ApiError> {
                <$t>::last_error(self)
            }
            $($extra)*
        }
    };
}
