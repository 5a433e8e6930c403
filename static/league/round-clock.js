/* The round's clock (#round-clock, data-started: seconds since the epoch)
 * counts up between the page's refreshes: the round desk and the projector. */
(function () {
  "use strict";
  var node = document.getElementById("round-clock");
  if (!node) return;
  var started = parseInt(node.dataset.started, 10) * 1000;
  function tick() {
    var s = Math.max(0, Math.floor((Date.now() - started) / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    node.textContent = (h ? h + ":" : "") + (m < 10 && h ? "0" : "") + m + ":" + (sec < 10 ? "0" : "") + sec;
  }
  tick();
  setInterval(tick, 1000);
})();
