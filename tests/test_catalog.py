"""The card catalog: counts and names, the loader's validation, user catalogs, every pair."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import granujas_env
from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.engine.data import DATA_DIR, CatalogError, load_catalog
from granujas_env.engine.state import Granuja
from granujas_env.engine.vocabulary import VERB_SPECS

CATALOG = load_catalog()
SOURCE = (DATA_DIR / "cards.toml").read_text(encoding="utf-8")

OCCUPATIONS = {
    "Abominación", "Alazán/a", "Alguacil", "Apostador/a", "Asaltante de bancos", "As del disfraz",
    "Autómata", "Ayudante del sheriff", "Banquero/a", "Buscador/a de oro", "Cazarrecompensas",
    "Cerebro", "Chef", "Consejero/a", "Correo", "Delincuente", "Estafador/a", "Impresor/a",
    "Inventor/a", "Inversionista", "Lavacerebros", "Matasanos", "Perro/a", "Periodista",
    "Pirómano/a", "Posadero/a", "Presidiario/a", "Rebelde", "Res", "Sastre", "Sepulturero/a",
    "Sujeto de pruebas",
}
TRAITS = {
    "Anciana", "Arrebatadora", "Atrevida", "Cibernético", "Codicioso", "Compasiva", "Corrupto",
    "Cruel", "Divertido", "Egoísta", "Encantador", "Energética", "Generosa", "Honesto",
    "Incansable", "Irritante", "Legendario", "Mentiroso", "Mugrienta", "Nervioso", "Parlanchina",
    "Rápida", "Servicial", "Temerario",
}
PRINTED_OCCUPATIONS = {
    "Buscador/a de oro", "Impresor/a", "Banquero/a", "Chef", "Perro/a", "Delincuente",
    "Consejero/a", "Sujeto de pruebas", "Alguacil",
}


def test_every_named_card_with_the_seed_deck_sizes() -> None:
    assert {o.name for o in CATALOG.occupations.values()} == OCCUPATIONS
    assert TRAITS <= {t.name for t in CATALOG.traits.values()}
    invented = {t.name for t in CATALOG.traits.values() if t.provenance == "invented"}
    assert {t.name for t in CATALOG.traits.values()} - TRAITS == invented
    assert Counter(c.colour for c in CATALOG.occupation_cards) == {"green": 16, "purple": 22, "black": 22}
    assert Counter(c.colour for c in CATALOG.trait_cards) == {"blue": 40, "red": 10}
    assert len(CATALOG.strategies) == 8 and len(CATALOG.leaders) == 4
    names = {s.name for s in CATALOG.strategies}
    assert {"Robar el banco", "Reclutar marginados", "Transformar aliados"} <= names


def test_printed_texts_are_marked_printed() -> None:
    for occ in CATALOG.occupations.values():
        assert (occ.provenance == "printed") == (occ.name in PRINTED_OCCUPATIONS), occ.name
        assert occ.basis, f"{occ.name} has no basis"
    for trait in CATALOG.traits.values():
        assert trait.basis, f"{trait.name} has no basis"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "old,new,problem",
    [
        ('verb = "gain_money", amount = 3', 'verb = "gain_monee", amount = 3',
         "occupation[0] 'buscador_de_oro'.effect[0]: field 'verb' is 'gain_monee'; must be one of "
         "blind_mark, destroy_henchmen,"),
        ('verb = "gain_money", amount = 3', 'verb = "gain_money"',
         "occupation[0] 'buscador_de_oro'.effect[0]: field 'amount' is missing; must be an "
         "integer 0..10"),
        ('verb = "gain_money", amount = 3', 'verb = "gain_money", amount = -3',
         "occupation[0] 'buscador_de_oro'.effect[0]: field 'amount' is -3; must be an integer 0..10"),
        ('arrows = ["left"]', 'arrows = ["up"]',
         "trait[5] 'servicial': field 'arrows' is ['up']; must be a list of distinct values from "
         "[left, right]"),
        ('timing = "start_of_turn"', 'timing = "whenever"',
         "trait[10] 'anciana': field 'timing' is 'whenever'; must be one of after_gain_reputation,"),
        ('colour = "green"', 'colour = "pink"',
         "occupation[0] 'buscador_de_oro'.cards[0]: field 'colour' is 'pink'; must be one of black, "
         "green, purple"),
        ('provenance = "printed"', 'provenance = "guessed"',
         "occupation[0] 'buscador_de_oro': field 'provenance' is 'guessed'; must be one of "
         "invented, printed, reconstructed"),
        ("format = 1", "format = 2", "field 'format' is 2; must be 1"),
        ('half = "either"', 'half = "left"',
         "occupation[15] 'sastre'.effect[0]: field 'half' is 'left'; must be one of either, "
         "occupation, trait_with_saloon"),
        ('requires = ["money_zero"]', 'requires = ["rich"]',
         "trait[11] 'generosa': field 'requires' is ['rich']; must be a list of distinct values "
         "from [henchman_in_jail, money_zero, rival_has_more_safes]"),
    ],
)
def test_loader_reports_card_and_field(tmp_path: Path, old: str, new: str, problem: str) -> None:
    assert old in SOURCE
    path = write(tmp_path, SOURCE.replace(old, new, 1))
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")  # the file
    assert f"\n  - {problem}" in message  # the card, the field, the value and what is allowed


def test_loader_lists_every_problem_at_once(tmp_path: Path) -> None:
    text = SOURCE.replace('arrows = ["left"]', 'arrows = ["up"]', 1).replace(
        'colour = "green"', 'colour = "pink"', 1
    )
    with pytest.raises(CatalogError) as info:
        load_catalog(write(tmp_path, text))
    lines = str(info.value).splitlines()
    assert lines[0].endswith(": 2 problem(s)") and len(lines) == 3
    assert "field 'arrows' is ['up']" in lines[2] and "field 'colour' is 'pink'" in lines[1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("format = 1\n[[occupation", r"cards.toml: not valid TOML \(Expected"),
        ("", r"field 'format' is missing; must be 1"),
        ("format = 1\nbogus = 3\n", r"'bogus': unknown top-level table \(allowed: format,"),
    ],
)
def test_loader_refuses_broken_files(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(CatalogError, match=message):
        load_catalog(write(tmp_path, text))


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="file not found"):
        load_catalog(tmp_path / "nope.toml")


def test_user_catalog_plays_through_the_env(tmp_path: Path) -> None:
    # a user's file in which Banquero/a gives 5 $
    text = SOURCE.replace("Obtén 4 $.", "Obtén 5 $.").replace(
        '[{ verb = "gain_money", amount = 4 }]', '[{ verb = "gain_money", amount = 5 }]'
    )
    env = granujas_env.env(num_players=3, catalog=str(write(tmp_path, text)))
    env.reset(seed=0)
    rng = random.Random(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        mask = obs["action_mask"]
        env.step(None if term or trunc else rng.choice([i for i, m in enumerate(mask) if m]))
    banker = env.unwrapped.catalog.occupations["banquero"]
    assert banker.effect[0].amount == 5


def test_every_verb_has_a_handler() -> None:
    from granujas_env.engine import game as game_module

    assert set(VERB_SPECS) - {"discard_self"} <= set(game_module._VERBS)


def test_every_occupation_trait_pair_can_be_used() -> None:
    """Build every Occupation x Trait pair, put it on a sheet and use it by every route the
    engine offers (its own timing, another Granuja, a hire): nothing may crash or stall."""
    for occ in CATALOG.occupation_cards:
        for trait in {t.trait.id: t for t in CATALOG.trait_cards}.values():
            game = Game(GameConfig(num_players=3), seed=occ.index)
            g = Granuja(uid=10_000, occ=occ.index, trait=trait.index)
            player = game.players[game.current_player]
            player.money = 20
            player.sheet[2] = g
            rng = random.Random(occ.index * 100 + trait.index)
            for _ in range(400):
                if game.game_over:
                    break
                legal = game.legal_actions()
                assert legal, game.decision
                # prefer using / targeting the pair under test whenever it is offered
                preferred = A.SHEET + 2 if A.SHEET + 2 in legal else rng.choice(legal)
                game.apply(preferred)
