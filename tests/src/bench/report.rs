//! The benchmark's figures side by side: each repetition's reference, native and wasm
//! measurements, the ratios to the reference (min and median over repetitions), the
//! table, the worst environment per family, the JSON record and a chart per family.

use serde::Serialize;

use super::{BenchCase, Measured};
use crate::speed::Figure;

/// The wasm targets: steps and frames per second as a multiple of the reference's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Targets {
    pub steps: f64,
    pub frames: f64,
}

/// Against a Python reference (the performance issue's targets).
pub const PYTHON_TARGETS: Targets = Targets {
    steps: 100.0,
    frames: 20.0,
};
/// Against ALE, whose emulator is C++: at least as fast (the Atari issue's target).
pub const ATARI_TARGETS: Targets = Targets {
    steps: 1.0,
    frames: 1.0,
};

/// The targets of a family (by its label).
pub fn targets(family: &str) -> Targets {
    if family == envs::atari::FAMILY.label {
        ATARI_TARGETS
    } else {
        PYTHON_TARGETS
    }
}

/// One repetition: every side measured once over the cases, one after the other.
#[derive(Default)]
pub struct Repetition {
    pub reference: Vec<Figure>,
    pub native: Vec<Measured>,
    pub wasm: Vec<Measured>,
}

/// One side's figure in each repetition (`None`: not measured or failed).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Series {
    pub steps_per_s: Vec<Option<f64>>,
    pub frames_per_s: Vec<Option<f64>>,
}

/// `ours / reference` over the repetitions where both were measured.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Ratio {
    pub min: f64,
    pub median: f64,
}

/// Everything measured for one case.
#[derive(Clone, Debug, Serialize)]
pub struct CaseFigures {
    pub name: String,
    pub env: String,
    pub family: String,
    pub reference: Series,
    pub native: Series,
    pub wasm: Series,
    pub wasm_steps: Option<Ratio>,
    pub wasm_frames: Option<Ratio>,
    pub native_steps: Option<Ratio>,
    pub native_frames: Option<Ratio>,
}

/// Gathers the repetitions per case.
pub fn collect(cases: &[&BenchCase], reps: &[Repetition]) -> Vec<CaseFigures> {
    cases
        .iter()
        .map(|case| {
            let reference = Series {
                steps_per_s: reps
                    .iter()
                    .map(|r| find_figure(&r.reference, case.name).map(|f| f.steps_per_s))
                    .collect(),
                frames_per_s: reps
                    .iter()
                    .map(|r| find_figure(&r.reference, case.name).and_then(|f| f.frames_per_s))
                    .collect(),
            };
            let ours = |side: fn(&Repetition) -> &[Measured]| Series {
                steps_per_s: reps
                    .iter()
                    .map(|r| find_measured(side(r), case.name).map(|m| m.steps_per_s))
                    .collect(),
                frames_per_s: reps
                    .iter()
                    .map(|r| find_measured(side(r), case.name).map(|m| m.frames_per_s))
                    .collect(),
            };
            let native = ours(|r| &r.native);
            let wasm = ours(|r| &r.wasm);
            CaseFigures {
                name: case.name.to_string(),
                env: case.env.to_string(),
                family: case.family().to_string(),
                wasm_steps: ratio(&wasm.steps_per_s, &reference.steps_per_s),
                wasm_frames: ratio(&wasm.frames_per_s, &reference.frames_per_s),
                native_steps: ratio(&native.steps_per_s, &reference.steps_per_s),
                native_frames: ratio(&native.frames_per_s, &reference.frames_per_s),
                reference,
                native,
                wasm,
            }
        })
        .collect()
}

fn find_figure<'a>(figures: &'a [Figure], name: &str) -> Option<&'a Figure> {
    figures.iter().find(|f| f.name == name)
}

fn find_measured<'a>(figures: &'a [Measured], name: &str) -> Option<&'a Measured> {
    figures.iter().find(|m| m.name == name)
}

/// The min and median of `ours[i] / theirs[i]` over the repetitions with both.
pub fn ratio(ours: &[Option<f64>], theirs: &[Option<f64>]) -> Option<Ratio> {
    let mut ratios: Vec<f64> = ours
        .iter()
        .zip(theirs)
        .filter_map(|(o, t)| Some(o.as_ref()? / t.filter(|t| *t > 0.0)?))
        .collect();
    ratios.sort_by(f64::total_cmp);
    Some(Ratio {
        min: *ratios.first()?,
        median: median_of_sorted(&ratios)?,
    })
}

/// The median of the values that are there.
pub fn median(values: &[Option<f64>]) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().flatten().copied().collect();
    v.sort_by(f64::total_cmp);
    median_of_sorted(&v)
}

fn median_of_sorted(v: &[f64]) -> Option<f64> {
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

fn cell(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.0}"))
}

/// A ratio as a number: whole above 10, two decimals below (the Atari ratios are near 1).
fn number(v: f64) -> String {
    if v >= 10.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn times(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{}x", number(v)))
}

/// `min/median`, with `!` when the median misses `target`.
fn ratio_cell(r: Option<Ratio>, target: f64) -> String {
    r.map_or("-".into(), |r| {
        let flag = if r.median < target { "!" } else { "" };
        format!("{}/{}x{flag}", number(r.min), number(r.median))
    })
}

/// The table: medians of steps and frames per second for each side, and the ratios to
/// the reference (wasm: min/median, `!` below target; native: median).
pub fn table(figures: &[CaseFigures]) -> String {
    let mut out = format!(
        "{:<34} {:>9} {:>9} {:>10} {:>7} | {:>7} {:>7} {:>8} {:>7}\n",
        "env",
        "ref st/s",
        "wasm st/s",
        "wasm/ref",
        "nat/ref",
        "ref fps",
        "wasm fps",
        "wasm/ref",
        "nat/ref"
    );
    for f in figures {
        let target = targets(&f.family);
        out.push_str(&format!(
            "{:<34} {:>9} {:>9} {:>10} {:>7} | {:>7} {:>7} {:>8} {:>7}\n",
            f.name,
            cell(median(&f.reference.steps_per_s)),
            cell(median(&f.wasm.steps_per_s)),
            ratio_cell(f.wasm_steps, target.steps),
            times(f.native_steps.map(|r| r.median)),
            cell(median(&f.reference.frames_per_s)),
            cell(median(&f.wasm.frames_per_s)),
            ratio_cell(f.wasm_frames, target.frames),
            times(f.native_frames.map(|r| r.median)),
        ));
    }
    out.push_str(&format!(
        "ratios: min/median over repetitions; targets: wasm steps/s >= {:.0}x and frames/s \
         >= {:.0}x the reference, Atari >= {:.0}x both against ALE's C++ ('!' where the \
         median misses)\n",
        PYTHON_TARGETS.steps, PYTHON_TARGETS.frames, ATARI_TARGETS.steps
    ));
    out
}

/// The families of the figures, in their first order.
pub fn families(figures: &[CaseFigures]) -> Vec<&str> {
    let mut families: Vec<&str> = Vec::new();
    for f in figures {
        if !families.contains(&f.family.as_str()) {
            families.push(&f.family);
        }
    }
    families
}

/// Per family, the environment with the lowest median wasm ratio, for steps and for
/// frames, and how many miss the target.
pub fn worst_per_family(figures: &[CaseFigures]) -> String {
    let mut out = String::new();
    for family in families(figures) {
        let members: Vec<&CaseFigures> = figures.iter().filter(|f| f.family == family).collect();
        let target = targets(family);
        let line = |pick: fn(&CaseFigures) -> Option<Ratio>, target: f64| {
            let rated: Vec<(&str, f64)> = members
                .iter()
                .filter_map(|f| Some((f.name.as_str(), pick(f)?.median)))
                .collect();
            let below = rated.iter().filter(|(_, r)| *r < target).count();
            match rated.iter().min_by(|a, b| a.1.total_cmp(&b.1)) {
                Some((name, r)) => format!(
                    "worst {name} {}x ({below} below {}x)",
                    number(*r),
                    number(target)
                ),
                None => "not measured".into(),
            }
        };
        out.push_str(&format!(
            "{family} ({} ids): steps {}; frames {}\n",
            members.len(),
            line(|f| f.wasm_steps, target.steps),
            line(|f| f.wasm_frames, target.frames),
        ));
    }
    out
}

/// A horizontal bar chart (SVG) of one family's median wasm ratios, steps and frames,
/// on a log scale of four decades from a tenth of the lower target (at most 1x), with
/// the two targets marked.
pub fn chart_svg(family: &str, figures: &[CaseFigures]) -> String {
    const LEFT: f64 = 260.0;
    const WIDTH: f64 = 480.0;
    const ROW: f64 = 22.0;
    const TOP: f64 = 40.0;
    let members: Vec<&CaseFigures> = figures.iter().filter(|f| f.family == family).collect();
    let height = TOP + ROW * members.len() as f64 + 30.0;
    let target = targets(family);
    let low = 10f64.powf(
        ((target.steps.min(target.frames) / 10.0).log10() + 1e-9)
            .floor()
            .min(0.0),
    );
    let x = |ratio: f64| LEFT + WIDTH * ((ratio / low).clamp(1.0, 10_000.0).log10() / 4.0);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>{family}: wasm speed over the reference</title>\n\
         <text x=\"8\" y=\"18\" font-weight=\"bold\">{family}: wasm / reference (median); \
         blue steps/s, orange frames/s</text>\n",
        w = LEFT + WIDTH + 60.0,
        family = escape(family),
    );
    for decade in 0..=4 {
        let v = low * 10f64.powi(decade);
        let gx = x(v);
        svg.push_str(&format!(
            "<line x1=\"{gx}\" y1=\"{TOP}\" x2=\"{gx}\" y2=\"{y2}\" stroke=\"#ddd\"/>\
             <text x=\"{gx}\" y=\"{ty}\" text-anchor=\"middle\">{label}x</text>\n",
            y2 = height - 25.0,
            ty = height - 10.0,
            label = number(v),
        ));
    }
    for (target, colour) in [(target.steps, "#1f5fbf"), (target.frames, "#d9731a")] {
        let gx = x(target);
        svg.push_str(&format!(
            "<line x1=\"{gx}\" y1=\"{TOP}\" x2=\"{gx}\" y2=\"{y2}\" stroke=\"{colour}\" \
             stroke-dasharray=\"4 3\"/>\n",
            y2 = height - 25.0,
        ));
    }
    for (i, f) in members.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        svg.push_str(&format!(
            "<text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{name}</text>\n",
            tx = LEFT - 6.0,
            ty = y + 14.0,
            name = escape(&f.name),
        ));
        for (offset, ratio, colour) in [
            (2.0, f.wasm_steps, "#1f5fbf"),
            (11.0, f.wasm_frames, "#d9731a"),
        ] {
            if let Some(r) = ratio {
                svg.push_str(&format!(
                    "<rect x=\"{LEFT}\" y=\"{ry}\" width=\"{rw:.1}\" height=\"8\" fill=\"{colour}\">\
                     <title>{r:.1}x</title></rect>\n",
                    ry = y + offset,
                    rw = x(r.median) - LEFT,
                    r = r.median,
                ));
            }
        }
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(name: &str, steps: f64, frames: f64) -> Figure {
        Figure {
            name: name.into(),
            steps_per_s: steps,
            frames_per_s: Some(frames),
        }
    }

    fn measured(name: &str, steps: f64, frames: f64) -> Measured {
        Measured {
            name: name.into(),
            steps_per_s: steps,
            frames_per_s: frames,
        }
    }

    #[test]
    fn ratios_pair_repetitions_and_skip_the_missing() {
        let r = ratio(
            &[Some(100.0), Some(300.0), None, Some(50.0)],
            &[Some(1.0), Some(2.0), Some(4.0), None],
        )
        .unwrap();
        assert_eq!(
            r,
            Ratio {
                min: 100.0,
                median: 125.0
            }
        );
        assert_eq!(ratio(&[None], &[Some(1.0)]), None);
        assert_eq!(ratio(&[Some(1.0)], &[Some(0.0)]), None);
        assert_eq!(median(&[Some(3.0), None, Some(1.0), Some(2.0)]), Some(2.0));
    }

    #[test]
    fn the_report_names_the_worst_environment_and_flags_misses() {
        let cases = super::super::cases_matching(Some("Taxi"));
        let mut cartpole = super::super::cases_matching(Some("CartPole"));
        let cases: Vec<&BenchCase> = cases.into_iter().chain(cartpole.drain(..)).collect();
        let reps: Vec<Repetition> = [1.0, 2.0, 3.0]
            .iter()
            .map(|k| Repetition {
                reference: vec![
                    figure("Taxi", 1_000.0, 100.0),
                    figure("CartPole-v1", 1_000.0, 10.0),
                ],
                native: vec![measured("Taxi", 500_000.0, 9_000.0)],
                wasm: vec![
                    measured("Taxi", 50_000.0 * k, 2_500.0),
                    measured("CartPole-v1", 200_000.0, 300.0 * k),
                ],
            })
            .collect();
        let figures = collect(&cases, &reps);
        assert_eq!(figures[0].family, "Toy Text");
        assert_eq!(
            figures[0].wasm_steps,
            Some(Ratio {
                min: 50.0,
                median: 100.0
            })
        );
        assert_eq!(figures[1].native_steps, None);
        let table = table(&figures);
        assert!(table.contains("50/100x "), "{table}");
        assert!(table.contains("25/25x "), "{table}");
        assert!(table.contains("30/60x "), "{table}");
        let worst = worst_per_family(&figures);
        assert!(
            worst.contains("Toy Text (1 ids): steps worst Taxi 100x (0 below 100x)"),
            "{worst}"
        );
        assert!(
            worst.contains("Classic Control (1 ids): steps worst CartPole-v1 200x"),
            "{worst}"
        );
        let svg = chart_svg("Toy Text", &figures);
        assert!(
            svg.starts_with("<svg") && svg.contains(">Taxi</text>"),
            "{svg}"
        );
        assert_eq!(svg.matches("<rect").count(), 2);
        assert!(!chart_svg("Toy Text", &figures).contains("CartPole"));
    }

    #[test]
    fn visgym_and_gameverse_are_measured_by_their_own_code_with_our_presets_texts() {
        use super::super::{cases_matching, Reference};
        let cases = cases_matching(Some("maze_2d/easy,Snake"));
        assert_eq!(
            cases
                .iter()
                .map(|c| (c.name, c.reference))
                .collect::<Vec<_>>(),
            [
                ("maze_2d/easy", Reference::VisGym),
                ("Snake", Reference::GameVerse)
            ]
        );
        for case in cases {
            let job = case.to_json();
            let env = envs::make(case.env, &Default::default()).unwrap();
            assert_eq!(job["actions"], serde_json::json!(env.action_names()));
            assert!(job["actions"].as_array().is_some_and(|a| a.len() >= 4));
            assert_eq!(job["reference"], case.reference.key());
        }
        assert!(cases_matching(Some("Taxi"))[0]
            .to_json()
            .get("actions")
            .is_none());
        let families: Vec<String> = cases_matching(Some("/easy,/hard,GameVerse,2048,TicTacToe"))
            .iter()
            .map(|c| c.family().to_string())
            .collect();
        assert_eq!(families.iter().filter(|f| *f == "VisGym").count(), 14);
        assert!(families.iter().any(|f| f == "GameVerse"));
    }

    #[test]
    fn atari_is_held_to_ale_speed_with_ratios_in_hundredths() {
        let cases = super::super::cases_matching(Some("Breakout"));
        assert_eq!(
            cases.iter().map(|c| c.name).collect::<Vec<_>>(),
            ["Breakout-v5", "Breakout-emulation"]
        );
        assert_eq!(
            (cases[0].reference, cases[1].reference),
            (
                super::super::Reference::Gym,
                super::super::Reference::AleAct
            )
        );
        assert_eq!(cases[1].to_json()["kwargs"]["frameskip"], 1);
        let reps = vec![Repetition {
            reference: vec![
                figure("Breakout-v5", 3_000.0, 2_800.0),
                figure("Breakout-emulation", 12_000.0, 10_000.0),
            ],
            native: Vec::new(),
            wasm: vec![
                measured("Breakout-v5", 3_300.0, 2_660.0),
                measured("Breakout-emulation", 12_600.0, 10_000.0),
            ],
        }];
        let figures = collect(&cases, &reps);
        assert_eq!(figures[0].family, "Atari (ALE)");
        assert_eq!(targets(&figures[0].family), ATARI_TARGETS);
        let table = table(&figures);
        assert!(table.contains("1.10/1.10x "), "{table}");
        assert!(table.contains("0.95/0.95x!"), "{table}");
        assert!(table.contains("1.05/1.05x "), "{table}");
        let worst = worst_per_family(&figures);
        assert!(
            worst.contains("steps worst Breakout-emulation 1.05x (0 below 1.00x)")
                && worst.contains("frames worst Breakout-v5 0.95x (1 below 1.00x)"),
            "{worst}"
        );
        // The chart's scale starts at a tenth of the target.
        let svg = chart_svg("Atari (ALE)", &figures);
        assert!(
            svg.contains(">0.10x</text>") && svg.contains(">1000x</text>"),
            "{svg}"
        );
    }
}
