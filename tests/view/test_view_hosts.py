"""DNS rebinding: a page of another site whose name comes to point at 127.0.0.1 reaches the
view with its own name as Host (and its own Origin, which matches that Host). The view
answers only its own host names, on every route and the WebSocket alike."""

import http.client
import os
import tty
from urllib.parse import urlsplit

from bgboard.view.server import host_allowed

UPGRADE = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
           "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


def _status(url, path, host, headers=()):
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True)
        conn.putheader("Host", host)
        for k, v in dict(headers).items():
            conn.putheader(k, v)
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


def test_requests_for_another_host_name_are_refused_on_every_route(start_view):
    master, slave = os.openpty()  # a board that never answers: the server serves anyway
    tty.setraw(slave)
    try:
        viewer = start_view(os.ttyname(slave))
        port = urlsplit(viewer.url).port
        for path in ("/", "/state.json", "/board.svg"):
            for own in ("127.0.0.1:%d" % port, "localhost:%d" % port, "[::1]:%d" % port):
                assert _status(viewer.url, path, own) == 200, (path, own)
            for other in ("evil.example:%d" % port, "evil.example", "127.0.0.1.evil.example"):
                assert _status(viewer.url, path, other) == 403, (path, other)
        own = "127.0.0.1:%d" % port
        assert _status(viewer.url, "/ws", own,
                       dict(UPGRADE, Origin="http://%s" % own)) == 101
        rebound = "evil.example:%d" % port
        assert _status(viewer.url, "/ws", rebound,
                       dict(UPGRADE, Origin="http://%s" % rebound)) == 403
        assert _status(viewer.url, "/ws", own,
                       dict(UPGRADE, Origin="http://evil.example")) == 403
        viewer.stop()
    finally:
        os.close(master)
        os.close(slave)


def test_host_names_the_server_accepts():
    assert host_allowed("192.168.1.20:8000", "0.0.0.0")  # an address cannot be rebound
    assert host_allowed("board.local:8000", "board.local")  # the --host it was given
    assert host_allowed("LOCALHOST", "127.0.0.1")
    assert not host_allowed("board.local:8000", "127.0.0.1")
    assert not host_allowed("", "127.0.0.1")
    assert not host_allowed("evil.example:8000", "0.0.0.0")
