//! GameVerse's transport retries on one deterministic schedule (docs/gameverse.md,
//! "Harness"). The reference's OpenAI path (the one every open game's config uses) makes
//! up to 5 attempts with a uniformly random wait of 1-10 s before each retry, and its run
//! dies after the fifth failure. A random wait cannot be replayed, so each retry waits the
//! mean of that range, 5.5 s, or the server's `Retry-After` when it asks for longer
//! (capped like every protocol's wait); after the fifth failed attempt the episode ends as
//! an API error. Errors a retry cannot mend (a refused key, an unknown model, a model
//! without images, a context overflow) end it at once.

use crate::protocol::providers::ErrorKind;
use crate::protocol::retry::MAX_DELAY_MS;

/// Attempts of one request, the first included.
pub const ATTEMPTS: u32 = 5;
/// The wait before each retry: the mean of the reference's uniform 1-10 s.
pub const WAIT_MS: u64 = 5_500;

/// The wait before the next attempt after a failure of `kind`, when `retries_made`
/// retries of the request were made already; `None` when the request is given up.
pub fn wait_before_retry(kind: &ErrorKind, retries_made: u32) -> Option<u64> {
    match kind {
        ErrorKind::Auth
        | ErrorKind::UnknownModel
        | ErrorKind::NoImages
        | ErrorKind::ContextOverflow => None,
        _ if retries_made + 1 >= ATTEMPTS => None,
        ErrorKind::RateLimited {
            retry_after_s: Some(s),
        } => Some(
            s.saturating_mul(1_000)
                .clamp(WAIT_MS, MAX_DELAY_MS.max(WAIT_MS)),
        ),
        _ => Some(WAIT_MS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_retries_five_and_a_half_seconds_apart() {
        let waits: Vec<Option<u64>> = (0..5)
            .map(|r| wait_before_retry(&ErrorKind::Transport, r))
            .collect();
        assert_eq!(
            waits,
            [Some(5_500), Some(5_500), Some(5_500), Some(5_500), None]
        );
        let later = ErrorKind::RateLimited {
            retry_after_s: Some(20),
        };
        assert_eq!(wait_before_retry(&later, 0), Some(20_000));
        let sooner = ErrorKind::RateLimited {
            retry_after_s: Some(1),
        };
        assert_eq!(wait_before_retry(&sooner, 0), Some(5_500));
        let huge = ErrorKind::RateLimited {
            retry_after_s: Some(u64::MAX),
        };
        assert_eq!(wait_before_retry(&huge, 0), Some(MAX_DELAY_MS));
        for fatal in [
            ErrorKind::Auth,
            ErrorKind::UnknownModel,
            ErrorKind::NoImages,
            ErrorKind::ContextOverflow,
        ] {
            assert_eq!(wait_before_retry(&fatal, 0), None, "{fatal:?}");
        }
    }
}
