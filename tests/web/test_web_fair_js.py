"""The page's fair-deal check (fair.js) against Python's: the same SHA-256
(its own fallback and the browser's crypto.subtle), the same decks from the
same seeds, the same commitments, and the same verdicts on real and
tampered reveals. The module runs in node, as the browser would run it."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from pyrummy.core.match import new_match
from pyrummy.core.shuffle import portable_order
from pyrummy.server.views import revealed_deal
from web_helpers import run_node

FAIR = (Path(__file__).resolve().parents[2] / "src/pyrummy/web/static/js/fair.js").as_uri()


def node(body: str, **data: Any) -> Any:
    names = ", ".join(
        ["sha256", "sha256Fallback", "portableOrder", "commitmentOf", "checkReveal", "cardName"]
    )
    script = f"import {{ {names} }} from {json.dumps(FAIR)};\n"
    script += "".join(f"const {key} = {json.dumps(value)};\n" for key, value in data.items())
    script += "const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');\n"
    script += body
    return run_node(script)


def test_the_fallback_sha256_agrees_with_hashlib_at_every_padding_length() -> None:
    rng = random.Random(5)
    inputs = [bytes(rng.randrange(256) for _ in range(n)) for n in [*range(0, 130), 1000]]
    found = node(
        "const out = inputs.map((h) => hex(sha256Fallback(Uint8Array.from(h))));\n"
        "process.stdout.write(JSON.stringify(out));\n",
        inputs=[list(data) for data in inputs],
    )
    assert found == [hashlib.sha256(data).hexdigest() for data in inputs]


def test_the_page_deals_the_same_decks_and_commitments_as_python() -> None:
    rng = random.Random(11)
    seeds = [0, 1, 2**64 - 1, *(rng.randrange(2**64) for _ in range(40))]
    salts = [f"{rng.getrandbits(256):064x}" for _ in seeds]
    found = node(
        "const out = [];\n"
        "for (let i = 0; i < seeds.length; i++) {\n"
        "  const seed = seeds[i];\n"
        "  const fallback = i % 2 === 1;\n"
        "  out.push({\n"
        "    d52: await portableOrder(seed, 52, { fallback }),\n"
        "    d55: await portableOrder(seed, 55, { fallback: !fallback }),\n"
        "    c: await commitmentOf('sha256-fy-1', seed, salts[i], { fallback }),\n"
        "  });\n"
        "}\n"
        "process.stdout.write(JSON.stringify(out));\n",
        seeds=[str(seed) for seed in seeds],
        salts=salts,
    )
    from pyrummy.core.fairness import commitment_of

    for seed, salt, page in zip(seeds, salts, found, strict=True):
        assert page["d52"] == portable_order(seed, 52)
        assert page["d55"] == portable_order(seed, 55)
        assert page["c"] == commitment_of("sha256-fy-1", seed, salt)


def finished_reveals() -> list[tuple[dict[str, Any], list[str], int]]:
    """Reveals of real deals as the server sends them, with seat 0's dealt hand."""
    found = []
    for preset, players in (("knock", 3), ("gin", 2), ("rotham", 3)):
        match = new_match(preset, players, seed=7, shuffle="sha256-fy-1", salt="c3" * 32)
        dealt = [str(card) for card in match.deal.hands(0)]
        rng = random.Random(2)
        while not match.finished_deals:
            match.apply(rng.choice(match.legal_actions()))
        reveal = revealed_deal(match, 1)
        assert reveal is not None
        found.append((reveal, dealt, 0))
    return found


def test_the_page_verifies_real_reveals_and_refuses_tampered_ones() -> None:
    cases = []
    for reveal, hand, seat in finished_reveals():
        moved = dict(reveal, deck=[*reveal["deck"][:3], *reveal["deck"][4:], reveal["deck"][3]])
        other_hand = [*hand[1:], reveal["deck"][-1]]
        cases += [
            (reveal, {"commitment": reveal["commitment"], "hand": hand}, seat, True, None),
            (moved, {"hand": hand}, seat, False, "deck"),
            (reveal, {"hand": other_hand}, seat, False, "hand"),
            (reveal, {"commitment": "0" * 64}, seat, False, "changed"),
            (dict(reveal, salt="1" * 64), {}, seat, False, "commitment"),
            (dict(reveal, seed=str(int(reveal["seed"]) + 1)), {}, seat, False, "commitment"),
        ]
    found = node(
        "const out = [];\n"
        "for (const [reveal, seen, seat] of cases) {\n"
        "  out.push(await checkReveal(reveal, seen, seat));\n"
        "  out.push(await checkReveal(reveal, seen, seat, { fallback: true }));\n"
        "}\n"
        "process.stdout.write(JSON.stringify(out));\n",
        cases=[[reveal, seen, seat] for reveal, seen, seat, _, _ in cases],
    )
    expected = [
        {"ok": True} if ok else {"ok": False, "reason": reason}
        for _, _, _, ok, reason in cases
        for _ in range(2)
    ]
    assert found == expected
