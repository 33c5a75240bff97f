"""The game controller: buttons, host commands and what the sensors see, turned into the
match's events; LEDs that say what to do next.

The match itself is the game record (board.record): every event the controller commits is
applied there, journaled, then sent to the host, and a power cut replays the journal into a
new record. An event that cannot be stored puts RAM back to what the journal holds: the
board is never ahead of its flash. A play is committed when the opponent acts on it (throws,
doubles, resigns), not when its last checker lands: until then it may be taken back. Here
are the phases' rules for the players' actions, the buttons, the timers, the tracker that
follows the checkers (board.tracker) and the LEDs (board.leds); what differs between a match
and a chouette is the session's (board.record, board.chouette_session).
"""

from array import array

from bgcore import Position, Rules
from bgcore.position import OFF
from board.layout import BAR_FIRST, POINT_SLOTS, heights_from_counts, where
from board.record import IDLE, OPENING, OVER, PLAYING, RARE, SETUP, Record, match_event
from board.tracker import LIFTED, RESTORE, STEADY, Reading, Tracker, deviation, deviations, \
    differences
from bgwire import DOUBLE, DROP, MENU, ROLL, TAKE, VERIFY  # the buttons' bits
from bgwire import WRONG

PASS_MS = 2000     # a roll with no legal play is shown this long, then passes
LAST_OFF_MS = 1500  # the last checker held off the board this long is borne off
REFUSED_MS = 1000  # a refused action flashes this long
UNTRUSTED_MS = 4000  # the points of sensors newly found dead are lit this long


class NotCommitted(ValueError):
    """An action's event could not be committed (the rules refused it, or the flash would
    not store it): nothing changed, and the board has already shown and sent why."""


class Controller(Record):
    """The board's game controller: a game record (board.record.Record: match, phase and
    settings as committed; the journal replays that part alone) that players act on.
    Hardware comes in: clock (ticks_ms/ticks_diff), rng (randint), journal
    (board.journal.Journal or None), renderer (board.leds.Renderer or None) and emit (called
    with each message for the host)."""

    def __init__(self, clock, rng, journal=None, renderer=None, emit=None):
        Record.__init__(self)
        self.clock = clock
        self.rng = rng
        self.journal = journal
        self.renderer = renderer
        self.emit = emit or (lambda msg: None)
        self.tracker = None
        self.sensed = None
        self._slot_codes = None  # type: array | None  # a position's code per slot
        self.reading = Reading()
        self._lifting = Reading()  # on_lift()'s, ahead of the tracker's
        self.pass_at = None  # when a no-play roll passes
        self.last_off_at = None  # when the mover's last checker was lifted to bear it off
        self.refused_until = None
        self.last_refusal = ""
        self.untrusted = ()  # (side, point) places of sensors newly found dead, lit a while
        self.untrusted_until = None
        self._stale = False  # RAM was put back to the journal: look at the board again
        # The lifted checker shows on one of its lit destinations, not yet confirmed: the
        # LEDs answer as the move will (on_landing); `unlanded` counts such answers taken
        # back (the checker only slid over it).
        self.landed = False
        self.unlanded = 0
        if journal is not None:
            journal.snapshot = self.snapshot  # it compacts itself, guarded, in append()

    # --- start-up ---------------------------------------------------------------------------------

    def resume(self):
        """Rebuild the match from the journal (after power-up). Returns events replayed."""
        if self.journal is None:
            return 0
        n = self._restore()
        self._finish_game()
        self._follow_turn()
        return n

    def _restore(self):
        # The state the journal holds: at power-up, or after an event failed to be stored.
        self.tracker = self.pass_at = self.last_off_at = None
        Record.__init__(self)
        journal = self.journal
        if journal is None:
            return 0
        return self.replay(journal)

    def _finish_game(self):
        m = self.match
        if m is not None and m.game.is_over():  # the power went before the game's result
            if self.phase not in (OVER, IDLE):  # ... was written
                self._result()
            elif self.phase == OVER:  # ... or before the match's end was
                self._match_over()

    # --- committing ---------------------------------------------------------------------------------

    def _commit(self, ev):
        # Applying an event is how it is checked (bgcore refuses what is not allowed) and
        # fills in what the host is told; it is stored before anyone hears of it. If either
        # fails, RAM goes back to what the journal holds (as after a power cut) and the
        # action is refused: nothing has changed.
        journal = self.journal
        if ev["ev"] == "match" and journal is not None and journal.archive is not None:
            why = journal.archive.no_room()  # a match needs room to finish: refused as is
            if why:
                self.refuse(why)
                raise NotCommitted(why)
        try:
            if journal is not None and journal.needs_compact:  # it failed after an append:
                journal.compact(self.snapshot())  # again, before this event, or it fills up
            self._apply(ev)
            seq = journal.append(ev) if journal is not None else 0
        except Exception as e:  # noqa: B902 - OSError, MemoryError, a rule: all the same
            if journal is None:
                raise
            self.put_back(ev["moves"] if ev["ev"] == "play" else None)
            why = str(e) if isinstance(e, ValueError) else \
                "the board could not store it (%s %s): nothing changed" % (type(e).__name__, e)
            self.refuse(why)
            raise NotCommitted(why)
        if ev["ev"] == "game" and journal is not None:  # a damaged line before here costs
            journal.mark(self.snapshot)  # at most the game it lies in
        msg = dict(ev)
        msg["seq"] = seq
        self.emit(msg)

    def put_back(self, moves=None):
        """Back to what the journal holds (after a failed commit, or a fault that may have
        left the state half changed), and the checkers read again at the next tick. moves:
        the play that was not stored, made again as the turn's moves: its checkers still
        stand where they were played."""
        self._restore()
        self.play_again(moves)
        self._follow_turn(False)  # nothing committed here: the next tick looks
        self._stale = True

    def _apply(self, ev):
        self.apply(ev)
        if ev["ev"] in RARE:
            self.pass_at = None
        m = self.match
        game = m.game if m is not None else None
        if self.tracker is not None and (game is None or self.tracker.turn is not game.turn
                                         or game.is_over()):
            self.tracker = None

    # --- what the players do ------------------------------------------------------------------------

    def new_match(self, length=0, rules=None, games=0):
        """Start a match to `length` points (0: a money session), or over `games` games
        decided by the total (bgcore.sheet)."""
        self._commit(match_event(length, rules, games))  # bad settings refused before
        self._update()  # show at once what the setup lacks (nothing may move for a while)

    def roll(self, dice=None):
        """The player on roll throws (the board's dice when `dice` is None)."""
        game = self._game("throw")
        self.settle()
        if self.phase == SETUP:
            raise ValueError("set up the starting position first")
        if self.phase == OPENING:
            if dice is None:
                dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
            reason = game.why_not_roll()
            if reason:
                raise ValueError(reason)
            ev = {"ev": "opening", "dice": [dice[0], dice[1]]}
            if dice[0] == dice[1] and game.tie_doubles():
                ev["cube"] = game.cube.value * 2
            self._commit(ev)
            self._follow_turn()
            return
        reason = game.why_not_roll() or self.session.waiting()
        if reason and game.rules.shut_out_pass and "shut out" in reason:
            # shut out (rule option, bgcore.rare): Roll journals a pass, without a throw
            self._accept_play()
            self._commit({"ev": "pass", "player": game.on_roll})
            self._follow_turn()
            return
        if reason:
            raise ValueError(reason)
        self._accept_play()
        if dice is None:
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        self._commit({"ev": "roll", "player": game.on_roll, "dice": [dice[0], dice[1]]})
        self._follow_turn()

    def cube_action(self, kind, member=None, pick=False):
        """double, take, drop, beaver or raccoon, by the player whose turn it is to act. In a
        chouette, `member` names whose stake it is (board.chouette_session); `pick`: none
        named, the first whose answer is due (the buttons)."""
        game = self._game(kind)
        self.settle()
        evs = self.session.plan(kind, member, pick)
        if kind == "double":
            self._accept_play()
        for ev in evs:
            self._commit(ev)
        if game.is_over():
            self._result()

    # Resignations, a take-back by command, verify: board.seldom's (loaded when first used).

    def resign(self, level):
        """The player on roll (or whose turn it is to act) offers to resign `level`."""
        from board import seldom

        seldom.resign(self, level)

    def answer_resignation(self, accept):
        """The resigner's opponent accepts or rejects; after a demand the resigner does."""
        from board import seldom

        seldom.answer_resignation(self, accept)

    def undo(self):
        """Take back the last checker moved (the board then shows it must go back)."""
        from board import seldom

        seldom.undo(self)

    def _game(self, what):
        # The game, if `what` may be done in this phase.
        m = self.match
        if m is None or self.phase == IDLE:
            j = self.journal  # a new match may be refused: say why rather than "start one"
            why = j.archive.no_room() if j is not None and j.archive is not None else None
            raise ValueError("no match in progress: " + (
                why or "start one (new match or money session)"))
        if self.phase == OVER and what != "answer":
            raise ValueError("the game is over: set up the checkers for the next game")
        return m.game

    def settle(self):
        """Before anyone acts on the play: a checker still off its point that can only have
        been borne off was."""
        if self.tracker is not None and self.sensed is not None:
            self.tracker.finish(self.sensed)
            self._update()

    def _accept_play(self):
        # The opponent acts: the mover's play as it stands is committed.
        m = self.match
        if m is None:
            return
        game = m.game
        turn = game.turn
        if turn is None or not turn.can_end():
            return
        if self.tracker is not None and self.sensed is not None:
            if self.tracker.update(self.sensed).state != STEADY:
                raise ValueError("the checkers do not show the play: put them right first")
        moves = [[s.src, s.dst, 1 if s.hit else 0] for s in turn.steps]
        self._commit({"ev": "play", "player": game.player, "dice": list(turn.dice),
                      "moves": moves})
        self.pass_at = None
        if game.is_over():
            self._result()

    def _result(self):
        m = self.match
        r = m.game.result if m is not None else None
        if m is None or r is None:
            return
        self._commit({"ev": "result", "winner": r.winner, "points": r.points,
                      "level": r.level, "how": _how(r.how), "score": m.score})
        self._match_over()

    def _match_over(self):
        m = self.match
        if m is not None and m.is_over():
            self._commit({"ev": "match_over", "winner": m.winner, "score": m.score})

    def _follow_turn(self, update=True):
        # A new roll: track it on the board (a no-play roll passes after PASS_MS).
        game = self.match.game if self.match else None
        self.tracker = None
        if game is None or game.turn is None or game.is_over():
            return
        self.tracker = Tracker(game.turn, game.player)
        if not game.turn.required:
            self.pass_at = self.clock.ticks_ms()
        if update:
            self._update()

    # --- inputs -----------------------------------------------------------------------------------

    def hand(self):
        """What the sensing may expect of the mover's hand (asked once a scan): their colour
        (slot code sign: 1 white, -1 black) when one of their checkers may be lifted (the
        board shows the turn's position, or it with one checker astray: such a lift shows on
        its first strong scan), twice it while one of theirs is in the air (its destinations
        lit: where it is put down is answered at once), three times it when that one may
        have been borne off (both), 0 otherwise: anything else (a second checker in the air,
        a disturbance shown) keeps the stable time as ever, so that a checker held long in a
        restore does not look like a dead sensor any sooner."""
        t = self.tracker
        if t is None:
            return 0
        r = self.reading
        sign = 1 if t.mover == 0 else -1
        if r.state == STEADY or r.stray >= 0:
            return sign
        if r.state != LIFTED:
            return 0
        return 3 * sign if 0 in r.targets else 2 * sign  # it may be in the tray: both

    def on_lift(self, slot):
        """The sensing confirmed a lift of the mover's checker from slot on its first scan
        of strong evidence (a weak one: at its stable time), that scan's only change, and
        the board stood as the turn expects, or with one checker astray, or with one that
        may be borne off in the air (hand()): light the lift's destinations now, as the
        tracker is about to read it, ahead of reading the whole board (on_sensed follows at
        once, decides and draws the same). True if drawn; False where the tracker might read
        it otherwise (a stack too tall to see the checker go, a blind slot, a second checker
        gone with it, another checker than the stray one lifted)."""
        t = self.tracker
        sensed = self.sensed
        r = self.reading
        if t is None or sensed is None or self._stale or self.landed:
            return False
        side = t.mover
        p = 25 if slot >= BAR_FIRST else slot // POINT_SLOTS + 1  # where(slot), no call
        point = 25 if p == 25 else 25 - p if side else p
        src = point  # where the tracker will read the checker lifted from
        left = 1  # how many fewer than the turn's the point then holds
        off = None
        if r.state == LIFTED:  # a second lift, the first checker perhaps borne off
            off = t.off_lift(point)
            if off is None:
                return False
            left = 2 if point == r.origin else 1
        elif r.state != STEADY:  # the stray checker lifted: the board then shows the
            if point != r.stray:  # turn's position less one on stray_from
                return False
            src = r.stray_from
            left = 0
        # The point must read (a stack that shows "3 or more" as the tracker reads it) the
        # checkers gone that `left` says.
        if sensed.unseen[side][point] or deviation(sensed, side, point,
                                                   t.turn.position.mover[point],
                                                   t.hidden) != -left:
            return False
        lifting = self._lifting
        lifting.clear()  # as the tracker reads one checker gone from a board as expected
        if off is None:
            t.read_lift(src, lifting)
        else:  # as it reads it, the first borne off (Tracker.prepare_off)
            lifting.lift(off[1], off[2])
        self.draw(lifting)
        return True

    def on_landing(self, slot):
        """The sensing sees the lifted checker being put down on slot (-1: no longer).
        On a lit destination the LEDs answer at once as the move will (its lights out);
        the move itself waits for the sensing to confirm the placement (on_sensed)."""
        landed = False
        r = self.reading
        t = self.tracker
        if slot >= 0 and t is not None and r.state == LIFTED:
            p = where(slot)[0]
            if p < 25:
                landed = (25 - p if t.mover else p) in r.targets
        if landed != self.landed:
            if not landed:
                self.unlanded += 1  # gone before it was confirmed
            self.landed = landed
            self.draw()

    def on_sensed(self, sensed):
        """The sensed board (board.tracker.Sensed) after a stable change."""
        self.sensed = sensed
        self._timed(self._update)  # it may commit: the game's start, the winning play

    def on_buttons(self, mask):
        try:
            if mask & ROLL:
                self.roll()
            if mask & DOUBLE and mask & TAKE:  # both: beaver (instead of Take or after
                game = self.match.game if self.match is not None else None  # it), raccoon
                self.cube_action("raccoon" if game is not None and game.cube.beaver_by
                                 is not None else "beaver", None, True)
            elif mask & DOUBLE:
                self.cube_action("double", None, True)
            elif mask & TAKE:
                self.cube_action("take", None, True)
            if mask & DROP:
                self.cube_action("drop", None, True)
            if mask & VERIFY:
                self.verify()
            if mask & MENU:
                if self.phase == IDLE:
                    self.new_match(self.settings["length"],
                                   Rules.from_dict(self.settings["rules"]),
                                   self.settings.get("games", 0))
                else:  # a host that coaches gives a hint (bgboard engine)
                    self.emit({"live": "hint"})
        except NotCommitted:
            pass  # refused and shown
        except ValueError as e:
            self.refuse(str(e))

    def show_untrusted(self, places):
        """Light the places ((side, point), bgwire.sensors.place) of sensors the board has
        just stopped trusting, in the wrong-placement red, for UNTRUSTED_MS (the host has
        the words: the `blind` live line)."""
        self.untrusted = places
        self.untrusted_until = self.clock.ticks_ms() if places else None
        self.draw()

    def refuse(self, reason):
        """Show that an action was refused (and tell the host why)."""
        self.last_refusal = reason
        self.refused_until = self.clock.ticks_ms()
        self.emit({"live": "refused", "reason": reason})
        self.draw()

    def tick(self):
        """Time passes: a no-play roll passes, a refusal's sign ends, the destinations of
        the checkers the mover may lift next are worked out one point a tick (and, while a
        checker that may be borne off is lifted, how a lift of the next will read)."""
        now = self.clock.ticks_ms()
        t = self.tracker
        if t is not None and not t.turn.prepare() and self.sensed is not None:
            t.prepare_off(self.sensed)  # the turn's own first, then a bear-off's
        if self._stale:
            self._stale = False
            self._timed(self._finish_game)  # a result that failed to be stored, again
            self._timed(self._update)
        if self.pass_at is not None and self.clock.ticks_diff(now, self.pass_at) >= PASS_MS:
            self.pass_at = None
            if self.match is not None and self.phase == PLAYING:
                self._timed(self._accept_play)
                self.draw()
        if self.last_off_at is not None:
            if self.clock.ticks_diff(now, self.last_off_at) >= LAST_OFF_MS:
                # Nothing tells a tray from a hand; after a while, off it is: game over.
                self.last_off_at = None
                tracker = self.tracker
                if tracker is not None and self.reading.state == LIFTED:
                    tracker.turn.move(self.reading.origin, 0)
                    self._timed(self._update)  # it commits the winning play
        if self.refused_until is not None:
            if self.clock.ticks_diff(now, self.refused_until) >= REFUSED_MS:
                self.refused_until = None
                self.draw()
        if self.untrusted_until is not None:
            if self.clock.ticks_diff(now, self.untrusted_until) >= UNTRUSTED_MS:
                self.untrusted_until = None
                self.untrusted = ()
                self.draw()

    def _timed(self, action):
        # What time or the sensors do on their own is refused like a button press when it
        # cannot be done.
        try:
            action()
        except NotCommitted:
            pass  # refused and shown
        except ValueError as e:
            self.refuse(str(e))

    # --- the board's eyes -------------------------------------------------------------------------

    def expected(self):
        """(mover side, Position) the checkers should show when nobody touches them, or
        None when anything goes (game over, no match)."""
        m = self.match
        if m is None or self.phase in (IDLE, OVER):
            return None
        if self.phase in (SETUP, OPENING):
            return 0, Position.initial()
        game = m.game
        return game.on_roll, game.position

    def _update(self):
        self.landed = False
        r = self.reading
        r.clear()
        if self.sensed is None:
            self.draw()
            return
        if self.phase == SETUP or self.phase == OVER:
            if self._differences(0, Position.initial(), r) or self._start_seen():
                r.clear()
                self._commit({"ev": "game"})
        elif self.tracker is not None:
            before = len(self.tracker.turn.moves)
            r = self.reading = self.tracker.update(self.sensed)
            if len(self.tracker.turn.moves) != before or r.state != STEADY:
                self.emit({"live": "board", "state": r.state, "moves": [
                    [s.src, s.dst] for s in self.tracker.turn.steps]})
            turn = self.tracker.turn
            if r.state == STEADY and turn.position.mover[OFF] == 15:
                self._accept_play()  # the last checker is off: the game is won
            elif r.state == LIFTED and 0 in r.targets and turn.position.mover[OFF] == 14:
                if self.last_off_at is None:
                    self.last_off_at = self.clock.ticks_ms()
            else:
                self.last_off_at = None
        else:
            expected = self.expected()
            if expected is not None:
                if not self._differences(expected[0], expected[1], r) and \
                        self.phase == OPENING and self._start_seen():
                    r.clear()
        self.draw()

    def _start_seen(self):
        # The starting position, told by which slots hold checkers: each of its points holds
        # at most five, one to a slot. A new set of checkers may read a level off (a strong
        # magnet as two): the sensors learn it from here (agreement()). A blind slot's checker
        # is not seen (Sensed.visible).
        sensed = self.sensed
        if sensed is None:
            return False
        start = Position.initial()
        for side, counts in ((0, start.mover), (1, start.opponent)):
            occ = sensed.occupied[side]
            for p in range(1, 26):
                if occ[p] != sensed.visible(side, p, counts[p]):
                    return False
        return True

    def agreement(self):
        """What the sensors may learn from now: True when the sensed board shows the
        expected position; the starting position's signed heights per slot (a list of 128)
        when the board shows the starting position before its first roll (by counts, or by
        the slots that hold checkers: a new set, their strength unknown); None otherwise."""
        if self.sensed is None or self.expected() is None:
            return None
        r = self.reading
        if r.state != STEADY or r.missing or r.extra:
            return None
        if self.phase == OPENING:
            # At the start the filling convention tells each slot's checkers (a new set's
            # strength is yet unknown: a reading may be a level off, two slots' errors may
            # cancel out in a point's count).
            return self._codes(0, Position.initial())
        return True

    def restoring(self):
        """The expected position's signed heights per slot (a list-like of 128) while the
        board shows a disturbance to restore (the sensors then favour reading it); else
        None."""
        r = self.reading
        if self.sensed is None or r.state != RESTORE and not r.missing and not r.extra:
            return None
        expected = self.expected()
        if expected is None:
            return None
        side, position = expected
        if self.tracker is not None:  # the turn's checkers, from its mover's side (a play
            # complete already names the next player on roll: expected()'s side is his)
            side, position = self.tracker.mover, self.tracker.turn.position
        return self._codes(side, position)

    def _codes(self, side, position):
        # Heights per slot of position (side on roll), in one buffer made once: this runs
        # at every change the sensors see.
        if self._slot_codes is None:
            self._slot_codes = array("b", bytes(128))
        white, black = ((position.mover, position.opponent) if side == 0
                        else (position.opponent, position.mover))
        return heights_from_counts(white, black, self._slot_codes)

    def _differences(self, side, position, r):
        # Fill r with the places that differ from position (side on roll); True if none.
        differences(r, side, deviations(self.sensed, side, position.mover),
                    deviations(self.sensed, 1 - side, position.opponent))
        return not r.missing and not r.extra

    def verify(self):
        """Every difference between the sensed board and the expected position: (missing,
        extra), and the LEDs show them."""
        from board import seldom

        return seldom.verify(self)

    def draw(self, reading=None):
        """Light the LEDs for the state as it stands (reading: the tracker's reading to
        show, if not the board's own)."""
        out = self.renderer
        if out is None:
            return
        out.clear()  # (few locals: a frame over 11 words comes from the heap, see leds)
        if self.refused_until is not None:
            out.refused()
        elif self.match and self.match.game is not None and self.match.game.dice:
            out.dice_pips(self.match.game.dice)  # on the cleared frame: the lit pips only
        if reading is None:
            reading = self.reading
        if self.landed:
            pass  # the move's answer, ahead of its confirmation: its lights out
        elif self.tracker is not None:
            out.reading(self.tracker.mover, reading)
        else:
            out.differences(reading.missing, reading.extra)
        if self.untrusted:
            out.places(self.untrusted, WRONG)
        out.show()

    # --- the host's view -----------------------------------------------------------------------

    def state(self):
        m = self.match
        out = {"phase": self.phase, "settings": self.settings}
        if m is None:
            return out
        game = m.game
        out["match"] = {"length": m.length, "score": m.score, "games": m.games,
                        "crawford": game.crawford}
        out["game"] = {
            "player": game.on_roll,
            "dice": list(game.dice),
            "cube": game.cube.value,
            "cube_owner": game.cube.owner,
            "position_id": _white_view(game.position, game.on_roll).to_id(),
            "match_id": m.match_id(),
            "allowed": game.allowed(),
        }
        self.session.add_state(out)
        if self.tracker is not None:
            out["game"]["moves"] = [[s.src, s.dst, 1 if s.hit else 0]
                                    for s in self.tracker.turn.steps]
        return out


def _white_view(position, mover):
    return position if mover == 0 else position.swapped()


def _how(how):
    return "played" if how == "over" else how
