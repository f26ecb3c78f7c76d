//! Where people supply Atari ROMs: a drop zone and a file picker taking ROM files
//! (`.bin`, `.a26`), several at once, or the ale-py wheel (`.whl`). Each file is
//! recognised by MD5 (`crate::rom_shelf`), the supported ones go on the shelf and into
//! this browser's storage, and every file gets a line saying what became of it.

use envs::atari::Game;
use leptos::prelude::*;

use crate::browser::files::read_bytes;
use crate::browser::storage::local;
use crate::rom_shelf::{roms_in, shelve};

/// What became of one dropped file (or one ROM of a dropped wheel).
#[derive(Clone, Debug, PartialEq)]
struct Line {
    text: String,
    accepted: bool,
}

/// Reads the files, shelves the supported ROMs and reports on each; calls `on_added`
/// with the games added (when any).
fn take_files(
    files: web_sys::FileList,
    lines: RwSignal<Vec<Line>>,
    on_added: Callback<Vec<&'static Game>>,
) {
    let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    if files.is_empty() {
        return;
    }
    leptos::task::spawn_local(async move {
        let mut report = Vec::new();
        let mut found = Vec::new();
        for file in files {
            let name = file.name();
            match read_bytes(file).await.and_then(|b| roms_in(&name, b)) {
                Ok(roms) => {
                    let wheel = roms.len() > 1 || roms.first().is_some_and(|r| r.name != name);
                    let unsupported = roms.iter().filter(|r| r.game.is_none()).count();
                    for r in roms.iter().filter(|r| r.game.is_some() || !wheel) {
                        let accepted = r.game.is_some();
                        let text = if accepted {
                            format!(
                                "{}: {} — MD5 {}, {} bytes",
                                r.name,
                                r.verdict(),
                                r.md5,
                                r.size
                            )
                        } else {
                            format!("{} refused: {}", r.name, r.verdict())
                        };
                        report.push(Line { text, accepted });
                    }
                    if wheel && unsupported > 0 {
                        report.push(Line {
                            text: format!(
                                "{name}: {unsupported} other ROMs in it are games Playbench does not play yet"
                            ),
                            accepted: true,
                        });
                    }
                    found.extend(roms);
                }
                Err(why) => report.push(Line {
                    text: format!("Refused: {why}"),
                    accepted: false,
                }),
            }
        }
        match shelve(&local(), &found) {
            Ok(added) => {
                if !added.is_empty() {
                    on_added.run(added);
                }
            }
            Err(e) => report.push(Line {
                text: format!("The ROMs are playable now but could not be kept: {e}"),
                accepted: false,
            }),
        }
        lines.set(report);
    });
}

/// The drop zone and file picker; `on_added` runs with the games whose ROMs were added.
#[component]
pub fn RomDrop(on_added: Callback<Vec<&'static Game>>) -> impl IntoView {
    let lines: RwSignal<Vec<Line>> = RwSignal::new(Vec::new());
    let dragging = RwSignal::new(false);
    view! {
        <div
            class="drop-zone rom-drop"
            class:dragging=move || dragging.get()
            data-testid="rom-drop"
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                // Not also to a page-wide drop target (the replay viewer opens files dropped anywhere).
                ev.stop_propagation();
                dragging.set(false);
                if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
                    take_files(files, lines, on_added);
                }
            }
        >
            <label class="file-pick">
                <span>"Choose ROM files or the ale-py wheel"</span>
                <input
                    type="file"
                    multiple=true
                    accept=".bin,.a26,.whl,.zip"
                    data-testid="rom-file"
                    on:change=move |ev| {
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        if let Some(files) = input.files() {
                            take_files(files, lines, on_added);
                        }
                        input.set_value("");
                    }
                />
            </label>
            <span class="drop-hint">"…or drop them here."</span>
            <ul class="rom-report" aria-live="polite" data-testid="rom-report">
                {move || {
                    lines
                        .get()
                        .into_iter()
                        .map(|l| {
                            let testid = if l.accepted { "rom-accepted" } else { "rom-refused" };
                            view! { <li class:refused=!l.accepted data-testid=testid>{l.text}</li> }
                        })
                        .collect_view()
                }}
            </ul>
        </div>
    }
}

/// The panel a page shows instead of an environment whose ROM is missing: what file,
/// its MD5, where to find it, and the drop zone. `on_added` runs once a ROM is added.
#[component]
pub fn NeedsRom(
    env_id: String,
    game: &'static Game,
    on_added: Callback<Vec<&'static Game>>,
) -> impl IntoView {
    let text = crate::rom_shelf::needs_rom_text(&env_id, game);
    view! {
        <section class="needs-rom" data-testid="needs-rom" aria-labelledby="needs-rom-title">
            <h1 id="needs-rom-title">{format!("{env_id} needs its ROM")}</h1>
            <p data-testid="needs-rom-text">{text}</p>
            <RomDrop on_added=on_added />
            <p>
                <a href=crate::routes::ROMS>"All ROMs on this device"</a>
            </p>
        </section>
    }
}
