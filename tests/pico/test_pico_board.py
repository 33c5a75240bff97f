"""The shipped firmware on the emulated RP2040: flashed by `bgboard flash`, answering on its
USB serial port, scanning the sensors through its real pins, lighting the LEDs through its
LED pin."""

import json
import os
import shutil
import subprocess

from picosupport import BIN, bgboard, hello, wait_until

from bgboard.leds import led_places, nearest_role
from bgcore import Position, Turn


def test_bgboard_flash_deploys_the_whole_firmware_and_it_answers_hello(flashed, pico):
    assert flashed.run.returncode == 0, flashed.run.stderr[-2000:]
    assert "0 unchanged, 0 removed" in flashed.run.stdout  # an empty Pico: every file new
    assert "main.py" in flashed.run.stderr and "drivers/rp2_sensors.mpy" in flashed.run.stderr
    reply = hello(pico)
    assert reply and reply["protocol"] == 1 and reply["seq"] == 0, pico.device_text[-2000:]
    # bgboard itself, through pyserial, on the port.
    run = bgboard("send", "hello", "--port", pico.port, timeout=120)
    assert json.loads(run.stdout)["hello"] == "bgboard", run.stderr


def test_mpremote_sees_a_raspberry_pi_pico_and_the_firmware_comes_back_after_reset(pico):
    assert hello(pico)
    run = subprocess.run([os.path.join(BIN, "mpremote"), "connect", pico.port, "exec",
                          "import sys; print(sys.implementation._machine)"],
                         capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "Raspberry Pi Pico with RP2040", run.stdout + run.stderr
    # mpremote leaves the board at its REPL; a reset (the watchdog's, on the chip) boots
    # the firmware again.
    subprocess.run([os.path.join(BIN, "mpremote"), "connect", pico.port, "reset"],
                   check=True, capture_output=True, timeout=120)
    assert wait_until(lambda: any(why == "reset" for _, why in pico.boots), 30)
    assert hello(pico)


def test_after_mpremote_fs_ls_bgboard_finds_the_firmware_again(pico):
    # mpremote's fs ls leaves the chip at MicroPython's REPL (its raw REPL's soft reset does
    # not run main.py): bgboard's hello soft-resets it from the REPL, no hard reset needed.
    assert hello(pico)
    run = subprocess.run([os.path.join(BIN, "mpremote"), "connect", pico.port, "fs", "ls"],
                         capture_output=True, text=True, timeout=120)
    sizes = {line.split()[1]: int(line.split()[0]) for line in run.stdout.splitlines()[1:]
             if line.strip()}
    assert sizes.get("main.py", 0) > 0, run.stdout + run.stderr
    run = bgboard("send", "hello", "--port", pico.port, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["hello"] == "bgboard"
    assert not any(why == "reset" for _, why in pico.boots)  # no hard reset


def test_every_slot_is_read_through_its_own_bank_and_channel(pico):
    # Each of the 128 slots gets a reading of its own; the board's dump must give each back
    # at its slot: the mux and bank lines the driver sets pick the right sensor.
    assert hello(pico)
    with pico.lock:
        pico.override = [300 + 29 * slot for slot in range(128)]
    pico.sleep(100)
    dump = pico.command({"cmd": "dump"})
    assert dump["raw"] == pico.override


def test_a_lifted_checker_lights_its_legal_destinations_on_the_led_pin(pico):
    assert hello(pico)
    player, turn = _first_turn(pico)
    src = max(p for p in range(1, 26) if turn.destinations(p))
    with pico.lock:
        pico.table.lift(player, src)
    pico.sleep(400)
    want = {_white(player, p) for p in turn.destinations(src)}
    places = led_places()
    lit = pico.lit()
    may_go = {places.where[i][1] for i, rgb in lit.items()
              if places.where.get(i, ("",))[0] == "point" and nearest_role(rgb) == "may go"}
    origin = {places.where[i][1] for i, rgb in lit.items()
              if places.where.get(i, ("",))[0] == "point" and nearest_role(rgb) == "origin"}
    assert may_go == want, (lit, turn.destinations(src))
    assert origin == {_white(player, src)}


def test_led_frames_go_out_from_the_pio_each_the_newest_one(pico):
    # The chain is fed by a PIO state machine and DMA (the CPU never bit-bangs it), and no
    # frame is lost or late: the first frame after a lift lights its destinations, the first
    # after the checker is put back has them dark again, lift after lift.
    assert hello(pico)
    player, turn = _first_turn(pico)
    places = led_places()
    frames = []
    record = pico._led_frame

    def recorded(grb):
        record(grb)
        frames.append((pico.led_at, pico.led_source, _may_go(pico, places)))

    pico._led_frame = recorded
    for src in sorted(p for p in range(1, 26) if turn.destinations(p)):
        with pico.lock:
            pico.table.lift(player, src)
            lifted = pico.now_us
        pico.sleep(300)
        after = [f for f in frames if f[0] >= lifted]
        assert after, "no frame after the lift from %d" % src
        want = {_white(player, p) for p in turn.destinations(src)}
        assert after[0][2] == want and after[-1][2] == want, (src, after)
        with pico.lock:
            pico.table.put(player, src)
            put = pico.now_us
        pico.sleep(300)
        after = [f for f in frames if f[0] >= put]
        assert after and after[0][2] == set() and after[-1][2] == set(), (src, after)
    assert {f[1] for f in frames} == {"pio0"}


def _may_go(pico, places):
    return {places.where[i][1] for i, rgb in pico.lit().items()
            if places.where.get(i, ("",))[0] == "point" and nearest_role(rgb) == "may go"}


def _first_turn(pico):
    """A money game on the starting position, its opening throw made: (the player on roll, a
    Turn of their dice from the starting position)."""
    pico.command({"cmd": "new", "kind": "money"})
    start = Position.initial()
    with pico.lock:
        pico.table.set_position(start.mover, start.opponent)
    state = wait_until(lambda: _playing(pico), 120, step=0)
    assert state, pico.device_text[-2000:]
    return state["game"]["player"], Turn(start, tuple(state["game"]["dice"]))


def _playing(pico):
    # Once the board has seen the starting position, the opening throw (a tie throws again).
    state = pico.command({"cmd": "state"})
    if state.get("phase") == "playing" and state["game"]["dice"]:
        return state
    if state.get("phase") == "opening":
        pico.press("roll")
    pico.sleep(300)
    return None


def _white(player, point):
    return point if player == 0 else 25 - point


def test_sim_lines_work_the_hands_and_buttons_and_never_reach_the_firmware(pico):
    # What the browser view and `bgboard play` send: the hands' lines are answered by the
    # emulated board's world; a press goes to the button's GPIO pin, and the firmware
    # (no match on) refuses the throw on the line.
    import serial

    assert hello(pico)
    with serial.Serial(pico.port, timeout=1) as port:
        port.write(b'{"sim": "look"}\n{"sim": "lift", "side": 0, "at": 6}\n')
        look = json.loads(_line(port, b'"live": "sim"'))
        assert look["table"][0][0] == 15 and look["hand"] == [0, 0]
        refused = json.loads(_line(port, b'"live": "sim"'))
        assert "error" in refused  # no checker on White's 6 on an empty board
        port.write(b'{"sim": "press", "button": "roll"}\n')
        assert b"refused" in _line(port, b'"live": "refused"', seconds=60)
    assert b'"sim"' not in pico.device_text  # the firmware saw none of them


def _line(port, marker, seconds=30):
    found = wait_until(lambda: _read_until(port, marker), seconds, step=0)
    assert found, marker
    return found


def _read_until(port, marker):
    line = port.readline()
    return line if marker in line else None


def test_the_led_cap_follows_the_supply_sense_pin(flashed, tmp_path):
    # GP22 high: the board's own 5 V supply; the firmware's Rp2Supply reads it and the LED
    # current cap rises from USB's cap_ma_usb to cap_ma_external (hardware/pinmap.json).
    from bgboard.pico import PicoBoard

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "hardware", "pinmap.json")) as f:
        cur = json.load(f)["leds"]["current"]
    for external, low, high in ((False, 0, cur["cap_ma_usb"]),
                                (True, cur["cap_ma_usb"] + 1, cur["cap_ma_external"])):
        image = str(tmp_path / ("flash-%s.img" % external))
        shutil.copy(flashed.image, image)
        board = PicoBoard(image, speed=0, external_supply=external)
        board.start()
        try:
            assert hello(board)
            ma = board.command({"cmd": "ledtest"})["ma"]
            assert low <= ma <= high, (external, ma)
        finally:
            board.stop()
