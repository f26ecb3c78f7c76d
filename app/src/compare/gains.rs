//! The gain of reflect-and-retry per condition (`docs/gameverse.md`, "Reflect and
//! retry"; GameVerse's paper compares its conditions by how much the score rises from
//! the first attempt to the last): the runs of attempts imported on `/compare`, grouped
//! by task and condition, each group's mean gain (last attempt's score minus the
//! first's) with a Student t 95% interval over its runs, and the mean score at every
//! attempt number. A t interval needs no random draws, so the same runs always give the
//! same interval.

use bench::attempts::AttemptRun;
use bench::reflect::Condition;
use bench::share::TaskRef;

use crate::compare::bootstrap::Estimate;

/// One task and condition over its runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Gain {
    pub task: String,
    /// The condition's name in the run (`none`, `failure`, …; `unspecified` if absent).
    pub condition: String,
    /// The paper's label (No, Self-F, Self-T, Self, Other) where the condition is one of
    /// GameVerse's.
    pub label: String,
    pub runs: usize,
    /// The mean gain in points; `None` as interval bounds when one run cannot give one.
    pub gain: Estimate,
    pub has_interval: bool,
    /// The mean score of attempt 1, 2, … over the runs that reached it, with how many did.
    pub by_attempt: Vec<(f64, usize)>,
    /// Where each run is among the imported runs.
    pub members: Vec<usize>,
}

/// Student's t quantile at 0.975 for 1 to 30 degrees of freedom (four decimals, as in
/// any statistics table).
const T975: [f64; 30] = [
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
    2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687,
    2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/// Student's t quantile at 0.975 for `df` degrees of freedom (at least 1): the table up
/// to 30, then the Cornish-Fisher expansion around the normal quantile (within 1e-4).
pub fn t975(df: usize) -> f64 {
    if let Some(t) = df.checked_sub(1).and_then(|i| T975.get(i)) {
        return *t;
    }
    let z: f64 = 1.959_963_985;
    let n = df as f64;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * n)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * n * n)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * n * n * n)
}

/// The mean of `values` with its t 95% interval (`None` for fewer than two values).
pub fn t_interval(values: &[f64]) -> (Estimate, bool) {
    let n = values.len();
    if n == 0 {
        return (Estimate::exact(0.0), false);
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (Estimate::exact(mean), false);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = t975(n - 1) * (var / n as f64).sqrt();
    (
        Estimate {
            value: mean,
            low: mean - half,
            high: mean + half,
        },
        true,
    )
}

/// A run's task id.
pub fn task_id(run: &AttemptRun) -> String {
    match &run.task {
        TaskRef::Suite(t) => t.task.clone(),
        TaskRef::Inline(t) => t.id.clone(),
    }
}

/// The condition's label as the paper writes it.
pub fn condition_label(name: &str) -> String {
    Condition::parse(name)
        .map(|c| c.label().to_string())
        .unwrap_or_else(|| name.to_string())
}

/// The gain of every task and condition among `runs`, by task then in the paper's order
/// of conditions (others after, by name).
pub fn gains(runs: &[AttemptRun]) -> Vec<Gain> {
    let mut groups: Vec<((String, String), Vec<usize>)> = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        if run.attempts.is_empty() {
            continue;
        }
        let key = (
            task_id(run),
            run.condition
                .clone()
                .unwrap_or_else(|| "unspecified".into()),
        );
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let order = |c: &str| {
        Condition::parse(c)
            .and_then(|c| Condition::ALL.iter().position(|x| *x == c))
            .unwrap_or(Condition::ALL.len())
    };
    groups.sort_by(|((ta, ca), _), ((tb, cb), _)| (ta, order(ca), ca).cmp(&(tb, order(cb), cb)));
    groups
        .into_iter()
        .map(|((task, condition), members)| {
            let group: Vec<&AttemptRun> = members.iter().map(|&i| &runs[i]).collect();
            let deltas: Vec<f64> = group
                .iter()
                .filter_map(|r| {
                    let first = r.attempts.first()?.record.score;
                    let last = r.attempts.last()?.record.score;
                    Some(last - first)
                })
                .collect();
            let (gain, has_interval) = t_interval(&deltas);
            let longest = group.iter().map(|r| r.attempts.len()).max().unwrap_or(0);
            let by_attempt = (0..longest)
                .map(|k| {
                    let scores: Vec<f64> = group
                        .iter()
                        .filter_map(|r| r.attempts.get(k).map(|a| a.record.score))
                        .collect();
                    (
                        scores.iter().sum::<f64>() / scores.len().max(1) as f64,
                        scores.len(),
                    )
                })
                .collect();
            Gain {
                label: condition_label(&condition),
                task,
                condition,
                runs: group.len(),
                gain,
                has_interval,
                by_attempt,
                members,
            }
        })
        .collect()
}

/// The gain as shown: `+12.5 [-3.1, 28.1]`, or `+12.5 (one run: no interval)`.
pub fn gain_text(g: &Gain) -> String {
    if g.has_interval {
        format!(
            "{:+.1} [{:+.1}, {:+.1}]",
            g.gain.value, g.gain.low, g.gain.high
        )
    } else {
        format!("{:+.1} (one run: no interval)", g.gain.value)
    }
}

/// The mean score per attempt as shown: `1: 10.0 · 2: 25.0 (1 run)`.
pub fn by_attempt_text(g: &Gain) -> String {
    g.by_attempt
        .iter()
        .enumerate()
        .map(|(k, (mean, n))| {
            if *n == g.runs {
                format!("{}: {mean:.1}", k + 1)
            } else {
                format!("{}: {mean:.1} ({n} of {} runs)", k + 1, g.runs)
            }
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench::attempts::Attempt;
    use bench::EpisodeRecord;

    fn run(task: &str, condition: Option<&str>, scores: &[f64]) -> AttemptRun {
        let suite = bench::suites::latest(bench::suites::DEFAULT_SUITE).unwrap();
        let t = suite.task("frozenlake-4x4-det-s0").unwrap();
        let record = bench::run_episode(t, &mut bench::agents::OracleAgent::new()).unwrap();
        let mut run = AttemptRun::new(TaskRef::in_suite(suite, &t.id), "m", condition);
        if let TaskRef::Suite(s) = &mut run.task {
            s.task = task.into();
        }
        run.attempts = scores
            .iter()
            .map(|&score| Attempt {
                carried_in: String::new(),
                record: EpisodeRecord {
                    score,
                    ..record.clone()
                },
                reflection: Vec::new(),
            })
            .collect();
        run
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        assert_eq!(t975(1), 12.7062);
        assert_eq!(t975(30), 2.0423);
        // Tables: 40 → 2.0211, 60 → 2.0003, 120 → 1.9799.
        assert!((t975(40) - 2.0211).abs() < 1e-4, "{}", t975(40));
        assert!((t975(60) - 2.0003).abs() < 1e-4, "{}", t975(60));
        assert!((t975(120) - 1.9799).abs() < 1e-4, "{}", t975(120));
        assert!((t975(100_000) - 1.96).abs() < 1e-3);
    }

    #[test]
    fn known_gains_give_known_intervals() {
        // Gains 10, 20, 30: mean 20, s = 10, half-width 4.3027 · 10 / √3 = 24.842.
        let runs = vec![
            run("maze-s1", Some("both"), &[0.0, 5.0, 10.0]),
            run("maze-s1", Some("both"), &[10.0, 30.0]),
            run("maze-s1", Some("both"), &[0.0, 0.0, 30.0]),
            run("maze-s1", Some("none"), &[50.0, 50.0, 50.0]),
            run("maze-s1", Some("failure"), &[0.0, 40.0, 20.0]),
            run("2048-s1", None, &[7.0]),
        ];
        let g = gains(&runs);
        let names: Vec<(&str, &str)> = g
            .iter()
            .map(|g| (g.task.as_str(), g.label.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("2048-s1", "unspecified"),
                ("maze-s1", "No"),
                ("maze-s1", "Self-F"),
                ("maze-s1", "Self")
            ]
        );
        let both = &g[3];
        assert_eq!(both.runs, 3);
        assert_eq!(both.members, [0, 1, 2]);
        assert!(both.has_interval);
        assert!(close(both.gain.value, 20.0));
        assert!(close(both.gain.low, 20.0 - 24.842), "{:?}", both.gain);
        assert!(close(both.gain.high, 20.0 + 24.842), "{:?}", both.gain);
        assert_eq!(gain_text(both), "+20.0 [-4.8, +44.8]");
        // Attempt 3 was reached by two runs of three.
        assert_eq!(
            both.by_attempt,
            [(10.0 / 3.0, 3), (35.0 / 3.0, 3), (20.0, 2)]
        );
        assert_eq!(
            by_attempt_text(both),
            "1: 3.3 · 2: 11.7 · 3: 20.0 (2 of 3 runs)"
        );
        assert_eq!(gain_text(&g[1]), "+0.0 (one run: no interval)");
        // Runs that all gain the same: a zero-width interval.
        let same = gains(&[runs[3].clone(), runs[3].clone()]);
        assert_eq!(gain_text(&same[0]), "+0.0 [+0.0, +0.0]");
        // One run: the gain, no interval (last minus first, not the best attempt).
        assert_eq!(gain_text(&g[2]), "+20.0 (one run: no interval)");
        assert_eq!(gain_text(&g[0]), "+0.0 (one run: no interval)");
        assert!(gains(&[]).is_empty());
    }
}
