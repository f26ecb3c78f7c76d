//! VisGym's synthetic puzzles (Maze 2D/3D, Sliding Block, Matchstick Equation and
//! Rotation, Patch Reassembly, Mental Rotation 3D Cube), seed for seed with the
//! reference, including its text actions, validation and feedback.

pub mod python;
