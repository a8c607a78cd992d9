"""One seed derivation for the whole project (pyrummy.core.seeds), giving the
very seeds the three former copies gave: stored matches, seeded tables and
tournaments replay as before."""

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyrummy.core.match import deal_seed
from pyrummy.core.seeds import bot_seed, derive_seed
from pyrummy.server import tables


def _sha(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=500))
def test_the_former_formulas_are_kept(seed: int, number: int) -> None:
    # core/match.py: 64 bits of "pyrummy-match:<seed>:<deal>".
    assert deal_seed(seed, number) == int.from_bytes(
        _sha(f"pyrummy-match:{seed}:{number}")[:8], "big"
    )
    # server/tables.py: 32 bits of "pyrummy-bot:<seed>:<seat>".
    assert bot_seed(seed, number) == int.from_bytes(_sha(f"pyrummy-bot:{seed}:{number}")[:4], "big")
    # bots/tournament.py: 63 bits of "pyrummy-tournament:<seed>:<parts>".
    expected = int.from_bytes(_sha(f"pyrummy-tournament:{seed}:deck:{number}")[:8], "big") >> 1
    assert derive_seed("pyrummy-tournament", seed, "deck", number) == expected


def test_known_values() -> None:
    assert deal_seed(7, 1) == 7375885437094266031
    assert bot_seed(7, 1) == 963227805
    assert derive_seed("pyrummy-tournament", 1, "deck", 0) == 4401661282921650385


@pytest.mark.parametrize("bits", [1, 8, 32, 63, 64])
def test_the_width_is_the_one_asked_for(bits: int) -> None:
    values = [derive_seed("test", k, bits=bits) for k in range(200)]
    assert max(values) < 2**bits
    assert max(values) >= 2 ** (bits - 1) or bits == 1  # the top bit is used


def test_domains_and_parts_tell_seeds_apart() -> None:
    assert derive_seed("a", 1, 2) != derive_seed("b", 1, 2)
    assert derive_seed("a", 1, 2) != derive_seed("a", 2, 1)
    assert derive_seed("a", 12, 3) != derive_seed("a", 1, 23)


@pytest.mark.parametrize("bits", [0, 65, -1])
def test_a_width_outside_1_to_64_is_refused(bits: int) -> None:
    with pytest.raises(ValueError, match="bits must be 1-64"):
        derive_seed("test", 1, bits=bits)


def test_the_server_uses_the_core_bot_seed() -> None:
    assert tables.bot_seed is bot_seed
