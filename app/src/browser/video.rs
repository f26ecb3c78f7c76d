//! Demonstration clips recorded as WebM video in the browser (a canvas stream into a
//! `MediaRecorder`), for APIs that take video. Recording runs in real time: a clip of
//! N frames at F frames per second takes N / F seconds.

use std::cell::RefCell;
use std::rc::Rc;

use bench::protocol::providers::EncodedImage;
use envs::Frame;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobEvent, HtmlCanvasElement, MediaRecorder, MediaRecorderOptions};

use crate::components::frame_view::draw_frame;

const MIME: &str = "video/webm";

/// Whether this browser can record a canvas as WebM.
pub fn can_record() -> bool {
    js_sys::Reflect::has(&js_sys::global(), &JsValue::from_str("MediaRecorder")).unwrap_or(false)
        && MediaRecorder::is_type_supported(MIME)
}

fn js(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{e:?}"))
}

/// `frames` as a WebM video at `fps` frames per second.
pub async fn record(frames: &[Frame], fps: u32) -> Result<EncodedImage, String> {
    let first = frames.first().ok_or("the clip has no frames")?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(js)?
        .dyn_into()
        .map_err(|_| "not a canvas".to_string())?;
    canvas.set_width(first.width());
    canvas.set_height(first.height());
    // Kept in the page (out of sight) while recording: a detached canvas may not paint.
    let _ = canvas.set_attribute(
        "style",
        "position:fixed;left:-10000px;top:0;pointer-events:none",
    );
    let body = document.body().ok_or("no body")?;
    body.append_child(&canvas).map_err(js)?;
    let result = record_on(&canvas, frames, fps).await;
    canvas.remove();
    result
}

async fn record_on(
    canvas: &HtmlCanvasElement,
    frames: &[Frame],
    fps: u32,
) -> Result<EncodedImage, String> {
    draw_frame(canvas, &frames[0]).map_err(js)?;
    let stream = canvas.capture_stream().map_err(js)?;
    let options = MediaRecorderOptions::new();
    options.set_mime_type(MIME);
    let recorder =
        MediaRecorder::new_with_media_stream_and_media_recorder_options(&stream, &options)
            .map_err(js)?;
    let chunks: Rc<RefCell<Vec<Blob>>> = Rc::default();
    let on_data = {
        let chunks = chunks.clone();
        Closure::<dyn FnMut(BlobEvent)>::new(move |e: BlobEvent| {
            if let Some(b) = e.data() {
                chunks.borrow_mut().push(b);
            }
        })
    };
    recorder.set_ondataavailable(Some(on_data.as_ref().unchecked_ref()));
    let stopped = js_sys::Promise::new(&mut |resolve, _| {
        recorder.set_onstop(Some(&resolve));
    });
    recorder.start().map_err(js)?;
    let frame_ms = u64::from(1000 / fps.max(1));
    for f in frames {
        draw_frame(canvas, f).map_err(js)?;
        super::time::sleep(frame_ms).await;
    }
    recorder.stop().map_err(js)?;
    JsFuture::from(stopped).await.map_err(js)?;
    recorder.set_ondataavailable(None);
    drop(on_data);
    let parts = js_sys::Array::new();
    for b in chunks.borrow().iter() {
        parts.push(b);
    }
    let blob = Blob::new_with_blob_sequence(&parts).map_err(js)?;
    let buffer = JsFuture::from(blob.array_buffer()).await.map_err(js)?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    if bytes.is_empty() {
        return Err("the browser recorded an empty video".into());
    }
    Ok(EncodedImage::from_bytes(MIME, &bytes))
}
