"""The core's one-way imports: a deal observes and records itself without any registration."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from pyrummy.core.deal import new_deal
from pyrummy.core.errors import RummyError
from pyrummy.core.match import new_match
from pyrummy.core.observation import Observation
from pyrummy.core.record import emit_record, parse_record
from pyrummy.core.sampling import sample_deal


def test_a_deals_views_are_the_modules_functions() -> None:
    deal = new_deal("gin", 2, seed=5)
    deal.apply("draw stock")
    assert deal.observe(0) == Observation.of(deal, 0)
    assert deal.record() == emit_record(deal)
    match = new_match("knock", 2, seed=5)
    assert match.record(seed=True) == emit_record(match, seed=True)


def test_a_fresh_process_importing_only_the_deal_module_can_observe_and_record() -> None:
    # The deal calls its view and record writer directly: nothing has to be
    # imported first for them to work.
    script = (
        "from pyrummy.core.deal import new_deal\n"
        "deal = new_deal('knock', 2, seed=1)\n"
        "print(deal.observe(0).stock_count, deal.record().splitlines()[0])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    stock, header = done.stdout.split(maxsplit=1)
    assert int(stock) == new_deal("knock", 2, seed=1).observe(0).stock_count
    assert header.startswith("[")


def test_a_sampled_deal_has_no_record_and_keeps_the_observers_view() -> None:
    deal = new_deal("rummy", 3, seed=2)
    seen = deal.observe(1)
    sampled = sample_deal(seen, random.Random(3))
    assert sampled.observe(1).hand == seen.hand
    with pytest.raises(RummyError, match="no record"):
        sampled.record()
    assert parse_record(deal.record()).observe(1) == seen
