// The bgboard browser view: the board as the server draws it (SVG), live over a WebSocket
// that reconnects by itself; on the virtual board, clicks become the simulated hands' sim
// lines (docs/protocol.md), so the firmware sees checkers lifted and placed, not moves.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const MONEY_OPTIONS = ["jacoby", "beavers", "raccoons"]; // the rule options of a money session
  let ws = null;
  let snap = null;
  let lastSvg = null;
  let retry = 250;

  function setLive(state, text) {
    const el = $("live");
    el.dataset.state = state;
    el.textContent = text;
  }

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(msg));
      return true;
    }
    notice("not connected to the view server");
    return false;
  }

  function notice(text) {
    const p = document.createElement("p");
    p.className = "notice";
    p.textContent = text;
    const notes = $("notes");
    notes.prepend(p);
    while (notes.children.length > 5) notes.lastChild.remove();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + "/ws");
    setLive("connecting", "page connecting…");
    ws.onopen = () => {
      retry = 250;
      setLive("live", "live");
      if ($("raw").checked) send({ type: "raw", on: true });
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "view") show(msg);
      else if (msg.type === "notice") notice(msg.text);
    };
    ws.onclose = () => {
      setLive("closed", "view server lost: reconnecting…");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 4000);
    };
  }

  function show(m) {
    snap = m;
    if (m.svg !== lastSvg) {
      $("board").innerHTML = m.svg;
      lastSvg = m.svg;
    }
    document.body.dataset.rev = m.rev;
    const conn = $("conn");
    conn.dataset.state = m.conn.state;
    conn.textContent = m.conn.text + (m.board.firmware ? " · firmware " + m.board.firmware : "") +
      (m.board.virtual ? " · virtual board" : "");
    const virtual = !!m.board.virtual;
    document.body.classList.toggle("virtual", virtual);
    $("controls").hidden = !virtual;
    const holding = m.hand && (m.hand[0] + m.hand[1] > 0);
    document.body.classList.toggle("holding", !!holding);
    $("hint").textContent = holding
      ? "In hand: " + handWords(m.hand) + ". Click where to put it."
      : "Click a checker to lift it, then a point to put it down.";
    for (const b of document.querySelectorAll("button[data-button]")) {
      b.classList.toggle("allowed", m.allowed.includes(b.dataset.button));
    }
    for (const b of document.querySelectorAll("button[data-allowed]")) {
      b.classList.toggle("allowed", m.allowed.includes(b.dataset.allowed));
    }
    showMoves(m.games, m.pending);
    showCoach(m.coach);
    const notes = $("notes");
    notes.replaceChildren();
    for (const n of m.notes.slice(-6).reverse()) {
      const p = document.createElement("p");
      p.textContent = n.text;
      notes.append(p);
    }
  }

  function row(table, cells, cls) {
    const tr = table.insertRow();
    if (cls) tr.className = cls;
    for (const c of cells) tr.insertCell().textContent = c;
  }

  const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);

  function showCoach(c) {
    $("coach").hidden = !c;
    if (!c) return;
    const plays = $("hint-plays");
    plays.replaceChildren();
    if (c.hint) {
      const cap = plays.createCaption();
      cap.textContent = "Hint for " + c.hint.dice.join("-") + " (" + c.hint.level + ")";
      if (!c.hint.plays.length) row(plays, ["no play"]);
      c.hint.plays.forEach((p, i) =>
        row(plays, [(i + 1) + ".", p.play, signed(p.equity),
                    i ? "(" + p.diff.toFixed(3) + ")" : "", p.plies + "-ply"], i ? "" : "best"));
    }
    const t = c.tally;
    $("tally").textContent = t.plays ? "Your plays rated: " + t.plays + "; " + t.doubtful +
      " doubtful, " + t.bad + " bad, " + t["very bad"] + " very bad; " +
      t.lost.toFixed(3) + " equity lost" : "";
    showAnalysis(c.analysis);
    const rated = $("ratings");
    rated.replaceChildren();
    for (const r of c.ratings.slice().reverse()) {
      row(rated, [r.dice.join("-"), r.play, r.mark || "ok",
                  r.mark ? "-" + r.lost.toFixed(3) + " (gnubg: " + r.best + ")" : ""],
          r.mark ? "mark " + r.mark.replace(" ", "-") : "");
    }
  }

  // gnubg's analysis of the last match played here: a link once it is written.
  function showAnalysis(a) {
    const box = $("analysis");
    box.replaceChildren();
    box.dataset.state = a ? a.state : "";
    if (!a) return;
    if (a.state === "ready") {
      const link = document.createElement("a");
      link.href = "/analysis/" + encodeURIComponent(a.html);
      link.target = "_blank";
      link.rel = "noopener";
      link.textContent = "Analysis of the match";
      box.append(link, ": " + a.text);
    } else {
      box.textContent = a.text;
    }
  }

  function handWords(hand) {
    const out = [];
    if (hand[0]) out.push(hand[0] + " white");
    if (hand[1]) out.push(hand[1] + " black");
    return out.join(", ");
  }

  function showMoves(games, pending) {
    const box = $("moves");
    if (!games.length) {
      box.innerHTML = '<p class="empty">No match yet.</p>';
    } else {
      box.replaceChildren();
      for (const g of games) {
        const t = document.createElement("table");
        t.className = "game";
        t.dataset.game = g.number;
        const cap = t.createCaption();
        cap.textContent = "Game " + g.number + ": " + g.names[0] + " " + g.score[0] +
          ", " + g.names[1] + " " + g.score[1];
        for (const [n, left, right] of g.rows) {
          const tr = t.insertRow();
          tr.className = "row";
          const a = tr.insertCell(); a.className = "n"; a.textContent = n === null ? "" : n + ")";
          const b = tr.insertCell(); b.className = "left"; b.textContent = left || "";
          const c = tr.insertCell(); c.className = "right"; c.textContent = right || "";
        }
        box.append(t);
      }
      box.scrollTop = box.scrollHeight;
    }
    $("pending").textContent = pending ? "playing: " + pending : "";
  }

  // A side's own numbering of the board's point p (White's numbering).
  const own = (side, p) => (side === 0 ? p : 25 - p);

  function click(ev) {
    const el = ev.target.closest("[data-place]");
    if (!el || !snap || !snap.board.virtual) return;
    if (!snap.table) return notice("the virtual board has not shown its table yet");
    const place = el.dataset.place;
    const table = snap.table;
    const hand = snap.hand;
    const onRoll = snap.on_roll === null || snap.on_roll === undefined ? 0 : snap.on_roll;
    if (hand[0] + hand[1] > 0) {
      const side = hand[0] && hand[1] ? onRoll : (hand[0] ? 0 : 1);
      const at = place === "point" ? own(side, +el.dataset.point) : (place === "bar" ? 25 : 0);
      send({ type: "sim", line: { sim: "place", side: side, at: at } });
      return;
    }
    let side, at;
    if (place === "point") {
      const p = +el.dataset.point;
      const w = table[0][p], b = table[1][25 - p];
      if (!w && !b) return notice("no checker on point " + p);
      side = w && b ? 1 - onRoll : (w ? 0 : 1); // both there: the hit checker
      at = own(side, p);
    } else {
      side = +el.dataset.side;
      at = place === "bar" ? 25 : 0;
      if (!table[side][at]) return notice("no checker there");
    }
    send({ type: "sim", line: { sim: "lift", side: side, at: at } });
  }

  $("board").addEventListener("click", click);
  for (const b of document.querySelectorAll("button[data-button]")) {
    b.addEventListener("click", () =>
      send({ type: "sim", line: { sim: "press", button: b.dataset.button } }));
  }
  $("new-match").addEventListener("click", () =>
    send({ type: "new", kind: "match", length: parseInt($("length").value, 10) }));
  $("new-money").addEventListener("click", () => {
    const options = {};
    for (const name of MONEY_OPTIONS) options[name] = $("opt-" + name).checked;
    send({ type: "new", kind: "money", options: options });
  });
  $("arrange").addEventListener("click", () => send({ type: "arrange" }));
  $("resign").addEventListener("click", () =>
    send({ type: "resign", level: parseInt($("resign-level").value, 10) }));
  $("accept").addEventListener("click", () => send({ type: "answer", accept: true }));
  $("reject").addEventListener("click", () => send({ type: "answer", accept: false }));
  $("demand").addEventListener("click", () =>
    send({ type: "demand", level: parseInt($("resign-level").value, 10) }));
  $("hint-button").addEventListener("click", () => send({ type: "hint" }));
  $("enter-dice").addEventListener("click", () => {
    const digits = $("dice").value.replace(/[\s,\-\/]/g, "");
    if (!/^[1-6]{2}$/.test(digits)) return notice("dice: two dice of 1 to 6, as 5 2");
    send({ type: "dice", dice: [+digits[0], +digits[1]] });
    $("dice").value = "";
  });
  $("raw").addEventListener("change", () => {
    document.body.classList.toggle("raw", $("raw").checked);
    send({ type: "raw", on: $("raw").checked });
  });
  connect();
})();
