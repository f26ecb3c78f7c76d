//! Drawing an environment's RGB frame on a `<canvas>`.

use envs::Frame;
use leptos::prelude::*;
use wasm_bindgen::{Clamped, JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use crate::url::PlayRequest;

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
    ctx.put_image_data(&image, 0.0, 0.0)
}

/// Logs a drawing failure to the console (drawing is best effort, never a panic).
pub fn report(result: Result<(), JsValue>) {
    if let Err(e) = result {
        leptos::logging::error!("could not draw the frame: {e:?}");
    }
}

/// The first frame of an episode, drawn once, small (the home page's thumbnails).
#[component]
pub fn Thumbnail(request: PlayRequest, label: String) -> impl IntoView {
    let frame = crate::catalog::first_frame(&request).ok();
    let (w, h) = frame.as_ref().map_or((0, 0), |f| (f.width(), f.height()));
    let node = NodeRef::<leptos::html::Canvas>::new();
    Effect::new(move |_| {
        if let (Some(canvas), Some(frame)) = (node.get(), frame.as_ref()) {
            report(draw_frame(&canvas, frame));
        }
    });
    view! {
        <canvas node_ref=node class="thumb" width=w height=h role="img" aria-label=label></canvas>
    }
}
