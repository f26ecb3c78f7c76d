//! A file dropped on `/audit`: a model's results file to audit, or an audit file to
//! look at; anything else is refused with a sentence that says why.

use bench::audit::file::{AuditFile, AUDIT_FORMAT};
use bench::results::{ResultsFile, ResultsKind, RESULTS_FORMAT};

pub enum Dropped {
    Results(Box<ResultsFile>),
    Audit(Box<AuditFile>),
}

/// Reads the file `name` holding `text`.
pub fn read_dropped(name: &str, text: &str) -> Result<Dropped, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("{name} is not a JSON file ({e})"))?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(RESULTS_FORMAT) => {
            let file = ResultsFile::from_json(text)
                .map_err(|e| format!("{name} is not a usable results file: {e}"))?;
            match file.kind {
                ResultsKind::Model => Ok(Dropped::Results(Box::new(file))),
                ResultsKind::Human => Err(format!(
                    "{name} holds a human study's results: the auditor audits model runs"
                )),
                ResultsKind::Baseline => Err(format!(
                    "{name} holds a baseline's results: the auditor audits model runs"
                )),
            }
        }
        Some(AUDIT_FORMAT) => AuditFile::from_json(text)
            .map(|a| Dropped::Audit(Box::new(a)))
            .map_err(|e| format!("{name} is not a usable audit file: {e}")),
        Some(other) => Err(format!(
            "{name} is a {other} file: drop a results file ({RESULTS_FORMAT}) of a model run, or an audit file ({AUDIT_FORMAT})"
        )),
        None => Err(format!(
            "{name} is not a Playbench file: drop a results file ({RESULTS_FORMAT}) of a model run, or an audit file ({AUDIT_FORMAT})"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auditor::view::tests::{audit_file, model_results};

    #[test]
    fn results_and_audit_files_are_read_and_the_rest_refused_with_reasons() {
        let results = model_results();
        assert!(matches!(
            read_dropped("r.json", &results.to_json()),
            Ok(Dropped::Results(_))
        ));
        let audit = audit_file();
        assert!(matches!(
            read_dropped("a.json", &audit.to_json()),
            Ok(Dropped::Audit(_))
        ));
        let baseline = ResultsFile {
            kind: ResultsKind::Baseline,
            ..results.clone()
        };
        let e = read_dropped("b.json", &baseline.to_json()).err().unwrap();
        assert_eq!(
            e,
            "b.json holds a baseline's results: the auditor audits model runs"
        );
        let e = read_dropped("x.txt", "hello").err().unwrap();
        assert!(e.starts_with("x.txt is not a JSON file ("), "{e}");
        let e = read_dropped("t.json", r#"{"format": "playbench-task/1"}"#)
            .err()
            .unwrap();
        assert!(
            e.starts_with("t.json is a playbench-task/1 file: drop a results file"),
            "{e}"
        );
        let e = read_dropped("o.json", "{}").err().unwrap();
        assert!(e.starts_with("o.json is not a Playbench file"), "{e}");
        let bad = results
            .to_json()
            .replace("\"suite_version\": 1", "\"suite_version\": 99");
        let e = read_dropped("v.json", &bad).err().unwrap();
        assert!(
            e.starts_with("v.json is not a usable results file: "),
            "{e}"
        );
    }
}
