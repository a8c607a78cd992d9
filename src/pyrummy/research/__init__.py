"""Research interfaces: PettingZoo, OpenSpiel and Gymnasium environments.

Each module is imported on its own, so only the libraries you use need to be
installed (``pip install pyrummy[research]`` installs them all):

- :mod:`pyrummy.research.encoding` — the versioned observation tensor, action
  masks and zero-sum rewards shared by every environment;
- :mod:`pyrummy.research.pettingzoo` — ``env()``, ``raw_env``,
  ``parallel_env()``: one deal of any preset as a PettingZoo AEC environment;
- :mod:`pyrummy.research.openspiel` — every preset registered as an OpenSpiel
  Python game (``pyrummy_knock``, ...) on import;
- :mod:`pyrummy.research.gym` — ``RummyEnv``: one seat learns against our bots;
- :mod:`pyrummy.research.batched` — many deals of knock or gin stepped at once
  with numpy (``BatchedGame``, self-play), the core's rules bit for bit;
- :mod:`pyrummy.research.vector` — ``RummyVectorEnv``: the batched engine as a
  Gymnasium vector environment, one learner seat against fixed opponents;
- :mod:`pyrummy.research.deal_encoding` — the encoding read straight from a
  deal (the unbatched environments' fast path);
- :mod:`pyrummy.research.openspiel_gin` — our bots playing OpenSpiel's own
  C++ ``gin_rummy`` as ``pyspiel.Bot`` objects;
- :mod:`pyrummy.research.render` — the text picture of a deal (``ansi``).

See ``docs/research.md``.
"""
