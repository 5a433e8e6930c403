/* Live pages: follow a game over its WebSocket and show the new state the
 * moment it moves on; poll the API when the socket is down, and reconnect
 * with backoff. The server sends each socket its own view (docs/live.md).
 *
 * tablekeeperLive({socket, poll, version, busy, onFrame})
 *   socket  path of the game's socket (/ws/games/<id>/seat/ or /watch/)
 *   poll    API path answering {"version": ...} for the fallback
 *   version the version the page shows
 *   busy    () -> true while the person is typing (no refresh then; the
 *           page catches up within a second once it is false again)
 *   onFrame (frame) -> true when the page drew the frame itself; otherwise
 *           the page is reloaded to its clean address
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
  window.tablekeeperLive = function (opts) {
    // seen: the version the page shows; heard: the newest one the server
    // told of (newer than seen while the person is busy)
    var seen = opts.version, heard = opts.version, socket = null, pollTimer = null;
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
      if (version === seen) return;
      if (opts.busy && opts.busy()) return;
      seen = version;
      if (opts.onFrame && frame && opts.onFrame(frame)) return;
      window.location.replace(window.location.pathname + window.location.search.replace(/[?&]moved=\d+/, ""));
    }

    function poll() {
      fetch(opts.poll, {credentials: "same-origin", cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) { if (data) newer(data.version, null); })
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
        var frame = JSON.parse(event.data);
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
      if (heard !== seen && !(opts.busy && opts.busy())) newer(heard, null);
    }, 1000);

    window.tablekeeperLiveState = function () {
      return {seen: seen, heard: heard, socket: socket && socket.readyState, ceiling: ceiling};
    };
    connect();
  };
})();
