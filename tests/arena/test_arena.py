"""The arena: duplicate boards, resuming, peers' bots, programs over the line protocol, ratings."""

from __future__ import annotations

import json
import math
import random
import sys
import textwrap
from pathlib import Path

import pytest

from pyrummy.arena import (
    ArenaConfig,
    ArenaError,
    Board,
    comparable,
    deck_seed,
    find_game,
    fit_ratings,
    parse_entrant,
    play_board,
    read_results,
    run_arena,
    summarize,
)
from pyrummy.arena.peers import RLCardGinRuleBot
from pyrummy.arena.protocol import MAX_STARTS
from pyrummy.bots import make_bot
from pyrummy.cli.main import main
from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import new_deal
from pyrummy.research.encoding import observation_size

ROOT = Path(__file__).resolve().parents[2]
JS_BOT = f"cmd:node {ROOT / 'examples' / 'arena_bot.js'}"

# A bot program in Python (another process) that logs every message it gets
# and misbehaves as its first argument says: "good" (first legal action),
# "vector" (asks for the research encoding too), "crash" (exits at once), "slow" (sleeps past the
# limit at its 2nd decision, once), "illegal" (answers an
# action it was not offered at its 2nd decision), "garbled" (answers noise).
PROGRAM = textwrap.dedent(
    """
    import json, os, sys, time
    mode, log = sys.argv[1], open(sys.argv[2], "a")
    if mode == "crash":
        log.write("start\\n")
        sys.exit(1)
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        log.write(message["type"] + "\\n"); log.flush()
        if message["type"] == "hello":
            print(json.dumps({"name": "test-" + mode, "vector": mode == "vector"}), flush=True)
        elif message["type"] == "decision":
            decisions += 1
            legal = message["legal"]
            if "vector" in message:
                log.write("vector-%d\\n" % len(message["vector"]))
            if decisions == 2 and mode == "slow" and not os.path.exists(sys.argv[2] + ".slept"):
                open(sys.argv[2] + ".slept", "w").close()  # once: the restarted program is quick
                time.sleep(5)
            if decisions == 2 and mode == "illegal":
                print("discard " + message["observation"]["discard_pile"][0], flush=True)
                continue
            if mode == "garbled":
                print("{not json", flush=True)
                continue
            print(json.dumps({"id": legal[0]["id"]}), flush=True)
        elif message["type"] == "bye":
            break
    """
)


def program(tmp_path: Path, mode: str) -> tuple[str, Path]:
    script = tmp_path / "bot.py"
    script.write_text(PROGRAM, encoding="utf-8")
    log = tmp_path / f"{mode}.log"
    return f"cmd:{sys.executable} {script} {mode} {log}", log


# -- schedule, boards, resuming ---------------------------------------------------


def test_every_pair_plays_every_deck_with_the_seats_swapped() -> None:
    config = ArenaConfig(game="knock", entrants=("simple", "random", "medium"), decks=2, seed=4)
    records = run_arena(config, None)
    assert [(r["deck"], tuple(r["pair"])) for r in records] == [
        (deck, pair)
        for deck in range(2)
        for pair in [("simple", "random"), ("simple", "medium"), ("random", "medium")]
    ]
    for record in records:
        a, b = record["pair"]
        assert [d["seats"] for d in record["deals"]] == [[a, b], [b, a]]
        assert record["seed"] == deck_seed(4, record["deck"])  # every pair, the same decks
        for deal in record["deals"]:
            assert sum(deal["points"]) == 0
        margin = sum(d["points"][d["seats"].index(a)] for d in record["deals"])
        assert record["margin"] == margin
        assert record["score"] == (1.0 if margin > 0 else 0.0 if margin < 0 else 0.5)


def test_a_board_is_the_same_whenever_it_is_played() -> None:
    config = ArenaConfig(game="gin", entrants=("simple", "medium"), decks=3, seed=9)
    again = play_board((config, Board(2, (0, 1))))
    assert comparable(again) == comparable(run_arena(config, None)[2])


def test_resume_ends_with_the_results_of_an_uninterrupted_run(tmp_path: Path) -> None:
    config = ArenaConfig(game="knock", entrants=("simple", "random", "medium"), decks=3, seed=2)
    whole = run_arena(config, tmp_path / "whole.jsonl")
    path = tmp_path / "cut.jsonl"
    boards_before_stop = 4

    def stop_after(deals: int, seen: list[int] = []) -> None:  # noqa: B006 - a counter
        seen.append(deals)
        if len(seen) == boards_before_stop:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_arena(config, path, progress=stop_after)
    assert len(read_results(path).records) == boards_before_stop
    with path.open("a", encoding="utf-8") as handle:  # a line cut short by the stop
        handle.write('{"type": "board", "deck": 2, "pa')
    resumed = run_arena(config, path, resume=True)
    assert [comparable(r) for r in resumed] == [comparable(r) for r in whole]
    on_file = read_results(path)
    assert len(on_file.records) == len(whole)
    assert sorted(json.dumps(comparable(r), sort_keys=True) for r in on_file.records) == sorted(
        json.dumps(comparable(r), sort_keys=True) for r in whole
    )
    # More decks later: only the new boards are played.
    more = ArenaConfig(game="knock", entrants=config.entrants, decks=4, seed=2)
    played: list[int] = []
    run_arena(more, path, resume=True, progress=played.append)
    assert sum(played) == 2 * 3 * 4  # the 9 known boards' deals, then the 3 new boards'


def test_an_entrant_added_at_the_end_plays_only_its_own_pairs(tmp_path: Path) -> None:
    grown = ArenaConfig(game="knock", entrants=("simple", "random", "medium"), decks=2, seed=4)
    whole = run_arena(grown, tmp_path / "whole.jsonl")
    path = tmp_path / "grown.jsonl"
    run_arena(ArenaConfig(game="knock", entrants=grown.entrants[:2], decks=2, seed=4), path)
    played: list[int] = []
    resumed = run_arena(grown, path, resume=True, progress=played.append)
    assert played[0] == 2 * 2  # the 2 known boards at once, then one call per new board
    assert sum(played) == 2 * 2 * 3 and len(played) == 1 + 2 * 2
    assert [comparable(r) for r in resumed] == [comparable(r) for r in whole]
    on_file = read_results(path)
    assert on_file.header["config"]["entrants"] == list(grown.entrants)
    assert len(on_file.records) == len(whole)
    again: list[int] = []  # the file now describes the grown arena: nothing left to play
    run_arena(grown, path, resume=True, progress=again.append)
    assert again == [2 * 2 * 3]
    reordered = ArenaConfig(game="knock", entrants=("random", "simple", "medium"), decks=2, seed=4)
    with pytest.raises(ArenaError, match=r"other settings \(entrants\)"):
        run_arena(reordered, path, resume=True)


def test_a_results_file_is_not_overwritten_or_resumed_with_other_settings(tmp_path: Path) -> None:
    path = tmp_path / "arena.jsonl"
    config = ArenaConfig(game="knock", entrants=("simple", "random"), decks=1, seed=1)
    run_arena(config, path)
    before = path.read_bytes()
    with pytest.raises(ArenaError, match="exists: --resume"):
        run_arena(config, path)
    other = ArenaConfig(game="knock", entrants=("simple", "random"), decks=1, seed=2)
    with pytest.raises(ArenaError, match=r"other settings \(seed\)"):
        run_arena(other, path, resume=True)
    assert path.read_bytes() == before


def test_bad_entrants_and_games_are_refused_with_a_reason() -> None:
    with pytest.raises(ArenaError, match="unknown entrant 'grandmaster'"):
        parse_entrant("grandmaster")
    with pytest.raises(ArenaError, match="does not take the option"):
        parse_entrant("simple+depth=3")
    with pytest.raises(ArenaError, match="only OpenSpiel's own gin"):
        ArenaConfig(game="gin", entrants=("simple", "openspiel:simple"), decks=1, seed=1).validate()
    with pytest.raises(ArenaError, match="only gin games"):
        ArenaConfig(
            game="knock", entrants=("simple", "rlcard:gin-rule"), decks=1, seed=1
        ).validate()
    with pytest.raises(ArenaError, match="no program"):
        ArenaConfig(
            game="knock", entrants=("simple", "cmd:./no-such-bot"), decks=1, seed=1
        ).validate()
    with pytest.raises(ArenaError, match="named twice"):
        ArenaConfig(game="knock", entrants=("simple", "simple"), decks=1, seed=1).validate()
    with pytest.raises(ArenaError, match="--game basic"):
        find_game("basic", {"no_such_option": 1})
    assert parse_entrant("hard+rollouts=8").options == {"rollouts": 8}


# -- OpenSpiel's and RLCard's bots --------------------------------------------------


def test_openspiel_simple_and_ismcts_play_openspiels_gin() -> None:
    config = ArenaConfig(
        game="openspiel-gin",
        entrants=("simple", "openspiel:simple", "openspiel:ismcts+simulations=8"),
        decks=1,
        seed=5,
    )
    records = run_arena(config, None)
    assert len(records) == 3
    for record in records:
        for deal in record["deals"]:
            assert sum(deal["points"]) == 0
            assert deal["outcome"] in {"knock", "gin", "undercut", "wall"}
            assert abs(deal["points"][0]) <= 150  # OpenSpiel's bound for its gin
        for tally in record["tallies"].values():
            assert tally["decisions"] > 0 and not tally["faults"]
    # ISMCTS draws its random numbers from the deal's seed: the same board again agrees.
    again = play_board((config, Board(0, (1, 2))))
    assert comparable(again) == comparable(records[2])


def test_rlcards_rule_agent_plays_gin_and_keeps_its_seed() -> None:
    deal = new_deal("gin", players=2, seed=11)
    seat_bots = [RLCardGinRuleBot(seed=1, rules=deal.rules), make_bot("simple", seed=2)]
    twin = RLCardGinRuleBot(seed=1, rules=deal.rules)
    while not deal.is_over:
        seat = deal.current_seat
        assert seat is not None
        legal = deal.legal_actions()
        action = seat_bots[seat].choose(deal.observe(seat), legal)
        if seat == 0:
            assert action in legal and action.kind is not ActionKind.UNDO
            assert twin.choose(deal.observe(seat), legal) == action
            knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
            if knocks:  # the novice agent goes out whenever it may
                assert action.kind is ActionKind.KNOCK
        deal.apply(action)
    config = ArenaConfig(
        game="openspiel-gin", entrants=("rlcard:gin-rule", "openspiel:simple"), decks=1, seed=3
    )
    (record,) = run_arena(config, None)
    assert record["tallies"]["rlcard:gin-rule"]["decisions"] > 0


# -- programs over the line protocol ------------------------------------------------


@pytest.mark.parametrize("game", ["knock", "gin"])
def test_a_javascript_program_plays_in_the_arena(game: str) -> None:
    config = ArenaConfig(game=game, entrants=("simple", JS_BOT), decks=2, seed=7)
    records = run_arena(config, None)
    for record in records:
        tally = record["tallies"][JS_BOT]
        assert tally["decisions"] > 0 and tally["faults"] == []
    assert comparable(play_board((config, Board(1, (0, 1))))) == comparable(records[1])


def test_a_program_hears_hello_deals_decisions_results_and_bye(tmp_path: Path) -> None:
    entrant, log = program(tmp_path, "good")
    (record,) = run_arena(ArenaConfig("knock", ("simple", entrant), 1, 3), None)
    messages = log.read_text().split()
    assert messages[0] == "hello" and messages[-1] == "bye"
    assert messages.count("hello") == 1 and messages.count("result") == 2
    assert messages.count("decision") == record["tallies"][entrant]["decisions"]
    assert messages.index("deal") < messages.index("decision")


def test_a_program_may_ask_for_the_research_encoding(tmp_path: Path) -> None:
    entrant, log = program(tmp_path, "vector")
    (record,) = run_arena(ArenaConfig("knock", ("simple", entrant), 1, 3), None)
    seen = log.read_text().split()
    assert seen.count(f"vector-{observation_size(2)}") == record["tallies"][entrant]["decisions"]
    _, plain_log = program(tmp_path, "good")
    run_arena(ArenaConfig("knock", ("simple", program(tmp_path, "good")[0]), 1, 3), None)
    assert not any(word.startswith("vector") for word in plain_log.read_text().split())


def test_worker_processes_give_the_results_of_one_process(tmp_path: Path) -> None:
    config = ArenaConfig(game="knock", entrants=("simple", "random", JS_BOT), decks=2, seed=6)
    one = run_arena(config, None)
    two = run_arena(config, tmp_path / "two.jsonl", workers=2)
    assert [comparable(r) for r in two] == [comparable(r) for r in one]


def test_a_program_that_runs_out_of_time_is_cut_off_and_its_move_played_for_it(
    tmp_path: Path,
) -> None:
    entrant, log = program(tmp_path, "slow")
    good, _ = program(tmp_path, "good")
    config = ArenaConfig("gin", ("simple", entrant), 1, 3, time_limit=0.5)
    (record,) = run_arena(config, None)
    faults = record["tallies"][entrant]["faults"]
    assert [fault["reason"] for fault in faults] == ["timeout"]
    # The program was killed and started again (a second hello); play went on.
    assert log.read_text().split().count("hello") == 2
    # The fallback is the first legal action: what the well-behaved program plays there.
    polite = run_arena(ArenaConfig("gin", ("simple", good), 1, 3, time_limit=0.5), None)[0]

    def play(deal: dict[str, object]) -> tuple[object, ...]:
        return deal["points"], deal["net"], deal["outcome"], deal["actions"]

    assert [play(d) for d in record["deals"]] == [play(d) for d in polite["deals"]]


def test_an_illegal_or_garbled_answer_is_a_fault_and_the_fallback_is_played(
    tmp_path: Path,
) -> None:
    entrant, log = program(tmp_path, "illegal")
    (record,) = run_arena(ArenaConfig("knock", ("simple", entrant), 1, 3), None)
    (fault,) = record["tallies"][entrant]["faults"]
    assert fault["reason"] == "illegal" and fault["detail"].startswith("discard ")
    assert "error" in log.read_text().split()  # the program is told
    garbled, _ = program(tmp_path, "garbled")
    (record,) = run_arena(ArenaConfig("knock", ("simple", garbled), 1, 3), None)
    tally = record["tallies"][garbled]
    assert len(tally["faults"]) == tally["decisions"] > 0
    assert {fault["reason"] for fault in tally["faults"]} == {"illegal"}


# -- ratings -------------------------------------------------------------------------


def simulated_games(
    strengths: list[float], per_pair: int, rng: random.Random
) -> list[tuple[int, int, float]]:
    games = []
    for i in range(len(strengths)):
        for j in range(i + 1, len(strengths)):
            p = 1.0 / (1.0 + math.exp(strengths[j] - strengths[i]))
            games += [(i, j, 1.0 if rng.random() < p else 0.0) for _ in range(per_pair)]
    return games


def test_ratings_find_the_order_of_known_strengths_and_their_intervals_cover_them() -> None:
    strengths = [0.0, 0.4, 0.9, -0.6, 1.5]
    truth = [1000.0 + 400.0 / math.log(10.0) * s for s in strengths]
    covered = total = 0
    rng = random.Random(12)
    for _ in range(60):
        fit = fit_ratings(5, simulated_games(strengths, 150, rng), anchor=0, prior_ties=0.0)
        ranked = sorted(range(5), key=lambda k: fit.ratings[k])
        assert ranked == sorted(range(5), key=lambda k: strengths[k])
        for k in range(1, 5):
            total += 1
            covered += fit.low[k] <= truth[k] <= fit.high[k]
    assert 0.88 <= covered / total <= 0.99  # 95% intervals


def test_a_bot_that_wins_every_board_gets_a_finite_rating_and_ties_count_half() -> None:
    games = [(0, 1, 1.0)] * 20 + [(1, 2, 0.5)] * 20
    fit = fit_ratings(3, games, anchor=1)
    assert math.isfinite(fit.ratings[0]) and fit.ratings[0] > fit.ratings[1] + 300
    assert fit.ratings[2] == pytest.approx(1000.0, abs=1e-3)
    assert fit.expected_score(1, 2) == pytest.approx(0.5, abs=1e-6)


def test_the_ladder_ranks_the_entrants_and_the_command_writes_it(tmp_path: Path) -> None:
    results, ladder = tmp_path / "knock.jsonl", tmp_path / "ladder.md"
    status = main(
        [
            "arena",
            "--game",
            "knock",
            "--bots",
            "random,simple",
            "--deals",
            "12",
            "--seed",
            "1",
            "--results",
            str(results),
            "--ladder",
            str(ladder),
        ]
    )
    assert status == 0
    text = ladder.read_text()
    assert "pyrummy arena --game knock --bots random,simple --decks 6 --seed 1" in text
    rows = [
        line for line in text.splitlines() if line.startswith("| 1 |") or line.startswith("| 2 |")
    ]
    config = ArenaConfig("knock", ("random", "simple"), 6, 1)
    expected = summarize(config, read_results(results).records)
    best = max(range(2), key=lambda k: expected.ratings.ratings[k])
    assert f"`{config.entrants[best]}`" in rows[0]
    assert main(["arena", "--bots", "simple,grandmaster", "--results", str(tmp_path / "x")]) == 2


def test_a_program_that_cannot_start_is_tried_three_times_then_every_decision_faults(
    tmp_path: Path,
) -> None:
    entrant, log = program(tmp_path, "crash")
    (record,) = run_arena(ArenaConfig("knock", ("simple", entrant), 1, 3), None)
    tally = record["tallies"][entrant]
    assert len(tally["faults"]) == tally["decisions"] > 3
    assert {fault["reason"] for fault in tally["faults"]} == {"exited"}
    assert log.read_text().split() == ["start"] * MAX_STARTS
    assert all(deal["outcome"] for deal in record["deals"])  # both deals were played out
