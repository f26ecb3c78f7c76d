//! Mutations of a seed: truncation, bit flips, byte insertions and deletions, splices
//! of two samples, oversized fields, deeply nested JSON, huge numbers and wrong types
//! (on the seed's JSON tree when it parses, so the input gets past the parser).

use serde_json::Value;

use super::Rng;

/// Tokens that break parsers: huge and odd numbers, wrong types, deep nesting, markup.
const TOKENS: &[&str] = &[
    "0",
    "-1",
    "1e999999",
    "-1e309",
    "18446744073709551616",
    "-9223372036854775809",
    "9223372036854775807",
    "4294967296",
    "NaN",
    "Infinity",
    "0.000000000000000000000001",
    "null",
    "true",
    "[]",
    "{}",
    "\"\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"",
    "'",
    "\\",
    "\n",
    "\r\n",
    "\t",
    "#",
    "&",
    "=",
    "%",
    "%zz",
    "%ff%fe",
    "<answer>",
    "</answer>",
    "[Action:",
    "é",
    "\u{202e}",
    "\u{fffd}",
    "𝔘",
];

/// Inputs are cut to this many bytes: mutations compound (a megabyte string in an
/// array repeated ten thousand times), and the fuzzer must stay in memory itself.
pub const MAX_INPUT: usize = 2 << 20;

/// One input made from `seeds` (non-empty), at most [`MAX_INPUT`] bytes.
pub fn mutate(seeds: &[String], rng: &mut Rng) -> String {
    let mut text = mutate_once(seeds, rng);
    if text.len() > MAX_INPUT {
        let mut end = MAX_INPUT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

fn mutate_once(seeds: &[String], rng: &mut Rng) -> String {
    let base = rng.pick(seeds).clone();
    if rng.chance(3) {
        if let Ok(mut tree) = serde_json::from_str::<Value>(&base) {
            for _ in 0..1 + rng.below(3) {
                mutate_tree(&mut tree, rng);
            }
            return tree.to_string();
        }
    }
    let mut bytes = base.into_bytes();
    for _ in 0..1 + rng.below(4) {
        mutate_bytes(&mut bytes, seeds, rng);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn mutate_bytes(bytes: &mut Vec<u8>, seeds: &[String], rng: &mut Rng) {
    let at = |rng: &mut Rng, len: usize| rng.below(len + 1);
    match rng.below(9) {
        0 => {
            let n = at(rng, bytes.len());
            bytes.truncate(n);
        }
        1 => {
            if !bytes.is_empty() {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
        }
        2 => {
            let i = at(rng, bytes.len());
            let n = 1 + rng.below(8);
            let noise: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            bytes.splice(i..i, noise);
        }
        3 => {
            let i = at(rng, bytes.len());
            let j = (i + 1 + rng.below(16)).min(bytes.len());
            bytes.drain(i..j);
        }
        4 => {
            let other = rng.pick(seeds).as_bytes();
            let i = at(rng, bytes.len());
            let j = at(rng, other.len());
            bytes.truncate(i);
            bytes.extend_from_slice(&other[j..]);
        }
        5 => {
            // An oversized field: a slice repeated many times.
            let i = at(rng, bytes.len());
            let j = (i + 1 + rng.below(8)).min(bytes.len());
            let piece = bytes[i..j].to_vec();
            let times = 1 + rng.below(20_000);
            let grown: Vec<u8> = piece
                .iter()
                .copied()
                .cycle()
                .take(piece.len() * times)
                .collect();
            bytes.splice(i..i, grown);
        }
        6 => {
            // Deep nesting of whichever bracket is there.
            let open = *rng.pick(b"[{(");
            let i = at(rng, bytes.len());
            let depth = 1 + rng.below(50_000);
            bytes.splice(i..i, std::iter::repeat_n(open, depth));
        }
        7 => {
            let token = rng.pick(TOKENS).as_bytes();
            let i = at(rng, bytes.len());
            bytes.splice(i..i, token.iter().copied());
        }
        _ => {
            // Replace a run of digits by a huge number.
            if let Some(i) = bytes.iter().position(|b| b.is_ascii_digit()) {
                let huge = rng.pick(&["99999999999999999999999", "1e999", "-0", "4294967295"]);
                let end = bytes[i..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(bytes.len(), |n| i + n);
                bytes.splice(i..end, huge.bytes());
            }
        }
    }
}

/// Replaces, at a random node of `tree`, a value with a wrong type, a huge number, a
/// long string, a deep nest, or removes/duplicates a member.
fn mutate_tree(tree: &mut Value, rng: &mut Rng) {
    let node = random_node(tree, rng);
    *node = match rng.below(8) {
        0 => Value::Null,
        1 => serde_json::json!(u64::MAX),
        2 => serde_json::json!(-1),
        3 => serde_json::json!(1e300),
        4 => Value::String("x".repeat(1 + rng.below(MAX_INPUT / 2))),
        5 => {
            let mut v = Value::Array(Vec::new());
            for _ in 0..rng.below(200) {
                v = Value::Array(vec![v]);
            }
            v
        }
        6 => match node.take() {
            Value::Array(mut items) => {
                if let Some(first) = items.first().cloned() {
                    let size = first.to_string().len().max(1);
                    let n = rng.below(10_000).min(MAX_INPUT / size);
                    items.extend(std::iter::repeat_n(first, n));
                }
                Value::Array(items)
            }
            Value::Object(mut map) => {
                if let Some(key) = map.keys().nth(rng.below(map.len())).cloned() {
                    map.remove(&key);
                }
                Value::Object(map)
            }
            Value::String(s) => serde_json::json!(s.len()),
            Value::Number(n) => Value::String(n.to_string()),
            other => Value::Array(vec![other]),
        },
        _ => serde_json::json!({"unexpected": true}),
    };
}

/// A random path down the tree (stopping early at random).
fn random_node<'a>(tree: &'a mut Value, rng: &mut Rng) -> &'a mut Value {
    let len = match &*tree {
        Value::Array(items) => items.len(),
        Value::Object(map) => map.len(),
        _ => 0,
    };
    if len == 0 || rng.chance(4) {
        return tree;
    }
    let i = rng.below(len);
    let child = match tree {
        Value::Array(items) => items.get_mut(i),
        Value::Object(map) => map.values_mut().nth(i),
        _ => None,
    };
    match child {
        Some(child) => random_node(child, rng),
        None => unreachable!("index below the length"),
    }
}
