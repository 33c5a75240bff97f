"""The game record: the match as its committed events made it.

Everything the board commits is an event (docs/protocol.md). `Record.apply()` is the one
place an event changes the match: live, as the controller (board.controller) commits it, and
after a power cut, as the journal's events are applied again (`Record.replay`), so that the
board resumes exactly at the last committed event. `snapshot()` is the plain data the
journal's compaction restarts from.

What differs between kinds of play goes through `session`, one small interface that the
record and the controller call without asking which kind it is: on_event() (an event's part
that depends on the kind), waiting(), plan() (a cube action's events) and add_state(). For a
match to N points, a money session or a match over a number of games (bgcore's Match or
GamesMatch) the record itself is the session (the methods below); a chouette brings its own,
board.chouette_session.ChouetteSession (loaded only when one is played, for the RAM), which
is then also the match.
"""

from bgcore.match import Match, check_new_length
from bgcore.rules import Rules

SETUP = "setup"      # waiting for the starting position to stand
OPENING = "opening"  # waiting for the opening throw
PLAYING = "playing"
OVER = "over"        # game over: showing the result until the next setup
IDLE = "idle"        # match over (or none): waiting for a new one

CUBE = ("double", "take", "drop", "beaver", "raccoon")
RARE = ("demand", "pass", "rethrow", "void", "correct_setup")  # seldom: bgcore.rare


class Record:
    """phase, settings (the `match` event's: length, rules, and "kind" or "games"), match
    (bgcore's Match or GamesMatch, a chouette's session; None before the first match) and
    session (see the module's docstring)."""

    def __init__(self):
        self.phase = IDLE
        self.settings = {"length": 0, "rules": Rules().to_dict()}
        self.match = None
        self.session = self

    def replay(self, journal):
        """Rebuild from what the journal holds (its snapshot, then its events); returns the
        events applied."""
        snap, events = journal.recover()
        if snap:
            self.restore(snap)
        n = 0
        for ev in events:
            self.apply(ev)
            n += 1
        return n

    def apply(self, ev):
        """Apply one event: bgcore checks it (ValueError when refused: the record may then be
        half changed, and the caller replays the journal) and fills in what the host is told
        (the game's number and score, the cube's value, a chouette's settlements)."""
        kind = ev["ev"]
        if kind == "match":
            self.settings = s = {"length": ev["length"], "rules": ev["rules"]}
            self.session = self
            if ev.get("kind") == "chouette":
                from board.chouette_session import ChouetteSession

                s["kind"] = "chouette"
                self.match = self.session = ChouetteSession.start(ev)
            elif ev.get("games"):  # a match over a number of games, decided by the total
                from bgcore import GamesMatch

                s["games"] = ev["games"]
                self.match = GamesMatch(ev["games"], Rules.from_dict(ev["rules"]))
            else:
                self.match = Match(ev["length"], Rules.from_dict(ev["rules"]))
            self.phase = SETUP
            return
        m = self.match
        if m is None:
            raise ValueError("event %r before any match" % kind)
        game = m.game
        if kind == "game":
            self.session.on_event(ev)  # the next game (a match's first is there already)
            game = m.game
            ev["number"] = m.games + 1
            ev["score"] = m.score
            ev["crawford"] = game.crawford
            self.phase = OPENING
        elif kind == "opening":
            game.roll(ev["dice"])
            if game.turn is not None:
                self.phase = PLAYING
        elif kind == "play":
            turn = game.turn
            if game.is_over():  # its last play is in: nothing more to play (a tracker left
                raise ValueError("the game is over")  # on it once committed it twice)
            if turn is None:
                raise ValueError("no throw to play")
            while turn.moves:  # live, the tracker moved them already: make them again here
                turn.undo()
            if not _replay(game, ev["moves"]):
                raise ValueError("journaled play %r does not replay" % (ev["moves"],))
            if not game.is_over():
                game.accept_play()
        elif kind == "roll":
            game.roll(ev["dice"], ev["player"])
        elif kind in RARE:
            from bgcore import rare

            rare.apply(game, ev)
        elif kind == "resign":
            game.resign(ev["level"], ev["player"])
        elif kind == "accept":
            game.accept_resignation(ev["player"])
        elif kind == "reject":
            game.reject_resignation(ev["player"])
        elif kind == "result":  # checked as the live path makes it (a replayed line may
            r = game.result  # carry a good CRC on made-up fields)
            if self.phase == OVER or self.phase == IDLE or r is None or \
                    ev.get("winner") != r.winner or ev.get("points") != r.points:
                raise ValueError("a result the game does not have")
            self.phase = OVER
            self.session.on_event(ev)  # a chouette settles the game
        elif kind == "match_over":
            if self.phase != OVER or not m.is_over() or ev.get("winner") != m.winner:
                raise ValueError("a match_over the match does not have")
            self.phase = IDLE
        else:  # the cube's, a chouette's line-up: the session's, or refused as unknown
            self.session.on_event(ev)

    def play_again(self, moves):
        """Make `moves` (a play's, as its event has them) again as the turn's moves, not
        committed: a winning play does not end the game yet."""
        game = self.match.game if self.match is not None else None
        if moves and game is not None and game.turn is not None and not game.is_over():
            _replay(game, moves, 0, False)

    def snapshot(self):
        """Plain data from which the journal's compaction restarts the board: the state
        after the last committed event (checkers moved in a play not yet accepted are not
        committed, so they are left out)."""
        match = None
        if self.match is not None:
            match = self.match.to_dict()
            if not self.match.game.is_over():
                match["game"]["moves"] = []
            if match.get("rules") == self.settings.get("rules"):
                del match["rules"]  # the settings say them: a shorter line to hold on boot
        return {"phase": self.phase, "settings": self.settings, "match": match}

    def restore(self, snap):
        """Back to a snapshot()."""
        self.phase = snap["phase"]
        self.settings = snap["settings"]
        data = snap["match"]
        self.match = None
        self.session = self
        if not data:
            return
        if "rules" not in data:
            data["rules"] = self.settings["rules"]
        if self.settings.get("kind") == "chouette":
            from board.chouette_session import ChouetteSession

            self.match = self.session = ChouetteSession.from_dict(data)
        elif self.settings.get("games"):
            from bgcore import GamesMatch

            self.match = GamesMatch.from_dict(data)
        else:
            self.match = Match.from_dict(data)

    # --- the session of a match or money session (a chouette's: board.chouette_session) ----

    def on_event(self, ev):
        """The kind's part of an event (apply(); live or replayed): `game` starts the next
        game (a match's first is there from the start), a cube action changes the cube (the
        event gets the value now at stake), `result` needs nothing more; any other is
        refused."""
        kind = ev["ev"]
        m = self.match
        if not isinstance(m, Match):  # (a chouette answers with a session of its own)
            raise ValueError("event %r before any match" % kind)
        if kind == "game":
            if m.game.is_over():
                m.next_game()
        elif kind in CUBE:
            game = m.game
            getattr(game, kind)(ev["player"])
            if kind != "take" and kind != "drop":  # the value now at stake, for the host
                ev["cube"] = game.cube.value * (2 if kind == "double" else 1)
        elif kind != "result":
            raise ValueError("unknown event %r" % kind)

    def waiting(self):
        """Why nobody may throw or resign now though the game allows it, or None."""
        return None

    def plan(self, kind, member, pick):
        """The events of a cube action (double, take, drop, beaver, raccoon) by the player
        whose turn it is to act, or ValueError saying why not; nothing changes here.
        member, pick: a chouette's (whose stake; answer for the first due)."""
        if member is not None:
            raise ValueError("a member is named only in a chouette")
        m = self.match
        if not isinstance(m, Match):  # (a chouette answers with a session of its own)
            raise ValueError("no match in progress")
        game = m.game
        player = game.on_roll if kind in ("double", "raccoon") else game.decider
        if kind == "beaver" and game.cube.taken_by is not None:
            player = game.cube.taken_by  # a beaver just after the take
        reason = getattr(game, "why_not_" + kind)(player)
        if reason:
            raise ValueError(reason)
        return [{"ev": kind, "player": player}]

    def add_state(self, out):
        """Add what the host's `state` shows of this kind of play to `out` (nothing)."""


def match_event(length=0, rules=None, games=0):
    """The `match` event that starts a match to `length` points (0: a money session), or
    over `games` games decided by the total (bgcore.sheet); RuleError for settings bgcore
    refuses, before anything is written. (A chouette's: board.chouette_session.)"""
    rules = rules if rules is not None else Rules()
    ev = {"ev": "match", "length": length, "rules": rules.to_dict()}
    if games:  # (with no length: the protocol's `new` says so)
        from bgcore import GamesMatch

        GamesMatch(games, rules)
        ev["games"] = games
    else:
        if length:  # (0: a money session)
            check_new_length(length)
        Match(length, rules)
    return ev


def _replay(game, moves, i=0, end=True):
    # Make the journaled steps again, one die each. A bear-off may have used either of two
    # dice (6-5 with a checker on the 5): find the assignment under which every step plays.
    # end: the play is committed, so a last checker borne off ends the game.
    turn = game.turn
    if i == len(moves):
        if end:
            game.check_end()
        return True
    src, dst, _hit = moves[i]
    for die in sorted(set(w[0].die for w in turn.paths(src, dst) if len(w) == 1)):
        turn.move(src, dst, None, die)
        if _replay(game, moves, i + 1, end):
            return True
        turn.undo()
    return False
