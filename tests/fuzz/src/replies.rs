//! Model replies for each protocol's parser (V-ICAL's `[Action: …]` line, VisGym's
//! harness and its Python-literal reader, the trajectory auditor's verdicts), provider
//! answer bodies and error bodies, and `Retry-After` headers.

use bench::audit::contract::{parse_attribution, parse_reference, parse_transfer};
use bench::protocol::parse::{parse_action, Strictness};
use bench::protocol::providers::{classify_error, extract_reply, extract_usage, Provider};
use bench::protocol::retry::{backoff_ms, parse_retry_after};
use envs::visgym::python::parser::parse_eval;
use envs::visgym::reply::reply_to_action;
use envs::visgym::VisAction;

use super::Entry;

const ACTIONS: [&str; 6] = ["left", "right", "up", "down", "pick up", "toggle"];

fn own(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn vical_reply(text: &str) {
    let actions = own(&ACTIONS);
    let _ = parse_action(text, &actions, Strictness::Exact);
    let _ = parse_action(text, &actions, Strictness::Lenient);
}

fn visgym_reply(text: &str) {
    // `reply_to_action` without verbalisation is `parse_output` (which normalises), and
    // with it differs only when there is an `<answer>`; `literal_eval` parses with
    // `parse_eval` unless its fast path reads the text, so only then is it run apart.
    let _ = VisAction::parse(&reply_to_action(text, false));
    if text.contains("<answer>") {
        let _ = VisAction::parse(&reply_to_action(text, true));
    }
    if envs::visgym::python::literal::literal_eval(text).is_ok() {
        let _ = parse_eval(text);
    }
}

fn audit_reply(text: &str) {
    let _ = parse_transfer(text);
    let _ = parse_attribution(text);
    let _ = parse_reference(text);
}

const PROVIDERS: [Provider; 3] = [Provider::OpenAi, Provider::Anthropic, Provider::Gemini];

fn provider_body(text: &str) {
    let status = 400 + (text.len() % 200) as u16;
    for provider in PROVIDERS {
        let _ = extract_reply(provider, text);
        let _ = extract_usage(provider, text);
        let _ = classify_error(
            provider,
            status,
            text,
            parse_retry_after(text, 1_700_000_000),
        );
    }
}

fn retry_after(text: &str) {
    for now in [0, 1_700_000_000, u64::MAX] {
        let seconds = parse_retry_after(text, now);
        let _ = backoff_ms(3, seconds);
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "vical-reply",
            seeds: own(&[
                "[Action: left]",
                "**[Action: pick up]** because the key is near",
                "I think\n[Action:toggle]\nthen more",
                "[Action: jump]",
                "",
            ]),
            run: Box::new(vical_reply),
        },
        Entry {
            name: "visgym-reply",
            seeds: own(&[
                "<answer>('move', 2)</answer>",
                "I will swap. ('swap', ((0, 1), (2, 2)))",
                "<answer>swap((0,1),(2,2))</answer>",
                "('rotate', [90, -45.5, 1e3])",
                "('stop', None)",
                "(\"place\", {'cell': (1, 2), 'x': b'\\x00'})",
                "(\"text\", 'a' + \"b\" \"c\", r'\\n', f\"{1}\")",
                "('move', 0x1F, 0o7, 0b1, 1_000, 1j, -(-3))",
            ])
            .into_iter()
            // What the fuzzer found slow (`docs/fuzzing.md`), kept so that the smoke
            // run's 5 s limit catches a return: braces the parser once re-read
            // exponentially often (22 deep: seconds), nested candidates, and a
            // 120,000-digit hex int once converted in quadratic time (50 s). (Nested
            // candidates parsed one by one and deep trees have tests of their own:
            // seeds of hundreds of kilobytes would make the mutated inputs megabytes.)
            .chain([
                format!(
                    "<answer>swap((0,1{}:{}),(2,2))</answer>",
                    "{".repeat(22),
                    "{".repeat(22)
                ),
                format!("{}{}", "(a ".repeat(2_000), ")".repeat(2_000)),
                format!("('move', 0x{})", "1F".repeat(60_000)),
            ])
            .collect(),
            run: Box::new(visgym_reply),
        },
        Entry {
            name: "audit-reply",
            seeds: own(&[
                r#"{"verdict": "yes", "evidence": [{"step": 3, "reason": "x"}]}"#,
                r#"```json
{"attribution": "perception", "step": 2, "explanation": "missed the key"}
```"#,
                r#"{"reference": {"goal": "reach", "steps": ["a", "b"]}}"#,
            ]),
            run: Box::new(audit_reply),
        },
        Entry {
            name: "provider-body",
            seeds: own(&[
                r#"{"choices":[{"message":{"role":"assistant","content":"[Action: left]"}}],"usage":{"prompt_tokens":10,"completion_tokens":3}}"#,
                r#"{"choices":[{"message":{"content":[{"type":"text","text":"hi"}]}}]}"#,
                r#"{"content":[{"type":"text","text":"[Action: up]"}],"usage":{"input_tokens":5,"output_tokens":2}}"#,
                r#"{"candidates":[{"content":{"parts":[{"text":"ok"}]}}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":2}}"#,
                r#"{"error":{"message":"Rate limit reached","type":"rate_limit_error","code":429}}"#,
                r#"{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}"#,
                "<html><body>502 Bad Gateway</body></html>",
            ]),
            run: Box::new(provider_body),
        },
        Entry {
            name: "retry-after",
            seeds: own(&[
                "120",
                "0",
                "Sun, 06 Nov 1994 08:49:37 GMT",
                "Wed, 21 Oct 2015 07:28:00 GMT",
                "Fri, 31 Dec 9999 23:59:59 GMT",
            ]),
            run: Box::new(retry_after),
        },
    ]
}
