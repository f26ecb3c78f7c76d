//! The MiniGrid levels, one family per file over the shared world.

pub mod crossing;
pub mod door_key;
pub mod dynamic_obstacles;
pub mod fetch;
pub mod go_to_door;
pub mod lava_gap;
pub mod locked_room;
pub mod memory;
pub mod multi_room;
pub mod obstructed_maze;
pub mod put_near;
pub mod red_blue_doors;
pub mod room_grid;
pub mod simple;
pub mod unlock;
pub mod unlock_pickup;
