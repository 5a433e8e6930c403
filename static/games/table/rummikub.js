/* The Rummikub table: a turn built by pointing and clicking.
 *
 * The seat's rack and the table are drawn as tiles. A tile moves by drag
 * and drop (mouse), or by tap/click to select it and tap/click where it
 * goes (touch and keyboard: tiles and drop places are buttons; Tab, then
 * Enter or Space). Places: a meld on the table, "New meld", the rack.
 * Tiles that were on the table at the start of the turn cannot go to the
 * rack (the rules keep them on the table). The rack is arranged freely, as
 * on a real rack: drop (or tap) a tile onto another rack tile to put it
 * there, or move a focused tile with the arrow keys; sorting by colour or
 * number too. The order is the player's and stays across redraws.
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
  var P = window.tablekeeperParts, el = P.el, _ = P.t;
  var COLOURS = {K: "black", R: "red", B: "blue", O: "orange"};

  function physical(code) { return code.charAt(0) === "J" ? "J" : code; }

  function parseMeld(text) {
    return text.replace(/^\[|\]$/g, "").trim().split(/\s+/).map(physical);
  }

  window.tablekeeperRummikub = function (root, config) {
    var view = config.view, myTurn = config.my_turn;
    // checks: the engine's answers may come back out of order (a loaded
    // server); only the answer for the layout on the table now is read
    var nextId = 0, selected = null, checkTimer = null, lastAnswer = null, checkSeq = 0;
    // a drag in progress is never cut short by a redraw (an answer of the
    // engine's check arriving mid-drag waits until the drag ends)
    var guard = P.dragGuard(root, function () { render(); });
    var composer = P.mover(root, config);
    var order = P.arrangement("tk-order-" + config.game + "-" + config.seat);
    var start = {
      rack: order.apply(view.rack).map(function (c) { return {id: "t" + (nextId++), code: c, from: "rack"}; }),
      table: view.table.map(function (m) {
        return parseMeld(m).map(function (c) { return {id: "t" + (nextId++), code: c, from: "table"}; });
      })
    };
    var rack, table;

    function say(text, kind) { P.say(root, text, kind); }

    function forgetChecks() {  // the checks on their way are for a layout that is gone
      checkSeq += 1;
      if (checkTimer) { clearTimeout(checkTimer); checkTimer = null; }
      root.dataset.checking = "0";
    }

    function reset() {
      forgetChecks();
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

    function moveTile(id, place, beforeId) {
      guard.done();
      var at = findTile(id);
      if (!at) return;
      var tile = at.list[at.index];
      if (place === "rack" && tile.from === "table") {
        say(_("A tile from the table stays on the table."), "error");
        return;
      }
      var arranging = place === "rack" && at.list === rack;  // only the rack's order changes
      at.list.splice(at.index, 1);
      if (place === "rack") {
        var i = beforeId ? rack.findIndex(function (t) { return t.id === beforeId; }) : -1;
        if (i < 0) rack.push(tile); else rack.splice(i, 0, tile);
        saveOrder();
      } else if (place === "new") table.push([tile]);
      else table[Number(place)].push(tile);
      table = table.filter(function (m) { return m.length; });
      selected = null;
      render();
      if (!arranging) scheduleCheck();
    }

    function saveOrder() { order.save(rack.map(function (t) { return t.code; })); }

    function nudge(tile, step) {  // arrow keys: the focused rack tile one place left or right
      var i = rack.indexOf(tile), j = i + step;
      if (i < 0 || j < 0 || j >= rack.length) return;
      rack.splice(i, 1);
      rack.splice(j, 0, tile);
      saveOrder();
      render();
      var again = root.querySelector('.tk-rack [data-id="' + tile.id + '"]');
      if (again) again.focus();
    }

    function sortRack(by) {
      var colours = "KRBOJ";
      rack.sort(function (a, b) {
        var ca = colours.indexOf(a.code.charAt(0)), cb = colours.indexOf(b.code.charAt(0));
        var na = parseInt(a.code.slice(1), 10) || 99, nb = parseInt(b.code.slice(1), 10) || 99;
        return by === "colour" ? (ca - cb || na - nb) : (na - nb || ca - cb);
      });
      saveOrder();
      render();
    }

    function tileButton(tile) {
      var colour = COLOURS[tile.code.charAt(0)] || "joker";
      var b = P.pieceButton({id: tile.id, code: tile.code, enabled: myTurn, selected: selected === tile.id,
        cls: "tk-tile chip tile " + colour + (tile.code === "J" ? " joker" : "") +
          (tile.from === "table" ? " from-table" : ""),
        label: tile.code === "J" ? _("joker") : _("%(colour)s %(number)s", {colour: P.colourName(colour), number: tile.code.slice(1)}),
        text: tile.code === "J" ? "\u263a" : tile.code.slice(1),
        onClick: function () {
          if (selected && selected !== tile.id) {  // a tile picked, then another's place: put it beside
            var place = b.closest("[data-place]").getAttribute("data-place");
            moveTile(selected, place, place === "rack" ? tile.id : null);
            return;
          }
          selected = selected === tile.id ? null : tile.id;
          render();
        },
        onKey: function (e) {
          if ((e.key !== "ArrowLeft" && e.key !== "ArrowRight") || rack.indexOf(tile) < 0) return;
          e.preventDefault();
          nudge(tile, e.key === "ArrowLeft" ? -1 : 1);
        }});
      return b;
    }

    function dropPlace(node, place) {
      return P.dropPlace(node, place, {enabled: myTurn,
        onDrop: function (id, e) {
          var over = place === "rack" && e.target.closest && e.target.closest(".tk-rack [data-id]");
          moveTile(id, place, over ? over.getAttribute("data-id") : null);
        },
        onTap: function () { if (selected) moveTile(selected, place); }});
    }

    function render() {
      var answer = lastAnswer, sending = composer.sending();
      // a keyboard user keeps the focus across a redraw (an engine's answer
      // arriving redraws the tiles)
      var focused = document.activeElement && root.contains(document.activeElement) ?
        document.activeElement.getAttribute("data-id") : null;
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
        var fresh = dropPlace(el("button", {type: "button", cls: "tk-new-meld", text: _("+ New meld")}), "new");
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
      laid.textContent = dirty && answer ? (!view.initial_meld_done[config.seat]
        ? _("Laid: %(value)s points (initial meld: %(needed)s needed)", {value: answer.laid_value, needed: view.rules.initial_meld})
        : _("Laid: %(value)s points", {value: answer.laid_value})) : "";
      root.dataset.dirty = dirty ? "1" : "0";
      if (focused) {
        var again = root.querySelector('[data-id="' + focused + '"]');
        if (again) again.focus();
      }
    }

    function scheduleCheck() {
      forgetChecks();
      lastAnswer = null;
      render();
      if (!changed()) return;
      root.dataset.checking = "1";
      checkTimer = setTimeout(check, 120);
    }

    function check() {
      var layout = table.map(function (m) { return m.map(function (t) { return t.code; }); });
      var mine = checkSeq;
      checkTimer = null;
      P.post(config.urls.compose, {melds: layout}, config.csrf)
        .then(function (res) {
          if (mine !== checkSeq) return;  // an answer for a layout since changed or put back
          root.dataset.checking = "0";
          if (!res.ok) { say(res.body.detail || _("the table could not be checked"), "error"); return; }
          lastAnswer = res.body;
          guard.paint();
          if (res.body.move && !res.body.legal) say(res.body.refusal, "warn");
          else if (res.body.legal) say(_("Ready: End turn plays it."), "info");
          else say(_("Some melds are not valid yet."), "warn");
        })
        .catch(function () { if (mine === checkSeq) root.dataset.checking = "0"; });
    }

    function send(move) {
      composer.send(move, function (why) {
        reset();
        say(_("Move not recorded: %(why)s", {why: why}), "error");
      });
      render();
    }

    root.appendChild(el("div", {cls: "tk-bar"}, [
      el("button", {type: "button", cls: "tk-end", text: _("End turn")}),
      el("button", {type: "button", cls: "tk-draw", text: view.pool_count ? _("Draw") : _("Pass")}),
      el("button", {type: "button", cls: "tk-reset", text: _("Reset turn")}),
      el("span", {cls: "tk-laid"}),
      P.clock(root, config),
      P.bell(root, config, myTurn)
    ]));
    root.appendChild(el("p", {cls: "tk-say message info", role: "status",
      text: myTurn ? _("Your turn: move tiles to the table, or draw.") : _("Waiting for the others.")}));
    P.carried(root);  // a refusal carried across the reload (the game had moved on)
    root.appendChild(P.seatBox(view.rack_counts.map(function (n, i) {
      return {name: config.names[i], own: i === config.seat, toMove: view.to_move === i,
              facts: [n === 1 ? _("1 tile") : _("%(n)s tiles", {n: n})].concat(view.initial_meld_done[i] ? [_("opened")] : [])};
    }), [el("span", {cls: "tk-pool", text: _("Pool: %(n)s", {n: view.pool_count})})]));
    root.appendChild(el("h3", {text: _("Table")}));
    root.appendChild(el("div", {cls: "tk-melds melds"}));
    root.appendChild(el("h3", {text: _("Your rack")}));
    root.appendChild(el("div", {cls: "tk-rack rack", "aria-label": _("your rack")}));
    root.appendChild(el("div", {cls: "tk-sort"}, [
      el("button", {type: "button", cls: "tk-sort-colour", text: _("Sort by colour")}),
      el("button", {type: "button", cls: "tk-sort-number", text: _("Sort by number")})
    ]));
    root.querySelector(".tk-end").addEventListener("click", function () {
      if (lastAnswer && lastAnswer.move) send(lastAnswer.move);
    });
    root.querySelector(".tk-draw").addEventListener("click", function () { send(view.pool_count ? "draw" : "pass"); });
    root.querySelector(".tk-reset").addEventListener("click", function () { reset(); say(_("The turn is back where it began."), "info"); });
    root.querySelector(".tk-sort-colour").addEventListener("click", function () { sortRack("colour"); });
    root.querySelector(".tk-sort-number").addEventListener("click", function () { sortRack("number"); });
    reset();
    return {busy: function () { return changed(); }};
  };
})();
