"""Terminal play against bots: input commands, the rich view, the loop."""

from pyrummy.cli.play.session import PlaySession

__all__ = ["PlaySession"]
