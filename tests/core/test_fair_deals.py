"""Fair deals in the core: the portable shuffle as the docs describe it,
commitments and reveals in records, old records, and ``pyrummy verify``."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyrummy.cli.main import main
from pyrummy.core.deal import new_deal
from pyrummy.core.errors import RecordError, RulesError
from pyrummy.core.match import Match, deal_seed, new_match
from pyrummy.core.record import emit_record, parse_record, read_record
from pyrummy.core.shuffle import LEGACY_SHUFFLE, PORTABLE_SHUFFLE

DOCS = Path(__file__).parents[2] / "docs" / "fair-deals.md"
FIXTURES = Path(__file__).parents[1] / "fixtures"
SALT = "5a" * 32


# -- the shuffle written again from docs/fair-deals.md alone -----------------------
#
# Written from the page's steps 1-5, not from pyrummy.core.shuffle: a second
# implementation that only agrees with the first if the page says enough.


def _docs_words(seed_text: str) -> Iterator[int]:
    k = 0
    while True:
        block = hashlib.sha256(("pyrummy-shuffle:" + seed_text + ":" + str(k)).encode()).digest()
        for start in range(0, 32, 4):
            yield int.from_bytes(block[start : start + 4], "big")
        k += 1


def docs_deck(seed: int, size: int) -> list[int]:
    words = _docs_words(str(seed))

    def below(n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            w: int = next(words)
            if w < limit:
                return w % n

    cards = list(range(size))
    for i in range(size - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def docs_card_name(number: int) -> str:
    if number >= 52:
        return f"X{number - 51}"
    return "A23456789TJQK"[number % 13] + "SHDC"[number // 13]


def docs_commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"pyrummy-deal:sha256-fy-1:{seed}:{salt}".encode()).hexdigest()


@pytest.mark.parametrize(("preset", "players"), [("knock", 3), ("gin", 2), ("rotham", 4)])
def test_the_docs_shuffle_deals_the_same_decks(preset: str, players: int) -> None:
    rng = random.Random(17)
    seeds = [0, 1, 2**64 - 1] + [rng.randrange(2**64) for _ in range(150)]
    for seed in seeds:
        deal = new_deal(preset, players, seed=seed, shuffle=PORTABLE_SHUFFLE)
        expected = [docs_card_name(c) for c in docs_deck(seed, deal.rules.deck_size)]
        assert [str(card) for card in deal.deck] == expected, seed


def test_rejection_sampling_is_exercised_as_documented(monkeypatch: pytest.MonkeyPatch) -> None:
    """A word at or over the limit is thrown away. Real streams almost never
    hold one for a deck (below one in 10**7), so SHA-256 is made to answer
    0xFFFFFFFF (over every limit) as the first word of every block 0: both
    implementations must skip it and agree."""
    real = hashlib.sha256

    class Forced:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def digest(self) -> bytes:
            digest = real(self.data).digest()
            return b"\xff" * 4 + digest[4:] if self.data.endswith(b":0") else digest

    monkeypatch.setattr(hashlib, "sha256", Forced)
    from pyrummy.core.shuffle import portable_order

    forced = {seed: portable_order(seed, 52) for seed in range(20)}
    assert all(forced[seed] == docs_deck(seed, 52) for seed in forced)
    monkeypatch.undo()
    # The forced word was really drawn and thrown away: every deck moved on by one word.
    assert all(forced[seed] != portable_order(seed, 52) for seed in forced)


def test_the_legacy_shuffle_is_still_the_default() -> None:
    assert new_deal("gin", 2, seed=9).shuffle == LEGACY_SHUFFLE
    legacy, portable = new_deal("gin", 2, seed=9), new_deal("gin", 2, seed=9, shuffle="sha256-fy-1")
    assert legacy.deck != portable.deck
    with pytest.raises(RulesError, match="unknown shuffle"):
        new_deal("gin", 2, seed=9, shuffle="mine")
    with pytest.raises(RulesError, match="salt"):
        new_match("gin", 2, seed=9, salt="not hex")


# -- records -------------------------------------------------------------------------


def fair_match(seed: int = 41, preset: str = "knock", players: int = 3) -> Match:
    match = new_match(preset, players, seed=seed, shuffle=PORTABLE_SHUFFLE, salt=SALT)
    rng = random.Random(seed)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_a_fair_record_commits_and_reveals_every_deal() -> None:
    match = fair_match()
    text = emit_record(match)
    assert '[Shuffle "sha256-fy-1"]' in text
    sections = re.findall(r"Deck: (.*)\nCommitment: (\w+)\nReveal: (\d+) (\w+)\n", text)
    assert len(sections) == len(match.finished_deals) == 3
    for number, (deck, commitment, seed, salt) in enumerate(sections, start=1):
        assert int(seed) == deal_seed(41, number)
        assert commitment == docs_commitment(int(seed), salt)
        assert deck.split() == [docs_card_name(c) for c in docs_deck(int(seed), 52)]
    again = read_record(text)
    assert emit_record(again.game) == text
    assert set(again.fairness) == {1, 2, 3}


def test_the_current_deal_is_not_revealed_before_it_ends() -> None:
    match = new_match("knock", 2, seed=5, shuffle=PORTABLE_SHUFFLE, salt=SALT)
    rng = random.Random(1)
    while len(match.finished_deals) < 1:
        match.apply(rng.choice(match.legal_actions()))
    text = emit_record(match)  # the match goes on: deal 2 is under way
    fair = match.fairness_of(2)
    assert fair is not None and fair.salt is not None
    assert text.count("Commitment:") == 2 and text.count("Reveal:") == 1
    assert fair.salt not in text and str(fair.seed) not in text
    assert "[Seed" not in text


def move_one_card(text: str, deal: int) -> str:
    """The record with one card of deal ``deal``'s deck moved to the end."""
    lines = text.splitlines(keepends=True)
    decks = [i for i, line in enumerate(lines) if line.startswith("Deck:")]
    index = decks[deal - 1]
    cards = lines[index].split()[1:]
    cards.append(cards.pop(5))
    lines[index] = "Deck: " + " ".join(cards) + "\n"
    return "".join(lines)


def test_a_record_with_one_card_moved_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = emit_record(fair_match())
    good = tmp_path / "good.txt"
    good.write_text(text, encoding="utf-8")
    assert main(["verify", str(good)]) == 0
    assert "verified" in capsys.readouterr().out
    for seed_header in (True, False):
        tampered = move_one_card(text, 2)
        if not seed_header:
            tampered = re.sub(r"\[Seed \"\d+\"\]\n", "", tampered)
        with pytest.raises(RecordError, match="deal 2: card 6 of the deck"):
            parse_record(tampered)
        bad = tmp_path / "bad.txt"
        bad.write_text(tampered, encoding="utf-8")
        assert main(["verify", str(bad)]) == 1
        err = capsys.readouterr().err
        assert "not verified" in err and "deal 2" in err and "card 6" in err


def test_a_forged_reveal_fails() -> None:
    text = emit_record(fair_match())
    seed = re.findall(r"Reveal: (\d+) ", text)[0]
    other = re.sub(r"Reveal: \d+ ", f"Reveal: {int(seed) + 1} ", text, count=1)
    with pytest.raises(RecordError, match="deal 1: the revealed seed and salt do not give"):
        parse_record(other)
    salt = re.findall(r"Reveal: \d+ (\w+)", text)[0]
    forged = text.replace(salt, "0" * 64, 1)
    with pytest.raises(RecordError, match="deal 1: the revealed seed and salt"):
        parse_record(forged)


def test_verify_refuses_records_without_commitments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = FIXTURES / "legacy_record_knock.txt"
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert "deal 1: no commitment" in err
    assert main(["verify", str(tmp_path / "missing.txt")]) == 2


def test_an_old_record_replays_with_the_old_shuffle() -> None:
    """A record made before the portable shuffle (no Shuffle header, made by
    the code of that time) replays: its Seed header deals its decks by the
    legacy shuffle, and it is written back byte for byte."""
    text = (FIXTURES / "legacy_record_knock.txt").read_text(encoding="utf-8")
    assert "Shuffle" not in text and "[Seed" in text
    record = read_record(text)
    match = record.game
    assert isinstance(match, Match) and match.shuffle == LEGACY_SHUFFLE
    assert match.is_over and not record.fairness
    assert emit_record(match, record.headers, seed=True) == text
    portable = text.replace('[Seed "2024"]', '[Seed "2024"]\n[Shuffle "sha256-fy-1"]')
    with pytest.raises(RecordError, match="not the one the Seed header deals"):
        parse_record(portable)


def test_the_docs_check_script_agrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The 20-line script of docs/fair-deals.md checks a record made here,
    and catches a moved card."""
    page = DOCS.read_text(encoding="utf-8")
    script = re.search(r"```python\n(.*?)```", page, re.S)
    assert script is not None
    assert len(script.group(1).splitlines()) <= 30
    namespace: dict[str, object] = {"__name__": "docs_check"}
    exec(script.group(1), namespace)
    check = namespace["check"]
    text = emit_record(fair_match(seed=8, preset="rotham", players=3))
    check(text)  # type: ignore[operator]
    out = capsys.readouterr().out.splitlines()
    assert out and all(line == "commitment ok deck ok" for line in out)
    check(move_one_card(text, 1))  # type: ignore[operator]
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "commitment ok deck WRONG"
