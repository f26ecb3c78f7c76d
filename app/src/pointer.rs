//! Pointer input on a frame shown at some display scale: page coordinates become frame
//! pixels, and a press and release become the environment's [`Gesture`] (a click or a
//! drag) as its [`PointerMode`] allows. Plain logic; the frame component feeds it.

use envs::core::input::{Gesture, PointerMode};

/// Movement (in screen pixels) under which a press and release count as a click.
pub const CLICK_SLOP_PX: f64 = 5.0;

/// Where a frame is drawn on the page: its content box in screen (CSS) pixels and the
/// frame's own size in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameBox {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    pub frame_width: u32,
    pub frame_height: u32,
}

impl FrameBox {
    /// Frame pixels per screen pixel, across and down.
    fn ratio(&self) -> (f64, f64) {
        let r = |frame: u32, shown: f64| {
            if shown > 0.0 {
                f64::from(frame) / shown
            } else {
                1.0
            }
        };
        (
            r(self.frame_width, self.width),
            r(self.frame_height, self.height),
        )
    }

    /// The frame pixel under a page point, clamped to the frame (a release just
    /// outside its edge still lands on it).
    pub fn to_frame(&self, page_x: f64, page_y: f64) -> (f64, f64) {
        let (rx, ry) = self.ratio();
        let clamp = |v: f64, max: u32| v.clamp(0.0, (f64::from(max) - 0.5).max(0.0));
        (
            clamp((page_x - self.left) * rx, self.frame_width),
            clamp((page_y - self.top) * ry, self.frame_height),
        )
    }
}

/// Why a press and release made no gesture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoGesture {
    /// The environment takes drags, and the pointer barely moved.
    NotADrag,
}

impl NoGesture {
    pub fn message(self) -> &'static str {
        match self {
            Self::NotADrag => "Drag from one place to another: a click is no action here.",
        }
    }
}

/// The gesture of a press at `from` and a release at `to` (frame pixels) that moved
/// `moved_px` screen pixels. A click-only environment takes any press as a click where
/// it began (a shaky hand is no drag); a drag-only one needs the pointer to move.
pub fn gesture(
    mode: PointerMode,
    from: (f64, f64),
    to: (f64, f64),
    moved_px: f64,
) -> Result<Gesture, NoGesture> {
    let still = moved_px <= CLICK_SLOP_PX;
    let click = Gesture::Click {
        x: from.0,
        y: from.1,
    };
    match mode {
        PointerMode::Click => Ok(click),
        PointerMode::Drag if still => Err(NoGesture::NotADrag),
        PointerMode::ClickOrDrag if still => Ok(click),
        PointerMode::Drag | PointerMode::ClickOrDrag => Ok(Gesture::Drag { from, to }),
    }
}

/// What to tell the person when a gesture maps to no action.
pub fn no_action_message(g: &Gesture) -> &'static str {
    match g {
        Gesture::Click { .. } => "That click is not an action here.",
        Gesture::Drag { .. } => "That drag is not an action here.",
    }
}

/// How the pointer is used, for the hint under the frame.
pub fn hint(mode: PointerMode) -> &'static str {
    match mode {
        PointerMode::Click => "Click on the frame to act.",
        PointerMode::Drag => "Drag on the frame to act.",
        PointerMode::ClickOrDrag => "Click or drag on the frame to act.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 160×120 frame shown at 3× with its box at (100, 50).
    fn shown() -> FrameBox {
        FrameBox {
            left: 100.0,
            top: 50.0,
            width: 480.0,
            height: 360.0,
            frame_width: 160,
            frame_height: 120,
        }
    }

    #[test]
    fn page_points_map_to_frame_pixels_through_the_display_scale() {
        let b = shown();
        assert_eq!(b.to_frame(100.0, 50.0), (0.0, 0.0));
        assert_eq!(b.to_frame(130.0, 80.0), (10.0, 10.0));
        assert_eq!(b.to_frame(580.0 - 3.0, 410.0 - 3.0), (159.0, 119.0));
        // Outside the box: clamped to the frame's edge.
        assert_eq!(b.to_frame(0.0, 1000.0), (0.0, 119.5));
        // Unscaled.
        let one = FrameBox {
            width: 160.0,
            height: 120.0,
            ..b
        };
        assert_eq!(one.to_frame(110.5, 60.0), (10.5, 10.0));
        // A box not laid out yet maps one to one.
        let empty = FrameBox {
            width: 0.0,
            height: 0.0,
            ..b
        };
        assert_eq!(empty.to_frame(110.0, 60.0), (10.0, 10.0));
    }

    #[test]
    fn presses_become_gestures_as_the_mode_allows() {
        let (a, b) = ((10.0, 20.0), (90.0, 20.0));
        let click = Gesture::Click { x: 10.0, y: 20.0 };
        let drag = Gesture::Drag { from: a, to: b };
        assert_eq!(gesture(PointerMode::Click, a, a, 0.0), Ok(click));
        assert_eq!(gesture(PointerMode::Click, a, b, 240.0), Ok(click));
        assert_eq!(
            gesture(PointerMode::Drag, a, a, 2.0),
            Err(NoGesture::NotADrag)
        );
        assert_eq!(gesture(PointerMode::Drag, a, b, 240.0), Ok(drag));
        assert_eq!(gesture(PointerMode::ClickOrDrag, a, a, 4.9), Ok(click));
        assert_eq!(gesture(PointerMode::ClickOrDrag, a, b, 6.0), Ok(drag));
        assert!(NoGesture::NotADrag.message().contains("Drag"));
        assert_eq!(
            no_action_message(&click),
            "That click is not an action here."
        );
        assert!(no_action_message(&drag).contains("drag"));
        assert!(hint(PointerMode::ClickOrDrag).starts_with("Click or drag"));
    }
}
