// The replay of an analysed game: `n` / `p` jump to the next / previous
// mistake (the links the page draws, #next-mistake and #prev-mistake).
(function () {
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
    var id = {n: "next-mistake", p: "prev-mistake"}[e.key];
    var link = id && document.getElementById(id);
    if (link) { window.location = link.href; }
  });
})();
