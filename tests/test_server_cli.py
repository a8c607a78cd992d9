"""``pyrummy serve``: its options, checked before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyrummy.cli.main import build_parser


def test_serve_options_and_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.data_dir, args.bot_delay) == (
        "127.0.0.1",
        8000,
        Path("data"),
        0.8,
    )
    assert args.allow_seed is False
    chosen = build_parser().parse_args(
        ["serve", "--host", "0.0.0.0", "--port", "9000", "--data-dir", "/tmp/x", "--bot-delay", "0"]
    )
    assert (chosen.host, chosen.port, chosen.data_dir, chosen.bot_delay) == (
        "0.0.0.0",
        9000,
        Path("/tmp/x"),
        0.0,
    )


@pytest.mark.parametrize("delay", ["-1", "11", "fast"])
def test_bad_bot_delay_is_refused(delay: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["serve", "--bot-delay", delay])
    assert exit_info.value.code == 2
    assert "bot" in capsys.readouterr().err
