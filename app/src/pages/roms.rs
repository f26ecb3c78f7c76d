//! `/roms`: the Atari ROMs on this device — every supported game with its ROM's file,
//! MD5 and size, whether it is here, a way to remove it, and the drop zone to add more
//! (`crate::rom_shelf`). ROMs stay in this browser; links never carry them.

use leptos::prelude::*;

use crate::browser::storage::local;
use crate::components::rom_drop::RomDrop;
use crate::pages::home::set_title;
use crate::rom_shelf::{self, ShelfRow};
use crate::url::PlayRequest;

#[component]
pub fn RomsPage() -> impl IntoView {
    set_title("Atari ROMs · Playbench");
    // Bumped whenever the shelf changes, so the table is read again.
    let version = RwSignal::new(0u32);
    let message: RwSignal<Option<String>> = RwSignal::new(None);
    let on_added = Callback::new(move |_| version.update(|v| *v += 1));
    let rows = move || {
        version.track();
        rom_shelf::rows()
            .into_iter()
            .map(|row| view! { <RomRow row=row version=version message=message /> })
            .collect_view()
    };
    let count = move || {
        version.track();
        let rows = rom_shelf::rows();
        let here = rows.iter().filter(|r| r.size.is_some()).count();
        format!(
            "{here} of {} supported games have their ROM here.",
            rows.len()
        )
    };
    view! {
        <div class="roms">
            <h1>"Atari ROMs"</h1>
            <p class="roms-intro">
                "Playbench plays Atari 2600 games with the Arcade Learning Environment's rules, "
                "but ships no ROM. Supply the ROM files once: drop the .bin files ALE uses, "
                "or the whole ale-py wheel from PyPI (a .whl file, which contains them). Each is "
                "recognised by its MD5 and kept in this browser, on this device only; links and "
                "episode files name the game, never carry its ROM."
            </p>
            <RomDrop on_added=on_added />
            <p data-testid="rom-count">{count}</p>
            {move || message.get().map(|m| view! { <p class="rom-message" role="status">{m}</p> })}
            <table class="rom-table" data-testid="rom-table">
                <thead>
                    <tr>
                        <th scope="col">"Game"</th>
                        <th scope="col">"ROM file"</th>
                        <th scope="col">"MD5"</th>
                        <th scope="col">"Size"</th>
                        <th scope="col">""</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[component]
fn RomRow(
    row: ShelfRow,
    version: RwSignal<u32>,
    message: RwSignal<Option<String>>,
) -> impl IntoView {
    let game = row.game;
    let env_id = format!("ALE/{}-v5", game.name);
    let href = PlayRequest::new(&env_id, serde_json::Map::new(), 0).href();
    let present = row.size.is_some();
    let size = row
        .size
        .map_or_else(|| "missing".to_string(), |n| format!("{n} bytes"));
    let remove = move |_| {
        match rom_shelf::remove(&local(), game) {
            Ok(()) => message.set(Some(format!(
                "Removed the {} ROM from this browser.",
                game.name
            ))),
            Err(e) => message.set(Some(format!("Could not remove the {} ROM: {e}", game.name))),
        }
        version.update(|v| *v += 1);
    };
    view! {
        <tr data-testid="rom-row" data-game=game.name class:missing=!present>
            <th scope="row">
                {if present {
                    view! { <a href=href>{game.name}</a> }.into_any()
                } else {
                    view! { <span>{game.name}</span> }.into_any()
                }}
            </th>
            <td><code>{format!("{}.bin", game.id)}</code></td>
            <td><code>{game.md5}</code></td>
            <td data-testid="rom-size">{size}</td>
            <td>
                {present.then(|| view! {
                    <button type="button" on:click=remove aria-label=format!("Remove the {} ROM", game.name)>
                        "Remove"
                    </button>
                })}
            </td>
        </tr>
    }
}
