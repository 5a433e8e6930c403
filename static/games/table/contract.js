/* The contract rummy table: seed 004's online game, by pointing and
 * clicking (docs/table.md).
 *
 * - Draw: click the stock; take the discard: click the discard pile.
 * - The hand: drag a card onto another to put it there, or focus a card
 *   and move it with the arrow keys; "Sort by suit" / "Sort by rank".
 *   The order is the player's and stays across the page's redraws.
 * - Select cards by clicking them (again to let go).
 * - Going down: drop cards (dragged, or the selected ones by clicking a
 *   box) on the "go down" boxes of the hand's contract, then "Go down".
 * - Laying off: drag a card onto anyone's meld (or select it and click
 *   the meld); on a run, the end buttons say which end.
 * - Swapping a wild: drop the natural card on the wild in a run, then
 *   click the meld the freed wild goes to.
 * - Discard: drag a card to the discard pile (or select it and click the
 *   pile). Undo while the rules allow it; Buy when this seat may buy;
 *   Allow / Refuse a buyer's request where the rules ask the player on turn.
 * - When a hand ends every hand is shown face up with its points; "Next
 *   hand" puts the summary away.
 *
 * Each gesture becomes one move in the engine's notation, sent to
 * POST /api/games/<id>/moves/; a refusal is shown as the rule's sentence.
 */
(function () {
  "use strict";
  var P = window.tablekeeperParts, el = P.el, _ = P.t;
  var SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var RANKS = "23456789TJQKA";

  function suitName(s) {
    return {C: _("clubs"), D: _("diamonds"), H: _("hearts"), S: _("spades")}[s];
  }
  function rankName(r) {
    return {T: "10", J: _("jack"), Q: _("queen"), K: _("king"), A: _("ace")}[r] || r;
  }

  function gettext_noop(text) { return text; }  // a text translated where it is used
  // the seven contracts as the engine names them, for the catalogue; shown through contractName
  var CONTRACTS = [gettext_noop("two sets"), gettext_noop("one set and one run"), gettext_noop("two runs"),
                   gettext_noop("three sets"), gettext_noop("two sets and one run"),
                   gettext_noop("one set and two runs"), gettext_noop("three runs")];
  function contractName(text) { return CONTRACTS.indexOf(text) >= 0 ? _(text) : text; }

  function rankOf(code) { return code === "JK" ? 99 : RANKS.indexOf(code.charAt(0)); }
  function suitOf(code) { return code === "JK" ? "Z" : code.charAt(1); }

  window.tablekeeperContract = function (root, config) {
    var view = config.view, seat = config.seat;
    var myTurn = view.to_move === seat;
    var canDraw = myTurn && view.phase === "draw";
    var canPlay = myTurn && view.phase === "play";
    var isDown = view.down[seat];
    var composer = P.mover(root, config);
    var order = P.arrangement("tk-order-" + config.game + "-" + seat);
    var nextId = 0;
    var hand = order.apply(view.my_hand).map(function (c) { return {id: "c" + (nextId++), code: c}; });
    var selected = [];
    var need = view.contract_melds;
    var boxes = [];
    var swapping = null;
    var summaryKey = "tk-summary-" + config.game + "-" + view.hand;

    function say(text, kind) { P.say(root, text, kind); }

    function isWild(code) { return code === "JK" || (view.twos_wild && code.charAt(0) === "2"); }

    function freshBoxes() {
      boxes = [];
      for (var s = 0; s < need.sets; s++) boxes.push({kind: "set", ids: []});
      for (var r = 0; r < need.runs; r++) boxes.push({kind: "run", ids: []});
    }

    function card(id) { return hand.find(function (c) { return c.id === id; }); }
    function inBox(id) { return boxes.findIndex(function (b) { return b.ids.indexOf(id) >= 0; }); }
    function loose() { return hand.filter(function (c) { return inBox(c.id) < 0; }); }

    function saveOrder() { order.save(hand.map(function (c) { return c.code; })); }

    function cardFace(code, extra) {
      var label = code === "JK" ? _("joker") : _("%(rank)s of %(suit)s", {rank: rankName(code.charAt(0)), suit: suitName(code.charAt(1))});
      var text = code === "JK" ? "\u2605" : (code.charAt(0) === "T" ? "10" : code.charAt(0)) + SUITS[code.charAt(1)];
      var colour = code === "JK" ? "joker" : (code.charAt(1) === "D" || code.charAt(1) === "H") ? "red" : "black";
      return {label: label, text: text, cls: "tk-card card " + colour + (isWild(code) ? " wild" : "") + (extra || "")};
    }

    function staticCard(code, extra) {
      var f = cardFace(code, extra);
      return el("span", {cls: f.cls, "data-code": code, "aria-label": f.label, text: f.text});
    }

    /* --- the hand ------------------------------------------------------------ */
    function handCard(c) {
      var f = cardFace(c.code);
      return P.pieceButton({id: c.id, code: c.code, cls: f.cls, label: f.label, text: f.text, enabled: true,
        selected: selected.indexOf(c.id) >= 0,
        onClick: function () {
          var at = selected.indexOf(c.id);
          if (at >= 0) selected.splice(at, 1); else selected.push(c.id);
          render();
        },
        onKey: function (e) {
          if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
          e.preventDefault();
          var i = hand.indexOf(c), j = e.key === "ArrowLeft" ? i - 1 : i + 1;
          if (j < 0 || j >= hand.length) return;
          hand.splice(i, 1);
          hand.splice(j, 0, c);
          saveOrder();
          render();
          var again = root.querySelector('.tk-hand [data-id="' + c.id + '"]');
          if (again) again.focus();
        }});
    }

    function moveInHand(id, beforeId) {
      var c = card(id);
      if (!c) return;
      var b = inBox(id);
      if (b >= 0) boxes[b].ids.splice(boxes[b].ids.indexOf(id), 1);
      hand.splice(hand.indexOf(c), 1);
      var at = beforeId ? hand.findIndex(function (x) { return x.id === beforeId; }) : -1;
      if (at < 0) hand.push(c); else hand.splice(at, 0, c);
      saveOrder();
      render();
    }

    function sortHand(by) {
      hand.sort(function (a, b) {
        var sa = "CDHSZ".indexOf(suitOf(a.code)), sb = "CDHSZ".indexOf(suitOf(b.code));
        return by === "suit" ? (sa - sb || rankOf(a.code) - rankOf(b.code)) : (rankOf(a.code) - rankOf(b.code) || sa - sb);
      });
      saveOrder();
      render();
    }

    /* --- moves ---------------------------------------------------------------- */
    function send(move) {
      say(_("Sending: %(move)s", {move: move}), "info");
      composer.send(move, function (why) {
        swapping = null;
        say(_("Move not recorded: %(why)s", {why: why}), "error");
        render();
      });
      render();
    }

    function theOne(message) {
      if (selected.length !== 1) {
        say(_(message, {n: selected.length}), "warn");
        return null;
      }
      return card(selected[0]);
    }

    function discard(id) {
      var c = id ? card(id) : theOne(gettext_noop("Select one card to discard (you have %(n)s selected)."));
      if (!c) return;
      if (!canPlay) { say(myTurn ? _("Draw first: click the stock or the discard.") : _("It is not your turn."), "warn"); return; }
      send("discard " + c.code);
    }

    function layOff(id, meld, end) {
      var c = id ? card(id) : theOne(gettext_noop("Select one card to lay off (you have %(n)s selected)."));
      if (!c) return;
      if (!canPlay || !isDown) { say(isDown ? _("It is not your turn to play.") : _("Go down with the contract before laying off."), "warn"); return; }
      send("lay " + c.code + " " + (meld + 1) + (end || ""));
    }

    function dropOnMeld(id, meld, end, wildAt) {
      if (swapping) {  // the freed wild's new meld
        send("swap " + swapping.code + " " + (swapping.meld + 1) + " " + (meld + 1) + (end || ""));
        return;
      }
      if (wildAt && id) {
        var c = card(id);
        if (c && !isWild(c.code)) {
          swapping = {code: c.code, meld: meld};
          say(_("Now click the meld (or its end) where the freed wild card goes."), "info");
          render();
          return;
        }
      }
      layOff(id, meld, end);
    }

    function addToBox(ids, k) {
      ids.forEach(function (id) {
        var b = inBox(id);
        if (b >= 0) boxes[b].ids.splice(boxes[b].ids.indexOf(id), 1);
        boxes[k].ids.push(id);
      });
      selected = [];
      render();
    }

    function runOrder(codes) {
      if (codes.some(isWild)) return codes;  // the player's order says where the wilds stand
      var low = codes.some(function (c) { return c.charAt(0) === "2"; });
      return codes.slice().sort(function (a, b) {
        var ra = rankOf(a), rb = rankOf(b);
        if (low && a.charAt(0) === "A") ra = -1;
        if (low && b.charAt(0) === "A") rb = -1;
        return ra - rb;
      });
    }

    function goDown() {
      var melds = boxes.map(function (b) {
        var codes = b.ids.map(function (id) { return card(id).code; });
        return b.kind === "run" ? runOrder(codes) : codes;
      });
      send("down " + melds.map(function (m) { return m.join(" "); }).join(" / "));
    }

    /* --- drawing -------------------------------------------------------------- */
    function render() {
      var sending = composer.sending();
      // piles
      var piles = root.querySelector(".tk-piles");
      piles.textContent = "";
      // a buyer waiting for the player on turn's answer: the piles wait too, and say why
      var waitBuy = canDraw && view.buy_consent && view.buy_requests.length > 0 ?
        _("%(name)s asked to buy the discard: allow it or take it yourself first.", {name: config.names[view.buy_requests[0]]}) : "";
      piles.appendChild(P.pile({cls: "tk-stock", caption: _("Stock"), label: _("stock, %(n)s cards", {n: view.stock_count}) + (canDraw && !waitBuy ? ": " + _("click to draw") : ""),
        count: view.stock_count, enabled: canDraw && !waitBuy && !sending, why: waitBuy,
        onTap: function () { send("draw"); }}));
      var top = view.discard_top ? staticCard(view.discard_top, view.discard_top_dead ? " dead" : "") : el("span", {cls: "tk-empty", text: _("empty")});
      piles.appendChild(P.pile({cls: "tk-discard", caption: _("Discard"), count: view.discard_count, face: top,
        label: (view.discard_top ? _("discard pile, %(card)s on top", {card: cardFace(view.discard_top).label}) : _("discard pile, empty")) +
          (canDraw ? ": " + _("click to take it") : canPlay ? ": " + _("drop a card to discard it") : ""),
        enabled: ((canDraw && !waitBuy) || canPlay) && !sending, why: waitBuy,
        onTap: function () { if (canDraw) send("take"); else discard(null); },
        onDrop: function (id) { discard(id); }}));
      // the table's melds
      var melds = root.querySelector(".tk-melds");
      melds.textContent = "";
      var layable = canPlay && isDown && !sending;
      view.table.forEach(function (m, i) {
        var box = el("div", {cls: "tk-meld meld " + m.kind + (swapping ? " target" : ""), "data-meld": String(i),
                             "aria-label": m.kind === "run" ? _("meld %(n)s, run of %(name)s", {n: i + 1, name: config.names[m.owner]})
                               : _("meld %(n)s, set of %(name)s", {n: i + 1, name: config.names[m.owner]})});
        box.appendChild(el("span", {cls: "tk-owner", text: (i + 1) + " \u00b7 " + config.names[m.owner]}));
        var run = m.kind === "run";
        if (run && layable) box.appendChild(endButton(i, "-", "\u25c0 " + _("low end")));
        m.cards.forEach(function (code, k) {
          var face = staticCard(code);
          if (run && layable && isWild(code)) {
            face = P.dropPlace(face, "wild-" + i + "-" + k, {enabled: true,
              onDrop: function (id) { dropOnMeld(id, i, "", true); },
              onTap: function (e) {
                e.stopPropagation();
                if (selected.length === 1) dropOnMeld(selected[0], i, "", true);
              }});
            face.classList.add("swappable");
          }
          box.appendChild(face);
        });
        if (run && layable) box.appendChild(endButton(i, "+", _("high end") + " \u25b6"));
        P.dropPlace(box, "meld-" + i, {enabled: layable,
          onDrop: function (id) { dropOnMeld(id, i, ""); },
          onTap: function () { if (swapping) dropOnMeld(null, i, ""); else if (selected.length) layOff(null, i, ""); }});
        melds.appendChild(box);
      });
      if (!view.table.length) melds.appendChild(el("p", {cls: "muted", text: _("Nobody has gone down yet.")}));
      // the go-down boxes
      var down = root.querySelector(".tk-go-down");
      down.textContent = "";
      down.hidden = !(canPlay && !isDown);
      if (!down.hidden) {
        down.appendChild(el("h3", {text: _("Go down: %(contract)s", {contract: contractName(view.contract)})}));
        boxes.forEach(function (b, k) {
          var node = el("div", {cls: "tk-box " + b.kind, "data-box": String(k),
                                "aria-label": b.kind === "set" ? _("set %(n)s", {n: k + 1}) : _("run %(n)s", {n: k + 1})},
                        [el("span", {cls: "tk-box-label", text: b.kind === "set" ? _("Set (3+ of a rank)") : _("Run (4+ in a suit)")})]);
          b.ids.forEach(function (id) {
            var c = card(id), f = cardFace(c.code);
            node.appendChild(P.pieceButton({id: id, code: c.code, cls: f.cls, label: _("%(card)s (back to hand)", {card: f.label}), text: f.text,
              enabled: true, onClick: function () { moveInHand(id, null); }}));
          });
          P.dropPlace(node, "box-" + k, {enabled: true,
            onDrop: function (id) { addToBox(selected.indexOf(id) >= 0 ? selected.slice() : [id], k); },
            onTap: function () { if (selected.length) addToBox(selected.slice(), k); }});
          down.appendChild(node);
        });
        var extra = need.exact ? null : el("button", {type: "button", cls: "tk-more-melds", text: _("+ Another meld")});
        if (extra) {
          extra.addEventListener("click", function () { boxes.push({kind: "set", ids: []}); render(); });
          down.appendChild(extra);
        }
        var go = el("button", {type: "button", cls: "tk-down", text: _("Go down")});
        go.disabled = sending || boxes.some(function (b) { return b.ids.length < 3; });
        go.addEventListener("click", goDown);
        down.appendChild(go);
      }
      // the hand
      var handBox = root.querySelector(".tk-hand");
      handBox.textContent = "";
      P.dropPlace(handBox, "hand", {enabled: true, onDrop: function (id, e) {
        var over = e.target.closest && e.target.closest(".tk-hand [data-id]");
        moveInHand(id, over ? over.getAttribute("data-id") : null);
      }});
      loose().forEach(function (c) { handBox.appendChild(handCard(c)); });
      // buttons
      root.querySelector(".tk-buy").hidden = !view.can_buy;
      root.querySelector(".tk-buy").disabled = sending;
      var answering = myTurn && view.phase === "draw" && view.buy_consent && view.buy_requests.length > 0;
      root.querySelector(".tk-allow").hidden = !answering;
      root.querySelector(".tk-refuse").hidden = !answering;
      if (answering) root.querySelector(".tk-allow").textContent = _("Allow %(name)s to buy", {name: config.names[view.buy_requests[0]]});
      root.querySelector(".tk-undo").hidden = !view.can_undo;
      root.dataset.selected = String(selected.length);
      root.dataset.swapping = swapping ? "1" : "0";
    }

    function endButton(meld, end, text) {
      var b = el("button", {type: "button", cls: "tk-meld-end " + (end === "+" ? "high" : "low"), text: text,
                            "aria-label": end === "+" ? _("high end of meld %(n)s", {n: meld + 1}) : _("low end of meld %(n)s", {n: meld + 1})});
      P.dropPlace(b, "end-" + meld + end, {enabled: true,
        onDrop: function (id) { dropOnMeld(id, meld, end); },
        onTap: function (e) {
          e.stopPropagation();
          if (swapping) dropOnMeld(null, meld, end); else layOff(null, meld, end);
        }});
      return b;
    }

    function summary() {
      var last = view.results[view.results.length - 1];
      if (!last || (last.hand !== view.hand - 1 && !view.is_over) || view.turn !== 1 ||
          window.sessionStorage.getItem(summaryKey) === "seen") return null;
      var rows = config.names.map(function (name, i) {
        return el("tr", {cls: last.winner === i ? "winner" : ""}, [
          el("th", {text: last.winner === i ? _("%(name)s (went out)", {name: name}) : name}),
          el("td", {cls: "tk-shown"}, last.cards[i].map(function (c) { return staticCard(c); })),
          el("td", {cls: "num", text: String(last.points[i])}),
          el("td", {cls: "num", text: String(view.totals[i])})]);
      });
      var box = el("section", {cls: "tk-handover", "aria-label": _("hand %(n)s result", {n: last.hand})}, [
        el("h3", {text: last.winner === null
          ? _("Hand %(n)s (%(contract)s) is over: nobody went out", {n: last.hand, contract: contractName(last.contract)})
          : _("Hand %(n)s (%(contract)s) is over: %(name)s went out", {n: last.hand, contract: contractName(last.contract), name: config.names[last.winner]})}),
        el("table", {cls: "sheet"}, [el("thead", {}, [el("tr", {}, [el("th", {text: _("Player")}), el("th", {text: _("Cards left")}),
          el("th", {text: _("Points")}), el("th", {text: _("Total")})])]), el("tbody", {}, rows)]),
        el("button", {type: "button", cls: "tk-next-hand", text: _("Next hand: %(contract)s", {contract: contractName(view.contract)})})]);
      box.querySelector(".tk-next-hand").addEventListener("click", function () {
        window.sessionStorage.setItem(summaryKey, "seen");
        box.remove();
      });
      return box;
    }

    freshBoxes();
    var lead = [el("span", {cls: "tk-contract", text: _("Hand %(n)s of 7: %(contract)s", {n: view.hand, contract: contractName(view.contract)})}),
                el("span", {cls: "tk-stock-count", text: _("Stock: %(n)s", {n: view.stock_count})})];
    root.appendChild(el("div", {cls: "tk-bar"}, [
      el("button", {type: "button", cls: "tk-buy", text: _("Buy"), hidden: true}),
      el("button", {type: "button", cls: "tk-allow", hidden: true}),
      el("button", {type: "button", cls: "tk-refuse", text: _("Take it myself"), hidden: true}),
      el("button", {type: "button", cls: "tk-undo", text: _("Undo discard"), hidden: true}),
      el("button", {type: "button", cls: "tk-sort-suit", text: _("Sort by suit")}),
      el("button", {type: "button", cls: "tk-sort-rank", text: _("Sort by rank")}),
      P.bell(root, config, view.may_act && myTurn)
    ]));
    root.appendChild(el("p", {cls: "tk-say message info", role: "status",
      text: canDraw && view.buy_consent && view.buy_requests.length > 0 ?
        _("%(name)s asked to buy the discard: allow it or take it yourself first.", {name: config.names[view.buy_requests[0]]}) :
        canDraw ? _("Your turn: click the stock to draw, or the discard pile to take it.") :
        canPlay ? (isDown ? _("Lay off, or discard to end your turn.") : _("Go down if you can, then discard.")) :
        view.can_buy ? _("You may buy the discard.") : _("Waiting for %(name)s.", {name: config.names[view.to_move]})}));
    P.carried(root);  // a refusal carried across the reload (the game had moved on)
    root.appendChild(P.seatBox(view.hand_counts.map(function (n, i) {
      var facts = [n === 1 ? _("1 card") : _("%(n)s cards", {n: n})];
      if (view.down[i]) facts.push(_("down"));
      if (view.buys[i]) facts.push(_("%(n)s bought", {n: view.buys[i]}));
      facts.push(_("%(n)s points", {n: view.totals[i]}));
      return {name: config.names[i], own: i === seat, toMove: view.to_move === i, facts: facts};
    }), lead));
    var over = summary();
    if (over) root.appendChild(over);
    root.appendChild(el("div", {cls: "tk-piles"}));
    root.appendChild(el("h3", {text: _("Table")}));
    root.appendChild(el("div", {cls: "tk-melds melds"}));
    root.appendChild(el("div", {cls: "tk-go-down"}));
    root.appendChild(el("h3", {text: _("Your hand")}));
    root.appendChild(el("div", {cls: "tk-hand hand", "aria-label": _("your hand")}));
    root.querySelector(".tk-buy").addEventListener("click", function () { send("buy"); });
    root.querySelector(".tk-allow").addEventListener("click", function () { send("allow"); });
    root.querySelector(".tk-refuse").addEventListener("click", function () { send("refuse"); });
    root.querySelector(".tk-undo").addEventListener("click", function () { send("undo"); });
    root.querySelector(".tk-sort-suit").addEventListener("click", function () { sortHand("suit"); });
    root.querySelector(".tk-sort-rank").addEventListener("click", function () { sortHand("rank"); });
    render();
    return {busy: function () {
      return swapping !== null || boxes.some(function (b) { return b.ids.length > 0; });
    }};
  };
})();
