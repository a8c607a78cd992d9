"""Write the page's sounds: short self-made WAV files (no samples, no licences).

Run once; the files are shipped in src/pyrummy/web/static/sounds/.
    python scripts/make_sounds.py
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "src" / "pyrummy" / "web" / "static" / "sounds"


def write(name: str, samples: list[float]) -> None:
    with wave.open(str(OUT / name), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(max(-1, min(1, s)) * 20000)) for s in samples))


def card() -> list[float]:
    """A card slid on felt: a short burst of filtered noise."""
    noise = random.Random(1)
    length = int(RATE * 0.08)
    value, result = 0.0, []
    for i in range(length):
        value = 0.6 * value + 0.4 * noise.uniform(-1, 1)
        result.append(value * math.exp(-i / (RATE * 0.02)))
    return result


def knock() -> list[float]:
    """Two knocks on wood: low damped tones."""
    result: list[float] = []
    for _ in range(2):
        for i in range(int(RATE * 0.09)):
            t = i / RATE
            result.append(math.sin(2 * math.pi * 180 * t) * math.exp(-t * 45))
        result.extend([0.0] * int(RATE * 0.05))
    return result


def chime() -> list[float]:
    """The end of a deal: three rising notes."""
    result: list[float] = []
    for freq in (523.25, 659.25, 783.99):
        for i in range(int(RATE * 0.12)):
            t = i / RATE
            result.append(0.6 * math.sin(2 * math.pi * freq * t) * math.exp(-t * 12))
    return result


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    write("card.wav", card())
    write("knock.wav", knock())
    write("chime.wav", chime())
