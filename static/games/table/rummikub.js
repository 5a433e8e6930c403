/* The Rummikub table: a turn built by pointing and clicking.
 *
 * The seat's rack and the table are drawn as tiles. A tile moves by drag
 * and drop (mouse), or by tap/click to select it and tap/click where it
 * goes (touch and keyboard: tiles and drop places are buttons; Tab, then
 * Enter or Space). Places: a meld on the table, "New meld", the rack.
 * Tiles that were on the table at the start of the turn cannot go to the
 * rack (the rules keep them on the table).
 *
 * After each change the layout is sent to POST /api/games/<id>/compose/
 * (the engine checks each meld and writes the play in its notation);
 * invalid melds are marked, the value laid is shown, and "End turn" sends
 * the engine's move to POST /api/games/<id>/moves/. "Draw" (or "Pass" with
 * the pool empty) when nothing was laid; "Reset turn" puts every tile back.
 * A refusal shows the rule's sentence and the board returns to the start
 * of the turn. Nothing here is typed in the notation.
 */
(function () {
  "use strict";
  var COLOURS = {K: "black", R: "red", B: "blue", O: "orange"};

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "cls") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }

  function physical(code) { return code.charAt(0) === "J" ? "J" : code; }

  function parseMeld(text) {
    return text.replace(/^\[|\]$/g, "").trim().split(/\s+/).map(physical);
  }

  window.tablekeeperRummikub = function (root, config) {
    var view = config.view, myTurn = config.my_turn;
    var nextId = 0, selected = null, checkTimer = null, lastAnswer = null, sending = false;
    var start = {
      rack: view.rack.map(function (c) { return {id: "t" + (nextId++), code: c, from: "rack"}; }),
      table: view.table.map(function (m) {
        return parseMeld(m).map(function (c) { return {id: "t" + (nextId++), code: c, from: "table"}; });
      })
    };
    var rack, table;

    function reset() {
      rack = start.rack.slice();
      table = start.table.map(function (m) { return m.slice(); });
      selected = null;
      lastAnswer = null;
      render();
    }

    function changed() {
      return table.length !== start.table.length || rack.length !== start.rack.length ||
        table.some(function (m, i) { return m.map(function (t) { return t.id; }).join() !==
          (start.table[i] || []).map(function (t) { return t.id; }).join(); });
    }

    function findTile(id) {
      var i = rack.findIndex(function (t) { return t.id === id; });
      if (i >= 0) return {list: rack, index: i};
      for (var m = 0; m < table.length; m++) {
        var j = table[m].findIndex(function (t) { return t.id === id; });
        if (j >= 0) return {list: table[m], index: j};
      }
      return null;
    }

    function moveTile(id, place) {
      var at = findTile(id);
      if (!at) return;
      var tile = at.list[at.index];
      if (place === "rack" && tile.from === "table") {
        say("A tile from the table stays on the table.", "error");
        return;
      }
      at.list.splice(at.index, 1);
      if (place === "rack") rack.push(tile);
      else if (place === "new") table.push([tile]);
      else table[Number(place)].push(tile);
      table = table.filter(function (m) { return m.length; });
      selected = null;
      render();
      scheduleCheck();
    }

    function sortRack(by) {
      var order = "KRBOJ";
      rack.sort(function (a, b) {
        var ca = order.indexOf(a.code.charAt(0)), cb = order.indexOf(b.code.charAt(0));
        var na = parseInt(a.code.slice(1), 10) || 99, nb = parseInt(b.code.slice(1), 10) || 99;
        return by === "colour" ? (ca - cb || na - nb) : (na - nb || ca - cb);
      });
      render();
    }

    function say(text, kind) {
      var box = root.querySelector(".tk-say");
      box.textContent = text;
      box.className = "tk-say message " + (kind || "info");
      box.setAttribute("role", kind === "error" ? "alert" : "status");
    }

    function tileButton(tile) {
      var colour = COLOURS[tile.code.charAt(0)] || "joker";
      var b = el("button", {type: "button", cls: "tk-tile chip tile " + colour + (tile.code === "J" ? " joker" : "") +
        (selected === tile.id ? " selected" : "") + (tile.from === "table" ? " from-table" : ""),
        "data-code": tile.code, "data-id": tile.id, draggable: myTurn ? "true" : "false",
        "aria-label": tile.code === "J" ? "joker" : colour + " " + tile.code.slice(1),
        "aria-pressed": selected === tile.id ? "true" : "false", text: tile.code === "J" ? "\u263a" : tile.code.slice(1)});
      if (!myTurn) { b.disabled = true; return b; }
      b.addEventListener("click", function (e) {
        e.stopPropagation();
        if (selected && selected !== tile.id) {  // a tile picked, then another's place: put it beside
          var place = b.closest("[data-place]").getAttribute("data-place");
          moveTile(selected, place);
          return;
        }
        selected = selected === tile.id ? null : tile.id;
        render();
      });
      b.addEventListener("dragstart", function (e) {
        e.dataTransfer.setData("text/plain", tile.id);
        e.dataTransfer.effectAllowed = "move";
      });
      return b;
    }

    function dropPlace(node, place) {
      node.setAttribute("data-place", place);
      if (!myTurn) return node;
      node.addEventListener("dragover", function (e) { e.preventDefault(); node.classList.add("over"); });
      node.addEventListener("dragleave", function () { node.classList.remove("over"); });
      node.addEventListener("drop", function (e) {
        e.preventDefault();
        node.classList.remove("over");
        moveTile(e.dataTransfer.getData("text/plain"), place);
      });
      node.addEventListener("click", function () { if (selected) moveTile(selected, place); });
      return node;
    }

    function render() {
      var answer = lastAnswer;
      var melds = root.querySelector(".tk-melds");
      melds.textContent = "";
      table.forEach(function (m, i) {
        var verdict = answer && answer.melds[i];
        var box = dropPlace(el("div", {cls: "tk-meld meld" + (verdict && !verdict.valid ? " invalid" : ""),
          "data-meld": String(i), title: verdict && !verdict.valid ? verdict.reason : ""}), String(i));
        m.forEach(function (t) { box.appendChild(tileButton(t)); });
        if (verdict && !verdict.valid) box.appendChild(el("span", {cls: "tk-why", text: verdict.reason}));
        melds.appendChild(box);
      });
      if (myTurn) {
        var fresh = dropPlace(el("button", {type: "button", cls: "tk-new-meld", text: "+ New meld"}), "new");
        melds.appendChild(fresh);
      }
      var rackBox = root.querySelector(".tk-rack");
      rackBox.textContent = "";
      dropPlace(rackBox, "rack");
      rack.forEach(function (t) { rackBox.appendChild(tileButton(t)); });
      var dirty = changed();
      root.querySelector(".tk-end").disabled = !myTurn || sending || !(answer && answer.move);
      root.querySelector(".tk-draw").disabled = !myTurn || sending || dirty;
      root.querySelector(".tk-reset").disabled = !myTurn || !dirty;
      var laid = root.querySelector(".tk-laid");
      laid.textContent = dirty && answer ? "Laid: " + answer.laid_value + " points" +
        (!view.initial_meld_done[config.seat] ? " (initial meld: " + view.rules.initial_meld + " needed)" : "") : "";
      root.dataset.dirty = dirty ? "1" : "0";
    }

    function headers() {
      var h = {"Content-Type": "application/json"};
      if (config.csrf) h["X-CSRFToken"] = config.csrf;
      return h;
    }

    function scheduleCheck() {
      if (checkTimer) clearTimeout(checkTimer);
      lastAnswer = null;
      render();
      if (!changed()) return;
      root.dataset.checking = "1";
      checkTimer = setTimeout(check, 120);
    }

    function check() {
      var layout = table.map(function (m) { return m.map(function (t) { return t.code; }); });
      fetch(config.urls.compose, {method: "POST", credentials: "same-origin", headers: headers(),
                                  body: JSON.stringify({melds: layout})})
        .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
        .then(function (res) {
          root.dataset.checking = "0";
          if (!res.ok) { say(res.body.detail || "the table could not be checked", "error"); return; }
          lastAnswer = res.body;
          render();
          if (res.body.move && !res.body.legal) say(res.body.refusal, "warn");
          else if (res.body.legal) say("Ready: End turn plays it.", "info");
          else say("Some melds are not valid yet.", "warn");
        })
        .catch(function () { root.dataset.checking = "0"; });
    }

    function send(move) {
      sending = true;
      render();
      fetch(config.urls.move, {method: "POST", credentials: "same-origin", headers: headers(),
                               body: JSON.stringify({move: move, expected_version: config.version})})
        .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
        .then(function (res) {
          sending = false;
          if (res.ok) {
            root.dataset.sent = String(res.body.version);
            window.location.replace(window.location.pathname);
            return;
          }
          reset();
          say("Move not recorded: " + (res.body.detail || "refused"), "error");
        })
        .catch(function () { sending = false; reset(); say("The move could not be sent; try again.", "error"); });
    }

    root.appendChild(el("div", {cls: "tk-bar"}, [
      el("button", {type: "button", cls: "tk-end", text: "End turn"}),
      el("button", {type: "button", cls: "tk-draw", text: view.pool_count ? "Draw" : "Pass"}),
      el("button", {type: "button", cls: "tk-reset", text: "Reset turn"}),
      el("span", {cls: "tk-laid"})
    ]));
    root.appendChild(el("p", {cls: "tk-say message info", role: "status",
      text: myTurn ? "Your turn: move tiles to the table, or draw." : "Waiting for the others."}));
    var seats = el("div", {cls: "tk-seats"}, [el("span", {cls: "tk-pool", text: "Pool: " + view.pool_count})]);
    view.rack_counts.forEach(function (n, i) {
      seats.appendChild(el("span", {cls: "tk-seat" + (view.to_move === i ? " to-move" : "") + (i === config.seat ? " own" : ""),
        "data-seat": String(i), text: (view.to_move === i ? "\u25b6 " : "") + config.names[i] + (i === config.seat ? " (you)" : "") +
          ": " + n + " tiles" + (view.initial_meld_done[i] ? ", opened" : "")}));
    });
    root.appendChild(seats);
    root.appendChild(el("h3", {text: "Table"}));
    root.appendChild(el("div", {cls: "tk-melds melds"}));
    root.appendChild(el("h3", {text: "Your rack"}));
    root.appendChild(el("div", {cls: "tk-rack rack", "aria-label": "your rack"}));
    root.appendChild(el("div", {cls: "tk-sort"}, [
      el("button", {type: "button", cls: "tk-sort-colour", text: "Sort by colour"}),
      el("button", {type: "button", cls: "tk-sort-number", text: "Sort by number"})
    ]));
    root.querySelector(".tk-end").addEventListener("click", function () {
      if (lastAnswer && lastAnswer.move) send(lastAnswer.move);
    });
    root.querySelector(".tk-draw").addEventListener("click", function () { send(view.pool_count ? "draw" : "pass"); });
    root.querySelector(".tk-reset").addEventListener("click", function () { reset(); say("The turn is back where it began.", "info"); });
    root.querySelector(".tk-sort-colour").addEventListener("click", function () { sortRack("colour"); });
    root.querySelector(".tk-sort-number").addEventListener("click", function () { sortRack("number"); });
    reset();
    return {busy: function () { return changed(); }};
  };
})();
