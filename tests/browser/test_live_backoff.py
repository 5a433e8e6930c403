"""static/games/live.js reconnecting, in Chromium with a stand-in WebSocket
(no server): the waits between attempts grow (exponential, with jitter)
while sockets are accepted and dropped at once, as they were while Redis
was down, and start over only after a socket sent its first frame."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

LIVE_JS = Path(__file__).resolve().parents[2] / "static" / "games" / "live.js"

# A WebSocket that opens and, as the test says, closes at once with 1011 or
# sends a frame; setTimeout records each reconnection wait and runs it at
# once; Math.random is the top of its range, so a wait is its ceiling.
HARNESS = """
<div id="live"></div>
<script>
window.waits = []; window.sockets = [];
window.mode = "drop";
Math.random = function () { return 0.999999; };
var realSetTimeout = window.setTimeout;
window.setTimeout = function (fn, ms) {
  if (ms >= 100) { window.waits.push(ms); realSetTimeout(fn, 0); return 1; }
  return realSetTimeout(fn, ms);
};
window.setInterval = function () { return 1; };
window.fetch = function () { return new Promise(function () {}); };
window.limit = 7; window.parked = null;
window.resume = function () { var run = window.parked; window.parked = null; if (run) run(); };
window.WebSocket = function (url) {
  var ws = this; window.sockets.push(url);
  ws.readyState = 0;
  function run() {
    // past the limit, the attempt waits (connecting) until the test resumes it
    if (window.sockets.length > window.limit) { window.parked = run; return; }
    ws.readyState = 1; if (ws.onopen) ws.onopen({});
    if (window.mode === "frame" && ws.onmessage) {
      ws.onmessage({data: JSON.stringify({type: "view", version: 1})});
      window.mode = "drop";
    }
    ws.readyState = 3; if (ws.onclose) ws.onclose({code: 1011});
  }
  realSetTimeout(run, 0);
};
</script>
"""


def test_reconnection_backs_off_across_dropped_sockets_and_starts_over_after_a_frame(browser):
    page = browser.new_page()
    page.set_content(HARNESS)
    page.add_script_tag(content=LIVE_JS.read_text())
    page.evaluate("""tablekeeperLive({socket: "/ws/games/1/watch/", poll: "/api/games/1/view/", version: 1})""")
    page.wait_for_function("window.parked !== null", timeout=10000)
    waits = page.evaluate("window.waits")
    assert waits == [500, 1000, 2000, 4000, 8000, 16000, 30000], f"the backoff was reset by accepted sockets: {waits}"
    # a socket that sent its first frame: the next wait starts over
    page.evaluate("window.mode = 'frame'; window.waits = []; window.limit = 10; window.resume()")
    page.wait_for_function("window.waits.length >= 3", timeout=10000)
    after = page.evaluate("window.waits")
    assert 500 in after, f"the backoff did not start over after a socket's first frame: {after}"
    assert page.evaluate("Math.max.apply(null, window.waits)") <= 30000
