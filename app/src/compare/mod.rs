//! Comparing results files: groups, confidence intervals, paired differences.
