"""The HTTP API, one module-level router per resource.

* :mod:`~pyrummy.server.api.meta` — the games and the bots (``/api/presets``, ``/api/bots``);
* :mod:`~pyrummy.server.api.tables` — a table: create, state, actions, resign…;
* :mod:`~pyrummy.server.api.table_socket` — a table's WebSocket;
* :mod:`~pyrummy.server.api.matches` — finished matches: list, replay, record;
* :mod:`~pyrummy.server.api.player` — the person's extras (the hint);
* :mod:`~pyrummy.server.api.rooms` — private tables for friends;
* :mod:`~pyrummy.server.api.health` — is the server well;
* :mod:`~pyrummy.server.api.page` — the page, its files and the ``/api`` reference.

Each router is a module attribute ``router`` that a test can mount alone;
routes get the server's parts through :mod:`pyrummy.server.deps`.
"""
