"""`bgboard view`: a local web server that shows the board live in browsers.

One thread (`BoardWorker`) holds the board's serial link (bgboard.link.Link, which
reconnects and catches up from the journal by itself): it follows the board into a
bgboard.view.model.BoardModel, asks for `state` when events or the tracker say it changed,
reads `dump` while a page shows the raw sensor view, and carries out what pages ask (sim
lines on the virtual board; `new`, `resign`, `accept`, `reject`, `demand`). Each change becomes a snapshot (the SVG board, the
move list, the connection...) that the asyncio side (aiohttp) sends over a WebSocket to
every page: a slow page gets the latest snapshot, never a queue of old ones.

Routes: `/` the page (static/index.html, view.js, view.css: no build step), `/ws` the
WebSocket, `/board.svg` the board as it is now, `/state.json` the last snapshot; with a
coach (`bgboard engine --view`), `/analysis` the state of gnubg's analysis of the last match
played (JSON) and `/analysis/NAME.analysis.html` (or `.json`) the analysis itself, from the
folder the matches are written into (503 while gnubg is still at it, 404 for another name).

From a page (JSON over the WebSocket):
    {"type": "sim", "line": {"sim": "lift", "side": 0, "at": 13}}   virtual board only
    {"type": "new", "kind": "match", "length": 5} / {"type": "new", "kind": "money",
     "options": {"jacoby": false, "beavers": true, "raccoons": true}}  (options optional)
    {"type": "resign", "level": 1}      the player on roll offers to resign (1..3: single,
                                        gammon, backgammon); real boards have no button for it
    {"type": "answer", "accept": true}  accept or reject the resignation on offer (after a
                                        demand: the resigner agrees or plays on)
    {"type": "demand", "level": 2}      the resigner's opponent requires a higher forfeit
    {"type": "arrange"}      move the virtual board's checkers where the board wants them
    {"type": "raw", "on": true}                 the raw sensor view for this page
    {"type": "hint"}         with a coach (`bgboard engine --view`): gnubg's hint for the
                             person on roll, lit on the board and listed on the page
To a page: {"type": "view", ...} (BoardModel.snapshot) and {"type": "notice", "text"}.
"""

import asyncio
import ipaddress
import json
import os
import queue
import re
import threading
import time

import click

from bgboard.link import Link, LinkError, LinkLost, Refused, is_int
from bgboard.matfile import DEFAULT_NAMES
from bgboard.transport import SerialTransport
from bgboard.view.model import BoardModel, arrangement, check_sim
from bgcore.match import MAX_MATCH_LENGTH

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
PUBLISH_S = 0.04  # snapshots at most this often (the board's LEDs change at most every 0.1 s)
STATE_S = 0.05
LOOK_S = 2.0  # the virtual board's table asked again this often
DUMP_S = 0.5  # the raw sensor view's refresh
POLL_S = 0.03
MONEY_OPTIONS = ("jacoby", "beavers", "raccoons")  # a page's money session may set these


class BoardWorker(threading.Thread):
    """The serial side: a Link on `port` (`opener` makes its transport), a BoardModel, and
    `publish(snapshot)` called (from this thread) for each change."""

    def __init__(self, port, model, publish, opener=None, coach=None):
        super().__init__(name="bgboard-view-board", daemon=True)
        # coach(link, note, changed): an object following the board on that link (event(ev),
        # step(), hint(), coach_view(): bgboard.engine_driver.EngineDriver), made for each link
        self.coach = coach
        self.driver = None
        self.port = port
        self.model = model
        self.publish = publish
        self.opener = opener or (lambda: SerialTransport(port))
        self.requests = queue.Queue()
        self.raw_wanted = 0  # pages showing the raw sensor view (set by the hub)
        self._stop = threading.Event()
        self._need_state = True
        self._need_detect = True
        self._detecting = False
        self._last_state = 0.0
        self._last_look = 0.0
        self._last_dump = 0.0
        self._last_pub = 0.0
        self.link = None

    def stop(self):
        self._stop.set()

    # --- the link's callbacks --------------------------------------------------------------

    def _on_event(self, ev):
        self.model.event(ev)
        self._need_state = True
        if self.driver is not None:
            self.driver.event(ev)

    def _on_live(self, msg):
        if self.model.live(msg):
            self._need_state = True

    def _on_status(self, text):
        if text.startswith("reconnected"):  # connected once the board answers again
            self.model.set_conn("reconnecting", text)
            self._need_state = self._need_detect = True
        elif text.startswith(("reconnecting", "waiting")):
            self.model.set_conn("reconnecting", text)
        else:
            self.model.note(text)
        self._flush(force=True)

    def _on_problem(self, text):
        if not self._detecting:  # a real board's answer to the sim look is no problem
            self.model.note(text)

    # --- the loop --------------------------------------------------------------------------

    def run(self):
        while not self._stop.is_set():
            self.link = Link(self.opener, self.port, on_event=self._on_event,
                             on_live=self._on_live, on_status=self._on_status,
                             on_problem=self._on_problem, on_journal=self.model.new_journal,
                             sync=True, reconnect=True, retry_interval=0.5)
            if self.coach is not None:
                self.driver = self.coach(self.link, self.model.note, self._coach_changed)
                self._coach_changed()
            try:
                self.model.set_conn("connecting", "connecting to %s" % self.port)
                self._flush(force=True)
                self.model.hello = self.link.connect(wait=True)
                self.model.set_conn("connected", "connected to %s" % self.port)
                self._need_state = self._need_detect = True
                while not self._stop.is_set():
                    try:
                        self._step()
                    except LinkLost as e:  # the link is back: the next step goes on
                        self.model.note(str(e))
            except LinkError as e:
                self.model.set_conn("error", str(e))
                self._flush(force=True)
                self._stop.wait(2.0)
            except Exception as e:  # keep serving the pages; say what went wrong
                self.model.set_conn("error", "%s: %s" % (type(e).__name__, e))
                self._flush(force=True)
                self._stop.wait(2.0)
            finally:
                self.link.close()

    def _coach_changed(self):  # from this thread
        self.model.coach = self.driver.coach_view()
        self.model.touch()

    def _step(self):
        link = self.link
        if self._need_detect:
            self._detect()
        self._serve_requests()
        link.poll(POLL_S)
        if self.driver is not None:
            from bgboard.engine import EngineError

            try:
                self.driver.step()
            except Refused as e:
                self.model.note("refused: %s" % e.reply.get("error"))
            except EngineError as e:
                self.model.note("gnubg: %s" % e)
        now = time.monotonic()
        if self._need_state and now - self._last_state >= STATE_S:
            self._ask_state()
        if self.model.virtual and now - self._last_look >= LOOK_S:
            self._last_look = now
            link.send({"sim": "look"})
        if self.raw_wanted > 0:
            if now - self._last_dump >= DUMP_S:
                self._last_dump = now
                try:
                    self.model.set_heat(link.command("dump"))
                except Refused as e:
                    self.model.note(str(e))
        elif self.model.heat is not None:
            self.model.set_heat(None)
        self._flush()

    def _detect(self):
        """A virtual board answers {"sim": "look"} with a live sim line; a real one with an
        error reply (no command waits meanwhile, so it is not taken for a command's)."""
        self._need_detect = False
        self._detecting = True
        try:
            self.link.send({"sim": "look"})
            deadline = time.monotonic() + 0.6
            while time.monotonic() < deadline and not self.model.virtual:
                self.link.poll(0.05)
        finally:
            self._detecting = False
        if not self.model.virtual:
            self.model.virtual = False
        self._last_look = time.monotonic()
        self.model.touch()

    def _ask_state(self):
        self._need_state = False
        self._last_state = time.monotonic()
        try:
            self.model.set_state(self.link.command("state"))
            self.model.hello = self.link.hello
            self.model.set_conn("connected", "connected to %s" % self.port)
        except Refused as e:
            self.model.note(str(e))

    def _flush(self, force=False):
        now = time.monotonic()
        if self.model.changed and (force or now - self._last_pub >= PUBLISH_S):
            self._last_pub = now
            self.publish(self.model.snapshot())

    def _serve_requests(self):
        deadline = time.monotonic() - 10.0  # requests that waited out a reconnection: dropped
        while True:
            try:
                at, kind, arg, answer = self.requests.get_nowait()
            except queue.Empty:
                return
            if at < deadline:
                answer("dropped (the board was away): %s" % kind)
                continue
            try:
                self._serve(kind, arg, answer)
            except Refused as e:
                answer("the board refused it: %s" % e.reply.get("error"))
                self.model.note("refused: %s" % e.reply.get("error"))

    def _serve(self, kind, arg, answer):
        link = self.link
        if kind in ("sim", "arrange") and not self.model.virtual:
            answer("not a virtual board: its checkers are moved by hand")
            return
        if kind == "sim":
            link.send(arg)
        elif kind == "arrange":
            target = self.model.target()
            if target is None or self.model.table is None:
                answer("no game on the board yet: start a match first")
                return
            for line in arrangement(self.model.table, self.model.hand, target):
                link.send(line)
                link.poll(0.01)
        elif kind == "hint":
            if self.driver is None:
                answer("no coach here: `bgboard engine --view` gives hints")
                return
            from bgboard.engine import EngineError
            from bgboard.engine_coach import CoachError

            try:
                self.driver.hint()
            except (CoachError, EngineError) as e:
                answer("hint: %s" % e)
                self.model.note("hint: %s" % e)
        elif kind == "dice":  # the throw of the player on roll, physical dice entered
            from bgboard.engine_coach import CoachError

            try:
                if getattr(self.driver, "physical_dice", False):
                    self.driver.enter_dice(arg)  # the engine's throw once it asked for it
                else:
                    link.command("roll", dice=arg)
            except CoachError as e:
                answer("dice: %s" % e)
                self.model.note("dice: %s" % e)
            self._need_state = True
        elif kind == "command":  # (name, arguments): new, resign, accept, reject
            name, args = arg
            link.command(name, **args)
            self._need_state = True

    def request(self, kind, arg=None, answer=None):
        """From any thread: queue something for the board; `answer(text)` is told of a
        refusal (from this worker's thread)."""
        self.requests.put((time.monotonic(), kind, arg, answer or (lambda text: None)))


# --- the web side ----------------------------------------------------------------------------------


class Client:
    """One page: the latest text to send, sent by its own task."""

    def __init__(self, ws):
        self.ws = ws
        self.raw = False
        self.latest = None
        self.ready = asyncio.Event()

    def push(self, text):
        self.latest = text
        self.ready.set()

    async def pump(self):
        while not self.ws.closed:
            await self.ready.wait()
            self.ready.clear()
            text, self.latest = self.latest, None
            if text is not None and not self.ws.closed:
                try:
                    await self.ws.send_str(text)
                except (ConnectionError, RuntimeError):
                    return


class Hub:
    def __init__(self, worker):
        self.worker = worker
        self.clients = set()
        self.last = None  # the last snapshot
        self.last_text = None

    def publish(self, snapshot):
        self.last = snapshot
        self.last_text = json.dumps(snapshot)
        for c in self.clients:
            c.push(self.last_text)

    def raw_changed(self):
        self.worker.raw_wanted = sum(1 for c in self.clients if c.raw)


def host_allowed(host_header, served_host):
    """Whether a request's Host (or an Origin's host) names this server: an IP address (a
    name another site could point at us by DNS rebinding is not one), localhost, or the
    name it was started for (--host)."""
    if not host_header:
        return False
    name = host_header.strip().lower()
    if name.startswith("["):  # [v6]:port
        name = name[1:].split("]", 1)[0]
    elif name.count(":") == 1:
        name = name.rsplit(":", 1)[0]
    if name in ("localhost", served_host.lower()):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


ANALYSIS_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\.analysis\.(html|json)$")


def make_app(worker, hub, served_host="127.0.0.1", analysis_dir=None):
    from aiohttp import WSMsgType, web

    @web.middleware
    async def own_hosts_only(request, handler):
        # DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends
        # Host: evil.example (and Origin: its own, which matches that Host).
        if not host_allowed(request.host, served_host):
            raise web.HTTPForbidden(text="the view answers its own host names only")
        return await handler(request)

    async def index(request):
        return web.FileResponse(os.path.join(STATIC, "index.html"),
                                headers={"Cache-Control": "no-cache"})

    async def board_svg(request):
        svg = hub.last["svg"] if hub.last else ""
        return web.Response(text=svg, content_type="image/svg+xml")

    async def state_json(request):
        return web.Response(text=hub.last_text or "{}", content_type="application/json")

    def analysis_state():
        driver = worker.driver
        return driver.analysis_view() if driver is not None else None

    async def analysis_index(request):
        if analysis_dir is None:
            raise web.HTTPNotFound(text="no analysis here: `bgboard engine --view` analyses "
                                        "the matches played against it")
        return web.json_response({"analysis": analysis_state()},
                                 headers={"Cache-Control": "no-cache"})

    async def analysis_file(request):
        name = request.match_info["name"]
        if analysis_dir is None:
            raise web.HTTPNotFound(text="no analysis here: `bgboard engine --view` analyses "
                                        "the matches played against it")
        path = os.path.join(analysis_dir, name)
        if ANALYSIS_NAME.match(name) and os.path.isfile(path):
            kind = "text/html" if name.endswith(".html") else "application/json"
            with open(path, "rb") as f:
                body = f.read()
            return web.Response(body=body, content_type=kind, charset="utf-8",
                                headers={"Cache-Control": "no-cache"})
        state = analysis_state()
        if state is not None and name.startswith(state["name"] + ".analysis."):
            if state["state"] == "running":
                raise web.HTTPServiceUnavailable(
                    text="not ready yet: %s; try again in a few seconds" % state["text"],
                    headers={"Retry-After": "5"})
            if state["state"] == "failed":
                raise web.HTTPNotFound(text=state["text"])
        raise web.HTTPNotFound(text="no analysis named %s here" % name)

    async def websocket(request):
        # Only this server's own pages: a page of another site in the same browser may
        # open a WebSocket to 127.0.0.1 too (browsers send its Origin).
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1].rstrip("/") != request.host:
            raise web.HTTPForbidden(text="the view accepts its own pages only")
        ws = web.WebSocketResponse(heartbeat=20.0, timeout=2.0)
        await ws.prepare(request)
        client = Client(ws)
        hub.clients.add(client)
        if hub.last_text:
            client.push(hub.last_text)
        pump = asyncio.ensure_future(client.pump())
        loop = asyncio.get_running_loop()

        def answer(text):  # from the worker's thread
            msg = json.dumps({"type": "notice", "text": text})
            loop.call_soon_threadsafe(lambda: None if ws.closed else
                                      asyncio.ensure_future(_send(ws, msg)))

        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                try:
                    _from_page(json.loads(msg.data), client, worker, hub, answer)
                except (ValueError, TypeError, AttributeError) as e:
                    await ws.send_str(json.dumps({"type": "notice", "text": str(e)}))
        finally:
            hub.clients.discard(client)
            hub.raw_changed()
            client.ready.set()
            pump.cancel()
        return ws

    app = web.Application(middlewares=[own_hosts_only])
    app.router.add_get("/", index)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/board.svg", board_svg)
    app.router.add_get("/state.json", state_json)
    app.router.add_get("/analysis", analysis_index)
    app.router.add_get("/analysis/{name}", analysis_file)
    app.router.add_static("/static/", STATIC)
    return app


async def _send(ws, text):
    try:
        await ws.send_str(text)
    except (ConnectionError, RuntimeError):
        pass


def _from_page(msg, client, worker, hub, answer):
    kind = msg.get("type")
    if kind == "sim":
        worker.request("sim", check_sim(msg.get("line")), answer)
    elif kind == "arrange":
        worker.request("arrange", None, answer)
    elif kind == "new":
        what = msg.get("kind")
        if what == "money":
            options = msg.get("options", {})
            if not isinstance(options, dict) or any(
                    k not in MONEY_OPTIONS or not isinstance(v, bool) for k, v in options.items()):
                raise ValueError("new money: options are %s, each true or false"
                                 % ", ".join(MONEY_OPTIONS))
            args = {"kind": "money"}
            on = dict((k, True) for k, v in options.items() if v)
            if on:
                args["options"] = on
            worker.request("command", ("new", args), answer)
        elif what == "match":
            length = msg.get("length")
            if not is_int(length) or not 1 <= length <= MAX_MATCH_LENGTH:
                raise ValueError("new match: a length of 1 to %d points" % MAX_MATCH_LENGTH)
            worker.request("command", ("new", {"kind": "match", "length": length}), answer)
        else:
            raise ValueError("new: kind is match or money")
    elif kind in ("resign", "demand"):
        level = msg.get("level")
        if not is_int(level) or not 1 <= level <= 3:
            raise ValueError("%s: level 1 (single), 2 (gammon) or 3 (backgammon)" % kind)
        worker.request("command", (kind, {"level": level}), answer)
    elif kind == "answer":
        accept = msg.get("accept")
        if not isinstance(accept, bool):
            raise ValueError("answer: accept is true or false")
        worker.request("command", ("accept" if accept else "reject", {}), answer)
    elif kind == "hint":
        worker.request("hint", None, answer)
    elif kind == "dice":  # physical dice thrown, entered on the page
        dice = msg.get("dice")
        if not isinstance(dice, list) or len(dice) != 2 or \
                not all(is_int(d) and 1 <= d <= 6 for d in dice):
            raise ValueError("dice: two dice of 1 to 6")
        worker.request("dice", dice, answer)
    elif kind == "raw":
        client.raw = bool(msg.get("on"))
        hub.raw_changed()
    else:
        raise ValueError("unknown request %r" % (kind,))


class ViewError(click.ClickException):
    """The server could not start (its address is taken...): one line, exit status 1."""


async def _main(port_path, http_host, http_port, on_ready, names, opener, coach,
                analysis_dir=None):
    from aiohttp import web

    loop = asyncio.get_running_loop()
    model = BoardModel(port_path, names)
    hub = None

    def publish(snapshot):  # from the worker's thread
        try:
            loop.call_soon_threadsafe(hub.publish, snapshot)
        except RuntimeError:  # the loop is closed: the server is stopping
            pass

    worker = BoardWorker(port_path, model, publish, opener, coach)
    hub = Hub(worker)
    runner = web.AppRunner(make_app(worker, hub, http_host, analysis_dir), access_log=None,
                           handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, http_host, http_port, shutdown_timeout=2.0)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        raise ViewError("cannot serve on %s:%s: %s" % (http_host, http_port,
                                                        _why_not(e, http_host, http_port)))
    host, port = runner.addresses[0][:2]
    url = "http://%s:%d/" % (("[%s]" % host) if ":" in host else host, port)
    worker.start()
    if on_ready is not None:
        on_ready(url)
    try:
        while True:
            await asyncio.sleep(3600)
    finally:
        worker.stop()
        for c in list(hub.clients):
            await c.ws.close()
        await runner.cleanup()


def _why_not(error, http_host, http_port):
    """Why the server cannot listen; for an address in use, the next port that is free now
    and `--http-port 0`."""
    import errno
    import socket

    if error.errno != errno.EADDRINUSE:
        return error.strerror or str(error)
    what = "the port is in use (another view or server has it): "
    for candidate in range(http_port + 1, min(http_port + 50, 65536)) if http_port else ():
        try:
            with socket.socket(socket.AF_INET6 if ":" in http_host else socket.AF_INET) as s:
                s.bind((http_host, candidate))
        except OSError:
            continue
        return what + "--http-port %d is free, or --http-port 0 takes any" % candidate
    return what + "--http-port 0 takes any free port"


def serve(port_path, http_host="127.0.0.1", http_port=8000, on_ready=None,
          names=DEFAULT_NAMES, opener=None, coach=None, analysis_dir=None):
    """Serve the live view of the board on `port_path` until interrupted (KeyboardInterrupt
    comes out of here, as from any blocking call); `on_ready(url)` once it listens.
    ViewError if it cannot listen. coach: see BoardWorker; analysis_dir: the folder its
    analyses are written into (served under /analysis/)."""
    asyncio.run(_main(port_path, http_host, http_port, on_ready, names, opener, coach,
                      analysis_dir))
