"""A model that is not shipped (a model.zip or run folder outside agents/models/) works wherever a
bot spec is taken: agents.load / make_bot, the training pools (--opponents, --opponents-for,
--delegate, the single-seat env) and the tournament (issue 25 item 4)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from agents import load, make_bot  # noqa: E402
from agents.policy import MODELS_DIR, PolicyAgent  # noqa: E402
from train.single_seat import SingleSeatEnv  # noqa: E402
from train.tournament import main as tournament  # noqa: E402
from train.train import build_parser, validate  # noqa: E402


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory) -> Path:
    """The shipped ``full`` (a model per table size) copied to a folder outside the repository
    under a name no shipped model has, with a space in the path; its main model as a training
    run's checkpoint under ``run/checkpoints/`` (the run's card, one model, one folder up)."""
    root = tmp_path_factory.mktemp("not shipped")
    folder = root / "my full"
    shutil.copytree(MODELS_DIR / "full", folder)
    (root / "run" / "checkpoints").mkdir(parents=True)
    card = json.loads((folder / "model_card.json").read_text())
    del card["models_by_players"]
    (root / "run" / "model_card.json").write_text(json.dumps(card))
    shutil.copy(folder / "model.zip", root / "run" / "checkpoints" / "ckpt_100_steps.zip")
    return root


def test_load_and_make_bot_take_model_paths(elsewhere) -> None:
    folder = elsewhere / "my full"
    for spec in (folder, str(folder), str(folder / "model.zip"), str(folder) + ":temperature=2"):
        bot = make_bot(spec) if not isinstance(spec, Path) else load(spec)
        assert isinstance(bot, PolicyAgent)
        assert Path(bot.model_path) == folder / "model.zip"
        # its table model is found beside its card, outside agents/models/ too
        assert {n: Path(a.model_path) for n, a in bot.table_agents.items()} == {
            2: folder / "model_2p.zip", 3: folder / "plan" / "model.zip",
            4: folder / "plan" / "model.zip",
        }
    checkpoint = make_bot(str(elsewhere / "run" / "checkpoints" / "ckpt_100_steps.zip"))
    assert isinstance(checkpoint, PolicyAgent) and checkpoint.table_agents == {}
    with pytest.raises(ValueError, match="no model file .*missing.zip"):
        make_bot(str(elsewhere / "missing.zip"))
    with pytest.raises(ValueError, match="unknown model"):
        load(str(elsewhere / "no such folder"))


def test_training_pools_take_model_paths(elsewhere) -> None:
    folder, ckpt = elsewhere / "my full", elsewhere / "run" / "checkpoints" / "ckpt_100_steps.zip"
    args = build_parser().parse_args(
        [
            "--players", "2,4",
            "--opponents", f"heuristic,{folder / 'model.zip'}",
            "--opponents-for", f"2={folder},{ckpt}",
            "--delegate", str(folder),
        ]
    )
    checked = validate(args)
    assert checked["opponents_for"] == {2: [str(folder), str(ckpt)]}
    bad = build_parser().parse_args(["--opponents-for", f"4={elsewhere / 'gone' / 'model.zip'}"])
    with pytest.raises(ValueError, match="--opponents-for 4: no model file"):
        validate(bad)
    env = SingleSeatEnv(num_players=2, opponents=[str(folder)], seed=0)
    env.reset(seed=0)
    [opponent] = [bot for bot in env.opponents if bot is not None]
    assert isinstance(opponent, PolicyAgent) and Path(opponent.model_path) == folder / "model.zip"


def test_tournament_rates_a_model_path(elsewhere, tmp_path) -> None:
    out = tmp_path / "rows.json"
    names = f"{elsewhere / 'my full'},heuristic"
    assert tournament(["--agents", names, "--games", "2", "--json", str(out), "--quiet"]) == 0
    rows = json.loads(out.read_text())
    assert [r["agent"] for r in rows] == names.split(",") and rows[0]["games"] == 2
