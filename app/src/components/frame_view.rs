//! The one way a frame reaches the screen: an environment's RGB frame on a `<canvas>`,
//! enlarged by a whole factor (pixel art stays crisp), redrawn whenever what it reads
//! changes, and — for environments played with the pointer — turning presses and
//! releases on it into gestures in frame pixels (`crate::pointer`).

use std::cell::Cell;
use std::rc::Rc;

use envs::core::input::{Gesture, PointerMode};
use envs::Frame;
use leptos::prelude::*;
use wasm_bindgen::{Clamped, JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use crate::play_state::display_scale;
use crate::pointer::{gesture, FrameBox, NoGesture};

/// Puts the frame's pixels on the canvas, sizing the canvas to the frame.
pub fn draw_frame(canvas: &HtmlCanvasElement, frame: &Frame) -> Result<(), JsValue> {
    let (w, h) = (frame.width(), frame.height());
    if w == 0 || h == 0 {
        return Ok(());
    }
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    let ctx = canvas
        .get_context("2d")?
        .ok_or_else(|| JsValue::from_str("no 2d canvas context"))?
        .dyn_into::<CanvasRenderingContext2d>()?;
    let rgba = frame.to_rgba();
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h)?;
    ctx.put_image_data(&image, 0.0, 0.0)?;
    crate::browser::time::mark_first_frame();
    Ok(())
}

/// Draws one frame (what a [`FrameSource`] lends the current frame to).
pub type Draw<'a> = &'a mut dyn FnMut(&Frame);

/// Where a [`FrameView`] gets its frame: a closure that lends the current frame to the
/// drawing function. Signals read inside it are tracked, so a change redraws.
pub struct FrameSource(Box<dyn Fn(Draw)>);

impl FrameSource {
    pub fn new(lend: impl Fn(Draw) + 'static) -> Self {
        Self(Box::new(lend))
    }

    /// A frame that never changes (thumbnails).
    pub fn fixed(frame: Frame) -> Self {
        Self::new(move |draw| draw(&frame))
    }

    fn size(&self) -> (u32, u32) {
        let mut size = (0, 0);
        untrack(|| (self.0)(&mut |f| size = (f.width(), f.height())));
        size
    }
}

/// Where a press began: in frame pixels, and on the screen.
type Press = ((f64, f64), (f64, f64));

/// Pointer input on the frame: the environment's mode and what to do with a gesture
/// (or with a press and release that made none).
#[derive(Clone)]
pub struct PointerInput {
    pub mode: Signal<Option<PointerMode>>,
    pub on_gesture: Callback<Gesture>,
    pub on_miss: Callback<NoGesture>,
}

/// A frame on a canvas: enlarged up to `max_size` CSS pixels both ways (0: its own
/// size), `pixelated` when enlarged, labelled for assistive technology, focusable.
#[component]
pub fn FrameView(
    frame: FrameSource,
    /// The largest size (CSS pixels) the frame is enlarged to; 0 keeps its size.
    #[prop(optional)]
    max_size: u32,
    /// What the frame shows, for screen readers.
    #[prop(into)]
    label: Signal<String>,
    /// `data-testid` of the canvas.
    testid: &'static str,
    /// Extra CSS class (instead of `frame`, e.g. `thumb`).
    #[prop(optional)]
    class: Option<&'static str>,
    /// Leave out of the tab order (thumbnails inside links).
    #[prop(optional)]
    unfocusable: bool,
    #[prop(optional)] pointer: Option<PointerInput>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let size = RwSignal::new(frame.size());
    Effect::new(move |_| {
        if let Some(c) = canvas.get() {
            (frame.0)(&mut |f| {
                if let Err(e) = draw_frame(&c, f) {
                    leptos::logging::error!("could not draw the frame: {e:?}");
                }
                let now = (f.width(), f.height());
                if size.get_untracked() != now {
                    size.set(now);
                }
            });
        }
    });
    let scale = move || {
        let (w, h) = size.get();
        display_scale(w, h, max_size)
    };
    let class = move || match class {
        Some(c) => c.to_string(),
        None if scale() > 1 => "frame pixelated".into(),
        None => "frame".into(),
    };
    let width = move || (max_size > 0).then(|| format!("{}px", size.get().0 * scale()));
    let (w0, h0) = size.get_untracked();

    // A press: where it began (frame pixels, screen); the release makes the gesture.
    let press: Rc<Cell<Option<Press>>> = Rc::default();
    let frame_box = move |c: &HtmlCanvasElement| {
        let r = c.get_bounding_client_rect();
        let (w, h) = size.get_untracked();
        FrameBox {
            left: r.left() + f64::from(c.client_left()),
            top: r.top() + f64::from(c.client_top()),
            width: f64::from(c.client_width()),
            height: f64::from(c.client_height()),
            frame_width: w,
            frame_height: h,
        }
    };
    let mode = pointer.as_ref().map(|p| p.mode);
    let active = move || mode.is_some_and(|m| m.get().is_some());
    let down = {
        let press = press.clone();
        move |ev: leptos::ev::PointerEvent| {
            let (Some(c), true) = (canvas.get_untracked(), active()) else {
                return;
            };
            if ev.button() != 0 {
                return;
            }
            ev.prevent_default();
            let _ = c.set_pointer_capture(ev.pointer_id());
            let page = (f64::from(ev.client_x()), f64::from(ev.client_y()));
            press.set(Some((frame_box(&c).to_frame(page.0, page.1), page)));
        }
    };
    let up = {
        let pointer = pointer.clone();
        move |ev: leptos::ev::PointerEvent| {
            let (Some(c), Some(p), Some((from, start))) =
                (canvas.get_untracked(), pointer.as_ref(), press.take())
            else {
                return;
            };
            let Some(m) = p.mode.get_untracked() else {
                return;
            };
            let page = (f64::from(ev.client_x()), f64::from(ev.client_y()));
            let to = frame_box(&c).to_frame(page.0, page.1);
            let moved = (page.0 - start.0).hypot(page.1 - start.1);
            match gesture(m, from, to, moved) {
                Ok(g) => p.on_gesture.run(g),
                Err(miss) => p.on_miss.run(miss),
            }
        }
    };
    view! {
        <canvas
            node_ref=canvas
            class=class
            class:pointer-input=active
            width=w0
            height=h0
            style:width=width
            tabindex=(!unfocusable).then_some("0")
            role="img"
            aria-label=move || label.get()
            data-testid=testid
            on:pointerdown=down
            on:pointerup=up
        ></canvas>
    }
}
