"""Every request body the server reads is declared in one module,
pyrummy.server.schemas, beside the rules the bodies share (option bounds,
the display-name rule): a newcomer finds what a route accepts in one place."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from pyrummy.server import Settings, create_app, schemas


def test_every_request_body_is_declared_in_the_schemas_module(tmp_path: Path) -> None:
    api = create_app(Settings(data_dir=tmp_path, bot_workers=0)).openapi()
    bodies: dict[str, str] = {}
    for path, methods in api["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody")
            if body is not None:
                ref = body["content"]["application/json"]["schema"]["$ref"]
                bodies[f"{method.upper()} {path}"] = ref.rsplit("/", 1)[-1]
    # Tables, rooms, the quick match, the profile and its passkeys take bodies.
    assert len(bodies) >= 12
    for route, name in bodies.items():
        model = getattr(schemas, name, None)
        assert isinstance(model, type) and issubclass(model, BaseModel), (route, name)
        assert model.__module__ == schemas.__name__, (route, name)
        # Each body is strict: unknown fields and wrong types are refused.
        assert issubclass(model, schemas.Strict), (route, name)
