"""The coach of `bgboard engine` (a part of bgboard.engine_driver.EngineDriver): gnubg's hint
for the person on roll (the board lights its best play, the page lists the top plays), each
of the person's plays rated as the board commits it (equity lost, gnubg's labels), a very bad
one flashed on the board if asked, and what the coach's page shows of it all."""

from bgboard.engine import COACH_LEVEL, position_of, turn_of

SHOWN_RATINGS = 12  # the page lists the person's last plays rated


class CoachError(Exception):
    """A hint that cannot be given now (nobody on roll, no dice...): words for the person."""


class Coach:
    """The coach's part of the engine's driver: it uses the driver's `engine`, `side`, `link`,
    `say`, `_st` (the last state) and `_context(st, player)`."""

    _flash_due = False

    def _init_coach(self, coach=False, hint_level=COACH_LEVEL, flash_blunders=False,
                    on_coach=None):
        self.coach = coach  # say each rating as it comes
        self.ratings = []  # (player's play in .mat words, bgboard.engine.Rating)
        self.hint_level = hint_level  # gnubg's level for hints (its `hint`)
        self.hints = 0
        self.last_hint = None  # the hint for the roll being played (a dict, for the page)
        self.flash_blunders = flash_blunders  # the board flashes a very bad play
        self.flashes = 0
        self.on_coach = on_coach  # called when the coach's page data changed
        self._rated = []  # the page's list of the person's rated plays (dicts)
        self._hint_wanted = False  # the board's Menu button asked for one

    def _coach_event(self, ev):
        if self.last_hint is not None:  # a hint holds for its roll only: what the board
            self.last_hint = None  # commits next ends it
            self._changed()

    def _coach_step(self):
        """From the driver's step(), outside the link's poll: the flash and the hint asked
        for since."""
        from bgboard.link import Refused

        if self._flash_due:
            self._flash_due = False
            try:
                self.link.command("guide", flash=True)
                self.flashes += 1
            except Refused:
                pass  # a board without it: the rating is said all the same
        if self._hint_wanted:
            self._hint_wanted = False
            try:
                self.hint()
            except (CoachError, Refused) as e:
                self.say("hint: %s" % e)

    def _rate(self, start, ev):
        from bgcore import notation

        player = ev["player"]
        dice = tuple(ev["dice"])
        try:
            turn = turn_of(start, dice, [(m[0], m[1]) for m in ev["moves"]])
        except ValueError:
            return
        st = self._st
        ctx = self._context(st, player)
        rating = self.engine.rate(start, dice, turn.position, ctx)
        words = notation(turn.steps)
        self.ratings.append((words, rating))
        best = notation(turn_of(start, dice, rating.best).steps)
        if self.coach and rating.mark:
            self.say("%d-%d %s: %s (%.3f lost; gnubg plays %s)" % (
                dice[0], dice[1], words, rating.mark, rating.lost, best))
        self._rated.append({"dice": list(dice), "play": words, "mark": rating.mark,
                            "lost": round(rating.lost, 3), "best": best,
                            "start": start.to_id()})
        del self._rated[:-SHOWN_RATINGS]
        if self.flash_blunders and rating.mark == "very bad":
            self._flash_due = True
        self._changed()


    def _changed(self):
        if self.on_coach is not None:
            self.on_coach()


    def hint(self):
        """gnubg's hint for the person on roll: the board lights its best play (a `guide`
        hint: the person may play anything) and the page lists the top plays. The hint as a
        dict; CoachError when there is no roll of the person's to hint."""
        st = self.link.command("state")
        if st.get("phase") != "playing" or "game" not in st:
            raise CoachError("no game is being played")
        g = st["game"]
        if "match" not in st:
            raise CoachError("no match or session is being played")
        if g["player"] == self.side:
            raise CoachError("gnubg is on roll, not the person")
        if not g["dice"]:
            raise CoachError("throw first: a hint is for the dice thrown")
        info = self.link.command("guide")
        if info["player"] == self.side:
            raise CoachError("gnubg is on roll, not the person")
        start = position_of(info["start"], 0)  # the mover's own
        dice = tuple(info["dice"])
        plays = self.engine.hint(start, dice, self._context(st, info["player"]),
                                 level=self.hint_level)
        hint = {"dice": list(dice), "start": info["start"], "level": self.hint_level,
                "plays": [{"play": p.words, "equity": round(p.equity, 3),
                           "diff": round(p.diff, 3), "plies": p.plies,
                           "win": round(p.probs[0], 3)} for p in plays]}
        if plays:
            self.link.command("guide", moves=" ".join("%d/%d" % s for s in plays[0].steps),
                              start=info["start"], hint=True)
        self.hints += 1
        self.last_hint = hint
        self._changed()
        return hint

    def coach_view(self):
        """What the page shows of the coach: the hint for the roll being played, the
        person's last plays rated, the tally."""
        marks = [r.mark for _, r in self.ratings]
        return {"level": self.hint_level, "hint": self.last_hint, "ratings": list(self._rated),
                "tally": {"plays": len(self.ratings), "doubtful": marks.count("doubtful"),
                          "bad": marks.count("bad"), "very bad": marks.count("very bad"),
                          "lost": round(sum(r.lost for _, r in self.ratings), 3)},
                "analysis": self.analysis_view()}


    def rated(self):
        marks = [r.mark for _, r in self.ratings]
        return ("person: %d play(s) rated by gnubg (world class): %d doubtful, %d bad, %d very "
                "bad; %.3f equity lost in all" % (
                    len(self.ratings), marks.count("doubtful"), marks.count("bad"),
                    marks.count("very bad"), sum(r.lost for _, r in self.ratings)))

