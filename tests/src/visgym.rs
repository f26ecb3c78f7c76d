//! VisGym golden checks: `ast.literal_eval` of model replies, and every synthetic
//! environment replayed against the reference (states, rewards, flags, feedback,
//! text frames, Maze 2D frame hashes, oracle action lists, prompts).

use std::io::Read;

use envs::visgym::python::{literal_eval, py_repr, py_str};
use serde_json::Value;

/// The `literal_eval` golden file (gzipped JSON), embedded for the wasm build.
pub const LITERAL_GOLDEN: &[u8] = include_bytes!("../golden/visgym/literal_eval.json.gz");

pub fn decompress(gz: &[u8]) -> Result<String, String> {
    let mut s = String::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_string(&mut s)
        .map_err(|e| format!("gzip: {e}"))?;
    Ok(s)
}

/// CPython prints heap addresses (`<ast.Name object at 0x7f…>`); they are not part of
/// what must match.
pub fn mask_addresses(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(" object at 0x") {
        let (head, tail) = rest.split_at(i + " object at 0x".len());
        out.push_str(head);
        out.push('…');
        rest = tail.trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

/// Evaluates every golden input; returns the mismatches and the number of cases.
pub fn check_literal_golden() -> Result<(Vec<String>, usize), String> {
    let rows: Vec<Vec<String>> =
        serde_json::from_str(&decompress(LITERAL_GOLDEN)?).map_err(|e| e.to_string())?;
    let mut failures = Vec::new();
    for row in &rows {
        let input = &row[0];
        let got = match literal_eval(input) {
            Ok(v) => vec!["ok".to_string(), py_repr(&v), py_str(&v)],
            Err(e) => vec![e.class.to_string(), mask_addresses(&e.message)],
        };
        let want: Vec<String> = row[1..].iter().map(|s| mask_addresses(s)).collect();
        if got != want {
            failures.push(format!("{input:?}\n   got  {got:?}\n   want {want:?}"));
        }
    }
    Ok((failures, rows.len()))
}

/// A JSON value as a string, for messages.
pub fn show(v: &Value) -> String {
    v.to_string()
}
