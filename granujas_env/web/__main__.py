"""``python -m granujas_env.web [--host H] [--port P] [--record-dir DIR] [--max-games N]
[--idle-minutes M]``: serve the game pages (threat model: docs/play-web.md)."""

from __future__ import annotations

import argparse
import sys

import uvicorn

from ..cli import run_main
from .server import GAME_IDLE_S, MAX_GAMES, create_app

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and serve until Ctrl-C; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m granujas_env.web",
        description="Play 3000 Granujas or Bang! The Dice Game against the bots (and other "
        "people) in a browser, and replay game records.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only; "
                        "0.0.0.0 lets other machines join)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--record-dir", default=None, metavar="DIR",
                        help="save every finished game there as a game record, and list its "
                        "records on the home page (a web game's only if it was created public)")
    parser.add_argument("--max-games", type=int, default=MAX_GAMES, metavar="N",
                        help=f"games held at once; past that a new game is refused (default "
                        f"{MAX_GAMES})")
    parser.add_argument("--idle-minutes", type=float, default=GAME_IDLE_S / 60, metavar="M",
                        help=f"drop a game nobody asked about for M minutes (default "
                        f"{GAME_IDLE_S / 60:g})")
    args = parser.parse_args(argv)
    if not 1 <= args.port <= 65535:
        parser.error(f"--port must be 1..65535, got {args.port}")
    if args.max_games < 1:
        parser.error(f"--max-games must be at least 1, got {args.max_games}")
    if not 0 < args.idle_minutes < float("inf"):
        parser.error(f"--idle-minutes must be a positive number, got {args.idle_minutes}")
    # bound to this machine only: accept only its own names in the Host header, so that a web
    # page elsewhere cannot reach the server through a rebound DNS name
    hosts = [*LOOPBACK, "[::1]"] if args.host in LOOPBACK else None
    app = create_app(record_dir=args.record_dir, allowed_hosts=hosts, max_games=args.max_games,
                     idle_s=args.idle_minutes * 60)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"granujas: open http://{shown}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)
    if hosts is None:
        print("granujas: listening beyond this machine, over plain HTTP: whoever reaches this "
              "address can create games, and anyone on the network path can read the seat "
              "tokens (docs/play-web.md, threat model)", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
