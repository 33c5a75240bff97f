"""The board as an SVG drawing: one copy, for the browser view (`bgboard view`, sent to the
page as it changes) and for `bgboard render` (written to a file).

A `Scene` says what to draw: each side's checkers in its own numbering (index 0 the tray,
1..24 the points, 25 the bar; black's point q is the board's point 25 - q), who is on roll,
the dice, the cube, the score, the LEDs lit (chain index -> colour, placed through
hardware/pinmap.json's `leds` section) and, for the raw sensor view, the 128 slots'
readings. `scene_from_ids` builds one from a gnubg Position ID and Match ID.

The board is seen from White's side, as hardware/pinmap.json's frame describes it: points
1-6 bottom right, 7-12 bottom left, 13-18 top left, 19-24 top right (White's numbering,
written on the frame); White's bar in the top half and tray bottom right, Black's bar in
the bottom half and tray top right. Up to five checkers stand on a point; a taller stack
shows five with its count on the fifth. LEDs are drawn at their slots at full brightness
(the board dims them all alike), a lit point or bar also tinted. The drawing carries data
attributes for the page and for tests: `data-place` ("point", "bar", "tray") with
`data-point` (1..24, White's numbering) or `data-side` on the click areas, `data-side`
and `data-point` on checkers, `data-role` (bgboard.leds.ROLES: "may go", "origin",
"missing"...) on lit LEDs and tints.
"""

from xml.sax.saxutils import escape

from bgboard.leds import SIDE_NAMES, led_places, role
from bgboard.matfile import DEFAULT_NAMES
from bgcore import Position

# --- geometry (SVG user units) -----------------------------------------------------------------

PW = 56  # point width
STEP = 52  # slot pitch along a point: a checker's place
R = 24  # checker radius
HALF = 5 * STEP  # a point's length
GAP = 84  # between the two halves
FRAME = 18
CUBE_W = 64
BAR_W = 64
TRAY_W = 70
BAND = 46  # each player's strip above and below the board
CAPTION = 24  # the match line, above Black's strip

X_L = CUBE_W + FRAME  # left field (points 13-18 top, 12-7 bottom)
X_BAR = X_L + 6 * PW
X_R = X_BAR + BAR_W  # right field (19-24 top, 6-1 bottom)
X_TRAY = X_R + 6 * PW + FRAME
WIDTH = X_TRAY + TRAY_W + FRAME
Y_T = CAPTION + BAND + FRAME  # top of the fields
Y_B = Y_T + 2 * HALF + GAP  # bottom of the fields
Y_MID = (Y_T + Y_B) // 2
HEIGHT = Y_B + FRAME + BAND

COLOURS = {"frame": "#5b3a1e", "felt": "#24573a", "light": "#d9bf8c", "dark": "#8e3b26",
           "bar": "#4a2f18", "tray": "#3b2612", "band": "#1d1f24", "text": "#e9e4d8",
           "numbers": "#e8d9b5"}
CHECKER = ({"fill": "#f3eee2", "stroke": "#8a7f6a", "text": "#222"},  # white, side 0
           {"fill": "#2a2a2e", "stroke": "#000", "text": "#eee"})  # black, side 1
PIPS = {"tl": (-1, -1), "tr": (1, -1), "ml": (-1, 0), "c": (0, 0), "mr": (1, 0),
        "bl": (-1, 1), "br": (1, 1)}
FACES = ((), ("c",), ("tl", "br"), ("tl", "c", "br"), ("tl", "tr", "bl", "br"),
         ("tl", "tr", "c", "bl", "br"), ("tl", "tr", "ml", "mr", "bl", "br"))


def point_column(p):
    """(x of the centre, True for the top half) of the board's point p (White's 1..24)."""
    if 13 <= p <= 18:
        return X_L + PW * (p - 13) + PW // 2, True
    if 19 <= p <= 24:
        return X_R + PW * (p - 19) + PW // 2, True
    if 7 <= p <= 12:
        return X_L + PW * (12 - p) + PW // 2, False
    return X_R + PW * (6 - p) + PW // 2, False


def slot_y(top, k):
    """y of slot k (0 at the board's edge) in the top or bottom half."""
    return Y_T + STEP * k + STEP // 2 if top else Y_B - STEP * k - STEP // 2


# White's bar is the top half of the bar, Black's the bottom; White's tray bottom right.
BAR_TOP = (True, False)
TRAY_TOP = (False, True)


# --- the LED chain ---------------------------------------------------------------------------------


def leds_from_live(msg):
    """{chain index: (r, g, b)} from a live leds line: `lit` ({"rrggbb": [index, ...]}, as
    the firmware sends it) or `on` ([[index, r, g, b], ...])."""
    out = {}
    lit = msg.get("lit")
    if isinstance(lit, dict):
        for colour, indices in lit.items():
            try:
                rgb = tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4))
            except (TypeError, ValueError):
                continue
            if isinstance(indices, list):
                for i in indices:
                    if isinstance(i, int) and not isinstance(i, bool):
                        out[i] = rgb
    on = msg.get("on")
    if isinstance(on, list):
        for item in on:
            if (isinstance(item, list) and len(item) == 4
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
                out[item[0]] = (item[1], item[2], item[3])
    return out


def _full(rgb):
    """A colour at full brightness (the board dims every LED alike)."""
    top = max(rgb)
    if not top:
        return "#000000"
    return "#%02x%02x%02x" % tuple(min(255, c * 255 // top) for c in rgb)


def _role(rgb):
    return role("%02x%02x%02x" % tuple(rgb))


# --- what to draw ------------------------------------------------------------------------------------


class Scene:
    """Everything the drawing shows. `white`/`black`: 26 counts each in the side's own
    numbering (0 the tray, 25 the bar); `on_roll` 0/1/None; `dice` () or (a, b); `cube`,
    `cube_owner` (None centred), `offered` (a double on offer); `score` [w, b] and `length`
    (None: no match, 0 money); `status`: words for whose turn it is and what to do;
    `leds` {index: (r, g, b)}; `heat` None or {"raw", "offsets", "codes", "faulty",
    "confidence"} (the
    `dump` reply); `hand` [w, b]: checkers held above the board (virtual board); `pips`
    (w, b) the pip counts to show, when they are not those of the checkers drawn (the board's
    position while a hand holds a checker); `games`: a match over that many games, decided
    by the total (the match-play sheet), else None."""

    def __init__(self, white=None, black=None, on_roll=None, dice=(), cube=1,
                 cube_owner=None, offered=False, score=None, length=None, crawford=False,
                 names=DEFAULT_NAMES, status="", leds=None, heat=None, hand=(0, 0),
                 game_number=None, caption="", pips=None, games=None, arrows=()):
        self.white = list(white) if white is not None else [0] * 26
        self.black = list(black) if black is not None else [0] * 26
        self.on_roll = on_roll
        self.dice = tuple(dice or ())
        self.cube = cube
        self.cube_owner = cube_owner
        self.offered = offered
        self.score = list(score) if score is not None else None
        self.length = length
        self.crawford = crawford
        self.names = names
        self.status = status
        self.leds = dict(leds or {})
        self.heat = heat
        self.hand = list(hand)
        self.game_number = game_number
        self.caption = caption
        self.pip_counts = tuple(pips) if pips is not None else None
        self.games = games  # a match over this many games, decided by the total
        # [(kind, side, from, to)]: a checker's step drawn as an arrow, in the side's own
        # numbering (25 the bar, 0 off); kind "made" (the play made) or "best" (gnubg's)
        self.arrows = list(arrows)

    def side(self, s):
        return self.white if s == 0 else self.black

    def pips(self, s):
        if self.pip_counts is not None:
            return self.pip_counts[s]
        counts = self.side(s)
        return sum(p * counts[p] for p in range(1, 26))


def sides_of(position, mover):
    """(white's counts, black's counts) of a bgcore Position whose mover is player `mover`."""
    a, b = list(position.mover), list(position.opponent)
    return (a, b) if mover == 0 else (b, a)


def match_fields(game):
    """The Match ID fields of a `state` reply's game (bgcore.matchid.decode), or None when it
    has none or an undecodable one."""
    from bgcore.matchid import decode

    if not game.get("match_id"):
        return None
    try:
        return decode(game["match_id"])
    except ValueError:
        return None


def status_words(fields, names, phase=None):
    """Whose turn and what to do, from Match ID fields (bgcore.matchid.decode)."""
    if phase == "idle":
        return "no match on the board"
    if phase == "setup":
        return "set up the checkers"
    if fields is None:
        return ""
    state = fields["game_state"]
    roller = names[fields["on_roll"]]
    decider = names[fields["turn"]]
    if state in ("over", "resigned", "dropped"):
        return "game over"
    if state == "none" or phase == "opening":
        return "opening throw"
    if fields["double_offered"]:
        return "%s doubles to %d: %s to take or drop" % (
            names[1 - fields["turn"]], fields["cube"] * 2, decider)
    if fields["resignation"]:
        return "%s offers to resign: %s to accept or reject" % (
            names[1 - fields["turn"]], decider)
    if fields["dice"]:
        return "%s to play %d-%d" % (roller, fields["dice"][0], fields["dice"][1])
    if _dead_cube(fields):
        # allowed ("no limit to the number of times a double may be offered"), and useless
        return "%s to roll (dead cube: a win is the match)" % roller
    return "%s to roll" % roller


def _dead_cube(fields):
    """The player on roll may double, and a win on the present cube already gives them the
    match: a double could only help the opponent."""
    length, me = fields["match_length"], fields["on_roll"]
    owner = fields["cube_owner"]
    return (length > 0 and not fields["crawford"] and owner in (None, me)
            and fields["cube"] >= length - fields["score"][me])


def scene_from_ids(position_id, match_id=None, view_of=None, names=DEFAULT_NAMES, **extra):
    """A Scene from a gnubg Position ID and, optionally, a Match ID (player on roll, dice,
    cube, score). The Position ID is seen from `view_of` (0 or 1); by default from the
    player on roll as gnubg writes it (player 0 without a Match ID). ValueError (bgcore's)
    for a bad ID."""
    from bgcore.matchid import decode

    fields = decode(match_id) if match_id else None
    if view_of is None:
        view_of = fields["on_roll"] if fields else 0
    white, black = sides_of(Position.from_id(position_id), view_of)
    kw = {"white": white, "black": black, "names": names}
    if fields is not None:
        started = fields["game_state"] != "none"
        kw.update(on_roll=fields["on_roll"] if started else None,
                  dice=tuple(fields["dice"]), cube=fields["cube"],
                  cube_owner=fields["cube_owner"], offered=fields["double_offered"],
                  score=fields["score"], length=fields["match_length"],
                  crawford=fields["crawford"], status=status_words(fields, names))
    kw.update(extra)
    return Scene(**kw)


# --- drawing ---------------------------------------------------------------------------------------


def _attrs(**kw):
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        name = k.rstrip("_").replace("_", "-")
        out.append('%s="%s"' % (name, escape(str(v), {'"': "&quot;"})))
    return " ".join(out)


def _el(tag, text=None, **kw):
    if text is None:
        return "<%s %s/>" % (tag, _attrs(**kw))
    return "<%s %s>%s</%s>" % (tag, _attrs(**kw), escape(text), tag)


def _n(v):
    return ("%.1f" % v).rstrip("0").rstrip(".")


def _triangle(x, top):
    tip = Y_T + HALF - 6 if top else Y_B - HALF + 6
    base = Y_T if top else Y_B
    return "%s,%s %s,%s %s,%s" % (_n(x - PW / 2), base, _n(x + PW / 2), base, _n(x), tip)


def _checker(out, side, x, y, label=None, **data):
    c = CHECKER[side]
    out.append(_el("circle", class_="checker", cx=x, cy=y, r=R, fill=c["fill"],
                   stroke=c["stroke"], stroke_width=2, data_side=side, **data))
    out.append(_el("circle", cx=x, cy=y, r=R - 7, fill="none", stroke=c["stroke"],
                   stroke_width=1, stroke_opacity=0.5, pointer_events="none"))
    if label is not None:
        out.append(_el("text", str(label), class_="count", x=x, y=y + 6, fill=c["text"],
                       font_size=17, font_weight="bold", text_anchor="middle"))


def _stack(out, side, n, x, top, **data):
    """Up to five checkers from the edge; a taller stack's count on the fifth."""
    for k in range(min(n, 5)):
        label = n if (k == 4 and n > 5) else None
        _checker(out, side, x, slot_y(top, k), label, **data)


def _die(out, cx, cy, size, value, fill, pip, cls, **data):
    h = size / 2
    out.append(_el("rect", class_=cls, x=_n(cx - h), y=_n(cy - h), width=size, height=size,
                   rx=7, fill=fill, stroke="#000", stroke_width=1.5, data_value=value, **data))
    off = size * 0.27
    for name in FACES[value]:
        dx, dy = PIPS[name]
        out.append(_el("circle", cx=_n(cx + dx * off), cy=_n(cy + dy * off), r=_n(size * 0.09),
                       fill=pip))


def _cube(out, scene):
    value = scene.cube
    if scene.offered:
        x, y, value, where = X_R + 3 * PW, Y_MID, value * 2, "offered"
    elif scene.cube_owner is None:
        x, y, where = CUBE_W // 2, Y_MID, "centre"
        value = 64 if value == 1 else value  # a cube's face: 64 stands for 1
    else:
        top = scene.cube_owner == 1
        x, y, where = CUBE_W // 2, (Y_T + 30 if top else Y_B - 30), SIDE_NAMES[scene.cube_owner]
    out.append(_el("rect", class_="cube", x=x - 22, y=y - 22, width=44, height=44, rx=6,
                   fill="#f7f3e8", stroke="#333", stroke_width=2, data_value=scene.cube,
                   data_where=where))
    out.append(_el("text", str(value), x=x, y=y + 7, font_size=20 if value < 100 else 15,
                   font_weight="bold", fill="#222", text_anchor="middle"))
    if scene.offered:
        out.append(_el("text", "offered", x=x, y=y + 38, font_size=12, fill=COLOURS["text"],
                       text_anchor="middle"))


def _band(out, scene, side):
    """A player's strip: name, pips, borne off, score, and the turn's words when acting."""
    y0 = CAPTION if side == 1 else HEIGHT - BAND
    cy = y0 + BAND // 2 + 6
    c = CHECKER[side]
    out.append(_el("rect", x=0, y=y0, width=WIDTH, height=BAND, fill=COLOURS["band"]))
    out.append(_el("circle", cx=22, cy=cy - 6, r=11, fill=c["fill"], stroke=c["stroke"],
                   stroke_width=2))
    acting = scene.on_roll == side
    out.append(_el("text", scene.names[side][:14], class_="name", x=42, y=cy, font_size=17,
                   font_weight="bold" if acting else "normal", fill=COLOURS["text"],
                   data_side=side))
    counts = scene.side(side)
    out.append(_el("text", "pips %d" % scene.pips(side), class_="pips", x=190, y=cy,
                   font_size=15, fill=COLOURS["text"], data_side=side,
                   data_value=scene.pips(side)))
    out.append(_el("text", "off %d" % counts[0], class_="off-count", x=280, y=cy,
                   font_size=15, fill=COLOURS["text"], data_side=side, data_value=counts[0]))
    if scene.score is not None:
        if scene.length:
            text = "%d / %d" % (scene.score[side], scene.length)
        else:
            text = "%d" % scene.score[side]
        out.append(_el("text", "score " + text, class_="score", x=350, y=cy, font_size=15,
                       fill=COLOURS["text"], data_side=side, data_value=scene.score[side]))
    if scene.hand[side]:
        out.append(_el("text", "in hand %d" % scene.hand[side], class_="hand", x=470, y=cy,
                       font_size=15, fill="#ffd36b", data_side=side,
                       data_value=scene.hand[side]))
    if acting and scene.status:
        out.append(_el("text", scene.status, class_="status", x=WIDTH - 16, y=cy,
                       font_size=15, font_weight="bold", fill="#ffd36b", text_anchor="end"))


def _match_line(scene):
    if scene.length is None:
        return " \u00b7 ".join(w for w in (scene.caption, scene.status) if w)
    if scene.games:
        words = ["match over %d games" % scene.games]
    else:
        words = ["money session" if scene.length == 0 else "%d-point match" % scene.length]
    if scene.game_number:
        words.append("game %d" % scene.game_number +
                     (" of %d" % scene.games if scene.games else ""))
    if scene.crawford:
        words.append("Crawford")
    if scene.caption:
        words.append(scene.caption)
    if scene.on_roll is None and scene.status:
        words.append(scene.status)  # nobody's turn: the opening throw, setting up
    return " \u00b7 ".join(words)


def _heat(out, heat, top_of):
    """The raw sensor view: each slot's field (reading less its zero level) as a coloured
    square, White's polarity (positive) warm, Black's blue; the slot's code written in it,
    and its confidence digit (the dump's `confidence`: 0 about to change .. 9) small in its
    corner."""
    raw = heat.get("raw") or []
    offsets = heat.get("offsets") or [0] * len(raw)
    codes = heat.get("codes") or [0] * len(raw)
    faulty = set(heat.get("faulty") or [])
    conf = heat.get("confidence") or ""
    values = [(r - o) if isinstance(r, (int, float)) and isinstance(o, (int, float)) else 0
              for r, o in zip(raw, offsets)]
    scale = max([abs(v) for v in values] + [50])
    out.append('<g class="heat" pointer-events="none">')
    for slot, v in enumerate(values):
        where = top_of(slot)
        if where is None:
            continue
        x, y = where
        a = min(1.0, abs(v) / scale)
        colour = "#ff6a2a" if v > 0 else "#2a8cff"
        out.append(_el("rect", class_="heat-cell", x=x - 25, y=y - 25, width=50, height=50,
                       fill=colour, fill_opacity=_n(0.15 + 0.75 * a), stroke="#000",
                       stroke_opacity=0.4, data_slot=slot, data_raw=raw[slot],
                       data_code=codes[slot] if slot < len(codes) else 0))
        code = codes[slot] if slot < len(codes) else 0
        label = "x" if slot in faulty else ("%+d" % code if code else "0")
        out.append(_el("text", label, x=x, y=y + 5, font_size=14, fill="#fff",
                       text_anchor="middle", font_weight="bold"))
        if slot < len(conf):
            out.append(_el("text", conf[slot], class_="heat-conf", x=x + 20, y=y + 20,
                           font_size=9, fill="#fff", text_anchor="end"))
    out.append("</g>")


ARROW = {"made": "#e0452b", "best": "#2bb14a"}  # the play made red, gnubg's best green


def _step_xy(side, at, end):
    """Where an arrow starts (end False) or ends on the side's place `at` (own numbering):
    a point's middle, the side's bar, its tray."""
    if at == 25:
        return X_BAR + BAR_W // 2, slot_y(BAR_TOP[side], 2)
    if at <= 0:
        return X_TRAY + TRAY_W // 2, (Y_T + Y_MID) // 2 if TRAY_TOP[side] else (Y_MID + Y_B) // 2
    x, top = point_column(at if side == 0 else 25 - at)
    return x, slot_y(top, 3 if end else 1)


def _arrows(out, scene):
    """The plays drawn as arrows, one per checker step (the play made solid, gnubg's best
    dashed and a little apart, so that a step both make shows both)."""
    out.append("<defs>%s</defs>" % "".join(
        '<marker id="arrowhead-%s" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        'markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="%s"/></marker>' % (kind, colour) for kind, colour in sorted(ARROW.items())))
    out.append('<g class="arrows" pointer-events="none">')
    for kind, side, src, dst in scene.arrows:
        x1, y1 = _step_xy(side, src, False)
        x2, y2 = _step_xy(side, dst, True)
        shift = 6 if kind == "best" else -6
        extra = {"stroke_dasharray": "10 6"} if kind == "best" else {}
        out.append(_el("line", class_="arrow", x1=x1 + shift, y1=y1, x2=x2 + shift, y2=y2,
                       stroke=ARROW[kind], stroke_width=5, stroke_opacity=0.85,
                       marker_end="url(#arrowhead-%s)" % kind, data_kind=kind, data_side=side,
                       data_from=src, data_to=dst, **extra))
    out.append("</g>")


def _slot_xy(slot):
    """Centre of a sensed slot (board/layout.py's numbering): points 5 each, then the bar."""
    if slot < 120:
        p, k = slot // 5 + 1, slot % 5
        x, top = point_column(p)
        return x, slot_y(top, k)
    if slot < 128:
        side = 0 if slot < 124 else 1
        return X_BAR + BAR_W // 2, slot_y(BAR_TOP[side], (slot - 120) % 4)
    return None


def board_svg(scene, places=None):
    """The SVG text of a Scene."""
    places = places or led_places()
    out = ['<svg xmlns="http://www.w3.org/2000/svg" class="bgboard" viewBox="0 0 %d %d" '
           'width="%d" height="%d" font-family="DejaVu Sans, Verdana, sans-serif">'
           % (WIDTH, HEIGHT, WIDTH, HEIGHT, )]
    out.append(_el("title", "bgboard: %s" % (scene.status or "the board")))
    # the board: frame, fields, bar, tray
    out.append(_el("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill=COLOURS["band"]))
    out.append(_el("rect", x=CUBE_W, y=CAPTION + BAND, width=WIDTH - CUBE_W,
                   height=HEIGHT - CAPTION - 2 * BAND, fill=COLOURS["frame"]))
    for x0 in (X_L, X_R):
        out.append(_el("rect", x=x0, y=Y_T, width=6 * PW, height=Y_B - Y_T,
                       fill=COLOURS["felt"]))
    out.append(_el("rect", x=X_BAR, y=Y_T - FRAME, width=BAR_W, height=Y_B - Y_T + 2 * FRAME,
                   fill=COLOURS["bar"]))
    out.append(_el("rect", x=X_TRAY, y=Y_T, width=TRAY_W, height=Y_B - Y_T,
                   fill=COLOURS["tray"]))
    out.append(_el("line", x1=X_TRAY, x2=X_TRAY + TRAY_W, y1=Y_MID, y2=Y_MID,
                   stroke=COLOURS["frame"], stroke_width=6))
    for p in range(1, 25):
        x, top = point_column(p)
        fill = COLOURS["light"] if p % 2 else COLOURS["dark"]
        out.append(_el("polygon", class_="point", points=_triangle(x, top), fill=fill,
                       data_point=p))
        ny = Y_T - 5 if top else Y_B + 14
        out.append(_el("text", str(p), x=x, y=ny, font_size=12, fill=COLOURS["numbers"],
                       text_anchor="middle"))

    # LEDs grouped by place: tints under the checkers, the LED dots above them
    leds = {}
    for i, rgb in sorted(scene.leds.items()):
        where = places.where.get(i)
        if where is not None and any(rgb):
            leds[i] = (where, rgb)
    tinted = set()
    for i, (where, rgb) in leds.items():
        kind, a, _k = where
        if (kind, a) in tinted or kind == "die":
            continue
        tinted.add((kind, a))
        fill, r = _full(rgb), _role(rgb)
        if kind == "point":
            x, top = point_column(a)
            out.append(_el("polygon", class_="glow", points=_triangle(x, top), fill=fill,
                           fill_opacity=0.55, data_place="point", data_point=a, data_role=r))
        elif kind == "bar":
            top = BAR_TOP[a]
            out.append(_el("rect", class_="glow", x=X_BAR + 4, y=Y_T if top else Y_MID + GAP // 2,
                           width=BAR_W - 8, height=HALF, fill=fill, fill_opacity=0.45,
                           data_place="bar", data_side=a, data_role=r))
        else:
            top = TRAY_TOP[a]
            out.append(_el("rect", class_="glow", x=X_TRAY + 3, y=Y_T if top else Y_MID + 3,
                           width=TRAY_W - 6, height=Y_MID - Y_T - 3, fill=fill,
                           fill_opacity=0.45, data_place="tray", data_side=a, data_role=r))

    # checkers
    for p in range(1, 25):
        x, top = point_column(p)
        for side in (0, 1):
            n = scene.side(side)[p if side == 0 else 25 - p]
            if n:
                _stack(out, side, n, x, top, data_point=p)
    for side in (0, 1):
        n = scene.side(side)[25]
        if n:
            _stack(out, side, n, X_BAR + BAR_W // 2, BAR_TOP[side], data_point=25,
                   data_bar=side)
        off = scene.side(side)[0]
        top = TRAY_TOP[side]
        c = CHECKER[side]
        for k in range(off):
            y = Y_T + 4 + 16 * k if top else Y_B - 4 - 14 - 16 * k
            out.append(_el("rect", class_="borne-off", x=X_TRAY + 7, y=y, width=TRAY_W - 14,
                           height=14, rx=3, fill=c["fill"], stroke=c["stroke"],
                           data_side=side))
        if off:
            ty = Y_MID - 12 if top else Y_MID + 26
            out.append(_el("text", str(off), class_="tray-count", x=X_TRAY + TRAY_W // 2,
                           y=ty, font_size=16, font_weight="bold", fill=COLOURS["text"],
                           text_anchor="middle", data_side=side, data_value=off))

    # the dice thrown, on the right of the board in the colour of the player on roll
    if scene.dice and not scene.offered:
        side = scene.on_roll if scene.on_roll is not None else 0
        c = CHECKER[side]
        for d, value in enumerate(scene.dice[:2]):
            if 1 <= value <= 6:
                _die(out, X_R + 3 * PW + (d * 2 - 1) * 32, Y_MID, 44, value, c["fill"],
                     c["text"], "die", data_side=side)
    _cube(out, scene)

    # the LED dice (the board's own dice display), on the left of the board: drawn while
    # lit only (dark pips in all seven places read as a placeholder throw of 6-6)
    lit_dice = sorted(set(where[1] for where, _rgb in leds.values() if where[0] == "die"))
    for d in lit_dice:
        cx = X_L + 3 * PW + (d * 2 - 1) * 32
        out.append(_el("rect", class_="led-die", x=cx - 22, y=Y_MID - 22, width=44, height=44,
                       rx=7, fill="#111", stroke="#555", stroke_width=1.5, data_die=d))
    for i, (where, rgb) in leds.items():
        kind, a, k = where
        if kind == "die":
            dx, dy = PIPS.get(k, (0, 0))
            out.append(_el("circle", class_="led", cx=X_L + 3 * PW + (a * 2 - 1) * 32 + dx * 12,
                           cy=Y_MID + dy * 12, r=5, fill=_full(rgb), data_index=i,
                           data_role=_role(rgb)))

    # LED dots over the checkers
    for i, (where, rgb) in leds.items():
        kind, a, k = where
        if kind == "point":
            x, top = point_column(a)
            y = slot_y(top, k)
        elif kind == "bar":
            x, y = X_BAR + BAR_W // 2, slot_y(BAR_TOP[a], k)
        elif kind == "tray":
            x, y = X_TRAY + TRAY_W - 8, slot_y(TRAY_TOP[a], k)
        else:
            continue
        if kind == "point":
            x += PW // 2 - 8  # beside the checkers' middles, where a stack's count is
        out.append(_el("circle", class_="led", cx=x, cy=y, r=6, fill=_full(rgb),
                       stroke="#000", stroke_width=1, data_index=i, data_role=_role(rgb)))

    if scene.arrows:
        _arrows(out, scene)
    if scene.heat:
        _heat(out, scene.heat, _slot_xy)

    # click areas (the page lifts and places checkers through them)
    for p in range(1, 25):
        x, top = point_column(p)
        out.append(_el("rect", class_="hit", x=x - PW // 2, y=Y_T if top else Y_B - HALF,
                       width=PW, height=HALF, fill="#000", fill_opacity=0,
                       data_place="point", data_point=p))
    for side in (0, 1):
        top = BAR_TOP[side]
        out.append(_el("rect", class_="hit", x=X_BAR, y=Y_T if top else Y_B - HALF,
                       width=BAR_W, height=HALF, fill="#000", fill_opacity=0,
                       data_place="bar", data_side=side))
        top = TRAY_TOP[side]
        out.append(_el("rect", class_="hit", x=X_TRAY, y=Y_T if top else Y_MID,
                       width=TRAY_W, height=Y_MID - Y_T, fill="#000", fill_opacity=0,
                       data_place="tray", data_side=side))

    _band(out, scene, 1)
    _band(out, scene, 0)
    line = _match_line(scene)
    if line:
        out.append(_el("text", line, class_="match", x=WIDTH // 2, y=CAPTION - 6,
                       font_size=14, fill="#c9c6bd", text_anchor="middle"))
    out.append("</svg>")
    return "\n".join(out)
