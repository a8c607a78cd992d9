"""The page's knock advice (js/advice.js), which words both the hint's
suggested knock and the knock warning: one rule, so the two agree."""

from __future__ import annotations

import json
from typing import Any

from web_helpers import ROOT, run_node

ADVICE = ROOT / "src" / "pyrummy" / "web" / "static" / "js" / "advice.js"


def advise(knock_deadwood: dict[str, int], taken: list[list[str]], card: str) -> Any:
    state = {
        "seat": 0,
        "knock_deadwood": knock_deadwood,
        "table": {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "easy"}]},
        "observation": {"taken_discards": taken},
    }
    # The page's language comes from the browser: an English one here.
    script = f"""
        globalThis.localStorage = {{ getItem: () => null, setItem: () => {{}} }};
        globalThis.navigator = {{ language: "en", languages: ["en"] }};
        const {{ knockAdvice }} = await import({json.dumps(ADVICE.as_uri())});
        console.log(JSON.stringify(knockAdvice({json.dumps(state)}, {json.dumps(card)})));
    """
    return run_node(script)


def test_low_deadwood_is_a_safe_knock_and_ten_is_risky() -> None:
    assert advise({"KS": 9}, [[], []], "KS") == {
        "risky": False,
        "key": "advice.knockLow",
        "values": {"card": "K♠", "n": 9},
    }
    high = advise({"7H": 10}, [[], []], "7H")
    assert high["risky"] and high["key"] == "advice.knockHigh" and high["values"]["n"] == 10


def test_gin_is_never_risky_and_an_impossible_knock_has_no_advice() -> None:
    assert advise({"2C": 0}, [[], ["5H"]], "2C")["key"] == "advice.knockGin"
    assert advise({"2C": 0}, [[], []], "QD") is None


def test_cards_an_opponent_took_make_any_deadwood_risky() -> None:
    taken = advise({"KS": 3}, [[], ["5H", "6H"]], "KS")
    assert taken["risky"] and taken["key"] == "advice.knockTaken"
    assert taken["values"]["cards"] == "5♥ 6♥" and taken["values"]["name"] == "Bot 1"
