//! Frames to PNG or JPEG through a canvas (the browser's own encoders), scaled.

use bench::protocol::providers::EncodedImage;
use envs::Frame;
use wasm_bindgen::{Clamped, JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use crate::runner::settings::{ImageFormat, ImageSettings};
use bench::model_episode::FrameEncoder;

/// Two off-screen canvases: the frame at its size, and the scaled copy.
pub struct CanvasEncoder {
    settings: ImageSettings,
    source: HtmlCanvasElement,
    target: HtmlCanvasElement,
}

fn canvas() -> Result<HtmlCanvasElement, String> {
    web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?
        .create_element("canvas")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|_| "not a canvas".to_string())
}

fn context(c: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, String> {
    c.get_context("2d")
        .map_err(|e| format!("{e:?}"))?
        .ok_or("no 2d context")?
        .dyn_into()
        .map_err(|_| "not a 2d context".to_string())
}

impl CanvasEncoder {
    pub fn new(settings: ImageSettings) -> Result<Self, String> {
        Ok(Self {
            settings,
            source: canvas()?,
            target: canvas()?,
        })
    }

    fn encode_frame(&mut self, frame: &Frame) -> Result<EncodedImage, JsValue> {
        let (w, h) = (frame.width(), frame.height());
        self.source.set_width(w);
        self.source.set_height(h);
        let rgba = frame.to_rgba();
        let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h)?;
        let ctx = context(&self.source).map_err(|e| JsValue::from_str(&e))?;
        ctx.put_image_data(&image, 0.0, 0.0)?;
        let (tw, th) = self.settings.scaled(w, h);
        let canvas = if (tw, th) == (w, h) {
            &self.source
        } else {
            self.target.set_width(tw);
            self.target.set_height(th);
            let t = context(&self.target).map_err(|e| JsValue::from_str(&e))?;
            t.set_image_smoothing_enabled(false);
            t.draw_image_with_html_canvas_element_and_dw_and_dh(
                &self.source,
                0.0,
                0.0,
                f64::from(tw),
                f64::from(th),
            )?;
            &self.target
        };
        let mime = self.settings.format.mime();
        let url = match self.settings.format {
            ImageFormat::Png => canvas.to_data_url_with_type(mime)?,
            ImageFormat::Jpeg => canvas.to_data_url_with_type_and_encoder_options(
                mime,
                &JsValue::from_f64(self.settings.quality),
            )?,
        };
        let data = url
            .split_once(',')
            .map(|(_, d)| d)
            .ok_or_else(|| JsValue::from_str("bad data URL"))?;
        Ok(EncodedImage {
            mime: mime.to_string(),
            base64: data.to_string(),
        })
    }
}

impl FrameEncoder for CanvasEncoder {
    fn encode(&mut self, frame: &Frame) -> Result<EncodedImage, String> {
        self.encode_frame(frame).map_err(|e| format!("{e:?}"))
    }
}
