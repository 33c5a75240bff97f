"""Building a board.sensing.Field: its figures checked, the neighbour table turned into the
pipeline's reverse lookup. Loaded only while a Field is built (at start-up), then let go:
this code is not resident (board.sensing.Field)."""

from array import array

from board.layout import SLOTS, filled
from board.sensing import HYSTERESIS


def build(f, levels, thresholds, hysteresis, kernels, table):
    """Fill Field f from board.sensing.Field's arguments."""
    if len(levels) != 3 or not 0 < levels[0] < levels[1] <= levels[2]:
        raise ValueError("levels: counts for 1, 2, 3 stacked checkers, increasing")
    if thresholds is None:
        thresholds = (
            levels[0] // 2,
            (levels[0] + levels[1]) // 2,
            (levels[1] + levels[2]) // 2,
        )
    if hysteresis is None:
        hysteresis = HYSTERESIS
    if isinstance(hysteresis, int):
        hysteresis = (hysteresis, hysteresis, hysteresis)
    if len(thresholds) != 3 or len(hysteresis) != 3:
        raise ValueError("thresholds and hysteresis: one per boundary (3)")
    f.levels = tuple(levels)
    f.thresholds = tuple(thresholds)
    f.hysteresis = tuple(hysteresis)
    # Inside the 3 boundaries: fall[b] to leave the upper class, rise[b] to enter it.
    f.rise = array("h", [thresholds[b] + hysteresis[b] for b in range(3)])
    f.fall = array("h", [thresholds[b] - hysteresis[b] for b in range(3)])
    for b in range(3):
        if hysteresis[b] < 0:
            raise ValueError("hysteresis must be >= 0")
        if f.fall[b] <= (f.rise[b - 1] if b else 0):
            raise ValueError("thresholds: increasing, their hysteresis bands apart")
    if kernels is None and table is None:
        from board.neighbours import neighbour_table  # let go with this module (Field)

        kernels, table = neighbour_table()
    if kernels is None or table is None or len(table) != SLOTS:
        raise ValueError("the neighbour table needs kernels and 128 slots' neighbours")
    _neighbours(f, kernels, table)


def from_table(cls, table):
    """A Field (class cls) from hardware/field_table.json (schema 1) as loaded by json."""
    if table.get("schema") != 1:
        raise ValueError("field table: schema 1 expected")
    counts = table["stack"]["counts"]
    bounds = table["thresholds"]["boundaries"]
    nb = table["neighbours"]
    field = cls(
        levels=[int(counts[n] + 0.5) for n in (1, 2, 3)],
        thresholds=[b["mid"] for b in bounds],
        hysteresis=[(b["rise"] - b["fall"]) // 2 for b in bounds],
        kernels=[k["counts"] for k in nb["kernels"]],
        table=nb["slots"],
    )
    for b in range(3):  # the table's own band edges, even if not centred on the mid
        field.rise[b] = bounds[b]["rise"]
        field.fall[b] = bounds[b]["fall"]
        if not field.fall[b] <= bounds[b]["mid"] <= field.rise[b]:
            raise ValueError("field table: boundary %d: fall <= mid <= rise" % b)
    return field


def _neighbours(f, kernels, table):
    if len(kernels) > 36:
        raise ValueError("at most 36 neighbour kernels")
    # Neighbour fields in 1/16 count: kv[7 * k + 3 + code] for a neighbour showing code.
    kv = filled("h", 7 * len(kernels))
    for k in range(len(kernels)):
        for n in (1, 2, 3):
            q = int(kernels[k][n - 1] * 16 + 0.5 * (1 if kernels[k][n - 1] >= 0 else -1))
            if not -2000 <= q <= 2000:
                raise ValueError("neighbour kernel %d: %r counts, too large" % (k, kernels[k]))
            kv[7 * k + 3 + n] = q
            kv[7 * k + 3 - n] = -q
    f.kv = kv
    # Who sees slot s: rv_slot[rv_first[s]:rv_first[s + 1]], each with its kernel's
    # offset 7 k + 3 in rv_kv. When s changes code, their corrections change.
    first = filled("H", SLOTS + 1)
    n = 0
    for s in range(SLOTS):
        row = table[s]
        if len(row) % 2 or len(row) > 32:
            raise ValueError("neighbour table: slot %d: up to 16 pairs of slot and kernel"
                             % s)
        for i in range(0, len(row), 2):
            other = row[i]
            k = row[i + 1]
            if not 0 <= other < SLOTS or other == s or not 0 <= k < len(kernels):
                raise ValueError("neighbour table: slot %d: bad entry %r, %r" % (s, other, k))
            first[other + 1] += 1
            n += 1
    for s in range(SLOTS):
        first[s + 1] += first[s]
    f.npairs = n
    f.rv_first = first
    f.rv_slot = rv = bytearray(n)
    f.rv_kv = rv_kv = bytearray(n)  # 7 k + 3 < 256: at most 36 kernels (checked)
    fill = array("H", first)
    for s in range(SLOTS):
        row = table[s]
        for i in range(0, len(row), 2):
            other = row[i]
            rv[fill[other]] = s
            rv_kv[fill[other]] = 7 * row[i + 1] + 3
            fill[other] += 1
