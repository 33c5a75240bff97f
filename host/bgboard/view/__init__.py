"""The board in a browser: `bgboard view` (a local web page showing the board live, where
the virtual board is played with the mouse) and `bgboard render` (the same drawing into
an SVG file). drawing: the SVG; model: what the page shows; server: the web server."""


def serve(port_path, http_host="127.0.0.1", http_port=8000, on_ready=None, **options):
    """Serve the browser view of the board on `port_path` until interrupted; `on_ready(url)`
    once it listens (see bgboard.view.server.serve)."""
    from bgboard.view.server import serve as _serve

    return _serve(port_path, http_host=http_host, http_port=http_port, on_ready=on_ready,
                  **options)
