/* The Okey table: seed 003's room, by pointing and clicking (docs/table.md).
 *
 * - The rack has two tiers of slots, as a wooden Okey rack: drag a tile to
 *   any slot (gaps are kept, so tiles stand in groups), or select it and
 *   click a slot; arrow keys move a focused tile one slot. The arrangement
 *   is the player's and stays across the page's redraws.
 * - Draw: click the middle stack. Take the previous player's discard: click
 *   it (the pile on the left), or drag it to the rack.
 * - Discard: drag a tile to your own pile (or select it and click the pile).
 * - Finish: drop the 15th tile on the middle (or select it and click the
 *   middle); the other 14 are shown as the winning hand.
 * - The Compare Stone: "Show" when the rack holds the indicator's twin
 *   before the first draw.
 * - Every player's discard pile is shown, top tile first; when a game ends
 *   its result is shown until "Next game".
 *
 * Each gesture becomes one move in the engine's notation (draw, take,
 * discard R5, finish R5, show), sent to POST /api/games/<id>/moves/.
 */
(function () {
  "use strict";
  var P = window.tablekeeperParts, el = P.el, _ = P.t;
  var COLOURS = {K: "black", R: "red", B: "blue", O: "orange"};
  var SLOTS = 30;  // two tiers of 15

  function colourOf(code) { return code === "F" ? "joker" : COLOURS[code.charAt(0)]; }
  function numberOf(code) { return code === "F" ? 99 : parseInt(code.slice(1), 10); }

  window.tablekeeperOkey = function (root, config) {
    var view = config.view, seat = config.seat, n = view.players;
    var myTurn = view.to_move === seat;
    var canDraw = myTurn && view.phase === "draw";
    var canDiscard = myTurn && view.phase === "discard";
    var previous = (seat - 1 + n) % n;
    var composer = P.mover(root, config);
    var key = "tk-okey-rack-" + config.game + "-" + seat;
    var selected = null;  // a slot index
    var summaryKey = "tk-okey-summary-" + config.game + "-" + view.game;

    function say(text, kind) { P.say(root, text, kind); }

    /* --- the rack's slots, kept in this tab ------------------------------------ */
    function loadSlots() {
      var kept = [];
      try { kept = JSON.parse(window.sessionStorage.getItem(key) || "[]"); } catch (e) { kept = []; }
      var left = view.my_rack.slice(), slots = [];
      for (var i = 0; i < SLOTS; i++) {
        var c = kept[i], at = c ? left.indexOf(c) : -1;
        slots.push(at >= 0 ? c : null);
        if (at >= 0) left.splice(at, 1);
      }
      left.forEach(function (c) {
        var free = slots.indexOf(null);
        slots[free] = c;
      });
      return slots;
    }
    var slots = loadSlots();
    function saveSlots() {
      try { window.sessionStorage.setItem(key, JSON.stringify(slots)); } catch (e) { /* private mode */ }
    }
    saveSlots();

    function face(code, extra) {
      var wild = code === view.okey;
      return {
        cls: "tk-tile chip tile " + colourOf(code) + (code === "F" ? " false-joker" : "") + (wild ? " okey" : "") + (extra || ""),
        label: code === "F" ? _("false joker (%(okey)s)", {okey: view.okey})
          : wild ? _("%(colour)s %(number)s, okey", {colour: P.colourName(colourOf(code)), number: code.slice(1)})
          : _("%(colour)s %(number)s", {colour: P.colourName(colourOf(code)), number: code.slice(1)}),
        text: code === "F" ? "\u2605" : code.slice(1)
      };
    }
    function staticTile(code, extra) {
      var f = face(code, extra);
      return el("span", {cls: f.cls, "data-code": code, "aria-label": f.label, text: f.text});
    }

    function moveSlot(from, to) {
      if (from === to || from === null) return;
      var t = slots[to];
      slots[to] = slots[from];
      slots[from] = t;  // a swap when the slot was taken
      selected = null;
      saveSlots();
      render();
    }

    function sortRack(by) {
      var tiles = slots.filter(Boolean).sort(function (a, b) {
        var ca = "KRBOF".indexOf(a.charAt(0)), cb = "KRBOF".indexOf(b.charAt(0));
        return by === "colour" ? (ca - cb || numberOf(a) - numberOf(b)) : (numberOf(a) - numberOf(b) || ca - cb);
      });
      slots = [];
      var last = null, i;
      tiles.forEach(function (c) {  // a gap between colours (or numbers)
        var group = by === "colour" ? c.charAt(0) : numberOf(c);
        if (last !== null && group !== last && slots.length % 15 !== 0) slots.push(null);
        slots.push(c);
        last = group;
      });
      while (slots.length > SLOTS) { i = slots.indexOf(null); if (i < 0) break; slots.splice(i, 1); }
      while (slots.length < SLOTS) slots.push(null);
      saveSlots();
      render();
    }

    /* --- moves ------------------------------------------------------------------ */
    function send(move) {
      say(_("Sending: %(move)s", {move: move}), "info");
      composer.send(move, function (why) { say(_("Move not recorded: %(why)s", {why: why}), "error"); render(); });
      render();
    }
    function slotOf(id) { return id && id.indexOf("s") === 0 ? parseInt(id.slice(1), 10) : null; }
    function tileFrom(id) {
      var s = id === null || id === undefined ? selected : slotOf(id);
      return s === null ? null : slots[s];
    }
    function discard(id) {
      var code = tileFrom(id);
      if (!code) { say(_("Select a tile of your rack first, or drag one here."), "warn"); return; }
      if (!canDiscard) { say(myTurn ? _("Draw from the middle or take the discard first.") : _("It is not your turn."), "warn"); return; }
      send("discard " + code);
    }
    function finish(id) {
      var code = tileFrom(id);
      if (!code) { say(_("Drop the tile you finish with on the middle (or select it, then click the middle)."), "warn"); return; }
      if (!canDiscard) { say(myTurn ? _("Draw first: you finish with your 15th tile.") : _("It is not your turn."), "warn"); return; }
      send("finish " + code);
    }

    /* --- drawing ---------------------------------------------------------------- */
    function pileOf(s) {
      var pile = view.piles[s], top = pile.length ? pile[pile.length - 1] : null;
      var takeable = canDraw && s === previous && top !== null;
      var mine = s === seat;
      var node = P.pile({cls: "tk-discard seat-" + s + (mine ? " mine" : "") + (s === previous ? " left" : ""),
        caption: config.names[s], count: pile.length,
        face: top ? staticTile(top) : el("span", {cls: "tk-empty", text: "\u2014"}),
        label: (top ? _("%(name)s's discards, %(tile)s on top", {name: config.names[s], tile: face(top).label})
                    : _("%(name)s's discards, none", {name: config.names[s]})) +
          (takeable ? ": " + _("click to take it") : mine && canDiscard ? ": " + _("drop a tile to discard it") : ""),
        enabled: (takeable || (mine && canDiscard)) && !composer.sending(),
        why: mine && canDraw ? _("Draw first: a tile from the middle, or the discard on your left; then discard one onto your pile.") :
          mine && !myTurn ? _("Not your turn: you discard onto your pile after drawing.") : "",
        onTap: function () { if (takeable) send("take"); else if (mine) discard(null); },
        onDrop: function (id) { if (mine) discard(id); }});
      node.setAttribute("data-seat", String(s));
      if (takeable) {  // the discard dragged to the rack is a take
        node.setAttribute("draggable", "true");
        node.addEventListener("dragstart", function (e) { e.dataTransfer.setData("text/plain", "take"); });
      }
      var history = el("span", {cls: "tk-history", "aria-hidden": "true"},
        pile.slice(-6, -1).reverse().map(function (c) { return staticTile(c, " small"); }));
      node.appendChild(history);
      return node;
    }

    function render() {
      var sending = composer.sending();
      var table = root.querySelector(".tk-okey-table");
      table.textContent = "";
      // the middle, the indicator, every discard pile (the previous player's on the left)
      var middle = P.pile({cls: "tk-middle", caption: _("Middle"), count: view.middle_count,
        label: _("the middle, %(n)s tiles", {n: view.middle_count}) + (canDraw && !view.last_chance ? ": " + _("click to draw") :
          canDiscard ? ": " + _("drop your 15th tile here to finish") : ""),
        enabled: ((canDraw && !view.last_chance) || canDiscard) && !sending,
        onTap: function () { if (canDraw) send("draw"); else finish(null); },
        onDrop: function (id) { if (id !== "take") finish(id); }});
      table.appendChild(pileOf(previous));
      table.appendChild(middle);
      table.appendChild(el("div", {cls: "tk-indicator", "aria-label": _("indicator %(indicator)s, okey %(okey)s", {indicator: view.indicator, okey: view.okey})},
        [staticTile(view.indicator), el("span", {cls: "tk-count", text: _("okey %(okey)s", {okey: view.okey})})]));
      for (var k = 0; k < n; k++) {
        var s = (previous + 1 + k) % n;
        if (s !== previous) table.appendChild(pileOf(s));
      }
      // the rack
      var rack = root.querySelector(".tk-okey-rack");
      rack.textContent = "";
      slots.forEach(function (code, i) {
        var slot = P.dropPlace(el("div", {cls: "tk-slot" + (code ? "" : " empty"), "data-slot": String(i)}), "slot-" + i, {
          enabled: true,
          onDrop: function (id) {
            if (id === "take") { if (canDraw) send("take"); return; }
            moveSlot(slotOf(id), i);
          },
          onTap: function () { if (selected !== null && selected !== i) moveSlot(selected, i); }});
        if (code) {
          var f = face(code);
          slot.appendChild(P.pieceButton({id: "s" + i, code: code, cls: f.cls, label: f.label, text: f.text,
            enabled: true, selected: selected === i,
            onClick: function () {
              if (selected !== null && selected !== i) { moveSlot(selected, i); return; }
              selected = selected === i ? null : i;
              render();
            },
            onKey: function (e) {
              if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
              e.preventDefault();
              var j = e.key === "ArrowLeft" ? i - 1 : i + 1;
              if (j < 0 || j >= SLOTS) return;
              moveSlot(i, j);
              var again = root.querySelector('.tk-okey-rack [data-slot="' + j + '"] button');
              if (again) again.focus();
            }}));
        }
        rack.appendChild(slot);
      });
      root.querySelector(".tk-show").hidden = !view.can_show;
      root.querySelector(".tk-show").disabled = sending;
      root.dataset.selected = selected === null ? "" : slots[selected];
      root.dataset.phase = myTurn ? view.phase : "waiting";
    }

    function summary() {
      var last = view.results[view.results.length - 1];
      if (!last || last.game !== view.game - 1 || view.turn !== 1 ||
          window.sessionStorage.getItem(summaryKey) === "seen") return null;
      var how = last.winner === null ? _("the middle ran out: nobody scores") :
        _("%(name)s won (%(how)s): each other player loses %(loss)s", {name: config.names[last.winner],
          how: (last.kind === "pairs" ? _("seven pairs") : _("sets and runs")) +
            (last.okey_finish ? ", " + _("finishing with an okey") : "") + (last.with_color ? ", " + _("with colour") : ""),
          loss: last.loss});
      var box = el("section", {cls: "tk-handover tk-game-over", "aria-label": _("game %(n)s result", {n: last.game})}, [
        el("h3", {text: _("Game %(n)s is over: %(how)s", {n: last.game, how: how})}),
        el("div", {cls: "tk-shown"}, last.melds.map(function (m) {
          return el("span", {cls: "meld"}, m.map(function (c) { return staticTile(c); }));
        })),
        el("p", {text: _("Points: %(points)s", {points: config.names.map(function (name, i) { return name + " " + last.points[i]; }).join(", ")})}),
        el("button", {type: "button", cls: "tk-next-game", text: _("Next game")})]);
      box.querySelector(".tk-next-game").addEventListener("click", function () {
        window.sessionStorage.setItem(summaryKey, "seen");
        box.remove();
      });
      return box;
    }

    root.appendChild(el("div", {cls: "tk-bar"}, [
      el("button", {type: "button", cls: "tk-show", text: _("Show the Compare Stone (%(tile)s)", {tile: view.indicator}), hidden: true}),
      el("button", {type: "button", cls: "tk-sort-colour", text: _("Sort by colour")}),
      el("button", {type: "button", cls: "tk-sort-number", text: _("Sort by number")}),
      P.bell(root, config, myTurn)
    ]));
    root.appendChild(el("p", {cls: "tk-say message info", role: "status",
      text: view.last_chance && canDraw ? _("The middle is empty: take the discard and finish with it.") :
        canDraw ? _("Your turn: click the middle to draw, or the discard on the left to take it.") :
        canDiscard ? _("Discard a tile onto your pile, or drop your 15th tile on the middle to finish.") :
        _("Waiting for %(name)s.", {name: config.names[view.to_move]})}));
    P.carried(root);  // a refusal carried across the reload (the game had moved on)
    root.appendChild(P.seatBox(view.rack_counts.map(function (count, i) {
      return {name: config.names[i], own: i === seat, toMove: view.to_move === i,
              facts: [_("%(n)s tiles", {n: count}), _("%(n)s points", {n: view.points[i]})]};
    }), [el("span", {cls: "tk-game", text: _("Game %(n)s", {n: view.game})}),
         el("span", {cls: "tk-middle-count", text: _("Middle: %(n)s", {n: view.middle_count})})]));
    var over = summary();
    if (over) root.appendChild(over);
    root.appendChild(el("div", {cls: "tk-okey-table"}));
    root.appendChild(el("h3", {text: _("Your rack")}));
    root.appendChild(el("div", {cls: "tk-okey-rack", "aria-label": _("your rack, two tiers of 15 slots")}));
    root.querySelector(".tk-show").addEventListener("click", function () { send("show"); });
    root.querySelector(".tk-sort-colour").addEventListener("click", function () { sortRack("colour"); });
    root.querySelector(".tk-sort-number").addEventListener("click", function () { sortRack("number"); });
    render();
    return {busy: function () { return selected !== null; }};
  };
})();
