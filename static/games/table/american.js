/* The American and International Rummikub table (seed 001), by pointing and
 * clicking (docs/table.md).
 *
 * - Begin the turn: "Draw" (the face-down stacks) or "Take" the discard the
 *   previous player just made (shown on its pile). The trump is shown face
 *   up; American's "win with the trump" is played with the notation form.
 * - Lay: move rack tiles to a meld on the table (an addition), to "+ New
 *   meld", or a table joker to a new meld after putting the tile it stands
 *   for in its place (freeing it); by drag and drop, or tap a tile then its
 *   place. Each change is checked by the engine (POST compose): invalid
 *   melds are marked with the reason, the value laid is shown, and "Lay"
 *   sends the engine's `lay` move. Tiles that were on the table stay there.
 * - End the turn: drag a rack tile onto your pile, or select it and press
 *   "Discard". International: "Announce" when three or fewer tiles will be
 *   left, and "Closed hand" to discard the selected tile and show the 14
 *   others as one of the 40 closed hands.
 * Nothing is typed in the notation.
 */
(function () {
  "use strict";
  var P = window.tablekeeperParts, el = P.el, _ = P.t;
  var COLOURS = {K: "black", R: "red", B: "blue", O: "orange"};

  function physical(code) { return code.charAt(0) === "J" ? "J" : code; }

  window.tablekeeperAmerican = function (root, config) {
    var view = config.view, seat = config.seat, rules = view.rules;
    var myTurn = view.to_move === seat, drawing = myTurn && view.phase === "draw";
    var playing = myTurn && view.phase === "play";
    var composer = P.mover(root, config);
    var order = P.arrangement("tk-american-" + config.game + "-" + seat);
    // an answer of the engine's check arriving mid-drag redraws once the
    // drag ends (a redraw would cut the drag short)
    var guard = P.dragGuard(root, function () { draw(); });
    // only the answer for the layout on the table now is read (answers of
    // a loaded server may come back out of order)
    var ids = 0, selected = null, answer = null, timer = null, checkSeq = 0;
    var tiles = {};  // id -> {id, code, home: "rack" | "table"}
    var start = {
      rack: order.apply(view.my_rack).map(function (c) { return piece(c, "rack"); }),
      table: view.table.map(function (m) {
        return m.meld.replace(/^\[|\]$/g, "").split(/\s+/).map(function (c) { return piece(physical(c), "table"); });
      })
    };
    var rack, table;

    function piece(code, home) {
      var t = {id: "a" + (ids++), code: code, home: home};
      tiles[t.id] = t;
      return t;
    }
    function say(text, kind) { P.say(root, text, kind); }
    function ids_(list) { return list.map(function (t) { return t.id; }).join(); }
    function dirty() {
      return table.length !== start.table.length ||
        table.some(function (m, i) { return ids_(m) !== ids_(start.table[i] || []); });
    }
    function reset() {
      checkSeq += 1;
      if (timer) { clearTimeout(timer); timer = null; }
      root.dataset.checking = "0";
      rack = start.rack.slice();
      table = start.table.map(function (m) { return m.slice(); });
      selected = null;
      answer = null;
      draw();
    }
    function where(id) {
      var i = rack.indexOf(tiles[id]);
      if (i >= 0) return {list: rack, at: i};
      for (var m = 0; m < table.length; m++) {
        var j = table[m].indexOf(tiles[id]);
        if (j >= 0) return {list: table[m], at: j};
      }
      return null;
    }
    function movable(t) { return playing && (t.home === "rack" || t.code === "J"); }

    function place(id, to) {
      guard.done();
      var t = tiles[id], from = where(id);
      selected = null;
      if (!t || !from || !movable(t)) return;
      if (to === "rack" && t.home === "table") { say(_("A tile from the table stays on the table."), "error"); draw(); return; }
      if (to === "pile") { discard(t); return; }
      from.list.splice(from.at, 1);
      if (to === "rack") rack.push(t);
      else if (to === "new") table.push([t]);
      else table[Number(to)].push(t);
      table = table.filter(function (m, i) { return m.length || i < start.table.length; });
      order.save(rack.map(function (x) { return x.code; }));
      draw();
      check();
    }

    function discard(t) {
      if (t.home !== "rack" || rack.indexOf(t) < 0) { say(_("Discard a tile from your rack."), "error"); return; }
      if (dirty()) { say(_("Lay the tiles on the table first, or reset them."), "error"); return; }
      send("discard " + t.code);
    }

    function check() {
      if (timer) clearTimeout(timer);
      checkSeq += 1;
      answer = null;
      if (!dirty()) { root.dataset.checking = "0"; draw(); return; }
      root.dataset.checking = "1";
      var mine = checkSeq;
      timer = setTimeout(function () {
        var layout = table.map(function (m) { return m.map(function (t) { return t.code; }); });
        P.post(config.urls.compose, {melds: layout}, config.csrf).then(function (res) {
          if (mine !== checkSeq) return;  // a layout since changed or put back
          root.dataset.checking = "0";
          if (!res.ok) { say(res.body.detail || _("the table could not be checked"), "error"); return; }
          answer = res.body;
          guard.paint();
          if (answer.legal) say(_("Ready: Lay puts it on the table."), "info");
          else say(answer.refusal || _("Some melds are not valid yet."), "warn");
        }).catch(function () { if (mine === checkSeq) root.dataset.checking = "0"; });
      }, 120);
    }

    function send(move) {
      composer.send(move, function (why) { reset(); say(_("Move not recorded: %(why)s", {why: why}), "error"); });
      draw();
    }

    function tileButton(t) {
      var colour = COLOURS[t.code.charAt(0)] || "joker";
      // a table tile that stays put is still a place to tap (a tile picked on the rack goes beside it)
      var b = P.pieceButton({id: t.id, code: t.code, enabled: movable(t) || (playing && t.home === "table"), selected: selected === t.id,
        cls: "tk-tile chip tile " + colour + (t.code === "J" ? " joker" : "") + (t.home === "table" ? " from-table" : ""),
        label: t.code === "J" ? _("joker") : _("%(colour)s %(number)s", {colour: P.colourName(colour), number: t.code.slice(1)}),
        text: t.code === "J" ? "\u263a" : t.code.slice(1),
        onClick: function (e) {
          // a tile picked, then a tile of a meld: it goes into that meld (beside it)
          var at = e.currentTarget.closest("[data-place]"), to = at && at.getAttribute("data-place");
          if (selected && selected !== t.id && to !== null && to !== "rack") { place(selected, to); return; }
          if (!movable(t)) return;
          selected = selected === t.id ? null : t.id;
          draw();
        }});
      if (!movable(t)) { b.setAttribute("draggable", "false"); b.setAttribute("aria-disabled", "true"); }
      return b;
    }
    function target(node, to) {
      return P.dropPlace(node, to, {enabled: playing,
        onDrop: function (id) { place(id, to); },
        onTap: function () { if (selected) place(selected, to); }});
    }

    function draw() {
      var focused = document.activeElement && root.contains(document.activeElement) ?
        document.activeElement.getAttribute("data-id") : null;   // kept across the redraw
      var melds = root.querySelector(".tk-melds");
      melds.textContent = "";
      table.forEach(function (m, i) {
        var verdict = answer && answer.melds[i], bad = verdict && !verdict.valid;
        var box = target(el("div", {cls: "tk-meld meld" + (bad ? " invalid" : ""), "data-meld": String(i),
          title: bad ? verdict.reason : ""}), String(i));
        var owner = i < view.table.length ? view.table[i].owner : seat;
        box.appendChild(el("span", {cls: "tk-owner muted", text: config.names[owner] + ": "}));
        m.forEach(function (t) { box.appendChild(tileButton(t)); });
        if (bad) box.appendChild(el("span", {cls: "tk-why", text: verdict.reason}));
        melds.appendChild(box);
      });
      if (playing) melds.appendChild(target(el("button", {type: "button", cls: "tk-new-meld", text: _("+ New meld")}), "new"));
      var rackBox = root.querySelector(".tk-rack");
      rackBox.textContent = "";
      target(rackBox, "rack");
      rack.forEach(function (t) { rackBox.appendChild(tileButton(t)); });
      var piles = root.querySelector(".tk-piles");
      piles.textContent = "";
      view.piles.forEach(function (top, i) {
        var own = i === seat, takeable = drawing && view.takeable && i === (seat - 1 + view.players) % view.players;
        var face = top ? el("span", {cls: "chip tile " + (COLOURS[top.charAt(0)] || "joker"), text: top === "J" ? "\u263a" : top.slice(1)}) : null;
        var node = P.pile({cls: (own ? "tk-own-pile" : "tk-other-pile") + (takeable ? " tk-takeable" : ""),
          caption: own ? _("%(name)s (you)", {name: config.names[i]}) : config.names[i],
          label: own ? _("your discards") : _("%(name)s's last discard", {name: config.names[i]}),
          face: face, count: view.pile_counts[i],
          enabled: (own && playing) || takeable,
          onTap: function () {
            if (takeable) send("take");
            else if (own && selected) place(selected, "pile");
          },
          onDrop: function (id) { if (own) place(id, "pile"); }});
        node.setAttribute("data-seat", String(i));
        piles.appendChild(node);
      });
      var sending = composer.sending(), changed = dirty(), mine = view.rack_counts[seat];
      root.querySelector(".tk-lay").disabled = !playing || sending || !(answer && answer.legal);
      root.querySelector(".tk-reset").disabled = !playing || !changed;
      root.querySelector(".tk-draw").disabled = !drawing || sending;
      root.querySelector(".tk-take").disabled = !drawing || sending || !view.takeable;
      root.querySelector(".tk-discard").disabled = !playing || sending || changed || !selected || tiles[selected].home !== "rack";
      var announce = root.querySelector(".tk-announce");
      announce.hidden = !(rules.announce && playing && view.melded[seat] && !view.announced[seat] && mine <= 4);
      var closed = root.querySelector(".tk-closed");
      closed.hidden = !(view.international && playing && !view.melded[seat] && mine === 15);
      closed.disabled = !selected || tiles[selected].home !== "rack" || changed;
      root.querySelector(".tk-laid").textContent = changed && answer ? (!view.melded[seat]
        ? _("Laid: %(value)s points (initial meld: %(needed)s needed)", {value: answer.laid_value, needed: rules.initial_meld})
        : _("Laid: %(value)s points", {value: answer.laid_value})) : "";
      root.dataset.dirty = changed ? "1" : "0";
      if (focused) {
        var again = root.querySelector('[data-id="' + focused + '"]');
        if (again) again.focus();
      }
    }

    root.appendChild(el("div", {cls: "tk-bar"}, [
      el("button", {type: "button", cls: "tk-draw", text: _("Draw")}),
      el("button", {type: "button", cls: "tk-take", text: view.takeable ? _("Take %(tile)s", {tile: view.takeable}) : _("Take")}),
      el("button", {type: "button", cls: "tk-lay", text: _("Lay")}),
      el("button", {type: "button", cls: "tk-reset", text: _("Reset")}),
      el("button", {type: "button", cls: "tk-discard", text: _("Discard")}),
      el("button", {type: "button", cls: "tk-announce", text: _("Announce: three or fewer")}),
      el("button", {type: "button", cls: "tk-closed", text: _("Closed hand")}),
      el("span", {cls: "tk-laid"}),
      P.bell(root, config, myTurn)
    ]));
    root.appendChild(el("p", {cls: "tk-say message info", role: "status",
      text: !myTurn ? _("Waiting for the others.") : drawing ? _("Your turn: draw, or take the last discard.") :
        _("Lay tiles on the table, then discard one to your pile.")}));
    P.carried(root);  // a refusal carried across the reload (the game had moved on)
    var facts = [el("span", {cls: "tk-pool", text: _("Stacks: %(n)s", {n: view.pool_count})})];
    if (view.trump) facts.push(el("span", {cls: "tk-trump", text: " " + (view.trump_in_pool
      ? _("Trump: %(tile)s (tops the last stack)", {tile: view.trump}) : _("Trump: %(tile)s", {tile: view.trump}))}));
    root.appendChild(P.seatBox(view.rack_counts.map(function (n, i) {
      return {name: config.names[i], own: i === seat, toMove: view.to_move === i,
              facts: [n === 1 ? _("1 tile") : _("%(n)s tiles", {n: n})].concat(view.melded[i] ? [_("melded")] : [])
                .concat(view.announced[i] ? [_("announced")] : [])};
    }), facts));
    root.appendChild(el("div", {cls: "tk-piles piles"}));
    root.appendChild(el("h3", {text: _("Table")}));
    root.appendChild(el("div", {cls: "tk-melds melds"}));
    root.appendChild(el("h3", {text: _("Your rack")}));
    root.appendChild(el("div", {cls: "tk-rack rack", "aria-label": _("your rack")}));
    root.querySelector(".tk-draw").addEventListener("click", function () { send("draw"); });
    root.querySelector(".tk-take").addEventListener("click", function () { send("take"); });
    root.querySelector(".tk-lay").addEventListener("click", function () { if (answer && answer.legal) send(answer.move); });
    root.querySelector(".tk-reset").addEventListener("click", function () { reset(); say(_("The table is back as it was."), "info"); });
    root.querySelector(".tk-discard").addEventListener("click", function () { if (selected) discard(tiles[selected]); });
    root.querySelector(".tk-announce").addEventListener("click", function () { send("announce"); });
    root.querySelector(".tk-closed").addEventListener("click", function () { if (selected) send("closed " + tiles[selected].code); });
    reset();
    return {busy: function () { return dirty(); }};
  };
})();
