"""Plumbing shared by the project's command lines (``python -m granujas_env.record``,
``python -m train.tournament``, ...)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

SIGPIPE_STATUS = 128 + 13  # the status of a Unix tool killed by SIGPIPE


def run_main(main: Callable[[], int | None]) -> int:
    """Run a command line's ``main`` and return its exit status; a reader that stops early
    (``... | head``) ends it quietly with status 141 instead of a BrokenPipeError traceback."""
    try:
        status = main()
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
    except BrokenPipeError:
        # keep Python's own flush at exit from writing into the closed pipe again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return SIGPIPE_STATUS
    return status or 0
