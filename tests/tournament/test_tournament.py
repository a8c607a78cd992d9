"""Duplicate tournaments: schedule, statistics, determinism, the command."""

from __future__ import annotations

import importlib.util
import json
import math
import statistics
import subprocess
import sys
from fractions import Fraction
from importlib.machinery import ModuleSpec
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyrummy.bots.base import Bot
from pyrummy.cli.main import main
from pyrummy.core.deal import new_deal
from pyrummy.core.seeds import bot_seed
from pyrummy.tournament import (
    TournamentConfig,
    TournamentError,
    decks_for_deals,
    derive_seed,
    entry_labels,
    mean_ci,
    run_decks,
    run_tournament,
    seating,
    student_t_quantile,
    summarize,
)

# Two-sided 95% (p = 0.975) and 90% (p = 0.95) quantiles of Student's t,
# from the standard printed tables.
T_TABLE = [
    (0.975, 1, 12.7062),
    (0.975, 2, 4.3027),
    (0.975, 4, 2.7764),
    (0.975, 7, 2.3646),
    (0.975, 10, 2.2281),
    (0.975, 30, 2.0423),
    (0.975, 120, 1.9799),
    (0.95, 5, 2.0150),
    (0.95, 20, 1.7247),
    (0.995, 3, 5.8409),
]


# -- statistics ---------------------------------------------------------------


@pytest.mark.parametrize(("p", "dof", "expected"), T_TABLE)
def test_t_quantile_matches_printed_tables(p: float, dof: int, expected: float) -> None:
    assert student_t_quantile(p, dof) == pytest.approx(expected, abs=1e-4)


def test_t_quantile_tends_to_the_normal_quantile() -> None:
    assert student_t_quantile(0.975, 10**7) == pytest.approx(1.959964, abs=1e-5)


@pytest.mark.parametrize(("p", "dof"), [(0.0, 3), (1.0, 3), (0.975, 0)])
def test_t_quantile_refuses_impossible_arguments(p: float, dof: int) -> None:
    with pytest.raises(ValueError):
        student_t_quantile(p, dof)


@given(st.lists(st.integers(-100, 100), min_size=2, max_size=40), st.sampled_from([0.9, 0.95]))
def test_more_confidence_or_fewer_decks_widen_the_interval(
    values: list[int], confidence: float
) -> None:
    sample = [float(v) for v in values]
    estimate = mean_ci(sample, confidence)
    assert estimate.low <= estimate.mean <= estimate.high
    assert mean_ci(sample, 0.99).half_width >= estimate.half_width
    # The same results over twice the decks: a narrower interval (unless all equal).
    doubled = mean_ci(sample * 2, confidence)
    if len(set(values)) > 1:
        assert doubled.half_width < estimate.half_width
    else:
        assert doubled.half_width == estimate.half_width == 0.0


def test_mean_ci_on_known_data() -> None:
    values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
    estimate = mean_ci(values)
    # mean 5, sample variance 32/7, t(0.975, 7) = 2.364624
    half = 2.364624 * math.sqrt(32 / 7) / math.sqrt(8)
    assert estimate.mean == 5.0
    assert estimate.half_width == pytest.approx(half, abs=1e-5)
    assert (estimate.low, estimate.high) == pytest.approx((5 - half, 5 + half), abs=1e-5)
    assert estimate.excludes_zero
    assert estimate.count == 8


def test_mean_ci_of_one_value_has_no_interval() -> None:
    estimate = mean_ci([3.0])
    assert estimate.mean == 3.0 and math.isnan(estimate.half_width)
    assert not estimate.excludes_zero
    assert estimate.to_dict()["ci_low"] is None


def test_mean_ci_straddling_zero_is_not_a_clear_result() -> None:
    assert not mean_ci([-2.0, 1.0, 3.0, -1.0]).excludes_zero


# -- schedule -----------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_each_entry_sits_in_each_seat_once_over_the_rotations(players: int) -> None:
    placements = {
        (entry, seat) for r in range(players) for seat, entry in enumerate(seating(r, players))
    }
    assert placements == {(e, s) for e in range(players) for s in range(players)}
    for rotation in range(players):
        assert sorted(seating(rotation, players)) == list(range(players))


def test_deals_round_up_to_whole_decks() -> None:
    assert decks_for_deals(2000, 3) == 667
    assert decks_for_deals(2000, 2) == 1000
    assert decks_for_deals(5, 4) == 2
    with pytest.raises(TournamentError):
        decks_for_deals(0, 2)


def test_repeated_bot_names_get_distinct_labels() -> None:
    assert entry_labels(["simple", "simple"]) == ("simple#1", "simple#2")
    assert entry_labels(["hard", "medium"]) == ("hard", "medium")


def test_seeds_differ_by_part() -> None:
    seeds = {derive_seed(1, "deck", k) for k in range(200)}
    assert len(seeds) == 200
    assert derive_seed(1, "deck", 0) != derive_seed(2, "deck", 0)


def test_config_validation() -> None:
    known = ("random", "simple")
    with pytest.raises(TournamentError, match="unknown bot 'wizard'"):
        TournamentConfig("knock", ("simple", "wizard"), 1, 0).validate(known)
    with pytest.raises(TournamentError, match="gin is for 2-2 players, not 3"):
        TournamentConfig("gin", ("simple",) * 3, 1, 0).validate(known)
    with pytest.raises(TournamentError, match="at least 2 bots"):
        TournamentConfig("knock", ("simple",), 1, 0).validate(known)


# -- playing --------------------------------------------------------------------


def small_config(
    rules: str = "knock", bots: tuple[str, ...] = ("simple", "random"), decks: int = 3
) -> TournamentConfig:
    return TournamentConfig(rules=rules, bots=bots, decks=decks, seed=11)


def test_duplicate_structure_every_deck_once_per_rotation() -> None:
    config = small_config(bots=("simple", "random", "simple"), decks=2)
    decks = run_decks(config)
    assert [d.deck for d in decks] == [0, 1]
    for deck in decks:
        assert [deal.rotation for deal in deck.deals] == [0, 1, 2]
        assert [deal.seats for deal in deck.deals] == [seating(r, 3) for r in range(3)]
        assert deck.seed == derive_seed(11, "deck", deck.deck)
        assert deck.dealer == deck.deck % 3
        for deal in deck.deals:
            assert sum(deal.net) == 0  # knock moves points between players
    # the same deck is dealt each time: the same seed and dealer give the same hands
    first, second = (
        new_deal("knock", players=3, seed=decks[0].seed, dealer=decks[0].dealer) for _ in range(2)
    )
    assert [first.observe(s).hand for s in range(3)] == [second.observe(s).hand for s in range(3)]
    assert decks[0].seed != decks[1].seed


def test_results_do_not_depend_on_worker_count() -> None:
    config = small_config(decks=4)
    one = run_tournament(config, workers=1)
    two = run_tournament(config, workers=2)
    assert one.to_dict() == two.to_dict()


def test_the_hard_bot_on_a_rollout_budget_is_deterministic_across_workers() -> None:
    config = TournamentConfig(
        rules="knock",
        bots=("hard", "simple"),
        decks=2,
        seed=5,
        bot_options={"hard": {"rollouts": 2}},
    )
    assert (
        run_tournament(config, workers=1).to_dict() == run_tournament(config, workers=2).to_dict()
    )


def test_summary_means_equal_the_plain_means_over_deals() -> None:
    config = small_config(rules="knock-target", bots=("simple", "random", "random"), decks=3)
    result = summarize(config, run_decks(config))
    deals = [deal for deck in result.decks for deal in deck.deals]
    assert len(deals) == config.total_deals == 9
    for entry, summary in enumerate(result.entries):
        plain = statistics.fmean(float(deal.net[entry]) for deal in deals)
        assert summary.score.mean == pytest.approx(plain)
        assert summary.total == sum((deal.net[entry] for deal in deals), Fraction(0))
        assert summary.score.count == 3
    by_pair = {(m.a, m.b): m.estimate.mean for m in result.margins}
    assert set(by_pair) == {(0, 1), (0, 2), (1, 2)}
    for (a, b), margin in by_pair.items():
        assert margin == pytest.approx(result.entries[a].score.mean - result.entries[b].score.mean)
    series = result.cumulative_net()
    assert [len(s) for s in series] == [9, 9, 9]
    assert [s[-1] for s in series] == pytest.approx([float(e.total) for e in result.entries])


def test_melding_preset_runs() -> None:
    config = small_config(rules="rummy", decks=1)
    result = run_tournament(config)
    assert len(result.decks[0].deals) == 2
    assert sum(result.outcomes().values()) == 2


# -- the command ----------------------------------------------------------------


def test_command_writes_json_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    status = main(
        [
            "tournament",
            "--rules",
            "knock",
            "--players",
            "2",
            "--bots",
            "simple,random",
            "--deals",
            "5",
            "--seed",
            "3",
            "--workers",
            "2",
            "--out",
            str(out),
            "--json",
        ]
    )
    assert status == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["config"]["decks"] == 3 and printed["config"]["deals"] == 6
    document = json.loads((out / "results.json").read_text())
    assert document["config"]["seed"] == 3
    assert len(document["decks"]) == 3
    assert all(len(deck["deals"]) == 2 for deck in document["decks"])
    labels = {bot["label"] for bot in document["bots"]}
    assert labels == {"simple", "random"}
    assert document["margins"][0]["a"] == "simple"
    assert (out / "cumulative.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_command_prints_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        ["tournament", "--bots", "simple,random", "--decks", "2", "--seed", "1", "--no-files"]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "Mean net points per deal" in out and "simple − random" in out
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "3", "--bots", "simple,random"],
        ["--bots", "simple,wizard"],
        ["--rules", "gin", "--bots", "simple,random,random"],
        ["--rules", "canasta", "--bots", "simple,random"],
        ["--bots", "simple,random", "--deals", "0"],
        ["--bots", "simple,random", "--workers", "0"],
        ["--bots", "simple,random", "--seed", "-4"],
        ["--bots", "simple,random", "--deals", "4", "--decks", "2"],
        ["--bots", "simple,,random"],
        ["--bots", "simple,random", "-o", "colour=red"],
    ],
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(["tournament", "--no-files", *argv])
    except SystemExit as exit_:  # argparse refuses unreadable values itself
        status = int(exit_.code or 0)
    assert status == 2
    assert capsys.readouterr().err.strip()


# -- the extra ------------------------------------------------------------------


def test_the_tournament_without_scipy_names_its_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['scipy'] = None  # as if scipy were not installed\n"
        "from pyrummy.extras import MissingExtraError\n"
        "try:\n"
        "    import pyrummy.tournament\n"
        "except MissingExtraError as exc:\n"
        "    print(exc)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == (
        "this needs pyrummy's 'tournament' extra (scipy is missing): "
        "pip install 'pyrummy[tournament]'"
    )


def test_the_command_without_its_extra_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_find_spec = importlib.util.find_spec

    def without_scipy(name: str, package: str | None = None) -> ModuleSpec | None:
        return None if name == "scipy" else real_find_spec(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", without_scipy)
    assert main(["tournament", "--bots", "simple,random", "--no-files"]) == 2
    assert "pip install 'pyrummy[tournament]'" in capsys.readouterr().err


def test_the_bots_are_seeded_by_the_deck_and_the_seat_as_at_a_server_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pyrummy.bots
    import pyrummy.tournament.play as play

    seeded: list[tuple[str, int | None]] = []
    real = pyrummy.bots.make_bot

    def recording(name: str, seed: int | None = None, **options: object) -> Bot:
        seeded.append((name, seed))
        return real(name, seed=seed, **options)

    monkeypatch.setattr(play, "make_bot", recording)
    play.play_deck(TournamentConfig("knock", ("simple", "random"), decks=1, seed=3), 0)
    deck_seed = derive_seed(3, "deck", 0)
    # Rotation 0 seats simple then random; rotation 1 the other way round.
    assert seeded == [
        ("simple", bot_seed(deck_seed, 0)),
        ("random", bot_seed(deck_seed, 1)),
        ("random", bot_seed(deck_seed, 0)),
        ("simple", bot_seed(deck_seed, 1)),
    ]
