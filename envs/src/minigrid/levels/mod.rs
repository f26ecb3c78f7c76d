//! The MiniGrid levels, one family per file over the shared world.

pub mod crossing;
pub mod door_key;
pub mod dynamic_obstacles;
pub mod multi_room;
pub mod room_grid;
pub mod simple;
pub mod unlock_pickup;
