//! The app without Atari ROMs, then with one dropped, stored, restored and removed. A
//! process of its own: the ROM shelf is per process, and here it starts empty (the unit
//! tests fill it). One test, so nothing else in this process touches the shelf.

use bench::share::TaskRef;
use bench::Task;
use envs::atari::games::GAMES;
use envs::atari::roms;
use playbench_app::catalog::{self, Thumbnail};
use playbench_app::play_state::PlaySession;
use playbench_app::replay::source::rom_needed;
use playbench_app::rom_shelf;
use playbench_app::storage::{MemoryStore, Store};
use playbench_app::storage_keys::ATARI_ROMS;
use playbench_app::url::{LoadError, PlayRequest};
use serde_json::Map;

#[test]
fn atari_without_roms_asks_for_them_and_dropped_roms_are_kept_restored_and_removed() {
    assert!(roms::shelved_games().is_empty());

    // Without ROMs: every Atari card shows the placeholder, every image environment's
    // card the note that its pictures load when opened, every other card its frame.
    let mut atari_cards = 0;
    let mut picture_cards = 0;
    let mut physics_cards = 0;
    for e in catalog::groups().iter().flat_map(|g| &g.entries) {
        match (catalog::thumbnail(e), envs::atari::ale_env::game_of(e.id)) {
            (Thumbnail::NeedsRom(game), Some(of_id)) => {
                assert_eq!(game.md5, of_id.md5, "{}", e.id);
                atari_cards += 1;
            }
            (Thumbnail::NeedsPictures, None) => {
                assert!(playbench_app::image_sets::plays_pictures(e.id), "{}", e.id);
                picture_cards += 1;
            }
            // No MuJoCo on this thread: the Fetch cards say it loads when opened.
            (Thumbnail::NeedsPhysics, None) => {
                assert!(envs::visgym::runs_physics(e.id), "{}", e.id);
                physics_cards += 1;
            }
            (Thumbnail::Frame(f), None) => assert!(f.width() > 0, "{}", e.id),
            (other, _) => panic!("{}: {other:?}", e.id),
        }
    }
    assert_eq!(atari_cards, GAMES.len());
    assert_eq!(picture_cards, 2 * envs::visgym::IMAGE_NAMES.len());
    assert_eq!(physics_cards, 2 * envs::visgym::PHYSICS_NAMES.len());

    // Playing one is a typed load error, and the page can name the file it needs.
    let play = || PlaySession::new(PlayRequest::new("ALE/Breakout-v5", Map::new(), 0));
    match play().err() {
        Some(e @ LoadError::MissingAsset(_)) => {
            assert_eq!(e.title(), "A file is needed");
            assert!(e.to_string().contains("Breakout"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    let breakout = rom_shelf::missing_rom("ALE/Breakout-v5").unwrap();
    assert_eq!(breakout.id, "breakout");

    // An episode of a Breakout task asks for the ROM before it is replayed; an episode
    // of another environment does not.
    let task = |env: &str| {
        let json = serde_json::json!({
            "id": "t", "env": env, "seed": 0, "max_steps": 10, "actions": ["NOOP"],
            "demos": [{"label": "d", "seed": 0, "actions": ["NOOP"]}],
            "pass": {"kind": "survive"}, "score": {"kind": "env_score"},
            "tags": {"family": "f", "memory": "single", "dynamics": "dynamic"}
        });
        TaskRef::Inline(Box::new(serde_json::from_value::<Task>(json).unwrap()))
    };
    let (env, game) = rom_needed(&task("ALE/Breakout-v5")).unwrap();
    assert_eq!((env.as_str(), game), ("ALE/Breakout-v5", breakout));
    assert_eq!(rom_needed(&task("FrozenLake-v1")), None);

    // Dropping a file that is not a ROM changes nothing.
    let store = MemoryStore::default();
    let junk = rom_shelf::roms_in("notes.txt", b"hello".to_vec()).unwrap();
    assert_eq!(rom_shelf::shelve(&store, &junk), Ok(vec![]));
    assert!(play().is_err());

    // Dropping the ROM: on the shelf, in storage, and the game starts.
    let bytes = playbench_tests::atari::roms::read_rom("breakout").unwrap();
    let dropped = rom_shelf::roms_in("breakout.bin", bytes.clone()).unwrap();
    assert_eq!(rom_shelf::shelve(&store, &dropped), Ok(vec![breakout]));
    assert!(store.get(ATARI_ROMS.key).unwrap().contains(breakout.md5));
    let s = play().unwrap();
    assert_eq!(s.frame().width(), 160);
    assert!(
        s.controls().iter().any(|c| c.name == "FIRE"),
        "ALE's action names"
    );
    let row = rom_shelf::rows()
        .into_iter()
        .find(|r| r.game.md5 == breakout.md5)
        .unwrap();
    assert_eq!(row.size, Some(bytes.len()));

    // A new start: the shelf is filled from storage alone.
    roms::remove_rom(breakout);
    assert!(play().is_err());
    assert_eq!(rom_shelf::restore(&store), vec![breakout]);
    assert!(play().is_ok());

    // Damaged entries are dropped from storage, good ones kept.
    let text = store.get(ATARI_ROMS.key).unwrap();
    let mut map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).unwrap();
    map.insert("00".repeat(16), "!!".into());
    store
        .set(ATARI_ROMS.key, &serde_json::to_string(&map).unwrap())
        .unwrap();
    assert_eq!(rom_shelf::restore(&store), vec![breakout]);
    assert_eq!(store.get(ATARI_ROMS.key), Some(text));

    assert_eq!(rom_needed(&task("ALE/Breakout-v5")), None);

    // Removing: off the shelf and out of storage.
    rom_shelf::remove(&store, breakout).unwrap();
    assert!(play().is_err());
    assert_eq!(store.get(ATARI_ROMS.key), None);
    assert!(rom_shelf::restore(&store).is_empty());
    assert!(matches!(
        catalog::groups()
            .iter()
            .flat_map(|g| &g.entries)
            .find(|e| e.id == "ALE/Breakout-v5")
            .map(catalog::thumbnail),
        Some(Thumbnail::NeedsRom(_))
    ));
}
