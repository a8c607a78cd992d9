"""The game families: what each policy declares, and that the engine follows it."""

from __future__ import annotations

import json

import pytest

from pyrummy.core.actions import action_space, parse_action
from pyrummy.core.errors import IllegalActionError, RulesError
from pyrummy.core.families import FAMILIES, FamilyPolicy, family_of
from pyrummy.core.match import check_ending
from pyrummy.core.rules import find_rules, preset_names


def test_every_family_is_registered_under_its_name() -> None:
    assert set(FAMILIES) == {"knock", "gin", "melding"}
    for name, policy in FAMILIES.items():
        assert isinstance(policy, FamilyPolicy) and policy.name == name


def test_capabilities_are_plain_data_that_says_what_the_family_does() -> None:
    for policy in FAMILIES.values():
        capabilities = policy.capabilities()
        assert json.loads(json.dumps(capabilities)) == capabilities
        assert capabilities["family"] == policy.name
        # A family knocks or plays on the table, never both, never neither.
        assert capabilities["knocks"] != capabilities["table_play"]
        assert (capabilities["showdown"] is None) == (not capabilities["knocks"])
    assert FAMILIES["gin"].capabilities()["wall"] is True
    assert FAMILIES["melding"].capabilities()["nobody_out"] == "no_winner"
    assert FAMILIES["knock"].capabilities()["play_phase"] == "discard"


@pytest.mark.parametrize("name", preset_names())
def test_the_action_space_numbers_what_the_family_allows(name: str) -> None:
    rules = find_rules(name)
    policy = family_of(rules)
    space = action_space(rules)
    assert (space.knocks, space.table_play) == (policy.knocks, policy.table_play)
    for text, allowed in (("knock 7H", policy.knocks), ("layoff 7H 0", policy.table_play)):
        if allowed:
            assert space.decode(space.encode(parse_action(text))) == parse_action(text)
        else:
            with pytest.raises(IllegalActionError):
                space.encode(parse_action(text))


def test_declining_and_the_match_ending_follow_the_policy() -> None:
    assert FAMILIES["knock"].on_decline(find_rules("knock")) == "end"
    assert FAMILIES["gin"].on_decline(find_rules("gin")) == "end"
    melding = FAMILIES["melding"]
    assert melding.on_decline(find_rules("basic")) == "rebuild_and_draw"
    assert not melding.refills_at_turn_start(find_rules("basic"))
    assert melding.on_decline(find_rules("rummy")) == "draw"  # rebuilt at the turn's start
    assert melding.refills_at_turn_start(find_rules("rummy"))
    check_ending(find_rules("knock", match_end="penalty_limit"))
    check_ending(find_rules("basic", scoring="penalty", match_end="penalty_limit"))
    for rules in (
        find_rules("gin", match_end="penalty_limit"),
        find_rules("block", match_end="penalty_limit"),
    ):
        with pytest.raises(RulesError, match="penalty_limit"):
            check_ending(rules)
