"""The sensing pipeline: 128 raw ADC counts per scan -> a stable frame of signed slot codes.

Per slot: zero offset (calibrated, then re-zeroed slowly while the slot is known empty),
neighbour correction (subtract the fields of the neighbours' classified stacks: a fixed
table, the fields adding linearly), classification with hysteresis into a code -3..3
(board.layout: 0 empty, sign = colour, 1, 2, 3 = "3 or more"), then debounce: a new code
becomes stable on its evidence (STRONG: a lift of the mover's checker on its first scan),
or once it has held for place_ms with the evidence, or for stable_ms without. Pure logic:
the clock is passed in, raw frames are handed to scan(). No allocation per scan: every buffer is made once here.

Learning from play (issue 16): when the board knows what stands on the slots (it agrees with
the expected position: confirm()), each slot's code there is its expected code. The
hysteresis then favours the expected code, not the present one ("unchanged" unless the
reading is clearly one more or one less), and a few slots per scan (round robin, with the
re-zeroing) learn their stack's deviation from its level: a weak or strong magnet, a
checker off-centre, a sensor's sensitivity, drift under a stack. The set's strength is
learned across slots at each confirm(), so a new set of checkers needs no calibration.
What a single checker's deviation says about its sensor goes into that slot's gain when the
checker leaves (a sensor's sensitivity stays, the checkers' magnets and placements vary);
the level of two (and three's with it) follows the confirmed stacks of two. Between two
confirmed positions, the empty slots whose neighbours changed show how strongly the sensors
see their neighbours: the table's coupling is scaled to it, and a sensor that sees none of
its neighbours' checkers come and go is dead (found before a checker is put on it). What
is learned is plain data (learned()): the application keeps it on flash and gives it to the
next pipeline (learned=): a power cut costs at most what the game in play taught.

Speed: each slot keeps the window of raw counts inside which its code stays what it is
(offset, neighbour correction, gain and hysteresis folded in). An idle slot costs two
comparisons; the window is recomputed only when the slot's code, a neighbour's code or
its offset changes."""

from array import array

from board.layout import SLOTS, filled

MID = 2048  # the zero level: VCC/2 on the 12-bit ADC
_LOW = -32768
_HIGH = 32767
Q = 4096  # gains are in 1/4096
HYSTERESIS = 8  # counts
GAIN_SHIFT = 3  # each placement of a single checker moves its sensor's gain by 1/8 of it
TWO_WEIGHT = 16  # n stacks of two move the level of two by n / (n + 16) of their mean
DEAD_MS = 2000  # slots alone in reading empty where a restore wants checkers: this long
DEAD_AT_ONCE = 3  # up to this many such slots are found dead together
DEAD_COUPLING = 16  # squared neighbour changes (sum, 16 counts^2) before judging a sensor
# Dead, against alive: the log likelihood ratio that decides (a sequential test: a live
# sensor ever gets there with odds of about e^-20, however long it is watched).
DEAD_LLR = 20
# Evidence for a new code (counts), a sequential test (a CUSUM): each scan adds how far the
# reading lies inside its new window, on the side of the stable code, beyond what noise can do (NOISE_REACH: the sensor
# model's largest excursion at 10 RMS, the stress table's worst, is 35 counts, and the two
# windows' hysteresis add 16), and the change is confirmed once the sum reaches STRONG. A
# lift moves a reading by hundreds of counts: its first scan carries it; a weaker change (a
# checker off a stack of two) gathers it over a few scans; noise alone never adds any.
NOISE_REACH = 52
STRONG = 96


def _wanted(fall, one):
    # Where a restore asks for a checker (the board shows where), a reading of its colour
    # from 3/8 of the level of one on is that checker (a weak magnet far off centre: 5 mm
    # off and 25 % weak reads 46 %; the hardware field table's own band starts at 37 %),
    # or from the band's lower edge if that is lower. Nothing else reads so: the
    # neighbours' fields stay under 6 %, the noise under 2 %.
    w = (one * 3) >> 3
    return w if w < fall else fall


class Field:
    """The magnetic figures the pipeline classifies with; Field.from_table takes them from
    hardware/field_table.json.

    levels: counts from the zero level for a stack of 1, 2 and 3 checkers on the slot itself.
    thresholds: the |corrected counts| boundaries empty/1, 1/2 and 2/3 (default: midpoints).
    hysteresis: counts a reading must pass beyond a boundary to leave its present code: one
    number, or one per boundary (default HYSTERESIS: about 3 x the noise; the 2/3 margin
    is only 30 counts).
    kernels, table: the neighbour table (default: board.neighbours.neighbour_table()).
    kernels[k]: counts a neighbour holding 1, 2, 3+ white checkers adds to a reading (black:
    negated; entries past the third are ignored). table[slot]: [other, k, other, k, ...],
    the neighbours whose field slot's sensor picks up, with their kernels (the format of
    hardware/field_table.json's "neighbours"/"slots").
    """

    def __init__(self, levels=(860, 1037, 1098), thresholds=None, hysteresis=None,
                 kernels=None, table=None):
        _builder().build(self, levels, thresholds, hysteresis, kernels, table)
        _forget()

    @classmethod
    def from_table(cls, table):
        """A Field from hardware/field_table.json (schema 1) as loaded by json."""
        f = _builder().from_table(cls, table)
        _forget()
        return f


def _builder():
    from board import field  # loaded only to build a Field

    return field


def _forget():
    # The builder's code goes once a Field stands (and the default neighbour table's).
    import board

    board.forget("field")
    board.forget("neighbours")


def _recall(sensing, saved):
    # learned()'s data back, checked by board.learned (its code loaded for that, then let
    # go). Whatever goes wrong leaves the defaults: a board must boot.
    import board

    try:
        from board import learned

        learned.recall(sensing, saved)
    except Exception:  # noqa: B902 - MemoryError at worst: the defaults stay
        pass
    board.forget("learned")


_default = []


def default_field():
    """The default Field, made once: a Field does not change once built, and building one
    takes the neighbour table's 128 rows at a time (a new Sensing after a power cut or a
    calibration would otherwise need that RAM again, on a fragmented heap)."""
    if not _default:
        _default.append(Field())
    return _default[0]


class Sensing:
    """The pipeline. After scan(raw): frame[s] is slot s's stable code, and the first
    nchanged entries of changed are the slots whose stable code changed in that scan.

    clock: ticks_ms() and ticks_diff(a, b) (board.hw.Clock). field: a Field. offsets: the
    per-slot zero levels from calibrate() (default MID). gains: per-slot sensitivity in
    1/4096 (default 4096 each). disabled: slots to ignore (faulty sensors): always 0; dead:
    the same, found dead from play earlier (below).
    stable_ms: how long a new code without strong evidence must hold; place_ms (default
    stable_ms): how long one with it must (a lift of the colour lift_sign names, the mover's,
    needs no time; set by the owner, 0 none), `lifted` the slot of one confirmed so in the
    last scan, or of a weak one at stable_ms (-1 none); `withdrawn` counts such lifts withdrawn
    because the checker came back within stable_ms. land_sign (set by the owner): the
    colour of a checker in the air; `landing` the slot where one of that colour shows
    strong evidence of being put down before its place_ms (-1 none). rezero_slots: empty
    slots re-zeroed per scan (round robin); rezero_shift: each re-zero moves the offset by
    error / 2**shift, the error first clipped to +-rezero_step counts (so a hovering hand
    barely moves it). The defaults visit each slot every 32 scans (0.32 s) and follow a change of zero with a time
    constant of 32 visits (10 s); each slot visited costs about 0.05 ms of a Pico's scan (16
    a scan cost 0.8 ms; 2 a scan let the stress soak's weak checkers under drift need
    restores: their learning rides the same round). learn_shift, learn_step: the same for a confirmed
    stack's deviation from its level.
    learned: what an earlier Sensing learned from play (its learned(), kept on flash): the
    gains, the level of two and the coupling start from it instead of the defaults. A part
    that is not as learned() makes it (a damaged file) is ignored, its default kept
    (board.learned checks each part).

    A dead sensor that calibrates like a good one (it reads its zero level whatever stands
    on it) is found from play: on an empty slot, when its reading does not follow its
    neighbours' checkers as they come and go between confirmed positions (_couple); and
    while the board asks for a position to be restored (expect()) and only those slots
    (up to DEAD_AT_ONCE, anywhere) disagree with it, each reading empty where a checker
    belongs, for DEAD_MS, they are disabled (disabled[s] 2) and blind_moved set: the
    caller's view of the board takes blind() as its blind slots. A slot so disabled that
    reads a clear checker again (a checker late, not a dead sensor) is enabled again, with
    blind_moved set too.
    """

    def __init__(self, clock, field=None, offsets=None, gains=None, disabled=(), dead=(),
                 stable_ms=150, place_ms=None, rezero_slots=4, rezero_shift=5, rezero_step=8,
                 learn_shift=3, learn_step=48, learned=None):
        self.field = field if field is not None else default_field()
        self.stable_ms = stable_ms
        self.place_ms = stable_ms if place_ms is None else place_ms
        # The colour (a sign, 0 none) whose checkers the board expects to be lifted now (the
        # mover's): a lift of one is confirmed on STRONG evidence at once, anything else
        # holds place_ms at least (default stable_ms: shorter, a board learning its
        # neighbours' coupling from a weak set of checkers learned it 10 % off).
        self.lift_sign = 0
        self.withdrawn = 0  # early changes gone back before stable_ms (their lights withdrawn)
        # The colour whose checker the board expects to be put down now (one is in the air,
        # its destinations lit), 0 none: `landing` is the slot where one of its checkers
        # shows STRONG evidence while its placement waits for place_ms (-1 none), so that
        # the board can answer it at once; the placement itself is confirmed as ever.
        self.land_sign = 0
        self.landing = -1
        # The slot of a lift of the lift_sign colour confirmed in the last scan on its first
        # strong evidence, or (weak: off a stack of three) by the stable time (-1 none): the
        # owner may light its destinations before the rest.
        self.lifted = -1
        self.frame = filled("b", SLOTS)  # stable codes
        self.level = filled("b", SLOTS)  # this scan's codes (before debounce)
        self.changed = bytearray(SLOTS)
        self.nchanged = 0
        self._clock = clock
        self._t = clock.ticks_ms()
        self._elapsed = filled("h", SLOTS)  # ms a pending code has held
        self._pending = bytearray(SLOTS)  # slots whose code may differ from the stable one
        self._evid = filled("h", SLOTS)  # a pending code's evidence (STRONG), counts
        # A code confirmed early, before stable_ms: the code it replaced and when (ticks_ms);
        # back to that code within stable_ms, the change is withdrawn at once.
        self._early = bytearray(SLOTS)
        self._prev = filled("b", SLOTS)
        self._early_at = filled("i", SLOTS)
        # per slot: 1 in _pending, 2 in _fresh, 4 it sees a disabled slot's field (its
        # neighbours' fields are not all known: no coupling is learned from it)
        self._flags = bytearray(SLOTS)
        self._npending = 0
        self._lo = filled("h", SLOTS)
        self._hi = filled("h", SLOTS)
        self._acc = filled("h", SLOTS)  # neighbours' field at the slot, 1/16 count
        self._corr = filled("h", SLOTS)  # the same in raw counts (gain applied)
        self._off = filled("i", SLOTS)  # zero level, tracked, in 1/256 count
        self._zero = filled("h", SLOTS)  # zero level the window uses (within 1 count)
        self._gain = filled("h", SLOTS, Q)
        if gains is not None:
            for s in range(SLOTS):
                self._gain[s] = gains[s]
        self.disabled = bytearray(SLOTS)
        for s in disabled:
            self.disabled[s] = 1
        for s in dead:  # found dead from play before (disabled 2, below)
            self.disabled[s] = 2
        self._rz_n = min(rezero_slots, SLOTS)
        self._rz_shift = rezero_shift
        self._rz_step = rezero_step << 8
        self._rz_next = 0
        self._rezero_due = False  # a scan left its re-zeroing to finish()
        self._moved = False  # a code changed in this round of the scan
        # The slots whose code changed in this scan: they are settled before the debounce
        # writes `changed`, so the two share one buffer.
        self._fresh = self.changed
        self._nfresh = 0
        # What the board confirmed: _known[s] 1 when _expect[s] is the code on the slot (the
        # board agreed with its position), 2 when it is the expected position's code and the
        # sensed one may be a level off (a new set of checkers, seen at the set-up), 3 when
        # it is the code of a position the board asks to be restored (nothing learned).
        self._expect = filled("b", SLOTS)
        self._known = bytearray(SLOTS)
        self._dev = filled("h", SLOTS)  # a stack's reading beyond its level, 1/8 count
        self._gone = filled("h", SLOTS)  # the same of a stack gone, until confirm()
        # The neighbours' coupling, learned between confirmed positions (_couple): the
        # table's fields times _ks (1/4096); per slot, the readings and the table's
        # neighbour field at the last confirm(), and what the empty slot's reading did
        # when its neighbours changed: sums of (predicted x seen) and (predicted squared),
        # in 16 counts squared.
        self._ks = Q
        self._praw = filled("h", SLOTS)
        self._pacc = filled("h", SLOTS)
        self._sxy = filled("h", SLOTS)
        self._sxx = filled("h", SLOTS)
        self._se2 = 0  # the squared readings' misses of what the coupling predicts (counts)
        self._sn = 0  # over how many changes
        self._l_shift = learn_shift
        self._l_step = learn_step << 3
        # The levels of 1, 2, 3 checkers and the boundaries between them, the field's
        # at first: the level of two (and with it three's) is learned from play.
        f = self.field
        self._lv = array("h", f.levels)
        self._mid = array("h", f.thresholds)
        self._rise = array("h", f.rise)
        self._fall = array("h", f.fall)
        self._two = 0  # stacks of two's deviations since the last confirm(), 1/8 count
        self._ntwo = 0  # how many
        self._lv2 = self._lv[1] << 3  # the level of two as learned, 1/8 count
        # The slots (up to DEAD_AT_ONCE) that alone disagree with a restore, each reading
        # empty where it wants a checker (expect()), and since when (ticks_ms): _suspects
        # is expect()'s scratch, _was the set watched.
        self._suspects = bytearray(DEAD_AT_ONCE)
        self._was = bytearray(DEAD_AT_ONCE)
        self._nsuspect = 0
        self._since = 0
        self.blind_moved = False  # a slot was disabled or enabled from play: see blind()
        if learned is not None:
            _recall(self, learned)
        self._near_blind()
        self.set_offsets(offsets)

    def learned(self):
        """What play taught the sensing, as plain data (for a file; Sensing(learned=...)
        takes it back): "gains", each sensor's gain (128, in 1/4096, the checker set's
        strength in them), "two", the level of two checkers (1/8 count) and "coupling", the
        scale of the neighbour table (1/4096)."""
        return {"gains": list(self._gain), "two": self._lv2, "coupling": self._ks}

    def set_offsets(self, offsets=None):
        """Install zero levels (calibrate()'s, or MID for all) and recompute every window."""
        for s in range(SLOTS):
            z = MID if offsets is None else offsets[s]
            self._off[s] = z << 8
            self._zero[s] = z
        for s in range(SLOTS):
            self._window(s)

    def confirm(self, raw, codes=None):
        """The board agrees with its expected position: the present stable codes (or
        `codes`, the expected position's codes per slot, at the start, where the readings
        of a new set of checkers may be a level off) are what stands on the slots. raw: the
        last scan's readings. A stack confirmed anew takes its reading as its level; the
        learning follows it from there; the set's strength is updated."""
        known = 1 if codes is None else 2
        self._nsuspect = 0
        self._couple(raw, codes)
        frame = self.frame
        level = self.level
        expect = self._expect
        for s in range(SLOTS):
            e = frame[s] if codes is None else codes[s]
            if self._known[s] != known or expect[s] != e:
                if expect[s] != e:  # a confirmed stack changed: what it said stays
                    self._fold(s, self._dev[s] or self._gone[s])
                    self._gone[s] = 0
                self._known[s] = known
                expect[s] = e
                c = level[s]
                if e and c and -3 < e < 3 and not self.disabled[s]:
                    self._dev[s] = 0
                    self._learn(s, raw[s], c, 0)  # where it reads e (or a level off, at
                    # the start): at once
                self._window(s)
        self._learn_set()

    def expect(self, codes):
        """The board shows something else than it expects (a disturbance to restore): the
        hysteresis favours `codes` (the expected position's code per slot), so the position
        reads as soon as it is put back (an empty slot where a checker is asked for reads
        one of its colour from 3/8 of the level of one: _wanted); nothing is learned from
        it. Slots alone in disagreeing, each empty where a checker is asked for, are
        suspected dead (scan() disables them after DEAD_MS)."""
        expect = self._expect
        frame = self.frame
        # The slots that disagree: up to DEAD_AT_ONCE, each reading empty where a checker
        # belongs, and no other: then they are suspects (dead sensors, if they stay so).
        # Otherwise (n -1) something else is amiss: a person at work.
        suspects = self._suspects
        n = 0
        for s in range(SLOTS):
            e = codes[s]
            if expect[s] != e or not self._known[s]:  # where it agrees, learning goes on
                self._known[s] = 3
                expect[s] = e
                self._window(s)
            c = frame[s]
            if n >= 0 and c != e and not self.disabled[s] and (e < 3 or c < 3) and \
                    (e > -3 or c > -3):
                if c or self.level[s] or n == DEAD_AT_ONCE:
                    n = -1
                else:
                    suspects[n] = s
                    n += 1
        if n <= 0:
            self._nsuspect = 0
            return
        same = n == self._nsuspect
        for i in range(n):
            if same and suspects[i] != self._was[i]:
                same = False
            self._was[i] = suspects[i]
        if not same:  # a new set of suspects: watched from now
            self._nsuspect = n
            self._since = self._clock.ticks_ms()

    def blind(self, how=0):
        """The slots whose sensors are disabled (how 0), or only those found dead from
        play (how 2)."""
        return [s for s in range(SLOTS) if self.disabled[s] and how in (0, self.disabled[s])]

    def _confirmed(self):
        # (num, den): over the confirmed single checkers, their readings and their levels
        # (counts, gains applied), from their deviations.
        lv = self._lv
        gain = self._gain
        num = den = 0
        known = self._known
        for s in range(SLOTS):
            e = self._expect[s]
            if e != 1 and e != -1:
                continue
            # A confirmed stack (1), or a checker of the starting position (2: one to a
            # slot, whatever level it reads; its deviation is from the level of one).
            c = self.frame[s] if known[s] == 1 else self.level[s] if known[s] == 2 else 0
            if c == e or known[s] == 2 and c and (c > 0) == (e > 0):
                t = lv[0] * gain[s] >> 12
                num += t + ((self._dev[s] >> 3) if e > 0 else -(self._dev[s] >> 3))
                den += t
        return num, den

    def _learn_set(self):
        # The checkers' strength over the gains' assumption, from the confirmed single
        # checkers' deviations (the mean over the set, its placements and the sensors):
        # when over 3 % off, every gain follows (the confirmed stacks keep their readings:
        # their deviations move). Then the level of two, from the stacks of two that were
        # confirmed (a set whose second checker stands farther from the sensor, or nearer:
        # _fold), and three's with it (its step from two scaled as two's from one), and the
        # boundaries between them.
        lv = self._lv
        gain = self._gain
        num, den = self._confirmed()
        if den >= 8 * lv[0] and ((num - den) * 100 >= 3 * den or (den - num) * 100 >= 3 * den):
            for s in range(SLOTS):
                g = gain[s] * num // den
                g = 1024 if g < 1024 else 16384 if g > 16384 else g
                e = self._expect[s]
                self._rebase(s, (lv[(e if e > 0 else -e) - 1] * (g - gain[s])) >> 9 if e else 0)
                gain[s] = g
                self._window(s)
        if not self._ntwo:
            return
        self._lv2 += self._two // (self._ntwo + TWO_WEIGHT)
        self._two = self._ntwo = 0
        two = self._lv2 >> 3
        if -2 < two - lv[1] < 2:
            return
        two = lv[0] + 40 if two < lv[0] + 40 else lv[0] * 3 // 2 if two > lv[0] * 3 // 2 else two
        if two != self._lv2 >> 3:  # no further than that
            self._lv2 = two << 3
            if two == lv[1]:
                return
        d = two - lv[1]
        self._two_at(two)
        for s in range(SLOTS):
            e = self._expect[s]
            if e == 2 or e == -2:
                self._rebase(s, (d * gain[s]) >> 9)
            self._window(s)

    def _two_at(self, two):
        # The level of two is `two` counts: three's with it (its step from two scaled as
        # the field's from one to two), and the boundaries between them.
        lv = self._lv
        f = self.field
        old = f.levels
        lv[1] = two
        lv[2] = two + (two - lv[0]) * (old[2] - old[1]) // (old[1] - old[0])
        for b in (1, 2):
            m = (lv[b - 1] + lv[b]) >> 1
            self._mid[b] = m
            self._rise[b] = m + f.rise[b] - f.thresholds[b]
            self._fall[b] = m - f.thresholds[b] + f.fall[b]

    def _couple(self, raw, codes):
        # Between two confirmed positions, a slot empty at both whose neighbours changed
        # (their field by 6 counts or more, as the table has it) shows how strongly its
        # sensor sees them: the coupling over all such slots scales the table (when 10 %
        # off); a slot that does not see them at all, over enough changes, has a dead
        # sensor (a checker there would not be seen either: it goes blind before one is
        # put on it).
        acc = self._acc
        pacc = self._pacc
        praw = self._praw
        sxy = self._sxy
        sxx = self._sxx
        gain = self._gain
        ks = self._ks
        nxy = nxx = 0
        for s in range(SLOTS):
            a = acc[s]
            e = self.frame[s] if codes is None else codes[s]
            if not e and not self._expect[s] and 0 < self._known[s] < 3 and \
                    not self.disabled[s] and not self._flags[s] & 4:
                p = ((a - pacc[s]) * gain[s]) >> 16  # counts, as the table has it
                if p >= 6 or p <= -6:
                    r = raw[s] - praw[s]
                    lim = p * 4 if p > 0 else -p * 4
                    r = lim if r > lim else -lim if r < -lim else r  # a hand near it
                    xx = sxx[s] + ((p * p) >> 4)
                    xy = sxy[s] + ((r * p) >> 4)
                    if xx > 4000:  # the older changes count half
                        xx >>= 1
                        xy >>= 1
                    sxx[s] = xx
                    sxy[s] = xy
                    m = r - ((ks * p) >> 12)
                    self._se2 += m * m
                    self._sn += 1
                    if self._sn > 256:
                        self._se2 >>= 1
                        self._sn >>= 1
                    # Dead: it sees less than a quarter of them, and "sees none" is e^20
                    # likelier than "sees them as the coupling says" (the misses Gaussian,
                    # their variance the pooled one: log ratio 8 k (k xx - 2 xy) / var,
                    # k = ks / 4096). Checked after every change, so sequential: a fixed
                    # 4-sigma test flagged a live sensor once in 55 matches.
                    if xx >= DEAD_COUPLING and (xy << 14) < xx * ks:
                        var = self._se2 // self._sn
                        if ks * (((ks * xx) >> 12) - 2 * xy) > DEAD_LLR * 512 * \
                                (var if var > 9 else 9):
                            self._blind(s, 2)
            if not self.disabled[s]:
                nxy += sxy[s]
                nxx += sxx[s]
            pacc[s] = a
            praw[s] = raw[s]
        if nxx < 4000:
            return
        k = (nxy << 6) // (nxx >> 6)  # nxy * Q // nxx in a Pico's small ints
        k = 1024 if k < 1024 else 16384 if k > 16384 else k
        if (k - ks) * 10 < ks and (ks - k) * 10 < ks:
            return
        # The neighbours' fields change: every reading keeps its meaning (the zero levels
        # held what the table missed).
        self._ks = k
        for s in range(SLOTS):
            c0 = self._corr[s]
            self._window(s)
            d = self._corr[s] - c0
            if d and not self.disabled[s]:
                self._off[s] -= d << 8
                self._zero[s] -= d
                self._window(s)

    def _rebase(self, s, d):
        # The level slot s's stack's deviation is from (the expected stack's) moved by d
        # (1/8 count, in the stack's colour's direction): the stack keeps its reading, its
        # deviation moves the other way.
        if self._dev[s]:
            self._dev[s] -= d if self._expect[s] > 0 else -d
            self._zero[s] = ((self._off[s] + 128) >> 8) + (self._dev[s] >> 3)

    def offset(self, slot):
        """The slot's zero level now, in counts."""
        return (self._off[slot] + 128) >> 8

    def margin(self, slot, raw):
        """The confidence in slot's code given its reading raw: the counts the reading
        would have to move to change it (0 at the edge; the hysteresis favours the code the
        board expects, so a slot a level off what it expects has a narrow margin). Not used
        per scan."""
        m = raw - self._lo[slot]
        up = self._hi[slot] - raw
        if up < m:
            m = up
        return m if m > 0 else 0

    def value(self, slot, raw):
        """A raw reading of slot as corrected counts (offset, neighbours, gain removed):
        about +860 for one white checker. For board dumps; not used per scan."""
        return ((raw - self._zero[slot] - self._corr[slot]) * Q) // self._gain[slot]

    def windows(self):
        """(lo, hi): per slot, the raw counts inside which its code stays (arrays of 'h',
        updated in place). A scanner that checks readings against them as it reads
        (board.hw.Scanner.watch) spares scan() checking all 128 slots."""
        return self._lo, self._hi

    def scan(self, raw, left=None, nleft=0):
        """Take one frame of 128 raw counts; return how many stable codes changed. left,
        nleft: the slots the scanner found outside their windows (its watch()); without
        them scan() checks every slot itself."""
        clock = self._clock
        now = clock.ticks_ms()
        dt = clock.ticks_diff(now, self._t)
        self._t = now
        if dt < 0:
            dt = 0
        elif dt > 30000:
            dt = 30000
        lo = self._lo
        hi = self._hi
        self._nfresh = 0
        self._moved = False
        self.lifted = -1
        if left is None:
            for s in range(SLOTS):
                r = raw[s]
                if r < lo[s] or r > hi[s]:
                    self._reclass(s, r, dt)
        else:
            for i in range(nleft):
                s = left[i]
                r = raw[s]
                if r < lo[s] or r > hi[s]:  # still: an earlier slot's change moves windows
                    self._reclass(s, r, dt)
        if self._moved:
            self._settle(raw, dt)
        n = 0
        if self._npending:
            n = self._debounce(dt, raw, now)
        if self._rz_n:
            if self.lifted >= 0 and not self._nsuspect:
                self._rezero_due = True  # after the lift's lights: finish()
            else:
                self._rezero(raw)
        if self._nsuspect:
            if n:  # the board looks again (expect() names them again if they still are)
                self._nsuspect = 0
            elif clock.ticks_diff(now, self._since) >= DEAD_MS:
                for i in range(self._nsuspect):
                    self._blind(self._was[i], 2)
        self.nchanged = n
        return n

    def finish(self, raw):
        """What a scan that confirmed a lift (`lifted`) left for after its lights: the
        re-zeroing of its round (0.5 ms of a Pico's). The owner calls it with that scan's
        readings still in raw, before the next scan; nothing when none is due."""
        if self._rezero_due:
            self._rezero_due = False
            self._rezero(raw)

    def _blind(self, s, how):
        # Disable slot s (how 2: found dead from play) or enable it again (how 0).
        self.disabled[s] = how
        self._nsuspect = 0
        self.blind_moved = True
        self._near_blind()
        self._window(s)

    def _near_blind(self):
        # Flag 4 on the slots that see a disabled slot: the checkers there are not all
        # known, so neither are the fields these slots see (a sensor beside a stuck one was
        # found "dead" from the misfit).
        f = self.field
        flags = self._flags
        disabled = self.disabled
        for s in range(SLOTS):
            flags[s] &= 3
        for o in range(SLOTS):
            if disabled[o]:
                for j in range(f.rv_first[o], f.rv_first[o + 1]):
                    flags[f.rv_slot[j]] |= 4

    def _settle(self, raw, dt):
        # Codes changed, so did their neighbours' corrections: classify this scan's changed
        # slots again (plainly: their old code does not count) and check their neighbours'
        # moved windows, until the frame agrees with itself (rarely more than two rounds).
        lo = self._lo
        hi = self._hi
        fresh = self._fresh
        rv_first = self.field.rv_first
        rv = self.field.rv_slot
        for _ in range(4):
            self._moved = False
            for i in range(self._nfresh):
                s = fresh[i]
                self._reclass(s, raw[s], dt)
                for j in range(rv_first[s], rv_first[s + 1]):
                    o = rv[j]
                    r = raw[o]
                    if r < lo[o] or r > hi[o]:
                        self._reclass(o, r, dt)
            if not self._moved:
                break
        flags = self._flags
        for i in range(self._nfresh):
            flags[fresh[i]] &= 5

    def _reclass(self, s, r, dt):
        # The reading left the slot's window: classify it afresh (plain boundaries; the
        # hysteresis is in the window) and follow up the debounce and the windows.
        v = ((r - self._zero[s] - self._corr[s]) * Q) // self._gain[s]
        a = v if v >= 0 else -v
        if self._known[s]:
            # Against the expected code: it keeps the hysteresis on both its sides, and
            # two more than expected needs a quarter checker beyond the full level of two
            # more (a checker comes alone, its strength varies by about 1.8 : 1).
            lv = self._lv
            g = self._expect[s] if v >= 0 else -self._expect[s]
            restoring = self._known[s] == 3
            wanted = restoring and g > 0  # a restore asks for this colour here
            if not self.level[s]:
                g = 0  # it was empty a moment ago: a checker comes alone
            # (not while a disturbance is restored: anything may come back at once)
            q = lv[0] >> 2 if not restoring else 1 << 14
            c = 0
            if wanted and a >= _wanted(self._fall[0], lv[0]):
                c = 1  # the checker a restore asks for (_wanted)
            while c < 3 and a >= (lv[c] + q if 0 < c and g < c and q < 1 << 14 else
                                  self._rise[c] if g <= c else self._fall[c]):
                c += 1
        else:
            t = self._mid
            c = 0 if a < t[0] else 1 if a < t[1] else 2 if a < t[2] else 3
        if v < 0:
            c = -c
        old = self.level[s]
        if c == old:
            return
        self.level[s] = c
        if (c == 0 or (c > 0) != (old > 0)) and self._dev[s]:
            # The stack is gone (or another colour's came): its deviation goes with it,
            # kept aside until the board confirms the change (_fold).
            self._gone[s] = self._dev[s]
            self._dev[s] = 0
            self._zero[s] = (self._off[s] + 128) >> 8
        elif old == 0 and c and 0 < self._known[s] < 3 and -3 < self._expect[s] < 3:
            # A stack back where the board expects it (lifted for a moment, or another
            # checker put in its place): its reading is its level.
            self._gone[s] = 0
            self._learn(s, r, c, 0)
        self._moved = True
        flags = self._flags
        if not flags[s] & 2:
            flags[s] |= 2
            self._fresh[self._nfresh] = s
            self._nfresh += 1
        stable = self.frame[s]
        if old == stable:
            if not flags[s] & 1:
                flags[s] |= 1
                self._pending[self._npending] = s
                self._npending += 1
        # Time held counts from this scan (_debounce adds this scan's dt next); not when
        # the reading only wavers between two levels of one colour, neither of them the
        # stable code (a strong magnet on a boundary): its colour has held since.
        if old == stable or c == stable or not c or not old or (c > 0) != (old > 0):
            self._elapsed[s] = -dt
            self._evid[s] = 0
        self._window(s)
        self._neighbours(s, c, old)

    def _neighbours(self, s, c, old):
        # The neighbours that see slot s (its code old -> c): their corrections change by
        # the difference, and each window moves with its correction (the bounds its code
        # draws stay): the same windows as _window draws, for a third of a Pico's time (a
        # lift moves about 10; a full _window for one where a bound is open or would clip).
        f = self.field
        kv = f.kv
        rv = f.rv_slot
        rv_kv = f.rv_kv
        acc = self._acc
        corr = self._corr
        gain = self._gain
        lo = self._lo
        hi = self._hi
        disabled = self.disabled
        ks = self._ks
        for j in range(f.rv_first[s], f.rv_first[s + 1]):
            o = rv[j]
            k = rv_kv[j]
            a = acc[o] + kv[k + c] - kv[k + old]
            acc[o] = a
            if disabled[o]:
                continue  # its window is open and stays so (_window)
            d = ((((a * gain[o]) >> 12) * ks + 32768) >> 16) - corr[o]
            if not d:
                continue
            low = lo[o] + d
            high = hi[o] + d
            if low - d == _LOW or high - d == _HIGH or low <= _LOW or high >= _HIGH:
                self._window(o)
                continue
            corr[o] += d
            lo[o] = low
            hi[o] = high

    def _debounce(self, dt, raw, now):
        # The pending slots (a code differing from the stable one, or back to it since the
        # last scan) only: confirm what has held long enough, or carries the evidence, drop
        # what went back. A sequential test: each scan adds how far the reading lies inside
        # its new window beyond NOISE_REACH (at most STRONG); the change stands once the sum
        # reaches STRONG (a lift of the mover's colour at once, anything else after
        # place_ms) or whatever the sum once it has held stable_ms. A code confirmed early that comes back to the
        # one it replaced within stable_ms is withdrawn at once (a knock, a checker put back).
        level = self.level
        frame = self.frame
        elapsed = self._elapsed
        evid = self._evid
        lo = self._lo
        hi = self._hi
        need = self.stable_ms
        place = self.place_ms
        sign = self.lift_sign
        land = self.land_sign
        early = self._early
        prev = self._prev
        early_at = self._early_at
        clock = self._clock
        changed = self.changed
        pending = self._pending
        flags = self._flags
        n = 0
        keep = 0
        for i in range(self._npending):
            s = pending[i]
            c = level[s]
            f = frame[s]
            if c != f:
                e = elapsed[s] + dt
                # A lift: fewer of the mover's checkers, none of the other colour.
                lift = sign and f * sign > 0 and c * sign >= 0 and c * sign < f * sign
                if e >= need:
                    early[s] = 0
                    if lift:
                        self.lifted = s  # a weak lift (off a stack of three): at last
                elif early[s] and c == prev[s] and clock.ticks_diff(now, early_at[s]) < need:
                    early[s] = 0  # the evidence collapsed: withdrawn
                    self.withdrawn += 1
                else:
                    # Against the stable code: how far inside its window, on the side
                    # the reading came from (a higher code reads higher counts).
                    m = (raw[s] - lo[s] if c > f else hi[s] - raw[s]) - NOISE_REACH
                    v = evid[s] + (0 if m < 0 else STRONG if m > STRONG else m)
                    if v >= STRONG and lift:
                        early[s] = 1
                        prev[s] = f
                        early_at[s] = now
                        self.lifted = s
                    elif v < STRONG or e < place:
                        evid[s] = v if v < STRONG else STRONG
                        elapsed[s] = e
                        pending[keep] = s
                        keep += 1
                        if v >= STRONG and land and c * land > 0 and c * land > f * land:
                            self.landing = s  # more of the lifted colour: put down here
                        continue
                    else:
                        early[s] = 0  # a placement: its answer is not withdrawn
                frame[s] = c
                changed[n] = s
                n += 1
            if s == self.landing:
                self.landing = -1  # confirmed, or gone (a checker slid over it)
            flags[s] &= 6
        self._npending = keep
        return n

    def _rezero(self, raw):
        # A few slots per scan, round robin: an empty, settled slot's zero level follows its
        # reading slowly (drift, temperature). Its window moves once the zero level has
        # moved by a count (noise alone would move it back and forth every few scans).
        # A confirmed stack learns its deviation from its level the same way. Every scan
        # runs this: on a Pico each attribute looked up in the loop costs, so all are local.
        s = self._rz_next
        level = self.level
        frame = self.frame
        off = self._off
        zero = self._zero
        corr = self._corr
        disabled = self.disabled
        expect = self._expect
        step = self._rz_step
        shift = self._rz_shift
        known = self._known
        for _ in range(self._rz_n):
            c = level[s]
            dead = disabled[s]
            if c == 0 and frame[s] == 0 and not dead:
                if not (known[s] and expect[s]):  # not where a stack should be
                    o = off[s]
                    e = ((raw[s] - corr[s]) << 8) - o
                    if e > step:
                        e = step
                    elif e < -step:
                        e = -step
                    o += e >> shift
                    off[s] = o
                    d = o - (zero[s] << 8)
                    if d >= 256 or d <= -256:
                        zero[s] = (o + 128) >> 8
                        self._window(s)
            elif dead == 2:
                # Found dead from play: a clear checker's reading says it was not.
                v = raw[s] - zero[s] - corr[s]
                if (v if v > 0 else -v) > (self._lv[0] * self._gain[s]) >> 13:
                    self._blind(s, 0)
            elif c and not dead and c == frame[s] and known[s] and known[s] != 3:
                self._learn(s, raw[s], c)
            s += 1
            if s == SLOTS:
                s = 0
        self._rz_next = s

    def _fold(self, s, d):
        # Slot s's confirmed stack read d / 8 counts beyond its level (its deviation) as it
        # went (each placement once: a checker that dips for a moment is not counted): a
        # single checker's deviation moves the slot's gain by 1 / 2**GAIN_SHIFT of what it
        # says; a stack of two's goes into the level of two (TWO_WEIGHT) at the next
        # confirm() (it moves every window). A checker's magnet and placement vary from one
        # to the next: many placements make the sensor's sensitivity and the set's level.
        # Not beyond 30 % at once: that is not a checker.
        k = self._known[s]
        e = self._expect[s]
        if not 0 < k < 3 or e < -2 or e > 2 or not e or self.disabled[s]:
            return
        a = e if e > 0 else -e
        g = self._gain[s]
        t = (self._lv[a - 1] * g) >> 9  # the level, 1/8 count
        if e < 0:
            d = -d
        if not d or 10 * (d if d > 0 else -d) > 3 * t:
            return
        if a == 2:
            self._two += (d << 12) // g
            self._ntwo += 1
            return
        g += (g * d // t) >> GAIN_SHIFT
        self._gain[s] = 1024 if g < 1024 else 16384 if g > 16384 else g

    def _learn(self, s, r, c, shift=-1):
        # The stack on s reads r; if it is the confirmed one (or, seen at the set-up, a
        # level off it), its deviation from the expected level follows the reading (by
        # 1 / 2**shift of the difference, clipped; shift 0: all of it, unclipped).
        e = self._expect[s]
        if not e or e != c and (self._known[s] != 2 or (e > 0) != (c > 0)):
            # Not the confirmed stack (at the start: any level of its colour); none where
            # the slot should be empty (a checker slid across it at the set-up).
            return
        a = e if e > 0 else -e
        if a > 2:
            return  # "3 or more": no one level to learn against
        t = (self._lv[a - 1] * self._gain[s]) >> 12
        dev = self._dev[s]
        err = ((r - ((self._off[s] + 128) >> 8) - self._corr[s] - (t if e > 0 else -t)) << 3) - dev
        if shift < 0:
            shift = self._l_shift
            step = self._l_step
            if err > step:
                err = step
            elif err < -step:
                err = -step
        dev += err >> shift
        self._dev[s] = dev
        z = ((self._off[s] + 128) >> 8) + (dev >> 3)
        d = z - self._zero[s]
        if d >= 2 or d <= -2:
            self._zero[s] = z
            self._window(s)

    def _window(self, s):
        # The raw counts inside which slot s keeps its present code.
        if self.disabled[s]:
            self._lo[s] = _LOW
            self._hi[s] = _HIGH
            return
        g = self._gain[s]
        corr = (((self._acc[s] * g) >> 12) * self._ks + 32768) >> 16
        self._corr[s] = corr
        base = self._zero[s] + corr
        c = self.level[s]
        # The code the hysteresis favours: the expected one if known, else the present one.
        e = self._expect[s] if self._known[s] else c
        rise = self._rise
        fall = self._fall
        if c == 0:
            f0 = _wanted(fall[0], self._lv[0]) if self._known[s] == 3 else fall[0]
            vhi = rise[0] if e <= 0 else f0
            vlo = -(rise[0] if e >= 0 else f0)
        else:
            a = c if c > 0 else -c
            fav = e if c > 0 else -e
            # Each boundary as _reclass draws it (hysteresis toward the favoured code; two
            # above the expected one only at its full level).
            b = a - 1
            lv = self._lv
            q = lv[0] >> 2
            far = self._known[s] < 3  # the rule of two more (not while restoring)
            vlo = lv[b] + q if b and fav < b and far else rise[b] if fav <= b else \
                fall[b]
            vhi = _HIGH if a == 3 else lv[a] + q if fav < a and far else rise[a] \
                if fav <= a else fall[a]
            if c < 0:
                vlo, vhi = (-_HIGH if vhi == _HIGH else -vhi), -vlo
        lo = _LOW if vlo == -_HIGH else base + (vlo * g) // Q
        hi = _HIGH if vhi == _HIGH else base + (vhi * g + Q - 1) // Q
        self._lo[s] = lo if lo > _LOW else _LOW
        self._hi[s] = hi if hi < _HIGH else _HIGH
