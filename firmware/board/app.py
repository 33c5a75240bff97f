"""The board's application: sensing, the game controller, the journal, the LEDs and the
serial protocol wired to whatever hardware is passed in (the Pico's drivers in main.py,
simulated hardware in the virtual board and the tests), and the loop that runs them."""

import gc
import json

from board.controller import Controller
from board.archive import Archive
from board import heap
from board.journal import Journal, Resync
from board.leds import LedMap, Renderer
from board.protocol import Protocol
from board.record import IDLE, OVER
from board.sensor_loop import SensorLoop
from bgcore import Rules
from bgwire.commands import CommandError

FIRMWARE = "0.1.0"
SCAN_MS = 10
SERIAL_MS = 10  # a command waits at most this long to be read (each wake-up costs a Pico
# about 0.3 ms of asyncio and polling: every 5 ms was a tenth of its idle work)
LED_MS = 20  # a new LED frame waits at most this long to be shown
CALIBRATION = "calibration.json"
CALIBRATION_MAX = 8192  # what the board writes there is about 3 KB
JOURNAL_PAGE = 6  # events per reply to "journal": a reply line stays about 1 KB
JOURNAL_BYTES = 32768  # the journal's budget on flash
# The archive's (board.archive): what the journal drops until the host has it; about 45
# 7-point matches (14 KB each) of the Pico's 1.4 MB, leaving room for the journal's rewrites.
ARCHIVE_BYTES = 655360
LEDS_MS = 100  # the lit LEDs go to the host at most this often (live views)
MEM_MS = 1000  # the free heap is sampled (the least: "mem") and the supply read this often
# Garbage past this since the last collection is collected at the end of a turn of the loop
# (App._tidy_heap).
GARBAGE_MAX = 16 * 1024
FAULT_MS = 1000  # a fault that repeats is reported at most this often (all are counted)
WATCHDOG_MS = 8000  # a loop that stops this long resets the board: longer than any flash write
KEEP_RETRY_MS = 60000  # what the sensing learned failed to be kept: tried again this much later


class Hardware:
    """What the application needs, gathered: scanner (board.hw.Scanner), clock, rng,
    storage (board.storage.FlashStorage), link (board.hw.SerialLink), leds (board.hw.Leds),
    buttons (board.hw.Buttons), pinmap (hardware/pinmap.json as loaded), field
    (board.sensing.Field, or None for the default), supply (board.hw.Supply, or None: a
    board on USB power only) and watchdog (board.hw.Watchdog, or None)."""

    def __init__(self, scanner, clock, rng, storage, link, leds, buttons, pinmap, field=None,
                 supply=None, watchdog=None):
        self.scanner = scanner
        self.clock = clock
        self.rng = rng
        self.storage = storage
        self.link = link
        self.leds = leds
        self.buttons = buttons
        self.pinmap = pinmap
        self.field = field
        self.supply = supply
        self.watchdog = watchdog


class App:
    def __init__(self, hw, buffer, journal_bytes=JOURNAL_BYTES, archive_bytes=ARCHIVE_BYTES):
        """buffer: a preallocated array of 128 raw readings (array('H', ...)); journal_bytes
        and archive_bytes: the budgets on flash of the journal (board.journal.Journal's
        max_bytes) and of its archive (board.archive)."""
        self.hw = hw
        self.raw = buffer
        self._calibration_damaged = False  # calibration.json was unreadable: told at start
        self.offsets, self.faulty, self.gains, self.dead, learned = self._load_calibration()
        self._new_sensing(learned)
        learned = None
        self._unsaved = False  # the sensing learned since its learning was kept (keep_learned)
        self._keep_failed = None  # when keeping it last failed (ticks_ms)
        self.journal = Journal(hw.storage, max_bytes=journal_bytes)
        self.archive = Archive(self.journal, archive_bytes)
        leds = hw.pinmap["leds"]
        self._caps = (leds["current"]["cap_ma_usb"], leds["current"]["cap_ma_external"])
        self.renderer = Renderer(hw.leds, LedMap(leds), leds["brightness_default"],
                                 self._caps[0])
        self._follow_supply()
        self.protocol = Protocol(hw.link, self.command, FIRMWARE, self.info)
        self.journal_error = None  # why the journal was set aside at start, if it was
        self.board = self._new_board()
        self.pending_calibration = None
        self._leds_sent = bytearray(len(self.renderer.frame))  # the frame the host last saw
        self._leds_at = hw.clock.ticks_ms()
        self._learn = False  # sense() changed the board: learn() has work
        gc.collect()  # the least free is of live data: the imports' garbage is no measure
        self.least_free = _mem_free()
        self._live = _mem_alloc()  # the heap in use after the last collection
        self._mem_at = self._leds_at
        self.faults = 0  # every fault a task survived, numbered for the host
        self.heap_refused = 0  # lifts lit ahead that needed the heap after all (sense)
        self.compact_step_ms = 0  # the longest step of a journal's compaction (run)
        self._fault_at = None
        self._compact_error = None  # the compaction failure last reported

    def start(self):
        """Power-up: resume the match from the journal, say hello. Returns the events
        replayed. A journal that will not replay (a rule changed by a firmware update, a
        damaged event) never stops the board: it is kept aside under a name of its own,
        the board starts clean and its hello names the kept file ("kept")."""
        try:
            n = self.board.resume()
        except Exception as e:  # noqa: B902 - whatever stops the replay, MemoryError too
            self.journal.set_aside()
            self.archive.ready()  # the old journal's archive is kept aside too
            self.journal_error = "%s: %s" % (type(e).__name__, e)
            self.board = self._new_board()
            n = 0
        self.protocol.send(self.protocol.hello())
        if self._calibration_damaged:
            self._fault("calibration", ValueError(
                "%s is damaged: the sensors run uncalibrated (bgboard calibrate)" % CALIBRATION))
        try:
            if self.journal.unkept:  # the flash is full, or the kept files' budget spent
                self.board.refuse(self.journal.unkept)
            elif self.journal.kept:  # the LEDs' error sign, as for a refused action
                self.board.refuse("a journal was kept aside as %s: %s" % (
                    self.journal.kept, self.info()["kept_why"]))
            else:
                self.board.draw()
        except Exception as e:  # noqa: B902 - no LEDs is no reason not to start
            self._fault("leds", e)
        return n

    def _new_board(self):
        return Controller(self.hw.clock, self.hw.rng, self.journal, self.renderer,
                     self.protocol.push)

    def info(self):
        out = {"journal": self.journal.id, "seq": self.journal.last_seq}
        wd = self.hw.watchdog
        if wd is not None and wd.caused_reset():
            out["reset"] = "watchdog"  # the firmware hung and was restarted
        if self.journal.kept:  # set aside at this start: the host may fetch it
            out["kept"] = self.journal.kept
            out["kept_why"] = self.journal_error or self.journal.status
        if self.archive.kept:  # an archive no journal continues (its id is another)
            out["kept_archive"] = self.archive.kept
        if self.journal.unkept:  # why a damaged journal is not kept, or not yet repaired
            out["unkept"] = self.journal.unkept
        if self.journal.lost:  # a damaged line cut these off: a gap in the same journal
            out["lost"] = list(self.journal.lost)
            if self.journal.undone:  # the board went back to the state before them
                out["undone"] = True
        return out

    # --- one turn of the loop ---------------------------------------------------------------

    def scan(self):
        """Read the sensors once; tell the board what changed (and, once, what it sees
        after the first stable_ms: an empty board changes nothing, yet the board must know
        it, to ask for the checkers); let the sensors learn from it."""
        self.sense()
        self.learn()

    def sense(self):
        """scan() up to the board's new LEDs, the learning left for learn()."""
        loop = self.sensor_loop
        try:
            changed = loop.scan()
            if loop.blind_moved:
                self._blind_moved()
        except Exception as e:  # noqa: B902 - a sensor fault: reported, the next scan tries
            self._fault("scanner", e)
            return
        if changed:
            if loop.lifted >= 0:
                # A lift of the mover's checker on its first strong scan: its destinations
                # go out (the device's deferred frame too) before the board reads the whole
                # of its view, the scan's longest part: a person waits for the lights. With
                # the heap locked, as the sensing ran (board.heap); a lift whose destinations
                # were not worked out ahead yet needs the heap: drawn again with it (counted).
                drawn = False
                try:
                    heap.lock()
                    try:
                        drawn = self.board.on_lift(loop.lifted)
                    finally:
                        heap.unlock()
                except MemoryError:
                    self.heap_refused += 1
                    try:
                        drawn = self.board.on_lift(loop.lifted)
                    except Exception as e:  # noqa: B902
                        self._board_fault(e)
                except Exception as e:  # noqa: B902
                    self._board_fault(e)
                if drawn:
                    try:
                        heap.lock()
                        try:
                            self.renderer.flush()
                        finally:
                            heap.unlock()
                    except MemoryError:  # still pending: the loop's flush sends it
                        self.heap_refused += 1
                    except Exception as e:  # noqa: B902
                        self._fault("leds", e)
            try:
                self.board.on_sensed(loop.sensed)
            except Exception as e:  # noqa: B902
                self._board_fault(e)
                return
            self._learn = True
        if loop.landing_moved:
            loop.landing_moved = False
            try:
                self.board.on_landing(loop.landing)
            except Exception as e:  # noqa: B902
                self._board_fault(e)

    def learn(self):
        """After a scan that changed something (and after its LEDs went out: a person
        waits for those): the sensors learn from what the board now knows stands on them."""
        if not self._learn:
            return
        self._learn = False
        try:
            if self.sensor_loop.learn(self.board):
                self._unsaved = True  # the sensing learned from what stands on it
        except Exception as e:  # noqa: B902
            self._board_fault(e)

    def _blind_moved(self):
        # A sensor was found dead from play, or alive again: a calibration on flash keeps
        # the dead ones, and the host hears of it.
        from bgwire import sensors  # loaded only for this (its words cost RAM)

        loop = self.sensor_loop
        loop.blind_moved = False
        was = self.dead
        self.dead = loop.sensing.blind(2)
        slots = loop.sensing.blind()
        self.protocol.push({"live": "blind", "slots": slots,
                            "words": sensors.untrusted_words(slots)})
        self.board.show_untrusted([sensors.place(s) for s in self.dead if s not in was])
        sensors = None
        _let_go_words()
        offsets = self.offsets
        if offsets is not None and not self.pending_calibration:
            try:
                self._save_calibration(offsets)
            except Exception as e:  # noqa: B902 - kept in RAM; the board goes on
                self._fault("scanner", e)

    def step(self):
        """Everything between two scans: serial, buttons, time, a step of the journal's
        compaction, and once a second what run()'s loop does then (the free heap, a journal
        compaction that failed)."""
        self._serial()
        self._buttons_and_time()
        self._follow_supply()
        try:
            self._each_second()
        except Exception as e:  # noqa: B902
            self._fault("supply", e)
        self._leds()
        try:
            self.journal.step()  # as run() does each turn
        except Exception as e:  # noqa: B902
            self._fault("compact", e)

    def _buttons_and_time(self):
        try:
            pressed = self.hw.buttons.pressed()
        except Exception as e:  # noqa: B902
            self._fault("buttons", e)
            pressed = 0
        try:
            if pressed:
                self.board.on_buttons(pressed)
            self.board.tick()
        except Exception as e:  # noqa: B902
            self._board_fault(e)

    def _serial(self):
        try:
            self.protocol.poll()
        except Exception as e:  # noqa: B902 - the link failed, not a command (answered)
            self._fault("link", e)

    def _leds(self):
        try:
            self.renderer.flush()
            self._report_leds()
        except Exception as e:  # noqa: B902
            self._fault("leds", e)

    # --- faults: every task goes on after one -------------------------------------------------

    def _fault(self, task, e):
        """A task raised: tell the host (the count numbers them) and go on; the next turn
        of the loop is the restart. A fault that repeats is told once a FAULT_MS."""
        self.faults += 1
        clock = self.hw.clock
        now = clock.ticks_ms()
        if self._fault_at is not None and clock.ticks_diff(now, self._fault_at) < FAULT_MS:
            return
        self._fault_at = now
        try:
            self.protocol.send({"live": "fault", "n": self.faults, "task": task,
                                "error": "%s: %s" % (type(e).__name__, e)})
        except Exception:  # noqa: B902 - the link itself: counted, told with the next
            self._fault_at = None

    def _board_fault(self, e):
        # The board's logic raised and may have left its state half changed: it goes back
        # to what the journal holds, as a power cut would put it, without the reboot.
        self._fault("board", e)
        try:
            self.board.put_back()
        except Exception as again:  # noqa: B902 - told; the next fault tries again
            self._fault("board", again)

    def _follow_supply(self):
        # The LEDs' current cap follows the supply (GP22 on the Pico): the board's own 5 V
        # supply allows far more than USB. Checked each step (the device: each second); a
        # changed cap applies from the next frame.
        supply = self.hw.supply
        self.renderer.cap_ma = self._caps[1 if supply is not None and supply.external() else 0]

    def _report_leds(self):
        # {"live": "leds", "lit": {"rrggbb": [chain index, ...]}}: grouped by colour, so that
        # even a fully lit chain fits a protocol line. Built only when the frame changed.
        clock = self.hw.clock
        now = clock.ticks_ms()
        frame = self.renderer.frame
        if clock.ticks_diff(now, self._leds_at) < LEDS_MS or frame == self._leds_sent:
            return
        self._leds_at = now
        self._leds_sent[:] = frame
        lit = {}
        for i in range(0, len(frame), 3):
            if frame[i] or frame[i + 1] or frame[i + 2]:
                colour = "%02x%02x%02x" % (frame[i], frame[i + 1], frame[i + 2])
                if colour in lit:
                    lit[colour].append(i // 3)
                else:
                    lit[colour] = [i // 3]
        self.protocol.send({"live": "leds", "lit": lit})

    async def run(self):
        """The loop on the device, as asyncio tasks: scanning (sensors, buttons, time, a
        step of the journal's compaction) every SCAN_MS, a frame the scan changed sent at
        once; the serial line every SERIAL_MS; the LEDs a command or timer changed, every
        LED_MS. Each await lets USB and the REPL's Ctrl-C through."""
        import asyncio
        sleep_ms = getattr(asyncio, "sleep_ms", None) or (lambda ms: asyncio.sleep(ms / 1000))
        self.renderer.deferred = True
        asyncio.create_task(self._serial_task(sleep_ms))
        asyncio.create_task(self._led_task(sleep_ms))
        clock = self.hw.clock
        wd = self.hw.watchdog
        if wd is not None:
            wd.start(WATCHDOG_MS)  # fed by this loop: any task that hangs stops it
        protocol = self.protocol
        while True:
            t0 = clock.ticks_ms()
            # What this scan changed (a lift's destinations) goes to the LEDs first, then
            # to the host: a person waits for the one, the host's line does not.
            protocol.hold()
            self.sense()
            try:
                self.renderer.flush()
            except Exception as e:  # noqa: B902
                self._fault("leds", e)
            self.learn()
            self._buttons_and_time()  # what they draw goes out at the next turn's flush
            try:
                protocol.release()
            except Exception as e:  # noqa: B902
                self._fault("link", e)
            # A bounded step of the journal's compaction, once past 5/8 of its budget (at
            # once, at 3/4, it held this loop for a second); the longest is kept for mem.
            began = clock.ticks_ms()
            try:
                self.journal.step()
            except Exception as e:  # noqa: B902
                self._fault("compact", e)
            began = clock.ticks_diff(clock.ticks_ms(), began)
            if began > self.compact_step_ms:
                self.compact_step_ms = began
            try:
                self._each_second()
            except Exception as e:  # noqa: B902
                self._fault("supply", e)
            self._tidy_heap()
            if wd is not None:
                wd.feed()
            rest = SCAN_MS - clock.ticks_diff(clock.ticks_ms(), t0)
            await sleep_ms(rest if rest > 0 else 0)

    def _each_second(self):
        # Off the scan's path: the supply, and the free heap.
        clock = self.hw.clock
        now = clock.ticks_ms()
        if clock.ticks_diff(now, self._mem_at) >= MEM_MS:
            self._follow_supply()
            e = self.journal.compact_error
            if e is not None and e is not self._compact_error:  # the event was stored; the
                self._compact_error = e  # journal tries again at the next append
                self._fault("compact", e)
            self.keep_learned()
            # After a collection: the heap the live data leave, not what garbage awaiting
            # the next collection happens to hold.
            self._mem_at = now
            gc.collect()
            self._live = _mem_alloc()
            free = _mem_free()
            if free is not None and free < self.least_free:
                self.least_free = free

    def _tidy_heap(self):
        # Allocation walks up the free heap until a collection; what stays meanwhile (a
        # turn's destinations, a journal line) lands anywhere in it and splits the largest
        # free block (39 KB at the least over two matches, collecting each second and when
        # full; 70 KB collecting every 12 KB, gc.threshold, but then inside answers too).
        # So past GARBAGE_MAX, here: the turn's lights and lines are out.
        used = _mem_alloc()
        if used is not None and used - self._live > GARBAGE_MAX:
            gc.collect()
            self._live = _mem_alloc()

    def keep_learned(self):
        """What the sensing learned from play goes to flash with the calibration, at a quiet
        moment (no turn waits on the flash write, tens of ms on a Pico: a game over, or no
        match) and if it moved materially since it was kept (board.learned): so at most once a
        game. Not while a new calibration waits for its save, nor without a calibration. A
        write that fails is told (fault "learned") and tried again KEEP_RETRY_MS later;
        until then the learning is in RAM and the board goes on."""
        if not self._unsaved or self.board.phase not in (OVER, IDLE) or \
                self.offsets is None or self.pending_calibration:
            return
        clock = self.hw.clock
        now = clock.ticks_ms()
        if self._keep_failed is not None and \
                clock.ticks_diff(now, self._keep_failed) < KEEP_RETRY_MS:
            return
        from board import forget  # the comparison's code is loaded only now, then let go

        try:
            from board import learned

            learned.keep(self, CALIBRATION)
            self._unsaved = False
            self._keep_failed = None
        except Exception as e:  # noqa: B902 - OSError, MemoryError: kept in RAM, tried again
            self._keep_failed = now
            self._fault("learned", e)
        finally:
            learned = None
            forget("learned")

    async def _serial_task(self, sleep_ms):
        while True:
            self._serial()
            await sleep_ms(SERIAL_MS)

    async def _led_task(self, sleep_ms):
        while True:
            self._leds()
            await sleep_ms(LED_MS)

    # --- the host's commands (board.protocol checked their form) ------------------------------

    def command(self, cmd, args):
        try:
            return self._command(cmd, args)
        except ValueError:
            raise  # refused: nothing changed
        except Exception as e:  # noqa: B902 - answered by the protocol; the board is put back
            self._board_fault(e)
            raise

    def _command(self, cmd, args):
        board = self.board
        if cmd == "state":
            out = board.state()
            out.update(self.info())
            untrusted = self.sensor_loop.sensing.blind()
            if untrusted:  # faulty or found dead: their checkers read by the rules
                out["untrusted"] = untrusted
            return out
        if cmd == "dump":
            from board import maintenance  # loaded on first use

            return maintenance.dump(self)
        if cmd == "roll":
            dice = args.get("dice")
            board.roll((dice[0], dice[1]) if dice else None)
        elif cmd in ("demand", "rethrow", "void", "correct_setup"):  # seldom: loaded when asked
            from board import seldom

            seldom.command(board, cmd, args)
        elif cmd in ("double", "take", "drop", "beaver", "raccoon"):
            board.cube_action(cmd, args.get("member"))
        elif cmd == "partner":
            from board import chouette_session  # loaded when a chouette is played

            chouette_session.partner(board, args["member"])
        elif cmd == "join" or cmd == "leave":
            from board import chouette_session

            chouette_session.lineup(board, cmd, args["name"])
        elif cmd == "resign":
            board.resign(args["level"])
        elif cmd in ("accept", "reject"):
            board.answer_resignation(cmd == "accept")
        elif cmd == "new":
            self._new(args)
        elif cmd == "undo":
            board.undo()
        elif cmd == "verify":
            missing, extra = board.verify()
            return {"missing": missing, "extra": extra}
        elif cmd == "ledtest":
            from board import maintenance

            return maintenance.ledtest(self)
        elif cmd == "calibrate":
            from board import calibration, forget  # loaded only to calibrate, then let go

            try:
                return calibration.command(self, args.get("step", "empty"))
            finally:
                calibration = None
                forget("calibration")
        elif cmd == "journal":
            return self._journal(args["since"])
        elif cmd == "kept":
            from board import maintenance

            return maintenance.kept(self, args.get("name"), args.get("offset", 0),
                                   args.get("free", False))
        elif cmd == "ack":
            return self._ack(args["journal"], args["seq"])
        elif cmd == "guide":
            from board.guide import command  # loaded when a host guides a play

            return command(board, args)
        elif cmd == "mem":
            gc.collect()  # free after a collection, as the largest block is measured
            free = _mem_free()
            if free is not None and free < self.least_free:
                self.least_free = free  # the least seen, now included
            return {"free": free, "least_free": self.least_free, "largest": _largest_block(),
                    "withdrawn": self.sensor_loop.sensing.withdrawn,
                    "unlanded": self.board.unlanded, "heap_refused": self.heap_refused,
                    "compact_step_ms": self.compact_step_ms}
        return {}

    def _new(self, args):
        kind = args["kind"]
        if kind == "match":
            length = args.get("length", 0)
            if length < 1:
                raise CommandError("new match: give its length in points (1 or more)")
        elif kind == "money":
            length = 0
        elif kind == "chouette":
            return self._new_chouette(args)
        else:
            raise CommandError("new: kind is match, money or chouette, not %r" % kind)
        games = args.get("games", 0)
        if games and length:
            raise CommandError("new: games go with kind money (a series decided by the total)")
        self.board.new_match(length, _rules(args.get("options", {})), games)

    def _new_chouette(self, args):
        options = dict(args.get("options", {}))
        multiple = options.pop("multiple_cubes", True)
        partner_from = options.pop("partner_from", None)
        extra = {}
        for k in ("consult", "partner_by"):
            if k in options:
                extra[k] = options.pop(k)
        if not isinstance(multiple, bool):
            raise CommandError("new chouette: multiple_cubes is true or false")
        if "length" in args:
            raise CommandError("new chouette: a chouette has no length")
        players = args.get("players")
        if not players:
            raise CommandError("new chouette: give the players, highest rank (the box) first")
        from board import chouette_session

        chouette_session.new(self.board, players, _rules(options), multiple, partner_from, extra)

    def _journal(self, since):
        try:
            events = self.journal.since(since, JOURNAL_PAGE + 1)
        except Resync as e:
            raise CommandError("resync", {"first": e.first, "last": e.last})
        page = list(events)
        more = len(page) > JOURNAL_PAGE
        return {"events": page[:JOURNAL_PAGE], "more": more}

    def _ack(self, journal, seq):
        # The host has stored every event up to seq: the archive no longer keeps them.
        if journal != self.journal.id:
            raise CommandError("ack: the board's journal is %d, not %d" % (self.journal.id,
                                                                            journal))
        if seq < 0:  # no seq the host can have stored: a host's bug, said as such
            raise CommandError("ack: seq is 0 or more, got %d" % seq)
        if seq > self.journal.last_seq:
            raise CommandError("ack: the journal ends at %d" % self.journal.last_seq)
        self.archive.trim(seq)
        return {"first": self.journal.first_seq}

    def _new_sensing(self, learned=None):
        # learned: what an earlier pipeline learned (at power-up, from flash); a calibration
        # starts a new one without it.
        if hasattr(self, "sensor_loop"):  # the old pipeline goes first: its RAM for the new
            del self.sensor_loop
        hw = self.hw
        self.sensor_loop = SensorLoop(hw.scanner, hw.clock, self.raw, hw.field, self.offsets,
                                      self.gains, self.faulty, self.dead, learned)

    def _save_calibration(self, offsets, learned=None):
        # "gains" are the calibration's (calibrate checkers); "learned" what the sensing
        # learned from play (Sensing.learned(): its gains take the place of those).
        self.hw.storage.write(CALIBRATION, json.dumps({
            "offsets": list(offsets), "faulty": self.faulty, "dead": self.dead,
            "gains": list(self.gains) if self.gains else None,
            "learned": learned or self.sensor_loop.sensing.learned()}).encode())

    def _load_calibration(self):
        # A file that is not what _save_calibration writes (damaged, or not ours) leaves the
        # board uncalibrated, as new, and says so at start: a board must always boot.
        try:  # bounded: a file grown by another tool costs no RAM
            data = self.hw.storage.read(CALIBRATION, CALIBRATION_MAX)
        except (OSError, MemoryError):  # too large, a directory, unreadable
            data = b"not ours"
        if data:
            try:
                saved = json.loads(data)
                out = (saved["offsets"], saved["faulty"], saved.get("gains"),
                       saved.get("dead") or [], saved.get("learned"))
                if _ints(out[0], 0, 4095, 128) and _ints(out[1], 0, 127) and \
                        (out[2] is None or _ints(out[2], 1, 32767, 128)) and \
                        _ints(out[3], 0, 127):
                    return out
            except (ValueError, KeyError, TypeError):
                pass
            self._calibration_damaged = True
        return None, [], None, [], None


def _ints(values, lo, hi, n=-1):
    # A list of ints in lo..hi (n of them, if n is given): what calibration.json holds.
    if not isinstance(values, list) or n >= 0 and len(values) != n:
        return False
    for v in values:
        if type(v) is not int or not lo <= v <= hi:
            return False
    return True


def _mem_free():
    # MicroPython's free heap; None on CPython (the tests), which has no such figure.
    mem_free = getattr(gc, "mem_free", None)
    return mem_free() if mem_free is not None else None


def _mem_alloc():
    # MicroPython's heap in use (live and garbage); None on CPython.
    mem_alloc = getattr(gc, "mem_alloc", None)
    return mem_alloc() if mem_alloc is not None else None


def _largest_block():
    # The largest piece of heap one allocation can have now, to 16 bytes: halve the step
    # after each try (a failing allocation collects first). Measured on request only.
    if _mem_free() is None:
        return None
    gc.collect()
    size = 0
    step = 1 << 17
    while step >= 16:
        try:
            bytearray(size + step)
            size += step
        except MemoryError:
            step >>= 1
    gc.collect()  # the last block tried is garbage as large as the heap's largest: gone
    return size  # now, not in a later scan's allocation (a collection there costs ms)


def _rules(options):
    try:
        return Rules(**options)
    except TypeError:
        raise CommandError("new: unknown rule option among %s" % ", ".join(options))


def _let_go_words():
    # bgwire.sensors (the untrusted sensors' words) leaves the heap: a sensor is found dead
    # a few times in a board's life.
    import sys

    import bgwire

    sys.modules.pop("bgwire.sensors", None)
    if hasattr(bgwire, "sensors"):  # MicroPython keeps it in the package too
        delattr(bgwire, "sensors")
