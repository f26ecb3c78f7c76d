//! MiniGrid (`docs/environments.md`, "MiniGrid" and "Rendering"): seed-exact gridworlds
//! with byte-exact frames.
//! Ids never take a `TimeLimit`: each level truncates itself at its `max_steps`.

pub mod env;
pub mod grid;
pub mod levels;
pub mod object;
mod oracle;
pub mod render;
pub mod world;

use crate::core::env::Env;
use crate::core::error::EnvError;
use crate::core::kwargs::Kwargs;
use crate::core::spec::{wrap, EnvSpec, Family};
use env::{Level, MiniGrid};
use levels::crossing::Crossing;
use levels::door_key::DoorKey;
use levels::dynamic_obstacles::DynamicObstacles;
use levels::fetch::Fetch;
use levels::go_to_door::GoToDoor;
use levels::lava_gap::LavaGap;
use levels::locked_room::LockedRoom;
use levels::memory::Memory;
use levels::multi_room::MultiRoom;
use levels::obstructed_maze::ObstructedMaze1D;
use levels::put_near::PutNear;
use levels::red_blue_doors::RedBlueDoors;
use levels::simple::{DistShift, Empty, FourRooms};
use levels::unlock::{BlockedUnlockPickup, Unlock};
use levels::unlock_pickup::{KeyCorridor, UnlockPickup};

fn make<L: Level>(spec: &'static EnvSpec, level: L) -> Result<Box<dyn Env>, EnvError> {
    Ok(wrap(spec, MiniGrid::new(spec.id, level)))
}

type Make = fn(&'static EnvSpec, &mut Kwargs) -> Result<Box<dyn Env>, EnvError>;

const fn spec(id: &'static str, summary: &'static str, make: Make) -> EnvSpec {
    EnvSpec {
        id,
        aliases: &[],
        family: &FAMILY,
        variants: &[],
        max_episode_steps: None,
        kwargs_doc: "none",
        summary,
        make,
    }
}

macro_rules! empty {
    ($id:literal, $n:literal, $random:literal) => {
        spec($id, "Get to the green goal square.", |s, _| {
            make(
                s,
                Empty {
                    size: $n,
                    random_start: $random,
                },
            )
        })
    };
}

macro_rules! crossing {
    ($id:literal, $n:literal, $k:literal, $lava:literal) => {
        spec(
            $id,
            if $lava {
                "Cross the lava rivers through their gaps to the goal."
            } else {
                "Find the openings in the walls to reach the goal."
            },
            |s, _| {
                make(
                    s,
                    Crossing {
                        size: $n,
                        crossings: $k,
                        lava: $lava,
                    },
                )
            },
        )
    };
}

macro_rules! door_key {
    ($id:literal, $n:literal) => {
        spec(
            $id,
            "Pick up the key, unlock the door, reach the goal.",
            |s, _| make(s, DoorKey { size: $n }),
        )
    };
}

macro_rules! dynamic {
    ($id:literal, $n:literal, $k:literal, $random:literal) => {
        spec(
            $id,
            "Reach the goal without touching the moving balls.",
            |s, _| make(s, DynamicObstacles::new($n, $k, $random)),
        )
    };
}

macro_rules! multi_room {
    ($id:literal, $min:literal, $max:literal, $size:literal) => {
        spec(
            $id,
            "Open the doors through a chain of rooms to the goal.",
            |s, _| {
                make(
                    s,
                    MultiRoom {
                        min_rooms: $min,
                        max_rooms: $max,
                        max_room_size: $size,
                    },
                )
            },
        )
    };
}

macro_rules! key_corridor {
    ($id:literal, $s:literal, $r:literal) => {
        spec(
            $id,
            "Find the key, unlock the room and pick up the ball.",
            |s, _| make(s, KeyCorridor::new($s, $r)),
        )
    };
}

macro_rules! lava_gap {
    ($id:literal, $n:literal) => {
        spec(
            $id,
            "Pass through the gap in the lava column to the goal.",
            |s, _| make(s, LavaGap { size: $n }),
        )
    };
}

macro_rules! memory {
    ($id:literal, $n:literal, $random:literal) => {
        spec(
            $id,
            "Remember the object in the start room; go to its match at the hallway's end.",
            |s, _| make(s, Memory::new($n, $random)),
        )
    };
}

macro_rules! go_to_door {
    ($id:literal, $n:literal) => {
        spec(
            $id,
            "Go next to the door of the named colour and say done.",
            |s, _| make(s, GoToDoor::new($n)),
        )
    };
}

macro_rules! fetch {
    ($id:literal, $n:literal, $k:literal) => {
        spec(
            $id,
            "Pick up the named object; any other ends the episode.",
            |s, _| make(s, Fetch::new($n, $k)),
        )
    };
}

macro_rules! put_near {
    ($id:literal, $n:literal, $k:literal) => {
        spec(
            $id,
            "Pick up the named object and drop it next to the other named one.",
            |s, _| make(s, PutNear::new($n, $k)),
        )
    };
}

macro_rules! red_blue_doors {
    ($id:literal, $n:literal) => {
        spec(
            $id,
            "Open the red door first, then the blue door.",
            |s, _| make(s, RedBlueDoors::new($n)),
        )
    };
}

macro_rules! obstructed_maze {
    ($id:literal, $boxed:literal, $blocked:literal) => {
        spec(
            $id,
            "Unlock the door (key maybe boxed, door maybe blocked) and pick up the blue ball.",
            |s, _| make(s, ObstructedMaze1D::new($boxed, $blocked)),
        )
    };
}

pub static FAMILY: Family = Family {
    id: "minigrid",
    label: "MiniGrid",
    frame_sha256: false,
    specs: SPECS,
};

static SPECS: &[EnvSpec] = &[
    empty!("MiniGrid-Empty-5x5-v0", 5, false),
    empty!("MiniGrid-Empty-Random-5x5-v0", 5, true),
    empty!("MiniGrid-Empty-6x6-v0", 6, false),
    empty!("MiniGrid-Empty-Random-6x6-v0", 6, true),
    empty!("MiniGrid-Empty-8x8-v0", 8, false),
    empty!("MiniGrid-Empty-16x16-v0", 16, false),
    door_key!("MiniGrid-DoorKey-5x5-v0", 5),
    door_key!("MiniGrid-DoorKey-6x6-v0", 6),
    door_key!("MiniGrid-DoorKey-8x8-v0", 8),
    door_key!("MiniGrid-DoorKey-16x16-v0", 16),
    crossing!("MiniGrid-LavaCrossingS9N1-v0", 9, 1, true),
    crossing!("MiniGrid-LavaCrossingS9N2-v0", 9, 2, true),
    crossing!("MiniGrid-LavaCrossingS9N3-v0", 9, 3, true),
    crossing!("MiniGrid-LavaCrossingS11N5-v0", 11, 5, true),
    crossing!("MiniGrid-SimpleCrossingS9N1-v0", 9, 1, false),
    crossing!("MiniGrid-SimpleCrossingS9N2-v0", 9, 2, false),
    crossing!("MiniGrid-SimpleCrossingS9N3-v0", 9, 3, false),
    crossing!("MiniGrid-SimpleCrossingS11N5-v0", 11, 5, false),
    spec(
        "MiniGrid-UnlockPickup-v0",
        "Unlock the door with the key and pick up the box.",
        |s, _| make(s, UnlockPickup::new()),
    ),
    multi_room!("MiniGrid-MultiRoom-N2-S4-v0", 2, 2, 4),
    multi_room!("MiniGrid-MultiRoom-N4-S5-v0", 6, 6, 5),
    multi_room!("MiniGrid-MultiRoom-N6-v0", 6, 6, 10),
    spec(
        "MiniGrid-FourRooms-v0",
        "Reach the goal somewhere in the four rooms.",
        |s, _| make(s, FourRooms),
    ),
    key_corridor!("MiniGrid-KeyCorridorS3R1-v0", 3, 1),
    key_corridor!("MiniGrid-KeyCorridorS3R2-v0", 3, 2),
    key_corridor!("MiniGrid-KeyCorridorS3R3-v0", 3, 3),
    key_corridor!("MiniGrid-KeyCorridorS4R3-v0", 4, 3),
    key_corridor!("MiniGrid-KeyCorridorS5R3-v0", 5, 3),
    key_corridor!("MiniGrid-KeyCorridorS6R3-v0", 6, 3),
    spec(
        "MiniGrid-DistShift1-v0",
        "Get to the goal past the lava strips.",
        |s, _| make(s, DistShift { strip2_row: 2 }),
    ),
    spec(
        "MiniGrid-DistShift2-v0",
        "Get to the goal past the lava strips.",
        |s, _| make(s, DistShift { strip2_row: 5 }),
    ),
    dynamic!("MiniGrid-Dynamic-Obstacles-5x5-v0", 5, 2, false),
    dynamic!("MiniGrid-Dynamic-Obstacles-Random-5x5-v0", 5, 2, true),
    dynamic!("MiniGrid-Dynamic-Obstacles-6x6-v0", 6, 3, false),
    dynamic!("MiniGrid-Dynamic-Obstacles-Random-6x6-v0", 6, 3, true),
    dynamic!("MiniGrid-Dynamic-Obstacles-8x8-v0", 8, 4, false),
    dynamic!("MiniGrid-Dynamic-Obstacles-16x16-v0", 16, 8, false),
    spec(
        "MiniGrid-Unlock-v0",
        "Pick up the key and open the locked door.",
        |s, _| make(s, Unlock::new()),
    ),
    spec(
        "MiniGrid-BlockedUnlockPickup-v0",
        "Move the ball blocking the door, unlock it and pick up the box.",
        |s, _| make(s, BlockedUnlockPickup::new()),
    ),
    lava_gap!("MiniGrid-LavaGapS5-v0", 5),
    lava_gap!("MiniGrid-LavaGapS6-v0", 6),
    lava_gap!("MiniGrid-LavaGapS7-v0", 7),
    memory!("MiniGrid-MemoryS17Random-v0", 17, true),
    memory!("MiniGrid-MemoryS13Random-v0", 13, true),
    memory!("MiniGrid-MemoryS13-v0", 13, false),
    memory!("MiniGrid-MemoryS11-v0", 11, false),
    memory!("MiniGrid-MemoryS9-v0", 9, false),
    memory!("MiniGrid-MemoryS7-v0", 7, false),
    go_to_door!("MiniGrid-GoToDoor-5x5-v0", 5),
    go_to_door!("MiniGrid-GoToDoor-6x6-v0", 6),
    go_to_door!("MiniGrid-GoToDoor-8x8-v0", 8),
    fetch!("MiniGrid-Fetch-5x5-N2-v0", 5, 2),
    fetch!("MiniGrid-Fetch-6x6-N2-v0", 6, 2),
    fetch!("MiniGrid-Fetch-8x8-N3-v0", 8, 3),
    put_near!("MiniGrid-PutNear-6x6-N2-v0", 6, 2),
    put_near!("MiniGrid-PutNear-8x8-N3-v0", 8, 3),
    red_blue_doors!("MiniGrid-RedBlueDoors-6x6-v0", 6),
    red_blue_doors!("MiniGrid-RedBlueDoors-8x8-v0", 8),
    spec(
        "MiniGrid-LockedRoom-v0",
        "Fetch the key from one room, unlock the locked room and reach its goal.",
        |s, _| make(s, LockedRoom { size: 19 }),
    ),
    obstructed_maze!("MiniGrid-ObstructedMaze-1Dl-v0", false, false),
    obstructed_maze!("MiniGrid-ObstructedMaze-1Dlh-v0", true, false),
    obstructed_maze!("MiniGrid-ObstructedMaze-1Dlhb-v0", true, true),
];
