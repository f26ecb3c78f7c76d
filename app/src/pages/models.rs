//! `/models`: named endpoint profiles (provider flavour, base URL, key, model, sampling,
//! extra headers, timeout, prices) and "test connection". Keys stay in memory unless
//! the profile says "remember on this device".

use bench::protocol::endpoint::{Answer, Endpoint};
use bench::protocol::providers::{ApiError, EncodedImage, ErrorKind, Provider};
use envs::Frame;
use leptos::prelude::*;

use crate::browser::http::post_json;
use crate::browser::keys;
use crate::browser::time::unix_s;
use crate::pages::home::set_title;
use crate::runner::diagnose::{interpret, test_messages, Check, ConnectionReport};
use crate::runner::profiles::{provider_label, ProfileDraft, Profiles, PROVIDERS};
use bench::encode::{FrameEncoder, ImageEncoder, ImageSettings};

#[component]
pub fn ModelsPage() -> impl IntoView {
    set_title("Model endpoints · Playbench");
    let (loaded, warning) = keys::load_profiles();
    let profiles = RwSignal::new(loaded);
    view! {
        <div class="models-page">
            <h1>"Model endpoints"</h1>
            <p class="lead">
                "Playbench calls your model straight from this tab. Keys are sent only to the endpoint you name, are kept in memory unless you tick \u{201c}remember on this device\u{201d}, and never appear in links, exports or episode files."
            </p>
            {warning.map(|w| view! { <p class="field-error" role="alert">{w}</p> })}
            <ProfileEditor profiles=profiles />
            <p>
                <a href=crate::routes::RUN_SUITE>"Run the suite with a model"</a>
                " · "
                <a href=crate::routes::SUITE>"Pick a task to run (\u{201c}Run a model\u{201d} on its card)"</a>
            </p>
        </div>
    }
}

/// A labelled text input bound to one draft field.
#[component]
fn Field(
    label: &'static str,
    testid: &'static str,
    draft: RwSignal<ProfileDraft>,
    get: fn(&ProfileDraft) -> String,
    set: fn(&mut ProfileDraft, String),
    #[prop(optional)] hint: &'static str,
    #[prop(optional)] kind: &'static str,
) -> impl IntoView {
    let id = format!("field-{testid}");
    view! {
        <div class="form-row">
            <label for=id.clone()>{label}</label>
            <input
                id=id
                type=if kind.is_empty() { "text" } else { kind }
                data-testid=testid
                autocomplete="off"
                spellcheck="false"
                prop:value=move || draft.with(get)
                on:input=move |ev| draft.update(|d| set(d, event_target_value(&ev)))
            />
            {(!hint.is_empty()).then(|| view! { <span class="hint">{hint}</span> })}
        </div>
    }
}

#[component]
fn ProfileEditor(profiles: RwSignal<Profiles>) -> impl IntoView {
    let draft = RwSignal::new(profiles.with_untracked(|p| ProfileDraft::from_profile(p.current())));
    let editing = RwSignal::new(profiles.with_untracked(|p| p.current().name.clone()));
    let key = RwSignal::new(keys::key(&editing.get_untracked()).unwrap_or_default());
    let status = RwSignal::new(None::<Result<String, Vec<String>>>);
    let report = RwSignal::new(None::<ConnectionReport>);
    let testing = RwSignal::new(false);

    let select = move |i: usize| {
        profiles.update(|p| p.selected = i.min(p.list.len() - 1));
        let p = profiles.with_untracked(|p| p.current().clone());
        draft.set(ProfileDraft::from_profile(&p));
        editing.set(p.name.clone());
        key.set(keys::key(&p.name).unwrap_or_default());
        status.set(None);
        report.set(None);
        let _ = keys::save_profiles(&profiles.get_untracked());
    };
    let save = move || -> Option<crate::runner::profiles::Profile> {
        match draft.get_untracked().to_profile() {
            Ok(p) => {
                let old = editing.get_untracked();
                if old != p.name {
                    keys::rename(&old, &p.name);
                }
                profiles.update(|ps| ps.upsert(p.clone(), Some(&old)));
                let all = profiles.get_untracked();
                let saved = keys::save_profiles(&all)
                    .and_then(|()| keys::set_key(&p.name, &key.get_untracked(), &all));
                editing.set(p.name.clone());
                status.set(Some(match saved {
                    Ok(()) => Ok(format!("Saved \u{201c}{}\u{201d}.", p.name)),
                    Err(e) => Err(vec![e]),
                }));
                Some(p)
            }
            Err(errors) => {
                status.set(Some(Err(errors)));
                None
            }
        }
    };
    let new_profile = move |_| {
        let name = profiles.with_untracked(Profiles::fresh_name);
        let p = crate::runner::profiles::Profile {
            name,
            ..Default::default()
        };
        profiles.update(|ps| ps.upsert(p, None));
        let i = profiles.with_untracked(|p| p.selected);
        select(i);
    };
    let delete = move |_| {
        profiles.update(Profiles::remove_selected);
        let i = profiles.with_untracked(|p| p.selected);
        select(i);
    };
    let test = move |_| {
        let Some(p) = save() else { return };
        testing.set(true);
        report.set(None);
        let api_key = key.get_untracked();
        leptos::task::spawn_local(async move {
            let r = test_connection(p.endpoint(), p.timeout_s, &api_key).await;
            report.set(Some(r));
            testing.set(false);
        });
    };

    let names = move || {
        profiles.with(|p| {
            p.list
                .iter()
                .enumerate()
                .map(|(i, q)| (i, q.name.clone(), i == p.selected))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="profile-editor" aria-labelledby="profiles-title">
            <h2 id="profiles-title">"Profiles"</h2>
            <div class="form-row">
                <label for="profile-select">"Profile"</label>
                <select
                    id="profile-select"
                    data-testid="profile-select"
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse() {
                            select(i);
                        }
                    }
                >
                    {move || {
                        names()
                            .into_iter()
                            .map(|(i, n, sel)| view! { <option value=i.to_string() selected=sel>{n}</option> })
                            .collect_view()
                    }}
                </select>
                <button type="button" data-testid="profile-new" on:click=new_profile>"New profile"</button>
                <button type="button" data-testid="profile-delete" on:click=delete>"Delete"</button>
            </div>
            <form class="profile-form" on:submit=move |ev| {
                ev.prevent_default();
                let _ = save();
            }>
                <Field label="Name" testid="profile-name" draft=draft get=|d| d.name.clone() set=|d, v| d.name = v />
                <div class="form-row">
                    <label for="field-provider">"API"</label>
                    <select
                        id="field-provider"
                        data-testid="profile-provider"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            draft.update(|d| {
                                let was_default = Provider::parse(&d.provider)
                                    .is_some_and(|p| d.base_url == crate::runner::profiles::default_base_url(p));
                                if let (true, Some(p)) = (was_default || d.base_url.is_empty(), Provider::parse(&v)) {
                                    d.base_url = crate::runner::profiles::default_base_url(p).into();
                                }
                                d.provider = v;
                            });
                        }
                    >
                        {PROVIDERS
                            .iter()
                            .map(|p| {
                                let name = p.name();
                                view! {
                                    <option value=name selected=move || draft.with(|d| d.provider == name)>
                                        {provider_label(*p)}
                                    </option>
                                }
                            })
                            .collect_view()}
                    </select>
                </div>
                <Field label="Base URL" testid="profile-base-url" draft=draft get=|d| d.base_url.clone() set=|d, v| d.base_url = v
                    hint="e.g. http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio), https://openrouter.ai/api/v1" />
                <div class="form-row">
                    <label for="field-key">"API key"</label>
                    <input
                        id="field-key"
                        type="password"
                        data-testid="profile-key"
                        autocomplete="off"
                        prop:value=move || key.get()
                        on:input=move |ev| key.set(event_target_value(&ev))
                    />
                    <label class="check">
                        <input
                            type="checkbox"
                            data-testid="profile-remember"
                            prop:checked=move || draft.with(|d| d.remember_key)
                            on:change=move |ev| draft.update(|d| d.remember_key = event_target_checked(&ev))
                        />
                        "remember on this device"
                    </label>
                </div>
                <Field label="Model" testid="profile-model" draft=draft get=|d| d.model.clone() set=|d, v| d.model = v />
                <Field label="Temperature" testid="profile-temperature" draft=draft get=|d| d.temperature.clone() set=|d, v| d.temperature = v hint="empty: the endpoint's default" />
                <Field label="Max output tokens" testid="profile-max-tokens" draft=draft get=|d| d.max_output_tokens.clone() set=|d, v| d.max_output_tokens = v />
                <Field label="Request timeout (s)" testid="profile-timeout" draft=draft get=|d| d.timeout_s.clone() set=|d, v| d.timeout_s = v />
                <Field label="Price per million input tokens (USD)" testid="profile-price-in" draft=draft get=|d| d.price_in.clone() set=|d, v| d.price_in = v />
                <Field label="Price per million output tokens (USD)" testid="profile-price-out" draft=draft get=|d| d.price_out.clone() set=|d, v| d.price_out = v />
                <div class="form-row">
                    <label for="field-headers">"Extra headers"</label>
                    <textarea
                        id="field-headers"
                        data-testid="profile-headers"
                        rows="2"
                        placeholder="Name: value (one per line)"
                        prop:value=move || draft.with(|d| d.headers.clone())
                        on:input=move |ev| draft.update(|d| d.headers = event_target_value(&ev))
                    ></textarea>
                </div>
                <div class="form-actions">
                    <button type="submit" data-testid="profile-save">"Save"</button>
                    <button type="button" data-testid="profile-test" on:click=test disabled=move || testing.get()>
                        {move || if testing.get() { "Testing\u{2026}" } else { "Test connection" }}
                    </button>
                </div>
            </form>
            <div role="status" aria-live="polite" data-testid="profile-status">
                {move || match status.get() {
                    None => ().into_any(),
                    Some(Ok(m)) => view! { <p class="ok">{m}</p> }.into_any(),
                    Some(Err(errors)) => view! {
                        <ul class="field-error">
                            {errors.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
                        </ul>
                    }
                    .into_any(),
                }}
            </div>
            {move || report.get().map(|r| view! { <ConnectionChecklist report=r /> })}
        </section>
    }
}

#[component]
fn ConnectionChecklist(report: ConnectionReport) -> impl IntoView {
    let all = report.all_passed();
    view! {
        <section class=if all { "checklist all-passed" } else { "checklist" } aria-label="Connection test"
            data-testid="connection-report">
            <h3>{if all { "Connection works" } else { "Connection problems" }}</h3>
            <ul>
                {report
                    .rows()
                    .into_iter()
                    .map(|(name, check)| {
                        let (class, mark, text) = match check {
                            Check::Passed(m) => ("check-ok", "\u{2713}", m.clone()),
                            Check::Failed(m) => ("check-failed", "\u{2717}", m.clone()),
                            Check::Skipped => ("check-skipped", "\u{2013}", "not tried".to_string()),
                        };
                        view! {
                            <li class=class data-check=name>
                                <span aria-hidden="true">{mark}</span>
                                " " <strong>{name}</strong> ": " {text}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

/// One request with `images` copies of a FrozenLake frame.
async fn ask(
    endpoint: &Endpoint,
    timeout_s: u32,
    api_key: &str,
    image: &EncodedImage,
    images: usize,
) -> Result<Answer, ApiError> {
    let key = Some(api_key).filter(|k| !k.is_empty());
    let req = endpoint.request(key, &test_messages(images), |_| Ok(image.clone()))?;
    match post_json(
        &req.url,
        &req.headers,
        &req.body,
        timeout_s,
        &endpoint.base_url,
    )
    .await
    {
        Ok(a) => {
            let mut r = endpoint.response(a.status, a.retry_after.as_deref(), unix_s(), &a.body);
            if let Err(e) = &mut r {
                e.message = bench::protocol::endpoint::redact(&e.message, key);
            }
            r
        }
        Err(message) => Err(ApiError::new(ErrorKind::Transport, message)),
    }
}

/// Reachability, key, one image, then two images.
async fn test_connection(endpoint: Endpoint, timeout_s: u32, api_key: &str) -> ConnectionReport {
    let mut frame = Frame::default();
    let image = envs::make_default("FrozenLake-v1")
        .map_err(|e| e.to_string())
        .and_then(|mut env| {
            env.reset(Some(0));
            env.render(&mut frame);
            ImageEncoder::new(ImageSettings::default()).encode(&frame)
        });
    let image = match image {
        Ok(i) => i,
        Err(e) => {
            let err: Result<Answer, ApiError> = Err(ApiError::new(
                ErrorKind::BadResponse,
                format!("could not make a test image: {e}"),
            ));
            return interpret(&err, None);
        }
    };
    let one = ask(&endpoint, timeout_s, api_key, &image, 1).await;
    let two = if one.is_ok() {
        Some(ask(&endpoint, timeout_s, api_key, &image, 2).await)
    } else {
        None
    };
    interpret(&one, two.as_ref())
}
