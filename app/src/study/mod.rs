//! Human studies: the study link, a participant's progress and results.
