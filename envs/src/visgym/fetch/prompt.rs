//! `get_prompt()` of the two Fetch tasks, as the reference words them (docs/fetch-reference.md
//! §6.1, including its missing "is" and Pick-and-Place's trailing space).

use super::task::Task;

const MOVE: &str = "'move': Move the end-effector in 3D space. Format: `('move', [x, y, z])` where each element is -1, 0, or 1:\n   - x: -1=left, 0=no change, 1=right\n   - y: -1=backward, 0=no change, 1=forward\n   - z: -1=down, 0=no change, 1=up";

const MOVE_EXAMPLES: &str = "- To move right and up: `('move', [1, 0, 1])`\n- To move forward: `('move', [0, 1, 0])`\n- To move down and left: `('move', [-1, 0, -1])`\n- To stay in place: `('move', [0, 0, 0])`";

const RESPOND: &str =
    "Please respond with exactly one action and its arguments in the specified format. For example:\n";

/// The instructions without feedback.
pub fn instructions(task: Task) -> String {
    match task {
        Task::Reach => format!(
            "You are controlling a robotic arm to reach a target 3D position. The left image is a front view of the robot, and the right image moving camera attached to the gripper. Your goal is to move it to the red target marker. Each action moves the end-effector by a fixed step size in the specified direction.\n\nAvailable actions:\n1. {MOVE}\n2. 'stop': End the reaching session. Format: `('stop', 'stop')`\n\nSuccess: You succeed when the end-effector reaches the target position (red marker).\n\n{RESPOND}{MOVE_EXAMPLES}\n- To stop: `('stop', 'stop')`"
        ),
        Task::PickAndPlace => format!(
            "You are controlling a robotic arm to pick up a grey cube and place it at the target 3D position. The robot end-effector (gripper) and the cube are visible in the image. The left image is a front view of the robot, and the right image moving camera attached to the gripper. Your goal is to grasp the cube and move it to the red target marker. Each action moves the end-effector by a fixed step size in the specified direction.\n\nAvailable actions:\n1. {MOVE}\n2. 'gripper': Control the gripper (sticky behavior). Format: `('gripper', value)` where value is:\n   - 0: open the gripper\n   - 1: close the gripper\nNote: Gripper state is sticky - once set, it continues until changed.\n3. 'stop': End the pick and place session. Format: `('stop', 'stop')`\n\nSuccess: You succeed when you pick up the cube and place it at the target position (red marker).\n\n{RESPOND}{MOVE_EXAMPLES}\n- To open gripper: `('gripper', 0)`\n- To close gripper: `('gripper', 1)`\n- To stop: `('stop', 'stop')`\n\nGripper Behavior: The gripper has sticky behavior - once you open or close it, "
        ),
    }
}
