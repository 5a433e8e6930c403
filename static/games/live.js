/* Live pages: follow a game over its WebSocket and show the new state the
 * moment it moves on; poll the API when the socket is down, and reconnect
 * with backoff. The server sends each socket its own view (docs/live.md).
 *
 * tablekeeperLive({socket, poll, version, busy, onFrame})
 *   socket  path of the game's socket (/ws/games/<id>/seat/ or /watch/)
 *   poll    API path answering {"version": ...} for the fallback
 *   version the version the page shows
 *   busy    () -> true while the person is composing (no redraw then; the
 *           page catches up within a second once it is false again)
 *   onFrame (frame) -> true when the page drew the frame itself (in place);
 *           otherwise the page is reloaded to its clean address. A frame
 *           read by polling is the API's view (no "recent").
 *   onStale (frame) a newer frame arrived while busy: the page says so
 *           (the composed turn belongs to a position that is gone)
 * Each frame gets frame.arrived, the performance.now() of its arrival.
 *
 * tablekeeperReceipts.keep(receipt) keeps the newest signed head receipt of
 * each game ({game, version, hash, hmac}: every frame, move answer and seat
 * page carries one) in localStorage under "tablekeeper.receipt.<game>";
 * tablekeeperReceipts.get(game) reads it back. Anyone holding it can later
 * ask POST /api/games/<game>/verify-receipt/ whether the club's stream
 * still has that event (docs/security.md).
 */
(function () {
  "use strict";
  window.tablekeeperReceipts = {
    keep: function (receipt) {
      if (!receipt || typeof receipt.game !== "number" || typeof receipt.version !== "number") return;
      try {
        var key = "tablekeeper.receipt." + receipt.game;
        var held = JSON.parse(window.localStorage.getItem(key) || "null");
        if (!held || !(held.version > receipt.version)) window.localStorage.setItem(key, JSON.stringify(receipt));
      } catch (e) { /* storage off or full: the receipt is only not kept */ }
    },
    get: function (game) {
      try { return JSON.parse(window.localStorage.getItem("tablekeeper.receipt." + game) || "null"); } catch (e) { return null; }
    }
  };
  // the reader's language (the page's /jsi18n/ catalogue), else English
  function _(text) { return typeof window.gettext === "function" ? window.gettext(text) : text; }

  /* The move list in words: recent moves ({version, seat, move, said}) as
   * list items, each "Ben laid [R8][B8][O8]". said is the family's
   * description of the move (engine/<family>/family.py describe_move):
   * {key, pieces, melds, n}; the sentence for each key is the same
   * everywhere (games/words.py says them for the server's pages). */
  var SAID = {
    drew: gettext_noop("%(name)s drew"),
    drew_n: gettext_noop("%(name)s drew %(n)s"),
    passed: gettext_noop("%(name)s passed"),
    timeout: gettext_noop("%(name)s ran out of time and drew"),
    laid: gettext_noop("%(name)s laid %(pieces)s"),
    moved: gettext_noop("%(name)s moved tiles on the table"),
    took: gettext_noop("%(name)s took %(pieces)s"),
    took_pile: gettext_noop("%(name)s took the discard"),
    discarded: gettext_noop("%(name)s discarded %(pieces)s"),
    went_down: gettext_noop("%(name)s went down: %(melds)s"),
    laid_off: gettext_noop("%(name)s laid off %(pieces)s"),
    swapped: gettext_noop("%(name)s swapped %(pieces)s for a wild card"),
    buy: gettext_noop("%(name)s asked to buy the discard"),
    allowed: gettext_noop("%(name)s let the buyer have it"),
    refused: gettext_noop("%(name)s took the discard instead"),
    undid: gettext_noop("%(name)s took the discard back"),
    finished: gettext_noop("%(name)s finished with %(pieces)s"),
    showed: gettext_noop("%(name)s showed the indicator's twin"),
    announced: gettext_noop("%(name)s announced three or fewer"),
    closed: gettext_noop("%(name)s went out with a closed hand, discarding %(pieces)s"),
    trump: gettext_noop("%(name)s took the trump and went out"),
    penalty: gettext_noop("%(name)s took a penalty"),
    other: gettext_noop("%(name)s: %(text)s")
  };
  function gettext_noop(text) { return text; }

  function chips(list) {
    var box = document.createElement("span");
    box.className = "pieces";
    (list || []).forEach(function (c) {
      var chip = document.createElement("span");
      chip.className = "chip small " + c.css;
      chip.title = c.code;
      chip.textContent = c.label;
      box.appendChild(chip);
    });
    return box;
  }

  function sentence(said, name, raw) {
    said = said || {key: "other"};
    var text = _(SAID[said.key] || SAID.other), out = document.createDocumentFragment();
    var parts = text.split(/(%\(\w+\)s)/);
    parts.forEach(function (part) {
      var m = /^%\((\w+)\)s$/.exec(part);
      if (!m) { if (part) out.appendChild(document.createTextNode(part)); return; }
      var key = m[1];
      if (key === "name") { var b = document.createElement("span"); b.className = "who"; b.textContent = name; out.appendChild(b); }
      else if (key === "pieces") out.appendChild(chips(said.pieces));
      else if (key === "melds") {
        (said.melds || []).forEach(function (meld, i) {
          if (i) out.appendChild(document.createTextNode(" / "));
          out.appendChild(chips(meld));
        });
      } else if (key === "n") out.appendChild(document.createTextNode(String(said.n)));
      else out.appendChild(document.createTextNode(said.text || raw || ""));
    });
    return out;
  }

  window.tablekeeperMoves = {
    sentence: sentence,
    fill: function (list, recent, names) {
      if (!list) return;
      list.textContent = "";
      recent.forEach(function (m) {
        var li = document.createElement("li");
        li.setAttribute("data-version", String(m.version));
        var name = m.seat === null || m.seat === undefined ? "" : (names[m.seat] || "");
        li.appendChild(sentence(m.said, name, m.move));
        list.appendChild(li);
      });
    }
  };


  /* A page drawn by the server, kept in place: swap(url, selectors, frame)
   * reads the page again and puts each selected part in place (the document
   * is not reloaded; the parts' own scripts are not run again), then marks
   * what is new on the table (.tk-new chips, .tk-changed melds). */
  function chipShape(root) {
    var pieces = {}, melds = {};
    Array.prototype.forEach.call(root.querySelectorAll(".board .melds .meld"), function (m) {
      var codes = Array.prototype.map.call(m.querySelectorAll(".chip[title]"), function (c) { return c.title; });
      melds[codes.slice().sort().join(" ")] = true;
      codes.forEach(function (c) { pieces[c] = (pieces[c] || 0) + 1; });
    });
    return {pieces: pieces, melds: melds};
  }
  function markNew(root, before) {
    var left = Object.assign({}, before.pieces);
    Array.prototype.forEach.call(root.querySelectorAll(".board .melds .meld"), function (m) {
      var chipsOf = m.querySelectorAll(".chip[title]");
      var codes = Array.prototype.map.call(chipsOf, function (c) { return c.title; });
      if (!before.melds[codes.slice().sort().join(" ")]) m.classList.add("tk-changed");
      Array.prototype.forEach.call(chipsOf, function (c) {
        if (left[c.title] > 0) left[c.title] -= 1; else c.classList.add("tk-new", "tk-land");
      });
    });
  }

  /* A game in miniature (a tournament round's live page): into(url, slot,
   * frame) reads the game's public page and puts its board into ``slot``,
   * marking what is new there; slot.dataset.version follows the frame. */
  function into(url, slot, frame) {
    var before = chipShape(slot);
    return fetch(url, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var board = new DOMParser().parseFromString(html, "text/html").querySelector("#board-box");
        if (!board) return;
        slot.textContent = "";
        Array.prototype.forEach.call(board.childNodes, function (n) { slot.appendChild(document.importNode(n, true)); });
        if (frame) { markNew(slot, before); slot.dataset.version = String(frame.version); }
      })
      .catch(function () {});
  }

  function swap(url, selectors, frame) {
    var arrived = frame && frame.arrived || performance.now();
    var before = chipShape(document);
    fetch(url, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { window.location.replace(url); return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        selectors.forEach(function (sel) {
          var old = document.querySelector(sel), now = fresh.querySelector(sel);
          if (old && now) old.replaceWith(document.importNode(now, true));
        });
        markNew(document, before);
        window.tkFrameTimes = window.tkFrameTimes || [];
        window.requestAnimationFrame(function () { window.tkFrameTimes.push(Math.round((performance.now() - arrived) * 10) / 10); });
      })
      .catch(function () {});
    return true;
  }

  window.tablekeeperLive = function (opts) {
    // seen: the version the page shows; heard: the newest one the server
    // told of (newer than seen while the person is busy)
    var seen = opts.version, heard = opts.version, socket = null, pollTimer = null, latest = null;
    // reconnection: exponential backoff with full jitter (a random wait up
    // to 0.5 s doubling to 30 s), so a thousand pages do not come back in
    // step after an outage. It starts over only once a socket has proved
    // itself: it stayed open and sent its first frame. A socket accepted
    // and dropped at once does not count.
    var BASE = 500, CAP = 30000, ceiling = BASE, retryTimer = null;
    var status = document.getElementById("live");

    function show(state, text) {
      if (!status) return;
      status.dataset.state = state;
      status.textContent = text;
    }

    function newer(version, frame) {
      if (version > heard) heard = version;
      if (frame && frame.view && (!latest || frame.version >= latest.version)) latest = frame;
      if (version <= seen) return;
      if (opts.busy && opts.busy()) {
        if (opts.onStale && frame) opts.onStale(frame);
        return;
      }
      seen = version;
      if (opts.onFrame && frame && opts.onFrame(frame)) return;
      window.location.replace(window.location.pathname + window.location.search.replace(/[?&]moved=\d+/, ""));
    }

    function poll() {
      fetch(opts.poll, {credentials: "same-origin", cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (!data) return;
          if (data.view) { data.type = "view"; data.arrived = performance.now(); newer(data.version, data); }
          else newer(data.version, null);
        })
        .catch(function () {});
    }

    function startPolling() {
      if (!pollTimer) pollTimer = setInterval(poll, 2000);
    }

    function stopPolling() {
      if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
    }

    function connect() {
      var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      try {
        socket = new WebSocket(scheme + window.location.host + opts.socket);
      } catch (e) {
        startPolling();
        reconnectLater();
        return;
      }
      var framed = false;
      socket.onmessage = function (event) {
        var arrived = performance.now();
        var frame = JSON.parse(event.data);
        frame.arrived = arrived;
        if (!framed) { framed = true; ceiling = BASE; stopPolling(); show("open", _("Live")); }
        if (frame.receipt) window.tablekeeperReceipts.keep(frame.receipt);
        if (frame.type === "view") newer(frame.version, frame);
      };
      socket.onclose = function (event) {
        if (event.code === 4403 || event.code === 4404) { show("closed", _("Live updates refused: %(code)s").replace("%(code)s", event.code)); return; }
        show("polling", _("Reconnecting… (checking every 2 s)"));
        startPolling();
        reconnectLater();
      };
    }

    function reconnectLater() {
      if (retryTimer) return;
      var delay = Math.round(Math.random() * ceiling);
      ceiling = Math.min(ceiling * 2, CAP);
      retryTimer = setTimeout(function () { retryTimer = null; connect(); }, delay);
    }

    // a move heard of while the person was busy: the page catches up as
    // soon as they are not (a turn put back, a move sent elsewhere)
    setInterval(function () {
      if (heard > seen && !(opts.busy && opts.busy())) newer(heard, latest && latest.version === heard ? latest : null);
    }, 1000);

    window.tablekeeperLiveState = function () {
      return {seen: seen, heard: heard, socket: socket && socket.readyState, ceiling: ceiling};
    };
    connect();
  };
  window.tablekeeperLive.swap = swap;
  window.tablekeeperLive.into = into;
})();
