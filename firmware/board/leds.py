"""What the LEDs show: legal destinations while a checker is lifted, the origin, errors, what
must be restored, the dice. Draws into a preallocated frame in logical places (points,
bar, trays, dice) through the chain table of hardware/pinmap.json, at the brightness set,
and holds the whole under a current cap (a USB port gives a few hundred mA)."""

# The roles' colours are the contract's (bgwire): the host reads them back.

from array import array

from board.tracker import HIT_WAIT, ILLEGAL, LIFTED, RESTORE
from bgwire import DICE, EXTRA, HIT, MISSING, ORIGIN, REFUSED, TARGET, WRONG, physical

_COLOUR = ("white", "black")  # side 0 is white (player 0), side 1 black


class LedMap:
    """Chain indices by logical place, from the `leds` section of pinmap.json."""

    def __init__(self, cfg):
        self.count = cfg["count"]
        self.points = cfg["points"]  # [physical point - 1][slot 0..4]
        self.bar = (cfg["bar"]["white"], cfg["bar"]["black"])
        self.tray = (cfg["tray"]["white"], cfg["tray"]["black"])
        self.dice = cfg["dice"]  # [die][pip]
        self.faces = cfg["dice_faces"]  # [value - 1] -> pips lit
        current = cfg["current"]
        self.ma_per_channel = current["ma_per_channel"]
        self.ma_idle = current["ma_idle_per_led"]
        # The first LED of each place whose LEDs are a run of the chain (-1 if not): such a
        # place is lit in one loop (points 0..23, then bars and trays by side: places).
        self.places = self.points + list(self.bar) + list(self.tray)
        self.first = array("h", [_run(ix) for ix in self.places])


def _run(indices):
    lo = min(indices)
    return lo if sorted(indices) == list(range(lo, lo + len(indices))) else -1


class Renderer:
    """Draws into `frame` and sends it to `leds` (board.hw.Leds). brightness 0..255;
    cap_ma the most the whole chain may draw."""

    def __init__(self, leds, ledmap, brightness=64, cap_ma=300):
        self.leds = leds
        self.map = ledmap
        self.brightness = brightness
        self.cap_ma = cap_ma
        self.frame = bytearray(3 * ledmap.count)  # what is drawn, brightness applied
        self._zero = bytes(3 * ledmap.count)
        self.scale = 0  # the last frame's overall scale, 0..256 (256: brightness alone)
        # The frame's channels summed, kept as it is drawn (summing 456 bytes took a Pico
        # 1 ms of each lift): every LED is drawn once on a cleared frame, so it is exact;
        # one drawn twice counts twice, which errs on the cap's safe side.
        self.lit = 0
        # Deferred (the device): show() only notes the frame, flush() sends it, from the
        # scan loop and from the LED task. A driver still sending the last frame holds the
        # new one back (show() returns True): it stays pending for the next flush.
        self.deferred = False
        self.pending = False
        # The frame the driver last took, and its scale: a deferred show() of the same
        # frame sends nothing (a lift lit ahead of the tracker is drawn twice: the second
        # would hold the wire for 4.6 ms, delaying the placement's answer that follows).
        self._sent = bytearray(len(self.frame))
        self._sent_scale = -1
        self._colours = {}  # rgb -> (brightness, its bytes): colour()
        for rgb in (ORIGIN, TARGET, WRONG, HIT, MISSING, EXTRA, DICE, REFUSED):
            self.colour(rgb)  # made now: a lift is drawn with the heap locked (board.heap)

    def clear(self):
        self.frame[:] = self._zero
        self.lit = 0

    def colour(self, rgb):
        """rgb at the renderer's brightness, as the frame holds it (3 bytes). The roles'
        colours are made once (a lift draws a few places: each saved step counts on a Pico)."""
        k = self.brightness
        c = self._colours.get(rgb)
        if c is None or c[0] != k:
            c = (k, bytes((rgb[0] * k // 255, rgb[1] * k // 255, rgb[2] * k // 255)))
            if len(self._colours) < 16:
                self._colours[rgb] = c
        return c[1]

    def set(self, index, rgb):
        """Colour of one LED, at the renderer's brightness (only lit LEDs cost time)."""
        self._put(index, self.colour(rgb))

    def _put(self, index, c):
        i = 3 * index
        f = self.frame
        f[i] = c[0]
        f[i + 1] = c[1]
        f[i + 2] = c[2]
        self.lit += c[0] + c[1] + c[2]

    def point(self, side, point, rgb):
        """Light a place in `side`'s own numbering: 1..24 a point, 25 its bar, 0 its tray."""
        if point == 25:
            point = 24 + side  # the place (LedMap.places)
        elif point == 0:
            point = 26 + side
        else:
            point = point - 1 if side == 0 else 24 - point  # physical(), without a call
        self._place(point, self.colour(rgb))

    def _place(self, place, c):
        # A place's LEDs in colour c (its 3 bytes), a run of the chain written in one loop
        # (no slice: that allocates). Few locals, as in point(): a frame over 11 words
        # comes from the heap, and its search is most of a slow lift's time.
        m = self.map
        i = m.first[place]
        if i < 0:
            self._scattered(m.places[place], c)
            return
        place = len(m.places[place])  # the run's length (no more locals: see above)
        self.lit += (c[0] + c[1] + c[2]) * place
        place = 3 * (i + place)  # its end
        i *= 3
        m = self.frame
        while i < place:
            m[i] = c[0]
            m[i + 1] = c[1]
            m[i + 2] = c[2]
            i += 3

    def _scattered(self, indices, c):
        i = len(indices)
        while i:  # as points()
            i -= 1
            self._put(indices[i], c)

    def dice(self, dice, rgb=DICE):
        """The dice's faces: every pip written, lit or dark."""
        self.dice_pips(dice, rgb, True)

    def dice_pips(self, dice, rgb=DICE, dark=False):
        """Light the pips of the dice's faces: on a cleared frame that is all there is to
        write (0.3 ms less of a Pico's lift than every pip). dark: darken all pips first."""
        rgb = self.colour(rgb)
        m = self.map
        self._die(m.dice[0], dice[0] if dice else 0, rgb, dark)
        self._die(m.dice[1], dice[1] if len(dice) > 1 else 0, rgb, dark)

    def _die(self, pips, value, c, dark):
        # One die: its pips dark if dark, then its face's lit in c (few locals: _place).
        if dark:
            self._dark(pips)
        if value:
            value = self.map.faces[value - 1]  # the pips lit
            i = len(value)
            while i:
                i -= 1
                self._put(pips[value[i]], c)

    def _dark(self, pips):
        f = self.frame
        n = len(pips)
        while n:
            n -= 1
            i = 3 * pips[n]
            self.lit -= f[i] + f[i + 1] + f[i + 2]
            f[i] = f[i + 1] = f[i + 2] = 0

    def refused(self):
        """The sign of a refused action: both dice red."""
        self.dice((6, 6), REFUSED)

    def reading(self, side, r):
        """The tracker's reading for the mover `side`: what to do next, where."""
        if r.state == LIFTED:
            self.point(side, r.origin, ORIGIN)
            self.points(side, r.targets, TARGET)
        elif r.state == ILLEGAL:
            if r.origin >= 0:
                self.point(side, r.origin, ORIGIN)
            self.point(side, r.wrong, WRONG)
        elif r.state == HIT_WAIT:
            self.point(side, r.wrong, HIT)
            self.point(1 - side, 25, HIT)
        elif r.state == RESTORE:
            self.differences(r.missing, r.extra)

    def points(self, side, points, rgb):
        """Light each of points (side's numbering) in rgb."""
        i = len(points)
        while i:  # by index: an iterator takes 4 more words of the frame (see _place)
            i -= 1
            self.point(side, points[i], rgb)

    def places(self, places, rgb):
        """Light each (side, point) of places in rgb."""
        i = len(places)
        while i:  # as points()
            i -= 1
            self.point(places[i][0], places[i][1], rgb)

    def differences(self, missing, extra):
        """Places (side, point) where checkers are missing or extra (setting up, restoring)."""
        self.places(missing, MISSING)
        self.places(extra, EXTRA)

    def show(self):
        """Send the frame with the scale that keeps it under the cap (the driver applies it
        while copying into the chain's buffer, which it does anyway). Deferred (the device's
        LED task): only note that the frame is to be sent; flush() fits it."""
        if self.deferred:
            if not self.pending and self.frame == self._sent:
                self._fit()
                if self.scale == self._sent_scale:
                    return  # on the LEDs already
            self.pending = True
        else:
            self._fit()
            self._send()

    def estimate(self):
        """The mA the frame as drawn would draw, held under the cap."""
        return self._fit()

    def flush(self):
        """Send the frame a deferred show() left (under the cap as it is now); True if
        there was one. One the driver held back (the last frame still going out) stays
        pending: the frame as drawn by then goes out at a later flush."""
        if not self.pending:
            return False
        self._fit()
        self._send()
        return True

    def _send(self):
        self.pending = bool(self.leds.show(self.frame, self.scale))
        if not self.pending:  # taken: what the LEDs show
            self._sent[:] = self.frame
            self._sent_scale = self.scale

    def _fit(self):
        # The scale that keeps the frame under the cap; the estimated mA with it.
        m = self.map
        n = m.count
        lit = self.lit * m.ma_per_channel // 255  # mA of the lit channels
        budget = self.cap_ma - n * m.ma_idle
        scale = 256
        if lit > budget:
            scale = max(0, budget) * 256 // lit
        self.scale = scale
        return n * m.ma_idle + lit * scale // 256
