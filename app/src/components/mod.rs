//! Small view pieces shared by the pages.

pub mod action_buttons;
pub mod error_box;
pub mod frame_canvas;
pub mod keys;
pub mod share_box;
