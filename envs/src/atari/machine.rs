//! The console: CPU, TIA, RIOT and cartridge on one bus, the controllers and switches,
//! and the frame loop ALE drives ("run the CPU until the TIA ends the frame").

use super::cartridge::{Cartridge, HOTSPOT_PAGE};
use super::cpu::{Bus, Cpu};
use super::mt19937::Mt19937;
use super::props::RomProperties;
use super::riot::Riot;
use super::tia::{Tia, TiaInputs, MAX_RESISTANCE};
use super::AtariError;

/// The emulator's own generator (power-on RAM, timer and Super Chip RAM) is seeded with
/// this fixed value by ALE, so power-on state does not depend on the episode seed.
const SYSTEM_SEED: u32 = 4_753_849;
/// Instructions the CPU may run for one frame before the frame is cut off.
const INSTRUCTIONS_PER_FRAME: u32 = 25_000;

/// The input events as ALE sets them before each frame (Stella's event table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Input {
    /// Joystick directions and fire: [up, down, left, right, fire] per player.
    pub joystick: [[bool; 5]; 2],
    /// Paddle resistances of paddles 0 and 1 (paddles 2 and 3 stay at zero).
    pub paddle_resistance: [i32; 2],
    pub paddle_fire: [bool; 2],
    pub console_reset: bool,
    pub console_select: bool,
    /// Difficulty switch events: [left A, left B, right A, right B].
    pub difficulty: [bool; 4],
}

pub const UP: usize = 0;
pub const DOWN: usize = 1;
pub const LEFT: usize = 2;
pub const RIGHT: usize = 3;
pub const FIRE: usize = 4;

/// The bytes the CPU reaches directly, in one array: the RIOT's RAM, the Super Chip RAM,
/// the ROM image, and 64 bytes that take writes to ROM. Its size is a power of two so a
/// masked index needs no bounds check.
const MEMORY_SIZE: usize = 1 << 16;
const RAM_AT: u32 = 0;
const SUPERCHIP_AT: u32 = 128;
const IMAGE_AT: u32 = 256;
/// Where writes to ROM go (never read).
const IGNORED_AT: u32 = (MEMORY_SIZE - 64) as u32;
/// A page of the address space that a device (TIA, RIOT timer and ports, bank-switching
/// hotspots) answers.
const DEVICE: u32 = u32::MAX;
/// 64-byte pages in the 6507's 8K address space.
const PAGES: usize = 128;

/// Everything on the bus except the CPU.
#[derive(Clone)]
pub struct Board {
    pub tia: Tia,
    pub riot: Riot,
    pub cart: Cartridge,
    memory: Box<[u8; MEMORY_SIZE]>,
    /// Per 64-byte page: where its bytes are in `memory` for reads, or [`DEVICE`].
    read_pages: [u32; PAGES],
    /// Per page: where writes go in `memory` (RAM, or the ignored bytes for ROM), or
    /// [`DEVICE`].
    write_pages: [u32; PAGES],
    cycles: u32,
    data_bus: u8,
    last_access_was_read: bool,
    rng: Mt19937,
    switches: u8,
    port_a: u8,
    tia_inputs: TiaInputs,
    props: RomProperties,
}

impl Bus for Board {
    #[inline(always)]
    fn peek(&mut self, addr: u16) -> u8 {
        let value = match self.code(addr) {
            Some(value) => value,
            None => self.peek_device((addr & 0x1fff) as usize),
        };
        self.data_bus = value;
        self.last_access_was_read = true;
        value
    }

    #[inline(always)]
    fn poke(&mut self, addr: u16, value: u8) {
        let a = (addr & 0x1fff) as usize;
        let base = self.write_pages[(a >> 6) & (PAGES - 1)];
        if base != DEVICE {
            self.memory[(base as usize + (a & 63)) & (MEMORY_SIZE - 1)] = value;
        } else {
            self.poke_device(a, value);
        }
        self.data_bus = value;
        self.last_access_was_read = false;
    }

    #[inline(always)]
    fn add_cycles(&mut self, cycles: u32) {
        self.cycles = self.cycles.wrapping_add(cycles);
    }

    #[inline(always)]
    fn stop_requested(&self) -> bool {
        self.tia.stop_requested()
    }

    #[inline(always)]
    fn code(&self, addr: u16) -> Option<u8> {
        let a = (addr & 0x1fff) as usize;
        let base = self.read_pages[(a >> 6) & (PAGES - 1)];
        (base != DEVICE).then(|| self.memory[(base as usize + (a & 63)) & (MEMORY_SIZE - 1)])
    }

    fn skip_timer_wait(
        &mut self,
        addr: u16,
        lowest: u8,
        cycles_per_loop: u32,
        max_loops: u32,
    ) -> u32 {
        if !Riot::reads_timer(addr) {
            return 0;
        }
        let loops = self
            .riot
            .timer_reads_at_least(self.cycles, lowest, cycles_per_loop, max_loops);
        self.cycles = self.cycles.wrapping_add(loops * cycles_per_loop);
        loops
    }
}

impl Board {
    /// Reads of a device page: the cartridge's hotspot page, TIA or RIOT registers.
    #[inline(never)]
    fn peek_device(&mut self, a: usize) -> u8 {
        if a & 0x1000 != 0 {
            let offset = a & 0x0fff;
            if self.cart.touch(offset) {
                self.map_cartridge();
            }
            let window = self.cart.windows()[offset >> 10];
            return self.memory
                [(IMAGE_AT as usize + window + (offset & 0x3ff)) & (MEMORY_SIZE - 1)];
        }
        let a = a as u16;
        if a & 0x80 == 0 {
            self.tia
                .peek(a, self.cycles, self.data_bus, &self.tia_inputs)
        } else {
            self.riot.peek(a, self.cycles, self.port_a, self.switches)
        }
    }

    /// Writes to a device page.
    #[inline(never)]
    fn poke_device(&mut self, a: usize, value: u8) {
        if a & 0x1000 != 0 {
            if self.cart.touch(a & 0x0fff) {
                self.map_cartridge();
            }
            return;
        }
        let a = a as u16;
        if a & 0x80 == 0 {
            self.tia
                .poke(a, value, &mut self.cycles, self.last_access_was_read);
        } else {
            self.riot.poke(a, value, self.cycles);
        }
    }

    /// The page tables for the whole address space: RIOT RAM and its mirrors, TIA and
    /// RIOT registers, and the cartridge.
    fn map_pages(&mut self) {
        for page in 0..PAGES / 2 {
            let a = page << 6;
            let (read, write) = if a & 0x80 == 0 {
                (DEVICE, DEVICE)
            } else if a & 0x200 == 0 {
                // RAM is 128 bytes: two pages, mirrored.
                let at = RAM_AT + (a & 0x40) as u32;
                (at, at)
            } else {
                (DEVICE, DEVICE)
            };
            self.read_pages[page] = read;
            self.write_pages[page] = write;
        }
        self.map_cartridge();
    }

    /// The cartridge half of the page tables, after a bank switch.
    fn map_cartridge(&mut self) {
        let windows = self.cart.windows();
        let superchip = self.cart.has_superchip();
        let hotspots = self.cart.touch_possible();
        for page in 0..PAGES / 2 {
            let offset = page << 6;
            let rom = IMAGE_AT + (windows[offset >> 10] + (offset & 0x3ff)) as u32;
            let (read, write) = if superchip && offset < 0x80 {
                // The Super Chip's write port; reading it reads the ROM underneath.
                (rom, SUPERCHIP_AT + offset as u32)
            } else if superchip && offset < 0x100 {
                (SUPERCHIP_AT + (offset - 0x80) as u32, IGNORED_AT)
            } else if hotspots && offset >= HOTSPOT_PAGE {
                (DEVICE, DEVICE)
            } else {
                (rom, IGNORED_AT)
            };
            self.read_pages[PAGES / 2 + page] = read;
            self.write_pages[PAGES / 2 + page] = write;
        }
    }

    /// The system clock restarts from zero; devices shift their clock marks.
    fn reset_cycles(&mut self) {
        self.riot.system_cycles_reset(self.cycles);
        self.tia.system_cycles_reset(self.cycles);
        self.cycles = 0;
    }

    /// Recomputes the pins the RIOT and TIA read from the input events.
    fn apply_input(&mut self, input: &Input) {
        let props = &self.props;
        let mut port_a = 0u8;
        let mut resistance = [MAX_RESISTANCE; 4];
        let mut fire_high = [true; 2];
        for (jack, paddles) in [props.left_paddles, props.right_paddles]
            .into_iter()
            .enumerate()
        {
            // Port A: left jack on the high nibble, right jack on the low nibble.
            let shift = if jack == 0 { 4 } else { 0 };
            if paddles {
                // Paddle pairs: the left jack carries paddles 0 and 1, the right jack 2
                // and 3 (never set by ALE: zero resistance, buttons up).
                let (first_fire, second_fire, first_res, second_res) = if jack == 0 {
                    (
                        input.paddle_fire[0],
                        input.paddle_fire[1],
                        input.paddle_resistance[0],
                        input.paddle_resistance[1],
                    )
                } else {
                    (false, false, 0, 0)
                };
                // Pin Four (bit 3) reads the first paddle's button, pin Three (bit 2) the
                // second's; pins Nine/Five (INPT0/1 or 2/3) their resistances. Swapped
                // paddles exchange the two.
                let (pin3, pin4, nine, five) = if props.swap_paddles {
                    (first_fire, second_fire, second_res, first_res)
                } else {
                    (second_fire, first_fire, first_res, second_res)
                };
                let mut nibble = 0x03;
                if !pin3 {
                    nibble |= 0x04;
                }
                if !pin4 {
                    nibble |= 0x08;
                }
                port_a |= nibble << shift;
                resistance[jack * 2] = nine;
                resistance[jack * 2 + 1] = five;
            } else {
                let j = &input.joystick[jack];
                let mut nibble = 0u8;
                for (bit, pressed) in [j[UP], j[DOWN], j[LEFT], j[RIGHT]].into_iter().enumerate() {
                    if !pressed {
                        nibble |= 1 << bit;
                    }
                }
                port_a |= nibble << shift;
                fire_high[jack] = !j[FIRE];
            }
        }
        self.port_a = port_a;
        self.tia_inputs = TiaInputs {
            resistance,
            fire_high,
        };

        // Console switches (port B): difficulty A sets the bit, B clears it; select and
        // reset read low while pressed; the colour switch stays at its property value.
        let [left_a, left_b, right_a, right_b] = input.difficulty;
        if right_a {
            self.switches |= 0x80;
        } else if right_b {
            self.switches &= !0x80;
        }
        if left_a {
            self.switches |= 0x40;
        } else if left_b {
            self.switches &= !0x40;
        }
        if input.console_select {
            self.switches &= !0x02;
        } else {
            self.switches |= 0x02;
        }
        if input.console_reset {
            self.switches &= !0x01;
        } else {
            self.switches |= 0x01;
        }
    }
}

/// A powered-on console with a cartridge.
#[derive(Clone)]
pub struct Machine {
    cpu: Cpu,
    pub board: Board,
}

impl Machine {
    /// Builds the console as ALE does when it loads a ROM: power-on state from the fixed
    /// system seed, 60 frames run to detect NTSC/PAL, then a reset.
    pub fn new(image: &[u8], props: RomProperties) -> Result<Self, AtariError> {
        let mut rng = Mt19937::new(SYSTEM_SEED);
        let mut memory: Box<[u8; MEMORY_SIZE]> = vec![0u8; MEMORY_SIZE]
            .into_boxed_slice()
            .try_into()
            .map_err(|_| AtariError::InvalidConfig("console memory"))?;
        // Power-on RAM comes first from the generator, then the RIOT's timer.
        for byte in memory[..128].iter_mut() {
            *byte = rng.next_u32() as u8;
        }
        let riot = Riot::new(&mut rng);
        let (cart, image) = Cartridge::new(image)?;
        let image_at = IMAGE_AT as usize;
        memory
            .get_mut(image_at..image_at + image.len())
            .ok_or(AtariError::UnsupportedCartridge("an image over 63K".into()))?
            .copy_from_slice(&image);
        let tia = Tia::new(props.y_start, props.height, props.hmove_blanks);
        let mut switches = 0xffu8;
        if !props.right_difficulty_a {
            switches &= !0x80;
        }
        if !props.left_difficulty_a {
            switches &= !0x40;
        }
        let mut board = Board {
            tia,
            riot,
            cart,
            memory,
            read_pages: [DEVICE; PAGES],
            write_pages: [DEVICE; PAGES],
            cycles: 0,
            data_bus: 0,
            last_access_was_read: true,
            rng,
            switches,
            port_a: 0,
            tia_inputs: TiaInputs::default(),
            props,
        };
        board.apply_input(&Input::default());
        board.map_pages();
        let mut machine = Machine {
            cpu: Cpu::default(),
            board,
        };
        machine.reset();
        let mut pal_frames = 0;
        for i in 0..60 {
            machine.run_frame();
            if i >= 30 && machine.board.tia.scanlines(machine.board.cycles) > 285 {
                pal_frames += 1;
            }
        }
        if pal_frames >= 15 {
            return Err(AtariError::UnsupportedTvFormat);
        }
        machine.reset();
        Ok(machine)
    }

    /// The console's reset: the clock restarts, devices reset in attach order (RIOT,
    /// TIA, cartridge), then the CPU loads the reset vector. RAM keeps its contents.
    pub fn reset(&mut self) {
        let board = &mut self.board;
        board.reset_cycles();
        board.riot.reset(&mut board.rng);
        board.tia.reset(board.cycles);
        let superchip = SUPERCHIP_AT as usize..SUPERCHIP_AT as usize + 128;
        if board.cart.has_superchip() {
            board
                .cart
                .reset(&mut board.rng, &mut board.memory[superchip]);
        } else {
            board.cart.reset(&mut board.rng, &mut []);
        }
        board.map_cartridge();
        self.cpu.reset(board);
    }

    pub fn set_input(&mut self, input: &Input) {
        self.board.apply_input(input);
    }

    /// Emulates one frame (Stella's `TIA::update`).
    pub fn run_frame(&mut self) {
        let board = &mut self.board;
        if !board.tia.partial_frame {
            let clocks = board.tia.clocks_into_line(board.cycles);
            board.reset_cycles();
            board.tia.start_frame(clocks);
        }
        board.tia.partial_frame = true;
        board.tia.clear_stop();
        self.cpu.execute(board, INSTRUCTIONS_PER_FRAME);
        let cycles = board.cycles;
        board.tia.finish_update(cycles);
    }

    pub fn ram(&self) -> &[u8; 128] {
        // The array always holds the RAM at its start.
        self.board.memory.first_chunk::<128>().unwrap_or(&[0; 128])
    }

    pub fn set_ram(&mut self, index: usize, value: u8) {
        self.board.memory[RAM_AT as usize + (index & 0x7f)] = value;
    }

    /// The last frame: 160 palette indices per row.
    pub fn frame(&self) -> &[u8] {
        self.board.tia.frame()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4K program: each frame a VSYNC, then the timer set to `value` through
    /// `register` and a wait on it at `wait` (`load` INTIM, `branch` back), then a RAM
    /// count and the next frame.
    fn program(load: u8, branch: u8, register: u8, value: u8, wait: usize) -> Vec<u8> {
        let mut rom = vec![0xea; 4096];
        #[rustfmt::skip]
        let frame = [
            0xa9, 0x02, 0x85, 0x00, // VSYNC on
            0x85, 0x02, 0x85, 0x02, 0x85, 0x02, // three lines
            0xa9, 0x00, 0x85, 0x00, // VSYNC off: the frame ends
            0xa9, value, 0x8d, register, 0x02, // the timer
            0x4c, wait as u8, 0xf0 | (wait >> 8) as u8,
        ];
        rom[..frame.len()].copy_from_slice(&frame);
        let body = [load, 0x84, 0x02, branch, 0xfb, 0xe6, 0x80, 0x4c, 0x00, 0xf0];
        rom[wait..wait + body.len()].copy_from_slice(&body);
        rom[0xffc] = 0x00;
        rom[0xffd] = 0xf0;
        rom
    }

    /// The state `n` instructions on, run instruction by instruction (no loop is
    /// skipped) and through `execute` (which skips them).
    fn both_ways(machine: &Machine, n: u32) -> (String, String) {
        let mut stepped = machine.clone();
        for _ in 0..n {
            if stepped.board.stop_requested() {
                break;
            }
            stepped.cpu.step(&mut stepped.board);
        }
        let mut run = machine.clone();
        run.cpu.execute(&mut run.board, n);
        let state = |m: &Machine| {
            format!(
                "{:?} cycles {} bus {} {} ram {:?} riot {:?}",
                m.cpu,
                m.board.cycles,
                m.board.data_bus,
                m.board.last_access_was_read,
                m.ram(),
                m.board.riot
            )
        };
        (state(&stepped), state(&run))
    }

    #[test]
    fn timer_waits_skipped_leave_the_machine_as_running_them() {
        // Loads and branches, each timer interval, a jump back within its page and
        // across one.
        let cases = [
            (0xad, 0xd0, 0x96, 40, 0x040),
            (0xae, 0xd0, 0x95, 200, 0x0fd),
            (0xac, 0xd0, 0x94, 250, 0x200),
            (0xad, 0x30, 0x94, 230, 0x0fd),
            (0xad, 0x30, 0x95, 140, 0x300),
            (0xad, 0xd0, 0x97, 3, 0x400),
        ];
        for (load, branch, register, value, wait) in cases {
            let rom = program(load, branch, register, value, wait);
            let mut machine = Machine::new(&rom, RomProperties::default()).unwrap();
            for frame in 0..3 {
                // As `run_frame` starts a frame (the last one's VSYNC stopped the CPU).
                machine.board.tia.clear_stop();
                // Every budget through the first waits, so that some end inside one.
                for n in (1..400).chain([1000, 5000, 25_000]) {
                    let (stepped, run) = both_ways(&machine, n);
                    assert_eq!(
                        stepped, run,
                        "{load:#x} {branch:#x} {value} frame {frame}, {n}"
                    );
                }
                machine.run_frame();
            }
        }
    }
}
