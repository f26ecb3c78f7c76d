//! `/study[?suite=S]`: the organiser builds a human study — tasks of a built-in suite
//! (the default one unless `suite=` names another; filtered, then ticked),
//! instructions, demos on or off, an optional collection URL — and gets the
//! participants' link `/study/take#s=ps1.…` (the study names its suite and version).
//! The draft survives a reload (`storage_keys::STUDY_DRAFT`).

use bench::task::{Dynamics, Memory};
use bench::Suite;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::browser::storage::local;
use crate::pages::home::set_title;
use crate::pages::task::TaskLoadErrorBox;
use crate::study::draft::{take_href, StudyDraft};
use crate::suite_data;
use crate::suite_filter::{self, Filter};
use crate::task_text;

#[component]
pub fn StudyPage() -> impl IntoView {
    set_title("Build a human study · Playbench");
    let query = use_query_map();
    let wanted = Memo::new(move |_| query.with(|q| q.get_str("suite").map(str::to_string)));
    move || match suite_data::suite_for(wanted.get().as_deref()) {
        Ok(suite) => view! { <StudyBuilder suite=suite /> }.into_any(),
        Err(e) => view! { <TaskLoadErrorBox error=e /> }.into_any(),
    }
}

fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

#[component]
fn StudyBuilder(suite: &'static Suite) -> impl IntoView {
    let draft = RwSignal::new(StudyDraft::load(&local(), suite));
    let save_error = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        save_error.set(
            draft
                .with(|d| d.save(&local()))
                .err()
                .map(|e| e.to_string()),
        );
    });
    let filter = RwSignal::new(Filter::default());
    let families = suite_filter::families(suite);
    let shown = Memo::new(move |_| {
        filter.with(|f| {
            suite
                .tasks
                .iter()
                .filter(|t| f.matches(t))
                .map(|t| t.id.clone())
                .collect::<Vec<_>>()
        })
    });
    let study = Memo::new(move |_| draft.with(|d| d.to_study(suite)));
    let link = move || {
        study.with(|s| {
            s.as_ref()
                .map(|s| format!("{}{}", origin(), take_href(s)))
                .map_err(|e| e.to_string())
        })
    };

    let text_input = move |ev: leptos::ev::Event, set: fn(&mut StudyDraft, String)| {
        let v = event_target_value(&ev);
        draft.update(|d| set(d, v));
    };
    let family_options = families
        .iter()
        .map(|f| view! { <option value=f.clone()>{f.clone()}</option> })
        .collect_view();

    let rows = move || {
        shown
            .get()
            .into_iter()
            .filter_map(|id| suite.task(&id))
            .map(|t| {
                let id = t.id.clone();
                let id_check = id.clone();
                let input_id = format!("study-task-{}", t.id);
                view! {
                    <li>
                        <input
                            type="checkbox"
                            id=input_id.clone()
                            data-testid=format!("study-task-{}", t.id)
                            prop:checked=move || draft.with(|d| d.is_chosen(&id_check))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                draft.update(|d| d.set_chosen(suite, &id, on));
                            }
                        />
                        <label for=input_id>
                            {task_text::title(t).to_string()}
                            " "
                            <code>{t.id.clone()}</code>
                        </label>
                    </li>
                }
            })
            .collect_view()
    };
    let chosen_list = move || {
        draft.with(|d| {
            d.tasks
                .iter()
                .enumerate()
                .map(|(i, id)| view! { <li>{format!("{}. ", i + 1)}<code>{id.clone()}</code></li> })
                .collect_view()
        })
    };

    view! {
        <div class="study-builder">
            <h1>"Build a human study"</h1>
            <p class="muted">
                "Choose tasks, write the instructions and share the link. Each participant enters a code, \
                 reads the instructions, then plays every task in order under the agents' exact conditions \
                 (same budget, frame skip and hidden reward). Progress is saved after every task; at the end \
                 the participant downloads a results file, which is also sent to your collection address if you give one."
            </p>
            {move || save_error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            <section class="study-section" aria-labelledby="study-about">
                <h2 id="study-about">"The study"</h2>
                <label class="field">
                    <span>"Title"</span>
                    <input
                        type="text"
                        data-testid="study-title"
                        prop:value=move || draft.with(|d| d.title.clone())
                        on:input=move |ev| text_input(ev, |d, v| d.title = v)
                    />
                </label>
                <label class="field">
                    <span>"Study id (names the participants' saved progress)"</span>
                    <input
                        type="text"
                        data-testid="study-id"
                        placeholder=move || draft.with(StudyDraft::effective_id)
                        prop:value=move || draft.with(|d| d.id.clone())
                        on:input=move |ev| text_input(ev, |d, v| d.id = v)
                    />
                </label>
                <label class="field">
                    <span>"Instructions for participants"</span>
                    <textarea
                        rows="5"
                        data-testid="study-instructions"
                        prop:value=move || draft.with(|d| d.instructions.clone())
                        on:input=move |ev| text_input(ev, |d, v| d.instructions = v)
                    ></textarea>
                </label>
                <label class="toggle">
                    <input
                        type="checkbox"
                        data-testid="study-show-demos"
                        prop:checked=move || draft.with(|d| d.show_demos)
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            draft.update(|d| d.show_demos = on);
                        }
                    />
                    "Show each task's demonstrations before it is played"
                </label>
                <label class="field">
                    <span>"Collection URL (optional): results are POSTed there as JSON"</span>
                    <input
                        type="url"
                        data-testid="study-collect-url"
                        placeholder="https://example.org/collect"
                        prop:value=move || draft.with(|d| d.collect_url.clone())
                        on:input=move |ev| text_input(ev, |d, v| d.collect_url = v)
                    />
                </label>
            </section>
            <section class="study-section" aria-labelledby="study-tasks">
                <h2 id="study-tasks">"Tasks"</h2>
                <div class="study-filters" role="group" aria-label="Filter the suite">
                    <label>
                        "Family "
                        <select
                            data-testid="study-filter-family"
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                filter.update(|f| f.family = (!v.is_empty()).then_some(v));
                            }
                        >
                            <option value="">"any"</option>
                            {family_options}
                        </select>
                    </label>
                    <label>
                        "Memory "
                        <select on:change=move |ev| {
                            let v = event_target_value(&ev);
                            filter.update(|f| f.memory = match v.as_str() {
                                "single" => Some(Memory::Single),
                                "multiple" => Some(Memory::Multiple),
                                _ => None,
                            });
                        }>
                            <option value="">"any"</option>
                            <option value="single">"single"</option>
                            <option value="multiple">"multiple"</option>
                        </select>
                    </label>
                    <label>
                        "Dynamics "
                        <select on:change=move |ev| {
                            let v = event_target_value(&ev);
                            filter.update(|f| f.dynamics = match v.as_str() {
                                "static" => Some(Dynamics::Static),
                                "dynamic" => Some(Dynamics::Dynamic),
                                _ => None,
                            });
                        }>
                            <option value="">"any"</option>
                            <option value="static">"static"</option>
                            <option value="dynamic">"dynamic"</option>
                        </select>
                    </label>
                    <button
                        type="button"
                        class="secondary"
                        data-testid="study-choose-shown"
                        on:click=move |_| draft.update(|d| d.set_all(suite, &shown.get_untracked(), true))
                    >
                        "Choose all shown"
                    </button>
                    <button
                        type="button"
                        class="secondary"
                        on:click=move |_| draft.update(|d| d.set_all(suite, &shown.get_untracked(), false))
                    >
                        "Clear all shown"
                    </button>
                </div>
                <p class="muted">{move || format!("{} tasks shown", shown.with(Vec::len))}</p>
                <ul class="study-task-list">{rows}</ul>
                <h3>{move || format!("Chosen, in playing order ({})", draft.with(|d| d.tasks.len()))}</h3>
                <ol class="study-chosen" data-testid="study-chosen">{chosen_list}</ol>
            </section>
            <section class="study-section study-link-box" aria-labelledby="study-link-title">
                <h2 id="study-link-title">"The participants' link"</h2>
                {move || match link() {
                    Ok(url) => {
                        let copy_url = url.clone();
                        view! {
                            <label class="field">
                                <span>"Send this link to participants"</span>
                                <input type="text" readonly data-testid="study-link" prop:value=url.clone() />
                            </label>
                            <p>
                                <button
                                    type="button"
                                    on:click=move |_| {
                                        if let Some(w) = web_sys::window() {
                                            let _ = w.navigator().clipboard().write_text(&copy_url);
                                        }
                                    }
                                >
                                    "Copy link"
                                </button>
                                " "
                                <a href=url target="_blank" rel="noopener" data-testid="study-open">"Open it"</a>
                            </p>
                        }
                        .into_any()
                    }
                    Err(e) => view! {
                        <p class="notice" data-testid="study-invalid" role="status">
                            {format!("Not ready yet: {e}")}
                        </p>
                    }
                    .into_any(),
                }}
            </section>
        </div>
    }
}
