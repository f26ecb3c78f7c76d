//! Model runs: endpoint profiles, the fetch-free parts of a run, suite runs and their results.
