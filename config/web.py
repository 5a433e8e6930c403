"""The web process: ``config.asgi:application`` served by uvicorn, with
uvloop's event loop, httptools' HTTP parser and the websockets library's
WebSockets (``docs/live.md``, "Serving").

    .venv/bin/python -m config.web -b 0.0.0.0 -p 8000

``bin/demo``, ``bin/serve``, the browser tests' server, the integration
tests and the benches all start it so. The settings chosen here, and why:

- **uvloop and httptools**: the event loop and the HTTP parser in C. Under
  daphne (Twisted on asyncio) the server's own Python was about a quarter
  of a move's CPU time; ``docs/live.md``, "What a move costs", has the
  figures before and after.
- **no lifespan**: Channels' router knows no ``lifespan`` scope (nothing
  here starts or stops with the process).
- **no proxy headers**: the client's address is the connection's, as
  daphne gave it. Behind ``bin/serve``'s haproxy the rate limits and the
  login lockout read ``X-Forwarded-For`` themselves (``NUM_PROXIES``).
- **no per-message deflate**: a frame is a few kilobytes sent to every
  seat of a game; compressing each costs more CPU than it saves on the
  networks the club's players use (daphne never compressed either).
- **WebSocket pings every 20 s** (uvicorn's default): a socket whose page
  is gone without a close is found out and dropped.
- **idle keep-alive connections kept 65 s**, not uvicorn's 5: a client
  that sends a request on a pooled connection the moment the server
  closes it for idleness sees it dropped unanswered (``bench/load.py`` at
  400 requests/s met 15 such "Server disconnected" with 5 s; daphne kept
  idle connections for hours). Longer than the clients' and the
  balancer's own idle times (haproxy's ``timeout client`` and ``timeout
  server``, 60 s), so it is they that close an idle connection.

``--threads`` is not here: the request threads are ``ASGI_THREADS``
(``config/asgi.py``)."""

from __future__ import annotations

import argparse
import sys


KEEP_ALIVE = 65  # seconds an idle keep-alive connection is kept (uvicorn's default: 5)


def config(host: str, port: int, *, log_level: str = "info", access_log: bool = False):
    import uvicorn

    return uvicorn.Config("config.asgi:application", host=host, port=port, loop="uvloop", http="httptools",
                          ws="websockets-sansio", ws_per_message_deflate=False, lifespan="off",
                          proxy_headers=False, server_header=False, timeout_keep_alive=KEEP_ALIVE,
                          log_level=log_level,
                          access_log=access_log)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-b", "--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("-p", "--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--access-log", action="store_true", help="log every request (off by default)")
    parser.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))
    args = parser.parse_args(argv)
    import uvicorn

    uvicorn.Server(config(args.bind, args.port, log_level=args.log_level, access_log=args.access_log)).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
