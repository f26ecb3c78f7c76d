//! How far the judge agrees with the exact milestones (`docs/judge.md`, "Agreement"):
//! per episode and pooled over every judged milestone, the agreement rate, false
//! completions (the judge says completed, the replay says not), missed completions (the
//! reverse) and Cohen's kappa where it is defined (chance agreement below 1) — the
//! measure of the judge's reliability GameVerse's paper estimates only against people
//! (its Table 9).

use serde::{Deserialize, Serialize};

/// The two answers for one milestone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub judge: bool,
    pub exact: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// Milestones compared.
    pub milestones: usize,
    /// Both say completed / both say not.
    pub both_completed: usize,
    pub both_not: usize,
    /// The judge says completed, the replay says not.
    pub false_completions: usize,
    /// The replay says completed, the judge says not.
    pub missed_completions: usize,
    /// Share of milestones where they agree (0-1); absent with no milestones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agreement_rate: Option<f64>,
    /// Cohen's kappa; absent when chance agreement is 1 (both answered one way
    /// throughout), where it is undefined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kappa: Option<f64>,
}

impl Agreement {
    pub fn of(pairs: &[Pair]) -> Self {
        let count = |judge: bool, exact: bool| {
            pairs
                .iter()
                .filter(|p| p.judge == judge && p.exact == exact)
                .count()
        };
        let mut a = Agreement {
            milestones: pairs.len(),
            both_completed: count(true, true),
            both_not: count(false, false),
            false_completions: count(true, false),
            missed_completions: count(false, true),
            agreement_rate: None,
            kappa: None,
        };
        if pairs.is_empty() {
            return a;
        }
        let n = pairs.len() as f64;
        let observed = (a.both_completed + a.both_not) as f64 / n;
        let judge_yes = (a.both_completed + a.false_completions) as f64 / n;
        let exact_yes = (a.both_completed + a.missed_completions) as f64 / n;
        let chance = judge_yes * exact_yes + (1.0 - judge_yes) * (1.0 - exact_yes);
        a.agreement_rate = Some(observed);
        a.kappa = (chance < 1.0).then(|| (observed - chance) / (1.0 - chance));
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(v: &[(bool, bool)]) -> Vec<Pair> {
        v.iter()
            .map(|&(judge, exact)| Pair { judge, exact })
            .collect()
    }

    #[test]
    fn kappa_and_counts() {
        // 2×2 table: 20 both yes, 5 judge-only, 10 exact-only, 15 both no.
        let mut v = Vec::new();
        v.extend(std::iter::repeat_n((true, true), 20));
        v.extend(std::iter::repeat_n((true, false), 5));
        v.extend(std::iter::repeat_n((false, true), 10));
        v.extend(std::iter::repeat_n((false, false), 15));
        let a = Agreement::of(&pairs(&v));
        assert_eq!((a.false_completions, a.missed_completions), (5, 10));
        assert_eq!(a.agreement_rate, Some(0.7));
        // po 0.7, pe 0.5·0.6 + 0.5·0.4 = 0.5, kappa 0.4.
        assert!((a.kappa.unwrap() - 0.4).abs() < 1e-12);
    }

    #[test]
    fn kappa_is_undefined_when_both_always_answer_alike() {
        let a = Agreement::of(&pairs(&[(true, true), (true, true)]));
        assert_eq!((a.agreement_rate, a.kappa), (Some(1.0), None));
        let a = Agreement::of(&pairs(&[(true, false), (true, true)]));
        assert_eq!(a.kappa, Some(0.0));
        assert_eq!(Agreement::of(&[]).agreement_rate, None);
    }
}
