/* The projector's paging: every board (#draw, #standings) is laid out to
 * fill the stage at the largest text that fits it on one page; a field too
 * big for one page at the smallest readable text is cut into pages of as
 * many columns as the width takes, and the pages turn by themselves every
 * data-turn seconds (the draw's pages, then the standings'). The page
 * reloads for fresh results every data-every seconds, at the end of a turn
 * of all pages. window.tkProjector.show(k) shows page k (for tests). */
(function () {
  "use strict";
  var script = document.currentScript;
  var turn = Math.max(2, +script.dataset.turn || 8) * 1000;
  var every = Math.max(5, +script.dataset.every || 20) * 1000;
  var label = script.dataset.pageLabel || "page %(n)s of %(of)s";
  var started = Date.now();
  var boards = Array.prototype.filter.call(document.querySelectorAll("section.board"), function (b) {
    return b.querySelector("ol.rows li");
  });
  if (!boards.length) {                        // nothing to page: the messages as they are
    setTimeout(function () { location.reload(); }, every);
    return;
  }
  document.body.classList.add("paged");
  Array.prototype.forEach.call(document.querySelectorAll("section.board"), function (b) {
    if (boards.indexOf(b) < 0) b.hidden = true;
  });
  var pages = [], current = 0;

  function layout(board) {
    var list = board.querySelector("ol.rows");
    var items = Array.prototype.slice.call(list.children);
    board.hidden = false;
    items.forEach(function (li) { li.hidden = true; });   // the stage's size, not the rows'
    var width = list.clientWidth, height = list.clientHeight;
    var gap = window.innerWidth * 0.025, minEm = +board.dataset.minEm || 16;
    var small = Math.max(14, window.innerHeight * 0.022), big = Math.max(small, window.innerHeight * 0.06);
    var font = small, rows = 1, cols = 1;
    for (var f = big; f >= small - 0.01; f -= 0.5) {
      var r = Math.max(1, Math.floor(height / (1.5 * f)));
      var c = Math.max(1, Math.floor((width + gap) / (minEm * f + gap)));
      font = f; rows = r; cols = c;
      if (r * c >= items.length) break;
    }
    if (rows * cols > items.length) rows = Math.ceil(items.length / cols);   // fill columns evenly
    list.style.fontSize = font + "px";
    list.style.gridTemplateRows = "repeat(" + rows + ", " + (1.5 * font) + "px)";
    // columns share the width, but no wider than 1.5 times their least
    // (a few players in huge type: the name and its table stay near)
    var colWidth = Math.min((width - gap * (cols - 1)) / cols, 1.5 * minEm * font);
    list.style.gridTemplateColumns = "repeat(" + cols + ", " + Math.floor(colWidth) + "px)";
    var per = rows * cols, count = Math.max(1, Math.ceil(items.length / per));
    var out = [];
    for (var k = 0; k < count; k++) out.push({board: board, items: items, from: k * per, to: (k + 1) * per,
                                              n: k + 1, of: count});
    return out;
  }

  function build() {
    pages = [];
    boards.forEach(function (b) { pages = pages.concat(layout(b)); });
    show(Math.min(current, pages.length - 1));
  }

  function show(k) {
    current = ((k % pages.length) + pages.length) % pages.length;
    var page = pages[current];
    boards.forEach(function (b) { b.hidden = b !== page.board; });
    page.items.forEach(function (li, i) { li.hidden = i < page.from || i >= page.to; });
    var mark = page.board.querySelector("h2 .page");
    if (mark) mark.textContent = page.of > 1 ? label.replace("%(n)s", page.n).replace("%(of)s", page.of) : "";
    document.body.dataset.page = String(current);
  }

  build();
  window.addEventListener("resize", build);
  setInterval(function () {
    if (current + 1 >= pages.length && Date.now() - started >= every) { location.reload(); return; }
    if (pages.length > 1) show(current + 1);
  }, turn);
  window.tkProjector = {
    show: show,
    get pages() { return pages.length; },
    get current() { return current; }
  };
})();
