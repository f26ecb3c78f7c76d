//! The part of a model run's form shared by the one-task and suite pages: which
//! endpoint profile (its key entered here or on /models), and the run settings
//! (protocol controls, image encoding), kept in local storage.

use bench::protocol::parse::Strictness;
use bench::protocol::session::{
    GameVerseAgent, HistoryWindow, ObservationMode, Protocol, RewardMode,
};
use leptos::prelude::*;

use crate::browser::keys;
use crate::browser::storage::local;
use crate::runner::profiles::Profiles;
use crate::runner::settings::{ImageFormat, RunSettings};

/// The profiles and settings a run page works with.
#[derive(Clone, Copy)]
pub struct RunSetupState {
    pub profiles: RwSignal<Profiles>,
    pub settings: RwSignal<RunSettings>,
    /// The key typed for the selected profile (entered here or remembered).
    pub key: RwSignal<String>,
    pub warning: RwSignal<Option<String>>,
}

impl RunSetupState {
    pub fn load() -> Self {
        let (profiles, warning) = keys::load_profiles();
        let key = keys::key(&profiles.current().name).unwrap_or_default();
        Self {
            profiles: RwSignal::new(profiles),
            settings: RwSignal::new(RunSettings::load(&local())),
            key: RwSignal::new(key),
            warning: RwSignal::new(warning),
        }
    }

    fn save_settings(&self) {
        if let Err(e) = self.settings.get_untracked().save(&local()) {
            self.warning.set(Some(e.to_string()));
        }
    }
}

/// The endpoint profile and its key: the part of the form every model run shares
/// (`/run`, `/run/suite`, the auditor's `/audit`).
#[component]
pub fn EndpointChoice(state: RunSetupState) -> impl IntoView {
    let RunSetupState {
        profiles,
        key,
        warning,
        ..
    } = state;
    let select = move |i: usize| {
        profiles.update(|p| p.selected = i.min(p.list.len() - 1));
        let all = profiles.get_untracked();
        key.set(keys::key(&all.current().name).unwrap_or_default());
        if let Err(e) = keys::save_profiles(&all) {
            warning.set(Some(e));
        }
    };
    let set_key = move |k: String| {
        let all = profiles.get_untracked();
        if let Err(e) = keys::set_key(&all.current().name, &k, &all) {
            warning.set(Some(e));
        }
        key.set(k);
    };
    let summary = move || {
        profiles.with(|p| {
            let c = p.current();
            format!("{} · {} · {}", c.provider.name(), c.base_url, c.model)
        })
    };
    view! {
        <fieldset class="run-setup">
            <legend>"Model"</legend>
            {move || warning.get().map(|w| view! { <p class="field-error" role="alert">{w}</p> })}
            <div class="form-row">
                <label for="run-profile">"Endpoint profile"</label>
                <select
                    id="run-profile"
                    data-testid="run-profile"
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse() {
                            select(i);
                        }
                    }
                >
                    {move || {
                        profiles
                            .with(|p| {
                                p.list
                                    .iter()
                                    .enumerate()
                                    .map(|(i, q)| {
                                        let sel = i == p.selected;
                                        view! { <option value=i.to_string() selected=sel>{q.name.clone()}</option> }
                                    })
                                    .collect_view()
                            })
                    }}
                </select>
                <a href=crate::routes::MODELS data-testid="edit-endpoints">"Edit endpoints"</a>
            </div>
            <p class="hint" data-testid="run-endpoint">{summary}</p>
            <div class="form-row">
                <label for="run-key">"API key"</label>
                <input
                    id="run-key"
                    type="password"
                    autocomplete="off"
                    data-testid="run-key"
                    placeholder="only sent to this endpoint"
                    prop:value=move || key.get()
                    on:input=move |ev| set_key(event_target_value(&ev))
                />
            </div>
        </fieldset>
    }
}

#[component]
pub fn RunSetup(state: RunSetupState) -> impl IntoView {
    let settings = state.settings;
    let edit = move |f: &dyn Fn(&mut RunSettings)| {
        settings.update(|s| f(s));
        state.save_settings();
    };
    let history_k = move || match settings.with(|s| s.session.history) {
        HistoryWindow::Full => String::new(),
        HistoryWindow::Last(k) => k.to_string(),
    };
    let jpeg = move || settings.with(|s| s.image.format == ImageFormat::Jpeg);
    let visgym = move || settings.with(|s| s.session.protocol == Protocol::Visgym);
    let gameverse = move || settings.with(|s| s.session.protocol == Protocol::Gameverse);
    let memory_agent =
        move || settings.with(|s| s.session.gameverse_agent == GameVerseAgent::Memory);
    view! {
        <EndpointChoice state=state />
        <fieldset class="run-setup">
            <legend>"Protocol"</legend>
            <div class="form-row">
                <label for="run-protocol">"Harness"</label>
                <select id="run-protocol" data-testid="run-protocol" on:change=move |ev| {
                    let p = match event_target_value(&ev).as_str() {
                        "visgym" => Protocol::Visgym,
                        "gameverse" => Protocol::Gameverse,
                        _ => Protocol::Vical,
                    };
                    edit(&|s| s.session.protocol = p);
                }>
                    <option value="vical" selected=move || !visgym() && !gameverse()>"V-ICAL (rules, demonstrations, [Action: …] replies)"</option>
                    <option value="visgym" selected=visgym>"VisGym (its own instructions and parser, word for word)"</option>
                    <option value="gameverse" selected=gameverse>"GameVerse (its agents, word for word; its open games only)"</option>
                </select>
            </div>
            <Show when=gameverse>
                <div class="form-row">
                    <label for="run-gameverse-agent">"Agent"</label>
                    <select id="run-gameverse-agent" data-testid="run-gameverse-agent" on:change=move |ev| {
                        let a = match event_target_value(&ev).as_str() {
                            "memory" => GameVerseAgent::Memory,
                            _ => GameVerseAgent::ZeroShot,
                        };
                        edit(&|s| s.session.gameverse_agent = a);
                    }>
                        <option value="zero-shot" selected=move || !memory_agent()>"zero-shot (one request per step)"</option>
                        <option value="memory" selected=memory_agent>"memory (history review + action with long-term memory: two requests per step; Maze, 2048 and Snake)"</option>
                    </select>
                </div>
                <p class="hint" data-testid="run-gameverse-hint">"GameVerse's agent sends each step alone as a system prompt and the game's user prompt with the previous and current screenshots as PNG (the image settings below do not apply), reads the reply under ### Actions and never asks again; keep the history full and the observation an image (docs/gameverse.md, \"Harness\")."</p>
            </Show>
            <Show when=visgym>
                <div class="form-row" data-testid="run-visgym-options">
                    <label class="check">
                        <input type="checkbox" data-testid="run-verbalize"
                            prop:checked=move || settings.with(|s| s.session.verbalize)
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                edit(&|s| s.session.verbalize = on);
                            }
                        />
                        "verbalize (<think>…</think><answer>…</answer>)"
                    </label>
                    <label class="check">
                        <input type="checkbox" data-testid="run-final-goal"
                            prop:checked=move || settings.with(|s| s.session.final_goal)
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                edit(&|s| s.session.final_goal = on);
                            }
                        />
                        "show the final goal"
                    </label>
                    <label class="check">
                        <input type="checkbox" data-testid="run-repeat-instructions"
                            prop:checked=move || settings.with(|s| s.session.repeat_instructions)
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                edit(&|s| s.session.repeat_instructions = on);
                            }
                        />
                        "repeat the instructions every turn"
                    </label>
                </div>
                <p class="hint">"VisGym's harness sends its frames as JPEG shrunk to 336 pixels (the image settings below do not apply), no demonstrations and no format retries; history 0 sends every turn alone (docs/visgym.md)."</p>
            </Show>
            <div class="form-row">
                <label for="run-strictness">"Action parsing"</label>
                <select id="run-strictness" data-testid="run-strictness" on:change=move |ev| {
                    let lenient = event_target_value(&ev) == "lenient";
                    edit(&|s| s.session.strictness = if lenient { Strictness::Lenient } else { Strictness::Exact });
                }>
                    <option value="exact" selected=move || settings.with(|s| s.session.strictness == Strictness::Exact)>"exact (V-ICAL)"</option>
                    <option value="lenient" selected=move || settings.with(|s| s.session.strictness == Strictness::Lenient)>"lenient (case and spaces)"</option>
                </select>
            </div>
            <div class="form-row">
                <label for="run-history">"History: last K turns"</label>
                <input id="run-history" data-testid="run-history" inputmode="numeric" placeholder="all"
                    prop:value=history_k
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        let zero_ok = visgym();
                        let h = match v.trim().parse::<u32>() {
                            Ok(k) if k >= 1 || zero_ok => HistoryWindow::Last(k),
                            _ => HistoryWindow::Full,
                        };
                        edit(&|s| s.session.history = h);
                    }
                />
                <span class="hint">"empty: the whole conversation (V-ICAL always keeps the first turn; VisGym also takes 0)"</span>
            </div>
            <div class="form-row">
                <label for="run-observation">"Observation"</label>
                <select id="run-observation" data-testid="run-observation" on:change=move |ev| {
                    let o = match event_target_value(&ev).as_str() {
                        "text" => ObservationMode::Text,
                        "both" => ObservationMode::Both,
                        _ => ObservationMode::Image,
                    };
                    edit(&|s| s.session.observation = o);
                }>
                    <option value="image" selected=move || settings.with(|s| s.session.observation == ObservationMode::Image)>"image"</option>
                    <option value="text" selected=move || settings.with(|s| s.session.observation == ObservationMode::Text)>"text rendering"</option>
                    <option value="both" selected=move || settings.with(|s| s.session.observation == ObservationMode::Both)>"both"</option>
                </select>
            </div>
            <div class="form-row">
                <label for="run-reward">"Reward"</label>
                <select id="run-reward" data-testid="run-reward" on:change=move |ev| {
                    let r = match event_target_value(&ev).as_str() {
                        "shown" => RewardMode::Shown,
                        "hidden" => RewardMode::Hidden,
                        _ => RewardMode::Task,
                    };
                    edit(&|s| s.session.reward = r);
                }>
                    <option value="task" selected=move || settings.with(|s| s.session.reward == RewardMode::Task)>"as the task says"</option>
                    <option value="shown" selected=move || settings.with(|s| s.session.reward == RewardMode::Shown)>"shown"</option>
                    <option value="hidden" selected=move || settings.with(|s| s.session.reward == RewardMode::Hidden)>"hidden"</option>
                </select>
                <label class="check">
                    <input type="checkbox" data-testid="run-feedback"
                        prop:checked=move || settings.with(|s| s.session.feedback)
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            edit(&|s| s.session.feedback = on);
                        }
                    />
                    "environment feedback text"
                </label>
            </div>
            <div class="form-row">
                <label for="run-image-format">"Images"</label>
                <select id="run-image-format" data-testid="run-image-format" on:change=move |ev| {
                    let f = if event_target_value(&ev) == "jpeg" { ImageFormat::Jpeg } else { ImageFormat::Png };
                    edit(&|s| s.image.format = f);
                }>
                    <option value="png" selected=move || !jpeg()>"PNG"</option>
                    <option value="jpeg" selected=jpeg>"JPEG"</option>
                </select>
                <span class="pair">
                <label for="run-image-quality">"quality"</label>
                <input id="run-image-quality" data-testid="run-image-quality" type="number" min="0.1" max="1" step="0.05"
                    disabled=move || !jpeg()
                    prop:value=move || settings.with(|s| s.image.quality.to_string())
                    on:change=move |ev| {
                        if let Ok(q) = event_target_value(&ev).parse::<f64>() {
                            edit(&|s| s.image.quality = q.clamp(0.1, 1.0));
                        }
                    }
                />
                </span>
                <span class="pair">
                <label for="run-image-scale">"scale"</label>
                <input id="run-image-scale" data-testid="run-image-scale" type="number" min="0.1" max="4" step="0.25"
                    prop:value=move || settings.with(|s| s.image.scale.to_string())
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                            edit(&|s| s.image.scale = v.clamp(0.1, 4.0));
                        }
                    }
                />
                </span>
            </div>
            <div class="form-row">
                <label for="run-video">"Demonstrations"</label>
                <label class="check">
                    <input id="run-video" type="checkbox" data-testid="run-video"
                        prop:checked=move || settings.with(|s| s.video_demos)
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            edit(&|s| s.video_demos = on);
                        }
                    />
                    "as video where the API takes video (Gemini)"
                </label>
                <span class="pair">
                <label for="run-video-fps">"frames/s"</label>
                <input id="run-video-fps" data-testid="run-video-fps" type="number" min="1" max="30" step="1"
                    disabled=move || settings.with(|s| !s.video_demos)
                    prop:value=move || settings.with(|s| s.video_fps.to_string())
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                            edit(&|s| s.video_fps = v.clamp(1, 30));
                        }
                    }
                />
                </span>
            </div>
            <p class="hint">"Otherwise, and for the other APIs, each clip goes as its ordered frames with the frames sentence (protocol \u{a7}3); videos are encoded in this tab at once, the same bytes as the command line's (Gemini samples one frame per second)."</p>
        </fieldset>
    }
}
