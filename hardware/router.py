"""A grid router for two signal layers (plain Python, no pcbnew): Manhattan tracks on a regular
grid, F.Cu preferring vertical runs and B.Cu horizontal ones, vias where a path changes layer.

Why our own: no headless autorouter here gives a DRC-clean board (shared/reference/kicad.md).
The boards are sparse and regular, so a maze search (A*) per connection on a 0.5 mm grid,
with the clearances built into what each cell may hold, routes them in seconds; KiCad's DRC
then checks the result against the fab rules, so a router bug cannot pass unnoticed.

Cells hold the net that owns them (or BLOCKED). A track of width w on a cell keeps every
other net's copper at least the clearance away as long as the grid pitch is >= w + clearance;
pads and vias mark every cell closer than (their half size + clearance + w/2).
"""

import heapq
import math

FREE = -1
BLOCKED = -2
LAYERS = 2  # 0 = F.Cu (vertical preferred), 1 = B.Cu (horizontal preferred)


class Grid:
    def __init__(self, width_mm, height_mm, pitch, track, clearance, via_diameter):
        self.pitch = pitch
        self.nx = int(width_mm / pitch) + 1
        self.ny = int(height_mm / pitch) + 1
        self.track = track
        self.clearance = clearance
        self.via_d = via_diameter
        n = self.nx * self.ny
        self.cells = [[FREE] * n for _ in range(LAYERS)]
        self.via_ok = [FREE] * n  # net allowed to drop a via here (FREE: any, BLOCKED: none)
        nx = self.nx
        self._off8 = (-nx - 1, -nx, -nx + 1, -1, 0, 1, nx - 1, nx, nx + 1)
        for i in range(nx):  # the border: no via (see can_via)
            self.via_ok[i] = self.via_ok[n - 1 - i] = BLOCKED
        for j in range(self.ny):
            self.via_ok[j * nx] = self.via_ok[j * nx + nx - 1] = BLOCKED

    # --- geometry ------------------------------------------------------------------------
    def index(self, i, j):
        return j * self.nx + i

    def xy(self, idx):
        return (idx % self.nx) * self.pitch, (idx // self.nx) * self.pitch

    def cell_of(self, x, y):
        return int(round(x / self.pitch)), int(round(y / self.pitch))

    def _claim(self, arr, idx, net):
        cur = arr[idx]
        if cur == FREE:
            arr[idx] = net
        elif cur != net:
            arr[idx] = BLOCKED

    def _cells_in(self, x0, y0, x1, y1):
        i0 = max(0, int(math.ceil(x0 / self.pitch - 1e-9)))
        i1 = min(self.nx - 1, int(math.floor(x1 / self.pitch + 1e-9)))
        j0 = max(0, int(math.ceil(y0 / self.pitch - 1e-9)))
        j1 = min(self.ny - 1, int(math.floor(y1 / self.pitch + 1e-9)))
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                yield self.index(i, j)

    def add_rect(self, net, layers, x0, y0, x1, y1):
        """Copper of `net` over the rectangle (a pad's box) on the given layers."""
        m = self.clearance + self.track / 2 - 1e-6
        for idx in self._cells_in(x0 - m, y0 - m, x1 + m, y1 + m):
            for layer in layers:
                self._claim(self.cells[layer], idx, net)
        m = self.clearance + self.via_d / 2 - 1e-6
        for idx in self._cells_in(x0 - m, y0 - m, x1 + m, y1 + m):
            self._claim(self.via_ok, idx, net)

    def block_rect(self, x0, y0, x1, y1, layers=(0, 1), vias=True):
        for idx in self._cells_in(x0, y0, x1, y1):
            for layer in layers:
                self.cells[layer][idx] = BLOCKED
            if vias:
                self.via_ok[idx] = BLOCKED

    def pad_cells(self, x0, y0, x1, y1):
        """Cells whose centre lies on the pad (a path may start or end there)."""
        return list(self._cells_in(x0, y0, x1, y1))

    # --- occupying a routed path ---------------------------------------------------------
    def _neighbours8(self, idx):
        i, j = idx % self.nx, idx // self.nx
        for dj in (-1, 0, 1):
            for di in (-1, 0, 1):
                ii, jj = i + di, j + dj
                if 0 <= ii < self.nx and 0 <= jj < self.ny:
                    yield self.index(ii, jj)

    def can_via(self, idx, net):
        """A via of `net` fits on this cell: its own spot allowed, its 3 x 3 free on both layers.
        (Hot: the search asks it on every step. Cells on the grid's border are never allowed,
        the board edge blocks them, so the neighbour offsets cannot wrap around.)"""
        v = self.via_ok[idx]
        if v != FREE and v != net:
            return False
        front, back = self.cells
        for o in self._off8:
            a = front[idx + o]
            if a != FREE and a != net:
                return False
            b = back[idx + o]
            if b != FREE and b != net:
                return False
        return True

    def occupy(self, path, net):
        """Mark a path's cells (and around its vias) as the net's."""
        for k, (layer, idx) in enumerate(path):
            self._claim(self.cells[layer], idx, net)
            # a track cell: no via of another net right next to it
            for n in self._neighbours8(idx):
                self._claim(self.via_ok, n, net)
            if k and path[k - 1][0] != layer:
                for n in self._neighbours8(idx):
                    for lay in range(LAYERS):
                        self._claim(self.cells[lay], n, net)
                    if n != idx:  # drilled holes keep their distance whatever their nets
                        self.via_ok[n] = BLOCKED

    # --- search --------------------------------------------------------------------------
    def route(self, net, sources, targets, via_cost=12, turn_cost=2, wrong_way=3, limit=400000, no_via=()):
        """Cheapest path from any (layer, idx) in sources to any in targets, or None."""
        targets = set(targets)
        if not targets:
            return None
        # Heuristic: grid steps to the targets' bounding box (never more than the true cost).
        nx = self.nx
        ti = [t[1] % nx for t in targets]
        tj = [t[1] // nx for t in targets]
        i0, i1, j0, j1 = min(ti), max(ti), min(tj), max(tj)

        def h(idx):
            i, j = idx % nx, idx // nx
            return max(0, i0 - i, i - i1) + max(0, j0 - j, j - j1)

        cells = self.cells
        nx, ny = self.nx, self.ny
        best = {}
        prev = {}
        heap = []
        for s in sources:
            if cells[s[0]][s[1]] not in (FREE, net):
                continue
            key = (s[0], s[1], 0)
            best[key] = 0
            prev[key] = None
            heapq.heappush(heap, (h(s[1]), 0, key))
        seen = 0
        while heap:
            f, g, key = heapq.heappop(heap)
            if best.get(key, 1e18) < g:
                continue
            layer, idx, d = key
            if (layer, idx) in targets:
                path = []
                while key is not None:
                    path.append((key[0], key[1]))
                    key = prev[key]
                path.reverse()
                # drop repeated cells (direction states of one cell)
                out = []
                for c in path:
                    if not out or out[-1] != c:
                        out.append(c)
                return out
            seen += 1
            if seen > limit:
                return None
            i, j = idx % nx, idx // nx
            for nd, di, dj in ((1, 1, 0), (2, -1, 0), (3, 0, 1), (4, 0, -1)):
                ii, jj = i + di, j + dj
                if not (0 <= ii < nx and 0 <= jj < ny):
                    continue
                nidx = jj * nx + ii
                if cells[layer][nidx] not in (FREE, net):
                    continue
                horizontal = nd <= 2
                cost = 1 + (wrong_way if horizontal == (layer == 0) else 0)
                if d and d != nd:
                    cost += turn_cost
                nkey = (layer, nidx, nd)
                ng = g + cost
                if ng < best.get(nkey, 1e18):
                    best[nkey] = ng
                    prev[nkey] = key
                    heapq.heappush(heap, (ng + h(nidx), ng, nkey))
            other = 1 - layer
            if idx not in no_via and cells[other][idx] in (FREE, net) and self.can_via(idx, net):
                nkey = (other, idx, 0)
                ng = g + via_cost
                if ng < best.get(nkey, 1e18):
                    best[nkey] = ng
                    prev[nkey] = key
                    heapq.heappush(heap, (ng + h(idx), ng, nkey))
        return None

    def escape_to_via(self, net, sources, max_steps=4000):
        """Shortest path from the pad cells to a cell where a via fits (plane connection)."""
        return self.route_to(net, sources, lambda layer, idx: self.can_via(idx, net)
                             and all(self.cells[lay][idx] in (FREE, net) for lay in range(LAYERS)),
                             max_steps)

    def route_to(self, net, sources, accept, max_steps):
        from collections import deque

        cells = self.cells
        prev = {}
        q = deque()
        for s in sources:
            if cells[s[0]][s[1]] in (FREE, net):
                prev[s] = None
                q.append(s)
        steps = 0
        while q:
            cur = q.popleft()
            layer, idx = cur
            if accept(layer, idx):
                path = []
                while cur is not None:
                    path.append(cur)
                    cur = prev[cur]
                return path[::-1]
            steps += 1
            if steps > max_steps:
                return None
            i, j = idx % self.nx, idx // self.nx
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                ii, jj = i + di, j + dj
                if 0 <= ii < self.nx and 0 <= jj < self.ny:
                    n = (layer, self.index(ii, jj))
                    if n not in prev and cells[layer][n[1]] in (FREE, net):
                        prev[n] = cur
                        q.append(n)
        return None


def segments(grid, path):
    """A path of cells as tracks [(layer, (x0, y0), (x1, y1))] and vias [(x, y)] in mm."""
    tracks, vias = [], []
    if not path:
        return tracks, vias
    start = path[0]
    last = path[0]
    direction = None
    for cell in path[1:]:
        if cell[0] != last[0]:  # layer change: a via on this cell
            if start[1] != last[1]:
                tracks.append((last[0], grid.xy(start[1]), grid.xy(last[1])))
            vias.append(grid.xy(cell[1]))
            start, last, direction = cell, cell, None
            continue
        d = cell[1] - last[1]
        if direction is not None and d != direction:
            tracks.append((last[0], grid.xy(start[1]), grid.xy(last[1])))
            start = last
        direction = d
        last = cell
    if start[1] != last[1]:
        tracks.append((last[0], grid.xy(start[1]), grid.xy(last[1])))
    return tracks, vias
