//! A request body as text, built without copying its images through JSON values: the
//! body is serialized with a marker where each image's base64 goes, then the markers
//! are replaced by the data (base64 needs no escaping in JSON). A V-ICAL request carries
//! every demonstration frame again, megabytes for full-size frames, and copying them
//! through `serde_json::Value` was most of a request's app work
//! (`docs/environments.md`, "Reference throughput"). The text equals
//! `request_body(..).to_string()` byte for byte.

use super::prompt::{ImageRef, Message};
use super::providers::{build_body, request_body, EncodedImage, Provider, Sampling};

/// Marks an image's place: a control character, which JSON text always escapes (as
/// `\u0001`), so only a string holding one could look like a mark.
const MARK: char = '\u{1}';
const MARK_ESCAPED: &str = "\\u0001";

/// The body of [`request_body`] as its JSON text.
pub fn request_body_text<F>(
    provider: Provider,
    sampling: &Sampling,
    messages: &[Message],
    mut resolve: F,
) -> Result<String, String>
where
    F: FnMut(&ImageRef) -> Result<EncodedImage, String>,
{
    let mut images: Vec<EncodedImage> = Vec::new();
    let marked = build_body(provider, sampling, messages, &mut resolve, |img| {
        images.push(img.clone());
        format!("{MARK}{}{MARK}", images.len() - 1)
    })?
    .to_string();
    if let Some(text) = splice(&marked, &images) {
        return Ok(text);
    }
    // A text (a model's reply, say) holding the control character or its escaped
    // spelling adds a mark out of order: the plain way.
    Ok(request_body(provider, sampling, messages, resolve)?.to_string())
}

/// `marked` with each `\u0001N\u0001` replaced by image N's data as JSON writes it;
/// `None` unless the marks are exactly images 0, 1, 2... in order: any text holding the
/// control character (or a media type holding it) adds a mark, so the count or the
/// order is off and nothing is spliced into the wrong place.
fn splice(marked: &str, images: &[EncodedImage]) -> Option<String> {
    let data_len: usize = images.iter().map(|i| i.base64().len()).sum();
    let mut out = String::with_capacity(marked.len() + data_len);
    let mut rest = marked;
    let mut next = 0;
    while let Some(start) = rest.find(MARK_ESCAPED) {
        out.push_str(&rest[..start]);
        let after = &rest[start + MARK_ESCAPED.len()..];
        let end = after.find(MARK_ESCAPED)?;
        if after[..end].parse::<usize>().ok()? != next {
            return None;
        }
        let image = images.get(next)?;
        let data = image.base64();
        if image.json_plain() {
            out.push_str(data);
        } else {
            // Not base64 (a test encoder's tag, say): escaped as serde writes it.
            let quoted = serde_json::to_string(data).ok()?;
            out.push_str(&quoted[1..quoted.len() - 1]);
        }
        next += 1;
        rest = &after[end + MARK_ESCAPED.len()..];
    }
    out.push_str(rest);
    (next == images.len()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::prompt::{Part, Role};

    const PROVIDERS: [Provider; 3] = [Provider::OpenAi, Provider::Anthropic, Provider::Gemini];

    fn sampling() -> Sampling {
        Sampling {
            model: "m".into(),
            temperature: Some(0.5),
            max_output_tokens: Some(64),
        }
    }

    /// A system prompt, a user turn with texts around three images, a reply.
    fn conversation(reply: &str) -> Vec<Message> {
        let image = |frame| Part::Image(ImageRef::DemoFrame { clip: 0, frame });
        vec![
            Message {
                role: Role::System,
                parts: vec![Part::Text("rules \"quoted\"\n".into())],
            },
            Message {
                role: Role::User,
                parts: vec![
                    Part::Text("Demo:".into()),
                    image(0),
                    Part::TextBlock("then".into()),
                    image(1),
                    image(2),
                    Part::Text("Now?".into()),
                ],
            },
            Message {
                role: Role::Assistant,
                parts: vec![Part::Text(reply.into())],
            },
        ]
    }

    /// Frame N's image: real base64 of N+1 bytes, or `data` for frame 1 when given.
    fn images(odd: Option<&'static str>) -> impl FnMut(&ImageRef) -> Result<EncodedImage, String> {
        move |r| match *r {
            ImageRef::DemoFrame { frame: 1, .. } if odd.is_some() => {
                Ok(EncodedImage::new("image/png", odd.unwrap_or_default()))
            }
            ImageRef::DemoFrame { frame, .. } => Ok(EncodedImage::from_bytes(
                "image/png",
                &vec![frame as u8 * 40 + 7; frame + 1],
            )),
            _ => Err("no such image".into()),
        }
    }

    fn same_as_through_values(messages: &[Message], odd: Option<&'static str>) {
        for p in PROVIDERS {
            let text = request_body_text(p, &sampling(), messages, images(odd)).unwrap();
            let value = request_body(p, &sampling(), messages, images(odd)).unwrap();
            assert_eq!(text, value.to_string(), "{p:?}");
        }
    }

    #[test]
    fn the_text_is_the_serialized_body_byte_for_byte() {
        same_as_through_values(&conversation("[Action: Left]"), None);
        let text = request_body_text(
            Provider::Gemini,
            &sampling(),
            &conversation("x"),
            images(None),
        )
        .unwrap();
        assert!(text.contains(EncodedImage::from_bytes("image/png", &[47; 2]).base64()));
        assert!(!text.contains(MARK_ESCAPED), "no mark is left");
    }

    #[test]
    fn texts_that_look_like_marks_change_nothing() {
        // The control character itself, and its escaped spelling written out.
        for reply in [
            "\u{1}0\u{1}",
            "a\u{1}",
            "\\u00010\\u0001",
            "\\u00013\\u0001",
            "\\u0001",
            "\\u00011\\u0001 \\u00010\\u0001",
        ] {
            same_as_through_values(&conversation(reply), None);
        }
        let odd_model = Sampling {
            model: "\u{1}0\u{1}".into(),
            ..sampling()
        };
        let m = conversation("ok");
        for p in PROVIDERS {
            assert_eq!(
                request_body_text(p, &odd_model, &m, images(None)).unwrap(),
                request_body(p, &odd_model, &m, images(None))
                    .unwrap()
                    .to_string()
            );
        }
    }

    #[test]
    fn image_data_that_is_not_base64_is_escaped_as_json_escapes_it() {
        for odd in [
            "say \"hi\"\\",
            "tab\there",
            "\u{1}0\u{1}",
            "\\u00012\\u0001",
        ] {
            same_as_through_values(&conversation("ok"), Some(odd));
        }
    }

    #[test]
    fn an_image_that_cannot_be_made_is_an_error() {
        let m = vec![Message {
            role: Role::User,
            parts: vec![Part::Image(ImageRef::FinalGoal)],
        }];
        let e = request_body_text(Provider::OpenAi, &sampling(), &m, images(None)).unwrap_err();
        assert!(e.contains("no such image"), "{e}");
    }
}
