//! Actions beyond buttons: a text box for an action's text form (the parser's message
//! beside it when it does not read), and for a parametric action space one small form
//! per function generated from its arguments (`crate::action_form`): numbers with
//! their bounds and sliders, a cell picker, a permutation or word typed and checked.
//! Every control is labelled and reachable by keyboard.

use envs::core::action::{ActionFn, ArgKind, Call};
use leptos::prelude::*;

use crate::action_form::{inputs, ActionForms, InputKind};

/// The largest grid drawn as a picker of buttons (larger ones keep row and column).
const PICKER_MAX_CELLS: u32 = 100;

/// The text form: type an action as a model would write it, play it with Enter.
#[component]
pub fn ActionText(
    /// Plays the text; an `Err` is shown next to the box.
    on_play: Callback<String, Result<(), String>>,
    /// An example of the text form (the placeholder).
    #[prop(optional, into)]
    example: String,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match on_play.run(text.get_untracked()) {
            Ok(()) => {
                error.set(None);
                text.set(String::new());
            }
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <form class="action-text" on:submit=submit data-testid="action-text-form">
            <label for="action-text">"Type an action"</label>
            <div class="action-text-row">
                <input
                    id="action-text"
                    type="text"
                    autocomplete="off"
                    spellcheck="false"
                    data-testid="action-text"
                    placeholder=example
                    aria-describedby="action-text-error"
                    aria-invalid=move || error.with(Option::is_some).then_some("true")
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                />
                <button type="submit" data-testid="action-text-play">"Play"</button>
            </div>
            <p id="action-text-error" class="field-error" role="alert" data-testid="action-text-error">
                {move || error.get()}
            </p>
        </form>
    }
}

/// The forms of a parametric action space.
#[component]
pub fn ActionForm(
    functions: Vec<ActionFn>,
    /// Plays a call; an `Err` is shown under the form.
    on_play: Callback<Call, Result<(), String>>,
    /// A call in the environment's text form (the preview).
    text_of: Callback<Call, String>,
) -> impl IntoView {
    let forms = RwSignal::new(ActionForms::new(functions.clone()));
    let played_error = RwSignal::new(None::<String>);
    let names: Vec<String> = functions.iter().map(|f| f.name.clone()).collect();
    let chooser = (names.len() > 1).then(|| {
        view! {
            <div class="form-row">
                <label for="form-function">"Action"</label>
                <select
                    id="form-function"
                    data-testid="form-function"
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        forms.update(|f| f.choose(&name));
                        played_error.set(None);
                    }
                >
                    {names
                        .into_iter()
                        .map(|n| view! { <option value=n.clone()>{n.clone()}</option> })
                        .collect_view()}
                </select>
            </div>
        }
    });
    let chosen = Memo::new(move |_| forms.with(|f| f.chosen));
    let call = Memo::new(move |_| {
        forms.with(|f| f.current().map(|c| c.call()).unwrap_or(Err(String::new())))
    });
    let preview = move || match call.get() {
        Ok(c) => view! {
            <p class="form-preview" data-testid="form-preview">
                "Plays " <code>{text_of.run(c)}</code>
            </p>
        }
        .into_any(),
        Err(e) => view! {
            <p class="field-error" role="alert" data-testid="form-error">{e}</p>
        }
        .into_any(),
    };
    let play = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if let Ok(c) = call.get_untracked() {
            played_error.set(on_play.run(c).err());
        }
    };
    view! {
        <form class="action-form" on:submit=play data-testid="action-form" aria-label="Build an action">
            {chooser}
            {move || {
                let i = chosen.get();
                let function = forms.with_untracked(|f| f.forms.get(i).map(|c| c.function.clone()));
                function.map(|f| view! { <FunctionFields function=f forms=forms /> })
            }}
            {preview}
            <button type="submit" data-testid="form-play" disabled=move || call.with(Result::is_err)>
                "Play this action"
            </button>
            <p class="field-error" role="alert" data-testid="form-played-error">{move || played_error.get()}</p>
        </form>
    }
}

/// The inputs of one function's arguments.
#[component]
fn FunctionFields(function: ActionFn, forms: RwSignal<ActionForms>) -> impl IntoView {
    let doc = (!function.doc.is_empty())
        .then(|| view! { <p class="hint" data-testid="form-doc">{function.doc.clone()}</p> });
    let args = function
        .args
        .iter()
        .enumerate()
        .map(|(a, arg)| {
            let fields = inputs(arg)
                .into_iter()
                .enumerate()
                .map(|(k, spec)| view! { <ArgInput arg=a input=k spec=spec forms=forms /> })
                .collect_view();
            let picker = match arg.kind {
                ArgKind::Cell { rows, cols } if rows * cols <= PICKER_MAX_CELLS => {
                    Some(view! { <CellPicker arg=a rows=rows cols=cols forms=forms /> })
                }
                _ => None,
            };
            let error = move || {
                forms.with(|f| {
                    f.current()
                        .and_then(|c| c.errors().get(a).cloned().flatten())
                })
            };
            view! {
                <fieldset class="form-arg" data-testid=format!("form-arg-{a}")>
                    <legend>{arg.name.clone()}</legend>
                    {fields}
                    {picker}
                    <p class="field-error" data-testid=format!("form-arg-error-{a}")>{error}</p>
                </fieldset>
            }
        })
        .collect_view();
    view! { {doc} {args} }
}

/// One input of an argument: a number (with a slider where the range is short) or text.
#[component]
fn ArgInput(
    arg: usize,
    input: usize,
    spec: crate::action_form::InputSpec,
    forms: RwSignal<ActionForms>,
) -> impl IntoView {
    let id = format!("form-{arg}-{input}");
    let value = move || {
        forms.with(|f| {
            f.current()
                .and_then(|c| c.texts.get(arg).and_then(|t| t.get(input)).cloned())
                .unwrap_or_default()
        })
    };
    let set = move |text: String| {
        forms.update(|f| {
            if let Some(c) = f.current_mut() {
                c.set(arg, input, &text);
            }
        })
    };
    let hint_id = format!("{id}-hint");
    let hint = spec
        .hint
        .clone()
        .map(|h| view! { <span class="hint" id=hint_id.clone()>{h}</span> });
    let described = spec.hint.is_some().then(|| hint_id.clone());
    let field = match spec.kind {
        InputKind::Number {
            min,
            max,
            step,
            slider,
        } => {
            let step_text = step.map_or_else(|| "any".to_string(), |s| s.to_string());
            let slider = slider.then(|| {
                let range_step =
                    step.map_or_else(|| ((max - min) / 100.0).to_string(), |s| s.to_string());
                view! {
                    <input
                        type="range"
                        min=min.to_string()
                        max=max.to_string()
                        step=range_step
                        aria-label=format!("{} (slider)", spec.label)
                        data-testid=format!("form-slider-{arg}-{input}")
                        prop:value=value
                        on:input=move |ev| set(event_target_value(&ev))
                    />
                }
            });
            view! {
                <input
                    id=id.clone()
                    type="number"
                    min=min.to_string()
                    max=max.to_string()
                    step=step_text
                    data-testid=format!("form-input-{arg}-{input}")
                    prop:value=value
                    on:input=move |ev| set(event_target_value(&ev))
                />
                {slider}
            }
            .into_any()
        }
        InputKind::Text { max_len } => view! {
            <input
                id=id.clone()
                type="text"
                autocomplete="off"
                spellcheck="false"
                maxlength=max_len.map(|n| n.to_string())
                aria-describedby=described
                data-testid=format!("form-input-{arg}-{input}")
                prop:value=value
                on:input=move |ev| set(event_target_value(&ev))
            />
        }
        .into_any(),
    };
    view! {
        <div class="form-row">
            <label for=id>{spec.label.clone()}</label>
            {field}
            {hint}
        </div>
    }
}

/// A cell argument as a grid of buttons, the chosen cell pressed.
#[component]
fn CellPicker(arg: usize, rows: u32, cols: u32, forms: RwSignal<ActionForms>) -> impl IntoView {
    let chosen = move || {
        forms.with(|f| {
            f.current().and_then(|c| {
                let t = c.texts.get(arg)?;
                Some((
                    t.first()?.trim().parse::<u32>().ok()?,
                    t.get(1)?.trim().parse::<u32>().ok()?,
                ))
            })
        })
    };
    let cells = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .map(|(r, c)| {
            let pressed = move || (chosen() == Some((r, c))).to_string();
            view! {
                <button
                    type="button"
                    class="cell"
                    aria-label=format!("row {r}, column {c}")
                    aria-pressed=pressed
                    data-testid=format!("cell-{arg}-{r}-{c}")
                    on:click=move |_| forms.update(|f| {
                        if let Some(form) = f.current_mut() {
                            form.pick_cell(arg, r, c);
                        }
                    })
                ></button>
            }
        })
        .collect_view();
    view! {
        <div
            class="cell-picker"
            role="group"
            aria-label="Pick a cell"
            style:grid-template-columns=format!("repeat({cols}, 1.6rem)")
        >
            {cells}
        </div>
    }
}

/// A parametric action space's form controls and text box (nothing when `functions`
/// is empty: presets keep their buttons and keys).
#[component]
pub fn ParametricInput(
    functions: Signal<Vec<ActionFn>>,
    play_call: Callback<Call, Result<(), String>>,
    play_text: Callback<String, Result<(), String>>,
    /// A call in the environment's text form.
    text_of: Callback<Call, String>,
) -> impl IntoView {
    move || {
        let functions = functions.get();
        let first = functions.first()?.clone();
        // Untracked: the form and the box must outlive the steps they play (a tracked
        // read here would rebuild them, losing the text typed and the error shown).
        let example = untrack(|| {
            crate::action_form::CallForm::new(first)
                .call()
                .map(|c| text_of.run(c))
                .unwrap_or_default()
        });
        Some(view! {
            <section class="parametric" aria-labelledby="parametric-title">
                <h2 class="panel-title" id="parametric-title">"Build an action"</h2>
                <ActionForm functions=functions on_play=play_call text_of=text_of />
                <ActionText example=example on_play=play_text />
            </section>
        })
    }
}
