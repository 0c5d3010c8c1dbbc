"""Every command line stops quietly when its reader does (``... | head``): exit status 141, the
status of a Unix tool killed by SIGPIPE, and no BrokenPipeError traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from granujas_env.cli import SIGPIPE_STATUS

COMMANDS = {
    "tournament": ["train.tournament", "--agents", "random,random", "--players", "2",
                   "--games", "40", "--seed", "0", "--quiet"],
    "play": ["granujas_env.play", "--agents", "random,random", "--players", "2", "--seed", "3"],
    "gauntlet": ["train.gauntlet", "--agent", "random", "--opponents", "random", "--players",
                 "2", "--games", "20", "--seed", "0"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_closed_pipe_ends_the_command_quietly(name: str) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line: every write fails
    try:
        proc = subprocess.run(
            [sys.executable, "-m", *COMMANDS[name]], stdout=write_end, stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == SIGPIPE_STATUS, proc.stderr.decode()
    assert proc.stderr.count(b"Traceback") == proc.stderr.count(b"BrokenPipeError") == 0
