"""Simulated players who cut the power now and then (soak_power): the board restarts from its
journal, must come back at its last committed event, and the players put the checkers back
where it asks. Its own module: the soaks that cut no power leave it out of their heap."""

from sim.autoplay import Autoplay
from sim.digest import fingerprint


class CuttingAutoplay(Autoplay):
    """sim.autoplay.Autoplay with a power cut in cut_pct of the plays, a few of the hands'
    actions into them; journal_factory reopens the journal after a cut."""

    def __init__(self, vb, seed=1, cut_pct=12, journal_factory=None, **kw):
        Autoplay.__init__(self, vb, seed, **kw)
        self.cut_pct = cut_pct
        self.journal_factory = journal_factory
        self.committed = None  # fingerprint of the board's snapshot after its last event
        self.cuts = 0
        self.resumed_wrong = 0

    def on_message(self, msg):
        Autoplay.on_message(self, msg)
        if msg.get("ev") is not None:  # what a restart must come back to
            self.committed = self._fingerprint()

    def _fingerprint(self):
        return fingerprint(self.vb.board.snapshot())

    def act(self, actions):
        if not self.chance(self.cut_pct):
            return Autoplay.act(self, actions)
        n = self.rng.randint(0, 6)
        for ms in actions:
            self.vb.wait(ms)
            n -= 1
            if n < 0:
                break
        self.power_cut()
        return False

    def power_cut(self):
        """The power goes and comes back: the board restarts from its journal."""
        self.cuts += 1
        self.intended = None
        self.vb.power_up(self.journal_factory)
        self.check_resumed()

    def check_resumed(self):
        """After a restart: the board must be back at its last committed event. Then the
        players put the checkers where it asks."""
        if self.committed is not None and self._fingerprint() != self.committed:
            self.resumed_wrong += 1
        self.restore()
