"""The host's maintenance commands, loaded when asked (RAM): the sensors' dump, the journals
kept aside (damaged), the LED test. Each takes the application (board.app.App)."""

KEPT_PAGE = 512  # bytes of a kept journal per reply to "kept": base64, about 700 characters


def dump(app):
    """The host's dump: the sensors as they read (app: board.app.App)."""
    # Lists made at their full size at once (grown item by item they would leave holes in
    # the heap); per slot, how far its reading is inside the window that keeps its code: a
    # digit per 8 counts (the hysteresis), '-' an ignored sensor.
    s = app.sensor_loop.sensing
    raw = app.raw
    n = len(raw)
    out = [0] * n
    codes = [0] * n
    offsets = [0] * n
    conf = bytearray(n)
    for i in range(n):
        r = out[i] = raw[i]
        codes[i] = s.frame[i]
        offsets[i] = s.offset(i)
        m = s.margin(i, r) >> 3
        conf[i] = 45 if s.disabled[i] else 48 + (m if m < 9 else 9)
    return {"raw": out, "codes": codes, "offsets": offsets, "faulty": s.blind(),
            "confidence": conf.decode(), "learned": s.learned()}


def kept(app, name, offset, free=False):
    """The host's `kept` (app: board.app.App): the journals set aside (unreadable, damaged,
    or no longer replayable), their names and sizes, or a page of one in base64 (a damaged
    file may hold any byte); with free, that file removed (the host has it whole): the
    room board.journal.KEPT_BYTES allows them is theirs again."""
    import binascii

    from bgwire.commands import CommandError

    st = app.hw.storage
    prefix = app.journal.name + ".bad"
    if name is None:
        return {"files": [[n, st.size(n)] for n in sorted(st.names())
                          if n.startswith(prefix)]}
    size = st.size(name) if name.startswith(prefix) and "/" not in name else None
    if size is None:
        raise CommandError("kept: no journal kept as %r" % name[:32])
    if free:
        st.remove(name)
        return {"name": name, "freed": size}
    if offset < 0:
        raise CommandError("kept: offset is 0 or more")
    f = st.open(name, "rb")
    try:
        f.seek(offset)
        data = f.read(KEPT_PAGE)
    finally:
        f.close()
    return {"name": name, "offset": offset, "size": size,
            "data": binascii.b2a_base64(data).decode().strip()}


def ledtest(app):
    """The host's `ledtest`: every LED white at once, and the current that draws."""
    r = app.renderer
    r.clear()
    for i in range(r.map.count):
        r.set(i, (255, 255, 255))
    r.show()
    ma = r.estimate()
    app.board.draw()
    return {"leds": r.map.count, "ma": ma}
