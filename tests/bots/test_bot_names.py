"""Bot names are listed once (pyrummy.bots.BOT_NAMES); the web's choice is a
part of that list, derived from it."""

import pytest

from pyrummy.bots import BOT_NAMES, DIFFICULTIES, LEVELS, find_level, make_bot
from pyrummy.bots.base import UnknownBotError
from pyrummy.server.tables import WEB_BOTS


def test_every_listed_name_makes_a_bot() -> None:
    for name in BOT_NAMES:
        assert make_bot(name, seed=1).name in BOT_NAMES


def test_the_list_is_every_name_make_bot_accepts() -> None:
    assert set(DIFFICULTIES) <= set(BOT_NAMES)
    assert len(set(BOT_NAMES)) == len(BOT_NAMES)
    with pytest.raises(UnknownBotError, match=", ".join(BOT_NAMES)):
        make_bot("grandmaster")


def test_the_web_offers_the_difficulties_the_random_player_and_the_learned_bot() -> None:
    assert WEB_BOTS == ("easy", "medium", "hard", "random", "learned")
    assert set(WEB_BOTS) <= set(BOT_NAMES)


def test_each_level_makes_the_bot_of_its_name_and_describes_itself() -> None:
    assert [level.name for level in LEVELS] == ["random", "simple", "medium", "hard", "learned"]
    assert BOT_NAMES == ("random", "simple", "medium", "hard", "learned", "easy")
    for level in LEVELS:
        bot = make_bot(level.name, seed=1)
        assert bot.name == level.name
        assert isinstance(bot, level.factory)  # type: ignore[arg-type]
        shown = level.to_json()
        assert set(shown) == {"name", "title", "summary", "difficulty"}
        assert shown["title"] and shown["summary"]
        if level.difficulty is not None:
            assert find_level(level.difficulty) is level
            assert DIFFICULTIES[level.difficulty] == level.name
    assert find_level(" Hard ") is find_level("hard")


def test_the_server_names_its_inline_bots_by_the_registry_s_names() -> None:
    from pyrummy.server.botpool import INLINE_BOTS, BotPool

    assert INLINE_BOTS.issubset(level.name for level in LEVELS)
    pool = BotPool()
    # A difficulty name means its bot: "easy" is the simple bot, which decides inline.
    inline = {name for name in WEB_BOTS if pool.decides_inline(name, "knock/2")}
    assert inline == {"easy", "random"}
    assert not pool.decides_inline("easy", None)
