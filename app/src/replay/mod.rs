//! Replaying shared episodes: the timeline, verification, comparison and forks.
