//! The payload of Playbench's links (episodes `e=pb1.…`, studies `s=ps1.…`): a JSON
//! document, raw-deflated, preceded by the CRC-32 of the JSON (big-endian), in
//! base64url without padding, after a parameter name and a version tag.

use super::share::{base64url_decode, base64url_encode, crc32, Base64Error};

/// One kind of link: how messages name it and what it holds, its fragment parameter,
/// its version tag and how large its document may inflate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkKind {
    /// `link` (episodes, the default kind), `study link`.
    pub link: &'static str,
    /// `episode`, `study`.
    pub document: &'static str,
    /// `e=`, `s=`.
    pub param: &'static str,
    /// `pb1.`, `ps1.`.
    pub tag: &'static str,
    pub limit: usize,
}

/// Why a link's payload could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PayloadError {
    NotALink,
    /// The family's tag with another version, e.g. `pb2.`.
    LinkVersion(String),
    /// A character outside base64url, at this position of the payload.
    Base64(usize),
    Truncated,
    Corrupt(String),
    /// Inflates beyond the limit.
    TooLong,
    Checksum {
        expected: u32,
        actual: u32,
    },
    NotUtf8,
}

impl PayloadError {
    /// The error in words, for a link of `kind`.
    pub fn describe(&self, kind: &LinkKind) -> String {
        let LinkKind {
            link,
            document,
            param,
            tag,
            limit,
        } = *kind;
        match self {
            Self::NotALink => {
                format!("not a Playbench {document} link (expected a fragment like {param}{tag}…)")
            }
            Self::LinkVersion(v) => {
                format!("unsupported {link} version {v:?} (this build reads {tag:?})")
            }
            Self::Base64(i) => format!(
                "the {link} is damaged: invalid base64url at character {}",
                i + 1
            ),
            Self::Truncated => {
                format!("the {link} is truncated (or its end damaged): its data ends early")
            }
            Self::Corrupt(why) => format!("the {link} is damaged: corrupt data ({why})"),
            Self::TooLong => format!("the {link}'s {document} is larger than {limit} bytes"),
            Self::Checksum { expected, actual } => format!(
                "the {link} was altered or damaged: checksum {actual:08x}, expected {expected:08x}"
            ),
            Self::NotUtf8 => format!("the {link}'s {document} is not UTF-8 text"),
        }
    }
}

/// `{param}{tag}` + the payload of `json`.
pub fn encode(json: &str, kind: &LinkKind) -> String {
    let mut bytes = crc32(json.as_bytes()).to_be_bytes().to_vec();
    bytes.extend(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9));
    format!("{}{}{}", kind.param, kind.tag, base64url_encode(&bytes))
}

/// The payload after `tag` in `link`: a full URL, its fragment (with or without `#`
/// and `param`), or the bare payload. A tag of the same family (the letters before
/// the version digits) but another version is `LinkVersion`.
fn payload<'a>(link: &'a str, param: &str, tag: &str) -> Result<&'a str, PayloadError> {
    let link = link.trim();
    let fragment = link.split_once('#').map_or(link, |(_, f)| f);
    let value = fragment
        .split('&')
        .find_map(|p| p.strip_prefix(param))
        .unwrap_or(fragment);
    if let Some(rest) = value.strip_prefix(tag) {
        return Ok(rest);
    }
    let family = tag.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if let Some((other, _)) = value.split_once('.') {
        if let Some(digits) = other.strip_prefix(family) {
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(PayloadError::LinkVersion(format!("{other}.")));
            }
        }
    }
    Err(PayloadError::NotALink)
}

/// The JSON in `link`, checked against its CRC; at most `kind.limit` bytes are inflated.
pub fn decode(link: &str, kind: &LinkKind) -> Result<String, PayloadError> {
    let bytes = base64url_decode(payload(link, kind.param, kind.tag)?).map_err(|e| match e {
        Base64Error::BadChar(i) => PayloadError::Base64(i),
        Base64Error::BadEnd => PayloadError::Truncated,
    })?;
    if bytes.len() < 5 {
        return Err(PayloadError::Truncated);
    }
    let (sum, deflated) = bytes.split_at(4);
    let expected = u32::from_be_bytes([sum[0], sum[1], sum[2], sum[3]]);
    let json =
        miniz_oxide::inflate::decompress_to_vec_with_limit(deflated, kind.limit).map_err(|e| {
            use miniz_oxide::inflate::TINFLStatus;
            match e.status {
                TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                    PayloadError::Truncated
                }
                TINFLStatus::HasMoreOutput => PayloadError::TooLong,
                other => PayloadError::Corrupt(format!("{other:?}")),
            }
        })?;
    let actual = crc32(&json);
    if actual != expected {
        return Err(PayloadError::Checksum { expected, actual });
    }
    String::from_utf8(json).map_err(|_| PayloadError::NotUtf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIND: LinkKind = LinkKind {
        link: "thing link",
        document: "thing",
        param: "x=",
        tag: "qq1.",
        limit: 1 << 20,
    };

    fn decode_with(link: &str, limit: usize) -> Result<String, PayloadError> {
        decode(link, &LinkKind { limit, ..KIND })
    }

    #[test]
    fn payloads_round_trip_and_damage_is_named() {
        let link = encode(r#"{"a":1}"#, &KIND);
        assert!(link.starts_with("x=qq1."));
        for form in [
            link.clone(),
            format!("https://h/p#{link}&t=3"),
            link[2..].to_string(),
        ] {
            assert_eq!(decode(&form, &KIND).unwrap(), r#"{"a":1}"#);
        }
        assert_eq!(
            decode_with("x=qq2.AAAA", 99),
            Err(PayloadError::LinkVersion("qq2.".into()))
        );
        assert_eq!(decode_with("hello", 99), Err(PayloadError::NotALink));
        assert_eq!(decode_with("x=qq1.AA*A", 99), Err(PayloadError::Base64(2)));
        assert_eq!(
            decode_with(&link[..link.len() - 4], 99),
            Err(PayloadError::Truncated)
        );
        assert_eq!(decode_with(&link, 3), Err(PayloadError::TooLong));
    }

    #[test]
    fn errors_name_the_kind_of_link() {
        let e = PayloadError::Checksum {
            expected: 1,
            actual: 2,
        };
        assert_eq!(
            e.describe(&KIND),
            "the thing link was altered or damaged: checksum 00000002, expected 00000001"
        );
        assert!(PayloadError::NotALink.describe(&KIND).contains("x=qq1."));
    }
}
