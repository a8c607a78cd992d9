"""``pyrummy serve``: its options, checked before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyrummy.cli.cmd_serve import settings_from
from pyrummy.cli.main import build_parser


def test_serve_options_and_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PYRUMMY_HOST", "PYRUMMY_PORT", "PYRUMMY_DATA_DIR", "PYRUMMY_BOT_DELAY"):
        monkeypatch.delenv(name, raising=False)
    defaults = settings_from(build_parser().parse_args(["serve"]))
    assert (defaults.host, defaults.port, defaults.data_dir, defaults.bot_delay) == (
        "127.0.0.1",
        8000,
        Path("data"),
        0.8,
    )
    assert defaults.allow_seed is False
    chosen = settings_from(
        build_parser().parse_args(
            [
                *("serve", "--host", "0.0.0.0", "--port", "9000", "--data-dir", "/tmp/x"),
                *("--bot-delay", "0", "--abandon-after", "2", "--idle-after", "1.5"),
            ]
        )
    )
    assert (chosen.host, chosen.port, chosen.data_dir, chosen.bot_delay) == (
        "0.0.0.0",
        9000,
        Path("/tmp/x"),
        0.0,
    )
    # The flags' units are the operator's: hours and minutes, stored in seconds.
    assert (chosen.lifecycle.abandon_after, chosen.lifecycle.idle_after) == (7200, 90)


def test_a_flag_wins_over_the_environment_which_wins_over_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYRUMMY_BOT_DELAY", "2.5")
    monkeypatch.setenv("PYRUMMY_MAX_TABLES", "7")
    from_env = settings_from(build_parser().parse_args(["serve"]))
    assert (from_env.bot_delay, from_env.table_cap) == (2.5, 7)
    flagged = settings_from(build_parser().parse_args(["serve", "--bot-delay", "1"]))
    assert flagged.bot_delay == 1.0


def test_the_workers_read_the_settings_their_parent_had(monkeypatch: pytest.MonkeyPatch) -> None:
    from pyrummy.server.settings import Settings

    parent = settings_from(
        build_parser().parse_args(
            [
                *("serve", "--bot-delay", "0.3", "--rate-limit", "off", "--idle-after", "2"),
                *("--allowed-origin", "https://a.example", "--allowed-origin", "https://b.example"),
            ]
        )
    )
    for name, value in parent.environment().items():
        monkeypatch.setenv(name, value)
    worker = Settings()
    assert worker == parent
    assert worker.table_cap == 0 and worker.limits.act is None


def test_every_flag_is_declared_once_with_the_settings(capsys: pytest.CaptureFixture[str]) -> None:
    from pyrummy.server.settings import cli_flags

    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    text = capsys.readouterr().out
    for _section, name, _info, flag in cli_flags():
        shown = flag.name or "--" + name.replace("_", "-")
        assert (shown if flag.serve_default is None else "--no-tune-gc") in text
    # The help shows each default from the declaration (hours for --abandon-after).
    assert "(default 6)" in " ".join(text.split())


@pytest.mark.parametrize("delay", ["-1", "11", "fast"])
def test_bad_bot_delay_is_refused(delay: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["serve", "--bot-delay", delay])
    assert exit_info.value.code == 2
    assert "bot" in capsys.readouterr().err
