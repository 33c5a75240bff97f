// The emulated Pico: rp2040js running a stock MicroPython uf2, its flash kept in a file, its
// pins wired to a simulated world that lives in the parent process (bgboard.pico, Python).
//
//   node emulator.mjs --uf2 FILE --bootrom FILE --flash FILE --pins JSON [--speed X]
//       [--delay-us ADDR] [--profile FILE]
//
// stdin/stdout carry frames: one type byte, a 4-byte little-endian length, the payload.
// Every frame to the parent starts with the emulated time in microseconds (float64 LE).
//   to the parent:  U usb bytes out   L led frame (float64: its first bit's time in us, a
//                   byte: what drove the pin (its GPIO function: 5 the CPU, 6/7 PIO0/1),
//                   then the GRB bytes)   S a scan starts (its first conversion on bank 0): send A
//                   T an alarm fired (paused until G)   R the chip (re)started: reason
//                   X a fatal error: text
//   from the parent: U usb bytes in   A 128 readings (uint16, bank*16+channel order)
//                   I pin levels: pairs of bytes (pin, 0/1)   W alarm at time (float64 us)
//                   G go on after T   P speed (float64: 0 as fast as it can, 1 real time)
//                   Q stop (after the flash file is written)
//                   H the ADC hangs: no conversion completes until the chip restarts (a
//                     fault only the watchdog gets the firmware out of)
// A power cut is the parent killing this process: every flash erase and program is written
// through to the file as it happens, so the file holds what a Pico's flash would.
import fs from 'node:fs';
import { Simulator, USBCDC } from 'rp2040js';

const FLASH_BASE = 0x10000000;
const FS_START = 0xa0000; // MicroPython rp2's filesystem: flash 0xA0000 to the end (2 MB)
const FS_END = 0x200000;
const INTR_DEV_SOF = 1 << 17;
const SOF_RD = 0x48;
const NS_PER_US = 1000;

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].slice(2)] = process.argv[i + 1];
for (const k of ['uf2', 'bootrom', 'flash', 'pins']) {
  if (!args[k]) fail(`--${k} is required`);
}
const pins = JSON.parse(args.pins); // {mux: [4], bank: [3], enable, enableActive, adc, led, inputs: {pin: level}}
let speed = Number(args.speed ?? 1);
// --profile FILE: the PC every PROFILE_EVERY instructions, counted, and where emulated time
// went, written at the end (JSON {pcs: {pc: count}, executed_ns, delay_ns, sleep_ns}; the
// uf2's ELF names the functions: tests/bench/pico_profile.py). Only executed time costs the
// emulator work.
const PROFILE_EVERY = 101;
const profile = args.profile ? new Map() : null;
let profileCountdown = PROFILE_EVERY;
const spent = { executed_ns: 0, delay_ns: 0, sleep_ns: 0 };

// --- frames to and from the parent -------------------------------------------------------------

function send(type, payload = new Uint8Array(0)) {
  const head = Buffer.alloc(13);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(payload.length + 8, 1);
  head.writeDoubleLE(chip ? chip.clock.nanos / NS_PER_US : 0, 5);
  process.stdout.write(Buffer.concat([head, Buffer.from(payload)]));
}

function fail(text) {
  try {
    send('X', Buffer.from(String(text)));
  } finally {
    process.stderr.write(`emulator: ${text}\n`);
    process.exit(3);
  }
}

let inbox = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  inbox = inbox.length ? Buffer.concat([inbox, chunk]) : chunk;
  while (inbox.length >= 5) {
    const n = inbox.readUInt32LE(1);
    if (inbox.length < 5 + n) break;
    const type = String.fromCharCode(inbox[0]);
    const body = inbox.subarray(5, 5 + n);
    inbox = inbox.subarray(5 + n);
    receive(type, Buffer.from(body));
  }
});
process.stdin.on('end', () => stop());

// --- the flash, kept in a file ------------------------------------------------------------------

const image = new Uint8Array(FS_END).fill(0xff);
loadUf2(fs.readFileSync(args.uf2));
const flashFd = openFlashFile(args.flash);

function loadUf2(data) {
  for (let off = 0; off + 512 <= data.length; off += 512) {
    if (data.readUInt32LE(off) !== 0x0a324655 || data.readUInt32LE(off + 4) !== 0x9e5d5157) {
      fail(`${args.uf2}: not a UF2 file`);
    }
    const addr = data.readUInt32LE(off + 12);
    const size = data.readUInt32LE(off + 16);
    const at = addr - FLASH_BASE;
    if (at < 0 || at + size > FS_START) fail(`${args.uf2}: a block outside the firmware's flash`);
    image.set(data.subarray(off + 32, off + 32 + size), at);
  }
}

function openFlashFile(path) {
  const size = FS_END - FS_START;
  let fd;
  if (fs.existsSync(path)) {
    fd = fs.openSync(path, 'r+');
    const got = fs.readSync(fd, image, FS_START, size, 0);
    if (got !== size) fail(`${path}: ${got} bytes, a flash image holds ${size}`);
  } else {
    fd = fs.openSync(path, 'w+');
    fs.writeSync(fd, image, FS_START, size, 0); // erased: MicroPython formats it at boot
  }
  return fd;
}

function persist(start, end) {
  const from = Math.max(start, FS_START);
  if (end > from) fs.writeSync(flashFd, image, from, end - from, from - FS_START);
}

// --- the chip ---------------------------------------------------------------------------------

const bootrom = new Uint32Array(fs.readFileSync(args.bootrom).buffer.slice(0, 16384));
const romFunc = romFunctions(bootrom);
// --delay-us ADDR (optional; bgboard.pico.stock finds it for the uf2): MicroPython's
// mp_hal_delay_us is a tight loop on the timer for waits up to 1 ms; with its address known,
// such a wait moves the clock on by its length at once (the same emulated time, alarms fire
// in order) instead of emulating every turn of the loop.
const delayUs = args['delay-us'] ? Number(args['delay-us']) : -1;
let chip = null; // the RP2040 now running
let core = null;
let cdc = null;
let paused = false; // waiting for the parent (a scan's readings, or an alarm's G)
let frame = new Uint16Array(128); // the readings of the scan under way
let alarmAt = Infinity; // us
let stopped = false;

function romFunctions(rom) {
  // The ROM's function table: 16-bit (code, address) pairs from the pointer at 0x14.
  const half = (a) => (rom[a >> 2] >>> ((a & 2) * 8)) & 0xffff;
  const found = {};
  for (let at = half(0x14); half(at); at += 4) {
    const code = half(at);
    found[String.fromCharCode(code & 0xff, code >> 8)] = half(at + 2) & ~1;
  }
  if (!found.RE || !found.RP) fail('boot ROM: no flash_range_erase/program in its table');
  return found;
}

function boot(reason, wdReason = 0) {
  const sim = new Simulator();
  chip = sim.rp2040;
  core = chip.core;
  chip.loadBootrom(bootrom);
  chip.flash.set(image);
  chip.logger = { debug() {}, info() {}, warn() {}, error: (c, m) => process.stderr.write(`${c}: ${m}\n`) };
  const watchdog = chip.peripherals[0x40058];
  watchdog.reason = wdReason;
  watchdog.onWatchdogTrigger = () => {
    rebootWanted = watchdog.reason || 1;
    // rp2040js 1.4.1 reschedules its decrementing alarm at 0 ns after it fires, forever
    // (the emulated clock stands still): stopped here, the chip is replaced anyway.
    watchdog.alarm.enable = false;
  };
  adcHung = false;
  pendingAdc = null;
  wirePins();
  wirePio();
  wireUsb();
  core.PC = 0x10000000; // boot2 from flash (the ROM's own flash boot needs the SSI)
  send('R', Buffer.from(reason));
}
let rebootWanted = 0;
let adcHung = false;

// --- PIO on emulated time ----------------------------------------------------------------------

// rp2040js steps a running PIO block 1,000 instructions per setTimeout, on the wall clock, with
// no clock divider: its pins' edges then bear no relation to the emulated time (a WS2812 bit's
// width depends on how busy Node is). Here every enabled state machine is stepped from the run
// loop at its own emulated pace (8 ns times its CLKDIV per cycle, the cycles an instruction and
// its delay take as rp2040js counts them), so the LED pin's edges are timed like the CPU's.
// A machine stalled on an empty TX FIFO is parked until a FIFO write (CPU or DMA) wakes it.
const WAIT_TX_FIFO = 3; // rp2040js's WaitType.txFIFO (pull) and WaitType.Out (autopull)
const WAIT_OUT = 5;
const CYCLE_NS = 8; // 125 MHz
let pioMachines = []; // {pio, m, due: ns of its next step, seen: its cycle count, parked}
let pioDue = Infinity; // the earliest `due`

function wirePio() {
  pioMachines = [];
  pioDue = Infinity;
  for (const pio of chip.pio) {
    pio.run = () => syncPio(pio); // instead of rp2040js's setTimeout loop
    for (const m of pio.machines) pioMachines.push({ pio, m, due: Infinity, seen: 0, parked: false });
    const write = pio.writeUint32.bind(pio); // CTRL, CLKDIV, TXF (CPU and DMA) all come here
    pio.writeUint32 = (offset, value) => {
      write(offset, value);
      syncPio(pio);
    };
  }
}

function cycleNs(m) {
  const div = (m.clockDivInt || 65536) + m.clockDivFrac / 256;
  return CYCLE_NS * div;
}

function syncPio(pio) {
  // After a register write: machines enabled or disabled, parked ones woken by a FIFO write.
  const now = chip.clock.nanos;
  for (const st of pioMachines) {
    if (st.pio !== pio) continue;
    const m = st.m;
    if (!m.enabled || pio.stopped) {
      st.due = Infinity;
      st.parked = false;
    } else if (st.parked) {
      if (!m.waiting) {
        // The stalled instruction completed now (rp2040js did it inside the write); the next
        // one runs after its delay.
        st.parked = false;
        st.due = now + (m.cycles - st.seen + 1) * cycleNs(m);
        st.seen = m.cycles;
      }
    } else if (st.due === Infinity) {
      st.due = now;
      st.seen = m.cycles;
    }
  }
  pioDue = earliestPio();
}

function earliestPio() {
  let due = Infinity;
  for (const st of pioMachines) if (st.due < due) due = st.due;
  return due;
}

function runPio(now) {
  // Every step due by `now`, in time order.
  for (;;) {
    let st = null;
    for (const s of pioMachines) if (s.due <= now && (st === null || s.due < st.due)) st = s;
    if (st === null) break;
    const m = st.m;
    m.step();
    st.pio.checkChangedPins();
    const spent = m.cycles - st.seen;
    st.seen = m.cycles;
    if (m.waiting && (m.waitType === WAIT_TX_FIFO || m.waitType === WAIT_OUT) && m.txFIFO.empty) {
      st.parked = true;
      st.due = Infinity;
    } else {
      st.due += Math.max(spent, 1) * cycleNs(m);
    }
  }
  pioDue = earliestPio();
}

function advance(ns) {
  // The clock on by ns (a sleeping core, a skipped delay loop), the PIO stepped on the way at
  // the times its steps fall due.
  const clock = chip.clock;
  const target = clock.nanos + ns;
  while (pioDue <= target) {
    if (pioDue > clock.nanos) clock.tick(pioDue - clock.nanos);
    runPio(clock.nanos);
  }
  clock.tick(target - clock.nanos);
}

// --- USB CDC: bytes both ways, held until there is room --------------------------------------

let usbIn = []; // chunks from the parent not yet taken by the device
let pendingRead = null; // an OUT endpoint armed by the device with no data to give yet

function wireUsb() {
  const usb = chip.usbCtrl;
  cdc = new USBCDC(usb);
  pendingRead = null;
  cdc.onSerialData = (buf) => send('U', buf);
  cdc.onDeviceConnected = () => {
    // MicroPython sends buffered output only after SOFs (rp2040js raises them as a host).
    const sof = chip.clock.createAlarm(() => {
      usb.intRaw |= INTR_DEV_SOF;
      usb.checkInterrupts();
      sof.schedule(1000 * NS_PER_US);
    });
    sof.schedule(1000 * NS_PER_US);
  };
  // The device clears its SOF interrupt by reading SOF_RD; rp2040js keeps it raised.
  const readRegister = usb.readUint32.bind(usb);
  usb.readUint32 = (offset) => {
    if (offset === SOF_RD) {
      usb.intRaw &= ~INTR_DEV_SOF;
      usb.checkInterrupts();
    }
    return readRegister(offset);
  };
  const cdcRead = usb.onEndpointRead; // the control endpoint's, during enumeration
  usb.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return cdcRead(endpoint, size);
    pendingRead = { endpoint, size };
    feedUsb();
  };
}

function feedUsb() {
  if (!pendingRead || !usbIn.length) return;
  const { endpoint, size } = pendingRead;
  const head = usbIn[0];
  const n = Math.min(size, head.length);
  pendingRead = null;
  chip.usbCtrl.endpointReadDone(endpoint, head.subarray(0, n));
  if (n < head.length) usbIn[0] = head.subarray(n);
  else usbIn.shift();
}

// --- pins: the sensor banks, the LED chain, the inputs ----------------------------------------

let inputLevels = { ...(pins.inputs || {}) }; // pin -> level the world drives (buttons, power sense)

function wirePins() {
  const gpio = chip.gpio;
  const bit = (p) => (gpio[p].outputValue ? 1 : 0);
  const enabled = () => bit(pins.enable) === pins.enableActive;
  const adc = chip.adc;
  const channel = pins.adc - 26;
  let lastBank = -1; // the bank of the last conversion
  adc.onADCRead = (ch) => {
    if (adcHung) return; // READY never comes
    let index = -1; // an unpowered bank reads 0 V
    if (ch === channel && enabled()) {
      const bank = bit(pins.bank[0]) | (bit(pins.bank[1]) << 1) | (bit(pins.bank[2]) << 2);
      const mux = bit(pins.mux[0]) | (bit(pins.mux[1]) << 1) | (bit(pins.mux[2]) << 2) | (bit(pins.mux[3]) << 3);
      index = bank * 16 + mux;
      if (bank === 0 && lastBank !== 0) {
        // A scan starts (its first reading on bank 0, which the firmware may have powered
        // at the end of the last scan): its readings come from the world, now.
        lastBank = bank;
        pendingAdc = { ch, index };
        paused = true;
        send('S');
        return;
      }
      lastBank = bank;
    }
    completeAdc(ch, index);
  };
  for (const [pin, level] of Object.entries(inputLevels)) gpio[pin].setInputValue(!!level);
  decodeLeds(gpio[pins.led]);
}
let pendingAdc = null; // a conversion waiting for the scan's readings (A)

function completeAdc(ch, index) {
  const adc = chip.adc;
  adc.channelValues[ch] = index < 0 ? 0 : frame[index];
  adc.currentChannel = ch;
  adc.sampleAlarm.schedule(adc.sampleTime * NS_PER_US);
}

function decodeLeds(pin) {
  // WS2812: a bit is a high pulse, about 0.4 us for 0 and 0.8 us for 1; a low of 50 us or
  // more latches the frame.
  let roseAt = -1;
  let firstAt = -1; // the frame's first rising edge (ns)
  let byte = 0;
  let nbits = 0;
  let bytes = [];
  let source = 0; // the pin's GPIO function at the frame's first edge
  const latch = chip.clock.createAlarm(() => {
    if (bytes.length) {
      const head = Buffer.alloc(9);
      head.writeDoubleLE(firstAt / NS_PER_US, 0);
      head[8] = source;
      send('L', Buffer.concat([head, Uint8Array.from(bytes)]));
    }
    bytes = [];
    firstAt = -1;
    byte = 0;
    nbits = 0;
  });
  pin.addListener(() => {
    const now = chip.clock.nanos;
    if (pin.outputValue) {
      roseAt = now;
      if (firstAt < 0) {
        firstAt = now;
        source = pin.functionSelect;
      }
      latch.cancel();
    } else if (roseAt >= 0) {
      byte = (byte << 1) | (now - roseAt > 600 ? 1 : 0);
      if (++nbits === 8) {
        bytes.push(byte);
        byte = 0;
        nbits = 0;
      }
      roseAt = -1;
      latch.schedule(50 * NS_PER_US);
    }
  });
}

// --- messages from the parent -------------------------------------------------------------------

function receive(type, body) {
  switch (type) {
    case 'U':
      usbIn.push(body);
      if (chip) feedUsb();
      break;
    case 'A':
      for (let i = 0; i < 128; i++) frame[i] = body.readUInt16LE(2 * i);
      if (pendingAdc) {
        completeAdc(pendingAdc.ch, pendingAdc.index);
        pendingAdc = null;
      }
      paused = false;
      break;
    case 'I':
      for (let i = 0; i + 1 < body.length; i += 2) {
        inputLevels[body[i]] = body[i + 1];
        chip.gpio[body[i]].setInputValue(!!body[i + 1]);
      }
      break;
    case 'W':
      alarmAt = body.readDoubleLE(0);
      break;
    case 'G':
      paused = false;
      break;
    case 'P':
      speed = body.readDoubleLE(0);
      resetPace();
      break;
    case 'Q':
      stop();
      return;
    case 'H':
      adcHung = true;
      break;
    default:
      fail(`unknown frame ${JSON.stringify(type)} from the parent`);
  }
  schedule();
}

// --- running ------------------------------------------------------------------------------------

let paceWall = 0;
let paceNanos = 0;
let timer = null;

function resetPace() {
  paceWall = performance.now();
  paceNanos = chip ? chip.clock.nanos : 0;
}

function schedule(delayMs = 0) {
  if (timer === null && !stopped && !paused) timer = setTimeout(run, delayMs);
}

function run() {
  timer = null;
  const clock = chip.clock;
  const cycleNanos = 8; // 125 MHz
  const until = performance.now() + 25;
  const erase = romFunc.RE;
  const program = romFunc.RP;
  const alarmNanos = alarmAt * NS_PER_US;
  while (!paused && !stopped) {
    for (let i = 0; i < 20000 && !paused; i++) {
      if (core.waiting) {
        if (profile) spent.sleep_ns += clock.nanosToNextAlarm;
        advance(clock.nanosToNextAlarm);
      } else {
        const pc = core.registers[15];
        if (pc === erase || pc === program) romFlash(pc === erase);
        else if (pc === delayUs && core.registers[0] <= 1000) {
          if (profile) spent.delay_ns += core.registers[0] * NS_PER_US;
          advance(core.registers[0] * NS_PER_US);
          core.PC = core.LR & ~1;
          continue;
        }
        if (profile) {
          if (--profileCountdown === 0) {
            profileCountdown = PROFILE_EVERY;
            profile.set(pc, (profile.get(pc) || 0) + 1);
          }
          const ns = core.executeInstruction() * cycleNanos;
          spent.executed_ns += ns;
          clock.tick(ns);
        } else {
          clock.tick(core.executeInstruction() * cycleNanos);
        }
        if (pioDue <= clock.nanos) runPio(clock.nanos);
      }
    }
    if (rebootWanted) {
      const reason = rebootWanted;
      rebootWanted = 0;
      boot('reset', reason);
      return schedule();
    }
    if (clock.nanos >= alarmNanos && !paused) {
      alarmAt = Infinity;
      paused = true;
      send('T');
      return;
    }
    if (speed > 0) {
      const ahead = (clock.nanos - paceNanos) / 1e6 / speed - (performance.now() - paceWall);
      if (ahead > 1) return schedule(Math.min(ahead, 50));
      if (ahead < -500) resetPace(); // far behind (a slow machine): no rush to catch up
    }
    if (performance.now() > until) break; // let the parent's frames in
  }
  schedule();
}

function romFlash(isErase) {
  // flash_range_erase(offset, count, block_size, cmd) / flash_range_program(offset, data,
  // count): done on the image (NOR flash: a program only clears bits), then back to LR.
  const r = core.registers;
  const offset = r[0] >>> 0;
  if (isErase) {
    const count = r[1] >>> 0;
    image.fill(0xff, offset, offset + count);
    chip.flash.fill(0xff, offset, offset + count);
    persist(offset, offset + count);
  } else {
    const data = r[1] >>> 0;
    const count = r[2] >>> 0;
    for (let i = 0; i < count; i++) {
      const v = image[offset + i] & chip.readUint8(data + i);
      image[offset + i] = v;
      chip.flash[offset + i] = v;
    }
    persist(offset, offset + count);
  }
  core.PC = core.LR & ~1;
}

function stop() {
  if (stopped) return;
  stopped = true;
  if (timer !== null) clearTimeout(timer);
  fs.fsyncSync(flashFd);
  if (profile) {
    fs.writeFileSync(args.profile, JSON.stringify({ pcs: Object.fromEntries(profile), ...spent }));
  }
  fs.closeSync(flashFd);
  process.exit(0);
}

boot("power on");
resetPace();
schedule();
