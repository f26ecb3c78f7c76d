//! The app's URL parameters and fragments, as the pages read them (`app/src/url.rs`,
//! `suite_filter.rs`, `suite_data.rs`, `routes.rs`, the replay viewer's fragment, the
//! fork step, a study's participant code, demonstration speeds, profile headers).

use app::replay::fork::parse_fork_step;
use app::replay::source::parse_viewer_fragment;
use app::routes::Page;
use app::study::participation::parse_code;
use app::suite_filter::Filter;
use app::url::{self, ViewOptions};

use super::{seeds, Entry};

/// Every page's query and fragment forms, with real values.
fn queries() -> Vec<String> {
    let mut out = vec![
        "?env=CartPole-v1&seed=3".to_string(),
        "?env=MiniGrid-DoorKey-5x5-v0&kwargs=%7B%22max_steps%22%3A50%7D&seed=18446744073709551615"
            .to_string(),
        "?env=FrozenLake-v1&kwargs={\"is_slippery\":false}&highlight=0&view=agent".to_string(),
        "?suite=playbench-core&memory=single&dynamics=static&family=MiniGrid&initialized=mid"
            .to_string(),
        "?id=taxi-s1&suite=playbench-core".to_string(),
        "?task=taxi-s1&record=1".to_string(),
        "/task/play?id=cartpole-s1".to_string(),
        "#t=3&at=2".to_string(),
        "fork=12&speed=2x&code=P-0042".to_string(),
        "Authorization: Bearer x\nX-Extra: 1".to_string(),
    ];
    for link in seeds::episode_links().into_iter().take(3) {
        out.push(format!("#{link}&e2={link}&t=4"));
    }
    out
}

/// Reads `text` as every page would read its query or fragment.
fn read_everything(text: &str) {
    let _ = url::parse_search(text);
    let _ = url::parse_search_view(text);
    let _ = parse_viewer_fragment(text);
    let _ = Page::at(text);
    let _ = Page::at(text.split('?').next().unwrap_or_default());
    let _ = app::runner::profiles::parse_headers(text);
    let params = url::decode_search(text);
    let get = |key: &str| {
        params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let families = vec!["MiniGrid".to_string(), "Toy Text".to_string()];
    let _ = Filter::parse(
        get("memory"),
        get("dynamics"),
        get("family"),
        get("initialized"),
        &families,
    );
    let _ = ViewOptions::parse(get("highlight"), get("view"));
    let _ = url::parse_kwargs(get("kwargs"));
    if let Ok(suite) = app::suite_data::suite_for(get("suite")) {
        for key in ["id", "task"] {
            if let Some(id) = get(key) {
                let _ = app::suite_data::find_task(suite, id);
            }
        }
    }
    for (_, value) in &params {
        let _ = url::parse_seed(value);
        let _ = url::parse_flag(value);
        let _ = parse_fork_step(value);
        let _ = parse_code(value);
        let _ = app::demo_player::Speed::parse(value);
        let _ = url::decode_component(value);
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "app-url",
        seeds: queries(),
        run: Box::new(read_everything),
    }]
}
