/* The parts every table in the browser is built from (docs/table.md):
 *
 *   el(tag, attrs, children)        a DOM node
 *   say(root, text, kind)           the table's message line (.tk-say)
 *   post(url, body, csrf)           JSON POST -> Promise {ok, status, body}
 *   mover(root, config)             the move composer's last step: sends a
 *                                   move in the engine's notation at the
 *                                   version shown; reloads on success,
 *                                   calls back with the refusal
 *   dropPlace(node, place, opts)    a place pieces are dropped or tapped on
 *   pieceButton(opts)               one tile or card: a button, draggable
 *   seatBox(seats)                  the score box: one line per seat
 *   pile(opts)                      a stock or a discard pile
 *   arrangement(key)                a hand's own order, kept per tab
 *   bell(root, config)              the sound when the turn comes round
 *   clock(root, config)             the turn clock, and the timeout claim at zero
 *   colourName(colour)              a tile colour (black, red, blue, orange)
 *                                   in the reader's language
 *   dragGuard(root, redraw)         redraws held back while a drag is under
 *                                   way (an engine answer arriving mid-drag
 *                                   would cut the drag short)
 *   t(text, values)                 a text in the reader's language (Django's
 *                                   JavaScript catalogue, /jsi18n/), its
 *                                   %(name)s places filled from values
 *
 * A family's table (rummikub.js, contract.js) is drawn from these and its
 * own notation; nothing in a table is typed by the player.
 */
(function () {
  "use strict";

  /* The reader's language: the catalogue the page loads before this file
   * (window.gettext); English as written when it is missing. Each family's
   * file calls it _ so that makemessages finds its texts. */
  function t(text, values) {
    var out = typeof window.gettext === "function" ? window.gettext(text) : text;
    if (!values) return out;
    return out.replace(/%\((\w+)\)s/g, function (m, name) {
      return name in values ? String(values[name]) : m;
    });
  }
  var _ = t;

  function colourName(colour) {
    return {black: _("black"), red: _("red"), blue: _("blue"), orange: _("orange")}[colour] || colour;
  }

  /* paint() redraws now, or once the drag under way ends; done() forgets a
   * drag that ended in a move (the move redraws). */
  function dragGuard(root, redraw) {
    var dragging = false, later = false;
    function settle() {
      dragging = false;
      if (later) { later = false; redraw(); }
    }
    root.addEventListener("dragstart", function () { dragging = true; }, true);
    document.addEventListener("dragend", settle, true);  // the source may have left the page
    document.addEventListener("drop", function () { setTimeout(settle, 0); }, true);
    return {
      paint: function () { if (dragging) later = true; else redraw(); },
      done: function () { dragging = false; later = false; }
    };
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === "text") node.textContent = v;
      else if (k === "cls") node.className = v;
      else node.setAttribute(k, v === true ? "" : v);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function say(root, text, kind) {
    var box = root.querySelector(".tk-say");
    if (!box) return;
    box.textContent = text;
    box.className = "tk-say message " + (kind || "info");
    box.setAttribute("role", kind === "error" ? "alert" : "status");
  }

  function post(url, body, csrf) {
    var headers = {"Content-Type": "application/json"};
    if (csrf) headers["X-CSRFToken"] = csrf;
    return fetch(url, {method: "POST", credentials: "same-origin", headers: headers,
                       body: JSON.stringify(body)})
      .then(function (r) {
        return r.json().catch(function () { return {}; })
          .then(function (b) { return {ok: r.ok, status: r.status, body: b}; });
      });
  }

  /* A sentence carried across a reload of this page (sessionStorage, this
   * tab only): carry(text) before reloading, carried(root) once the
   * table's message line is drawn shows it there as an error. */
  var CARRY = "tablekeeper:said:";

  function carry(text) {
    try { window.sessionStorage.setItem(CARRY + window.location.pathname, text); } catch (e) { /* private mode */ }
  }

  function carried(root) {
    var text = null;
    try {
      text = window.sessionStorage.getItem(CARRY + window.location.pathname);
      window.sessionStorage.removeItem(CARRY + window.location.pathname);
    } catch (e) { /* private mode */ }
    if (text) say(root, text, "error");
  }

  /* The engine's sentences name seats by number ("seat 0 asked to buy"):
   * the page says the players' names. */
  function named(text, names) {
    return String(text).replace(/\bseat (\d+)/g, function (m, n) { return (names && names[Number(n)]) || m; });
  }

  /* The composer's last step. send(move, onRefused) posts the move at the
   * version the page shows; on success the page is redrawn from the
   * server (its clean address); a refusal comes back as the rule's
   * sentence and the table calls onRefused(sentence, code). A refusal
   * because the game moved on meanwhile (409 stale-version) redraws the
   * page from the server too, the table as it is now, with the sentence
   * carried over: the turn being composed belonged to a position that is
   * gone. */
  function mover(root, config) {
    var sending = false;
    return {
      sending: function () { return sending; },
      send: function (move, onRefused) {
        if (sending) return;
        sending = true;
        root.dataset.sending = "1";
        post(config.urls.move, {move: move, expected_version: config.version}, config.csrf)
          .then(function (res) {
            sending = false;
            root.dataset.sending = "0";
            if (res.ok) {
              if (window.tablekeeperReceipts) window.tablekeeperReceipts.keep(res.body.receipt);
              root.dataset.sent = String(res.body.version);
              if (config.onSent) config.onSent(res.body.version);  // the page applies the new frame
              else window.location.replace(window.location.pathname);
              return;
            }
            // "message": the refusal in the page's language, from the rule code (games/refusals.py)
            onRefused(named(res.body.message || res.body.detail || "refused", config.names), res.body.error || "");
            if (res.status === 409 && res.body.error === "stale-version") {
              var box = root.querySelector(".tk-say");
              var said = box ? box.textContent : res.body.detail || "";
              if (config.onStale) { config.onStale(said); return; }  // redrawn in place
              carry(said);
              window.location.replace(window.location.pathname);
            }
          })
          .catch(function () {
            sending = false;
            root.dataset.sending = "0";
            onRefused(_("the move could not be sent; try again"), "network");
          });
      }
    };
  }

  /* A place pieces go: dropped on (drag and drop) or tapped after a piece
   * was selected. opts: {enabled, onDrop(id, event), onTap(event)}. */
  function dropPlace(node, place, opts) {
    node.setAttribute("data-place", place);
    if (!opts.enabled) return node;
    node.addEventListener("dragover", function (e) { e.preventDefault(); node.classList.add("over"); });
    node.addEventListener("dragleave", function () { node.classList.remove("over"); });
    node.addEventListener("drop", function (e) {
      e.preventDefault();
      e.stopPropagation();
      node.classList.remove("over");
      opts.onDrop(e.dataTransfer.getData("text/plain"), e);
    });
    if (opts.onTap) node.addEventListener("click", function (e) { opts.onTap(e); });
    return node;
  }

  /* A tile or a card as a button. opts: {id, code, label, text, cls,
   * selected, enabled, onClick(event), onKey(event)}. Dragging carries the
   * piece's id. */
  function pieceButton(opts) {
    var b = el("button", {type: "button", cls: opts.cls + (opts.selected ? " selected" : ""),
      "data-code": opts.code, "data-id": opts.id, draggable: opts.enabled ? "true" : "false",
      "aria-label": opts.label, "aria-pressed": opts.selected ? "true" : "false", text: opts.text});
    if (!opts.enabled) { b.disabled = true; return b; }
    b.addEventListener("click", function (e) { e.stopPropagation(); opts.onClick(e); });
    b.addEventListener("dragstart", function (e) {
      e.dataTransfer.setData("text/plain", opts.id);
      e.dataTransfer.effectAllowed = "move";
    });
    if (opts.onKey) b.addEventListener("keydown", opts.onKey);
    return b;
  }

  /* The score box. seats: [{name, own, toMove, facts: ["7 cards", ...]}]. */
  function seatBox(seats, lead) {
    var box = el("div", {cls: "tk-seats"}, lead || []);
    seats.forEach(function (s, i) {
      box.appendChild(el("span", {cls: "tk-seat" + (s.toMove ? " to-move" : "") + (s.own ? " own" : ""),
        "data-seat": String(i),
        text: (s.toMove ? "\u25b6 " : "") + (s.own ? _("%(name)s (you)", {name: s.name}) : s.name) +
          (s.facts.length ? ": " + s.facts.join(", ") : "")}));
    });
    return box;
  }

  /* A pile: opts {cls, caption, label, face (a node or null), count, enabled,
   * onTap, onDrop, why (while not enabled: the sentence a tap shows)}. A button, so it is reached by Tab as well. */
  function pile(opts) {
    var node = el("button", {type: "button", cls: "tk-pile " + opts.cls, "aria-label": opts.label},
      [opts.face || el("span", {cls: "tk-back", text: "\u2592"}),
       el("span", {cls: "tk-count", text: (opts.caption ? opts.caption + " \u00b7 " : "") + opts.count})]);
    if (!opts.enabled) node.setAttribute("aria-disabled", "true");
    if (!opts.enabled && opts.why) {  // a pile that cannot be used now says why when tapped
      node.title = opts.why;
      node.setAttribute("aria-description", opts.why);
      node.addEventListener("click", function () {
        var table = node.closest(".tk-table");
        if (table) say(table, opts.why, "warn");
      });
    }
    dropPlace(node, opts.cls, {enabled: opts.enabled, onDrop: opts.onDrop || function () {},
      onTap: opts.onTap || null});
    return node;
  }

  /* A hand's own order (the player's arrangement), kept in this tab across
   * the page's redraws: codes in order. apply(codes) returns the codes of
   * the hand in the kept order, new ones at the end. */
  function arrangement(key) {
    function load() {
      try { return JSON.parse(window.sessionStorage.getItem(key) || "[]"); } catch (e) { return []; }
    }
    return {
      apply: function (codes) {
        var left = codes.slice(), out = [];
        load().forEach(function (c) {
          var i = left.indexOf(c);
          if (i >= 0) { out.push(c); left.splice(i, 1); }
        });
        return out.concat(left);
      },
      save: function (codes) {
        try { window.sessionStorage.setItem(key, JSON.stringify(codes)); } catch (e) { /* private mode */ }
      }
    };
  }

  /* The bell: a short tone (and a notification while the tab is hidden)
   * when the page finds it is this seat's turn and it was not on the
   * page's previous drawing. Switchable; the choice is kept per browser.
   * root.dataset.bell counts the rings (what a test reads). */
  var audio = null;
  function tone(freq, secs, volume) {  // one short tone; the page keeps one audio context
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.value = volume;
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + secs);
    } catch (e) { /* no sound */ }
  }

  function bellOn() { return window.localStorage.getItem("tk-bell") !== "off"; }

  function bell(root, config, myTurn) {
    var key = "tk-turn-" + config.game + "-" + config.seat;
    var on = bellOn();
    var before = window.sessionStorage.getItem(key);
    window.sessionStorage.setItem(key, myTurn ? "mine" : "theirs");
    var box = el("label", {cls: "tk-bell"}, [el("input", {type: "checkbox", cls: "tk-bell-on"}),
                                             document.createTextNode(" " + _("Bell on my turn"))]);
    box.querySelector("input").checked = on;
    box.querySelector("input").addEventListener("change", function (e) {
      on = e.target.checked;
      window.localStorage.setItem("tk-bell", on ? "on" : "off");
      if (on && window.Notification && Notification.permission === "default") Notification.requestPermission();
    });
    root.dataset.bell = "0";
    if (myTurn && before === "theirs" && on) {
      root.dataset.bell = "1";
      tone(880, 0.18, 0.15);  // no sound (no audio device): the title still says it
      if (document.hidden && window.Notification && Notification.permission === "granted") {
        new Notification(_("Your turn"), {body: document.title});
      }
    }
    if (myTurn) document.title = "\u25cf " + _("Your turn") + " \u00b7 " + document.title;
    return box;
  }

  /* The turn clock (rules with a turn time limit, digital games): the
   * seconds left for the seat on turn, shown on every seat's page. At zero
   * the page claims the timeout (POST .../timeout/ at the version shown):
   * the seat on turn's page at once, the others a moment later; the first
   * claim is recorded, the others find the game moved on. The server
   * decides from its own clock; a claim that comes early is refused and
   * tried again. root.dataset.clock holds the whole seconds left. */
  function clock(root, config) {
    var c = config.clock;
    if (!c) return null;
    var mine = c.seat === config.seat;
    var node = el("span", {cls: "tk-clock" + (mine ? " mine" : ""), role: "timer", "aria-live": "off"});
    var deadline = Date.now() + c.left * 1000, claimed = false, timer = null;
    function claim() {
      post(config.urls.timeout, {expected_version: config.version}, config.csrf).then(function (res) {
        if (res.ok) {
          if (config.onSent) config.onSent(res.body.version); else window.location.replace(window.location.pathname);
          return;
        }
        if (res.body.error === "clock-running") { claimed = false; deadline = Date.now() + 1000; }
      }).catch(function () { claimed = false; deadline = Date.now() + 2000; });
    }
    function tick() {
      if (!node.isConnected && node.dataset.shown) { clearInterval(timer); return; }  // a redrawn table has its own
      if (node.isConnected) node.dataset.shown = "1";
      var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      root.dataset.clock = String(left);
      node.textContent = _("%(name)s: %(left)s s", {name: config.names[c.seat] || _("seat %(n)s", {n: c.seat}), left: left});
      node.classList.toggle("low", left <= 10);
      if (left === 0 && !claimed) {
        claimed = true;
        setTimeout(claim, mine ? 0 : 400 + Math.random() * 800);
      }
    }
    tick();
    timer = setInterval(tick, 250);
    return node;
  }


  /* --- the page's table, kept in place --------------------------------------
   * host(root, config, hooks) draws the family's table (config.global) and
   * redraws it in place from each newer frame of the live socket (the
   * seat's own view): the document is never reloaded. What the last move
   * changed on the table is marked (.tk-new on each piece newly on the
   * table, .tk-changed on each meld that is new or changed) until the next
   * frame. A turn being composed is never disturbed: a frame that arrives
   * meanwhile is held, and the table says that the game moved on and offers
   * "Reset to the new position" (the composed turn was for a position that
   * is gone: its version would be refused). hooks: {onFrame(frame)} for the
   * page's other parts (the move list, the turn line).
   * Returns {apply(frame) -> true, busy(), stale(frame), timings}.
   * window.tkFrameTimes collects, per frame drawn, the milliseconds from
   * its arrival to the table drawn (a test reads them). */
  function codes(node) {
    return Array.prototype.map.call(node.querySelectorAll("[data-code]"), function (b) { return b.getAttribute("data-code"); });
  }

  var GROUPS = ".tk-melds [data-meld], .tk-pile";  // a meld, or a pile (its face)

  function groupKey(node, pieces) {
    return (node.classList.contains("tk-pile") ? node.getAttribute("data-place") + ":" : "") + pieces.slice().sort().join(" ");
  }

  function tableShape(root) {
    var pieces = {}, melds = {}, piles = {};
    Array.prototype.forEach.call(root.querySelectorAll(GROUPS), function (m) {
      var c = codes(m);
      melds[groupKey(m, c)] = true;
      c.forEach(function (code) { pieces[code] = (pieces[code] || 0) + 1; });
      if (m.classList.contains("tk-pile")) piles[m.getAttribute("data-place")] = c;
    });
    return {pieces: pieces, melds: melds, piles: piles};
  }

  /* Where a piece another seat just put down came from: a pile that held
   * it and holds one fewer now (the discard taken), else the mover's rack
   * (its place in the score box). [kind, node] or null. */
  function originOf(root, before, code, mover) {
    var now = tableShape(root).piles, place;
    for (place in before.piles) {
      var had = before.piles[place].filter(function (c) { return c === code; }).length;
      var has = (now[place] || []).filter(function (c) { return c === code; }).length;
      var node = root.querySelector('.tk-pile[data-place="' + place + '"]');
      if (had > has && node) return ["pile:" + place, node];
    }
    var box = mover === null || mover === undefined ? null : root.querySelector('.tk-seat[data-seat="' + mover + '"]');
    return box ? ["seat:" + mover, box] : null;
  }

  var still = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : {matches: false};

  /* A piece slides from its origin to where it landed (none where the
   * reader asked for reduced motion); data-from says where from. */
  function slide(piece, origin) {
    piece.setAttribute("data-from", origin[0]);
    if (still.matches || !piece.animate) return;
    var to = piece.getBoundingClientRect(), from = origin[1].getBoundingClientRect();
    var dx = (from.left + from.width / 2) - (to.left + to.width / 2), dy = (from.top + from.height / 2) - (to.top + to.height / 2);
    piece.animate([{transform: "translate(" + dx + "px, " + dy + "px) scale(.8)", opacity: 0.5},
                   {transform: "none", opacity: 1}], {duration: 480, easing: "cubic-bezier(.2,.7,.3,1)"});
  }

  /* The first drawing after a move: what is new against ``before`` is
   * marked (and slides in); the marks are remembered by piece id and meld
   * key, so that the table's own redraws (the player moving tiles) keep
   * them on the same pieces and never mark the player's own. */
  function markFresh(root, before, mover) {
    var left = Object.assign({}, before.pieces), marks = {pieces: {}, melds: {}}, landed = [];
    Array.prototype.forEach.call(root.querySelectorAll(GROUPS), function (m) {
      var c = codes(m);
      if (!before.melds[groupKey(m, c)]) { m.classList.add("tk-changed"); marks.melds[groupKey(m, c)] = true; }
      Array.prototype.forEach.call(m.querySelectorAll("[data-code]"), function (b) {
        var code = b.getAttribute("data-code");
        if (left[code] > 0) { left[code] -= 1; return; }
        b.classList.add("tk-new");
        marks.pieces[b.getAttribute("data-id") || code] = true;
        landed.push(b);
      });
    });
    landed.forEach(function (b) {
      var origin = originOf(root, before, b.getAttribute("data-code"), mover);
      if (origin) slide(b, origin);
    });
    return marks;
  }

  function keepMarks(root, marks) {
    Array.prototype.forEach.call(root.querySelectorAll(GROUPS), function (m) {
      if (marks.melds[groupKey(m, codes(m))]) m.classList.add("tk-changed");
      Array.prototype.forEach.call(m.querySelectorAll("[data-code]"), function (b) {
        if (marks.pieces[b.getAttribute("data-id") || b.getAttribute("data-code")]) b.classList.add("tk-new");
      });
    });
  }

  function host(root, config, hooks) {
    hooks = hooks || {};
    var ctor = window[config.global], table = null, current = config, awaiting = null, heldFrame = null;
    var fresh = null, mover = null, observer = null, marking = false;
    window.tkFrameTimes = window.tkFrameTimes || [];

    var marks = null;
    function remark() {  // the table redraws itself as the player moves: the marks stay
      if (!marks) return;
      marking = true;
      keepMarks(root, marks);
      marking = false;
    }

    function build(cfg) {
      if (observer) observer.disconnect();
      root.textContent = "";
      cfg.onSent = function (version) { awaiting = version; root.dataset.awaiting = String(version); setTimeout(function () { if (awaiting !== null) refresh(null); }, 2500); };
      cfg.onStale = function (said) { refresh(said); };
      current = cfg;
      table = ctor(root, cfg);
      dock();
      root.dataset.version = String(cfg.version);
      marks = fresh ? markFresh(root, fresh, mover) : null;
      if (marks) {
        observer = new MutationObserver(function () { if (!marking) { marking = true; Promise.resolve().then(function () { marking = false; remark(); }); } });
        observer.observe(root, {childList: true, subtree: true});
      }
    }

    /* The message line, the buttons and the rack (or hand) go last, in one
     * dock: on a phone it is fixed at the bottom of the screen, within the
     * thumb's reach, the rack in two rows; the table scrolls above it. */
    function dock() {
      var box = el("div", {cls: "tk-dock"});
      [".tk-say", ".tk-bar", ".tk-rack", ".tk-hand", ".tk-okey-rack"].forEach(function (sel) {
        var part = root.querySelector(sel);
        if (part) box.appendChild(part);
      });
      root.appendChild(box);
      var pieces = box.querySelectorAll(".tk-rack [data-code], .tk-hand [data-code]").length;
      box.style.setProperty("--tk-cols", String(Math.max(7, Math.min(11, Math.ceil(pieces / 2)))));
      document.body.classList.add("tk-playing");
      window.requestAnimationFrame(function () {
        document.body.style.setProperty("--tk-dock", (box.offsetHeight + 12) + "px");
      });
    }

    function configFor(frame) {
      var cfg = Object.assign({}, config, {view: frame.view, version: frame.version, clock: frame.clock || null,
                                            names: frame.names || current.names,
                                            my_turn: frame.view.to_move === config.seat && !frame.view.is_over});
      return cfg;
    }

    function apply(frame) {
      if (!frame || !frame.view || frame.version <= current.version) return true;
      var arrived = frame.arrived || performance.now();
      var last = frame.recent && frame.recent.length ? frame.recent[frame.recent.length - 1] : null;
      // the marks: what is on the table now that was not (another seat's move)
      fresh = last && last.seat !== config.seat ? tableShape(root) : null;
      mover = last ? last.seat : null;
      awaiting = null;
      heldFrame = null;
      delete root.dataset.awaiting;
      delete root.dataset.stale;
      build(configFor(frame));
      if (frame.view.is_over) say(root, _("The game is over."), "info");  // Play again is below the table
      // a short, soft sound when another seat moved, where the sound is on
      // (not when the bell for this seat's turn just rang)
      if (fresh && bellOn() && root.dataset.bell !== "1") {
        root.dataset.moveSounds = String((Number(root.dataset.moveSounds) || 0) + 1);
        tone(520, 0.07, 0.06);
      }
      if (hooks.onFrame) hooks.onFrame(frame);
      window.requestAnimationFrame(function () {
        var took = performance.now() - arrived;
        window.tkFrameTimes.push(Math.round(took * 10) / 10);
        root.dataset.frames = String((Number(root.dataset.frames) || 0) + 1);
      });
      return true;
    }

    /* the page's position, read again (after a refusal for a stale
     * version, or a sent move whose frame did not come) */
    function refresh(said) {
      fetch(config.urls.view, {credentials: "same-origin", cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (data) { data.type = "view"; apply(data); }
          if (said) say(root, said, "error");
        })
        .catch(function () {});
    }

    /* a newer frame while the player composes a turn: word of it, and Reset */
    function stale(frame) {
      if (!frame || frame.version <= current.version) return;
      heldFrame = frame;
      root.dataset.stale = String(frame.version);
      var note = root.querySelector(".tk-moved-on");
      if (!note) {
        note = el("p", {cls: "tk-moved-on message warn", role: "alert"}, [
          el("span", {cls: "tk-moved-text"}), document.createTextNode(" "),
          el("button", {type: "button", cls: "tk-reset-new", text: _("Reset to the new position")})]);
        note.querySelector("button").addEventListener("click", function () {
          var f = heldFrame;
          heldFrame = null;
          if (f) apply(f); else refresh(null);
        });
        var place = root.querySelector(".tk-dock") || root;  // beside the buttons, in view on a phone
        place.insertBefore(note, place.firstChild);
      }
      var last = frame.recent && frame.recent.length ? frame.recent[frame.recent.length - 1] : null;
      note.querySelector(".tk-moved-text").textContent = last && last.seat === config.seat
        ? _("Your seat moved in another tab or window: this turn as composed belongs to a position that is gone.")
        : _("The game moved on while you were composing: this turn as composed can no longer be sent.");
    }

    build(Object.assign({}, config));
    return {
      apply: apply, stale: stale,
      busy: function () { return awaiting === null && !!table && !!table.busy && table.busy(); },
      version: function () { return current.version; }
    };
  }

  window.tablekeeperParts = {host: host, t: t, colourName: colourName, dragGuard: dragGuard, clock: clock, el: el, say: say, carried: carried, post: post, mover: mover, dropPlace: dropPlace,
                             pieceButton: pieceButton, seatBox: seatBox, pile: pile,
                             arrangement: arrangement, bell: bell};
})();
