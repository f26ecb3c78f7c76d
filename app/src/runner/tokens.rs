//! Rough token counts for the estimate shown before a run starts: each API's published
//! rule of thumb for an image of a given size, and about four bytes of text per
//! token. Servers behind an OpenAI-compatible API (vLLM, Ollama, a proxy) count in
//! their own ways, so the page says "about" and the run's usage is what the server
//! reports.

use bench::protocol::providers::Provider;

/// Input tokens for one image of `w`×`h` pixels as sent.
pub fn image_tokens(provider: Provider, w: u32, h: u32) -> u64 {
    let (w, h) = (f64::from(w.max(1)), f64::from(h.max(1)));
    match provider {
        // Fit in 2048×2048, then the shorter side down to 768; 170 per 512-pixel tile
        // plus 85 (the "high" detail rule, which "auto" uses for images this size).
        Provider::OpenAi => {
            let fit = (2048.0 / w.max(h)).min(1.0);
            let (w, h) = (w * fit, h * fit);
            let short = (768.0 / w.min(h)).min(1.0);
            let (w, h) = (w * short, h * short);
            let tiles = (w / 512.0).ceil() * (h / 512.0).ceil();
            85 + 170 * tiles as u64
        }
        // The longer side down to 1568, then width × height / 750.
        Provider::Anthropic => {
            let fit = (1568.0 / w.max(h)).min(1.0);
            ((w * fit) * (h * fit) / 750.0).ceil() as u64
        }
        // 258 for an image within 384×384, else 258 per 768-pixel tile.
        Provider::Gemini => {
            if w <= 384.0 && h <= 384.0 {
                258
            } else {
                258 * ((w / 768.0).ceil() * (h / 768.0).ceil()) as u64
            }
        }
    }
}

/// Input tokens for `bytes` of prompt text.
pub fn text_tokens(bytes: u64) -> u64 {
    bytes.div_ceil(4)
}

/// `12,345`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_api_counts_images_by_its_own_rule() {
        // A 600×400 frame: OpenAI keeps it (shorter side under 768), 2×1 tiles.
        assert_eq!(image_tokens(Provider::OpenAi, 600, 400), 85 + 170 * 2);
        // 4096×2048 fits to 2048×1024, then to 1536×768: 3×2 tiles.
        assert_eq!(image_tokens(Provider::OpenAi, 4096, 2048), 85 + 170 * 6);
        assert_eq!(image_tokens(Provider::Anthropic, 600, 400), 320);
        // 3136×1568 shrinks to 1568×784.
        assert_eq!(image_tokens(Provider::Anthropic, 3136, 1568), 1640);
        assert_eq!(image_tokens(Provider::Gemini, 384, 200), 258);
        assert_eq!(image_tokens(Provider::Gemini, 800, 400), 516);
        assert_eq!(text_tokens(0), 0);
        assert_eq!(text_tokens(9), 3);
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped(999), "999");
    }
}
