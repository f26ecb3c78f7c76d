//! MiniGrid's world objects and their (type, colour, state) encoding
//! (`docs/environments.md`, "Objects and their encoding").

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red,
    Green,
    Blue,
    Purple,
    Yellow,
    Grey,
}

impl Color {
    /// The order random colour draws index (`sorted(COLORS)`), not the encoding order.
    pub const ALPHABETICAL: [Color; 6] = [
        Color::Blue,
        Color::Green,
        Color::Grey,
        Color::Purple,
        Color::Red,
        Color::Yellow,
    ];

    /// The encoding index (red 0 … grey 5).
    pub fn index(self) -> u8 {
        self as u8
    }

    pub fn rgb(self) -> [u8; 3] {
        match self {
            Self::Red => [255, 0, 0],
            Self::Green => [0, 255, 0],
            Self::Blue => [0, 0, 255],
            Self::Purple => [112, 39, 195],
            Self::Yellow => [255, 255, 0],
            Self::Grey => [100, 100, 100],
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Red => "red",
            Self::Green => "green",
            Self::Blue => "blue",
            Self::Purple => "purple",
            Self::Yellow => "yellow",
            Self::Grey => "grey",
        }
    }
}

/// Object type indices of the encoding.
pub mod kind {
    pub const UNSEEN: u8 = 0;
    pub const EMPTY: u8 = 1;
    pub const WALL: u8 = 2;
    pub const FLOOR: u8 = 3;
    pub const DOOR: u8 = 4;
    pub const KEY: u8 = 5;
    pub const BALL: u8 = 6;
    pub const BOX: u8 = 7;
    pub const GOAL: u8 = 8;
    pub const LAVA: u8 = 9;
    pub const AGENT: u8 = 10;

    pub fn name(k: u8) -> &'static str {
        match k {
            UNSEEN => "unseen",
            EMPTY => "empty",
            WALL => "wall",
            FLOOR => "floor",
            DOOR => "door",
            KEY => "key",
            BALL => "ball",
            BOX => "box",
            GOAL => "goal",
            LAVA => "lava",
            _ => "agent",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DoorState {
    Open,
    Closed,
    Locked,
}

/// What an object is; `Box` may hold another object, revealed when toggled.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObjKind {
    Wall,
    Floor,
    Door(DoorState),
    Key,
    Ball,
    Box(Option<std::boxed::Box<Obj>>),
    Goal,
    Lava,
}

/// One object. `id` gives objects identity: the reference compares carried objects
/// with targets by identity, not by type and colour.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Obj {
    pub kind: ObjKind,
    pub color: Color,
    pub id: u32,
}

impl Obj {
    pub fn type_index(&self) -> u8 {
        match self.kind {
            ObjKind::Wall => kind::WALL,
            ObjKind::Floor => kind::FLOOR,
            ObjKind::Door(_) => kind::DOOR,
            ObjKind::Key => kind::KEY,
            ObjKind::Ball => kind::BALL,
            ObjKind::Box(_) => kind::BOX,
            ObjKind::Goal => kind::GOAL,
            ObjKind::Lava => kind::LAVA,
        }
    }

    pub fn encode(&self) -> [u8; 3] {
        let state = match self.kind {
            ObjKind::Door(DoorState::Open) => 0,
            ObjKind::Door(DoorState::Closed) => 1,
            ObjKind::Door(DoorState::Locked) => 2,
            _ => 0,
        };
        [self.type_index(), self.color.index(), state]
    }

    pub fn can_overlap(&self) -> bool {
        matches!(
            self.kind,
            ObjKind::Goal | ObjKind::Lava | ObjKind::Floor | ObjKind::Door(DoorState::Open)
        )
    }

    pub fn can_pickup(&self) -> bool {
        matches!(self.kind, ObjKind::Key | ObjKind::Ball | ObjKind::Box(_))
    }

    pub fn see_behind(&self) -> bool {
        !matches!(
            self.kind,
            ObjKind::Wall | ObjKind::Door(DoorState::Closed) | ObjKind::Door(DoorState::Locked)
        )
    }

    pub fn is_door(&self) -> bool {
        matches!(self.kind, ObjKind::Door(_))
    }

    pub fn type_name(&self) -> &'static str {
        kind::name(self.type_index())
    }
}
