"""An API reference page rendered from the OpenAPI document, with no script
and nothing fetched from elsewhere (``/docs`` needs a CDN; this works offline).

>>> page = reference_html({"info": {"title": "t", "version": "1"}, "paths": {
...     "/x": {"get": {"summary": "Get x", "description": "All of x."}}}})
>>> "<h2 id=\\"get-x\\"><code>GET /x</code></h2>" in page
True
"""

from __future__ import annotations

import html
import re
from typing import Any

#: Where the server serves :data:`REFERENCE_CSS`.
REFERENCE_CSS_PATH = "/api/reference.css"
REFERENCE_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:860px;margin:auto;padding:12px;"
    "line-height:1.45}code{background:#f1f3f1;padding:1px 4px;border-radius:4px}"
    "h2{font-size:1.05rem;margin-top:1.6rem}table{border-collapse:collapse}"
    "td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}"
    "pre{white-space:pre-wrap}\n"
)


def _schema_name(schema: dict[str, Any]) -> str:
    ref = schema.get("$ref", "")
    return str(ref).rsplit("/", 1)[-1] if ref else str(schema.get("type", ""))


def _fields(schema: dict[str, Any], components: dict[str, Any]) -> list[tuple[str, str, str]]:
    name = _schema_name(schema)
    body = components.get(name, schema)
    rows = []
    for field, spec in body.get("properties", {}).items():
        kind = spec.get("type") or " | ".join(
            str(option.get("type", _schema_name(option))) for option in spec.get("anyOf", [])
        )
        rows.append((field, str(kind), str(spec.get("description", ""))))
    return rows


def _socket_html(socket: dict[str, Any]) -> list[str]:
    """A WebSocket's handshake (OpenAPI has no place for one)."""
    escape = html.escape
    path = str(socket["path"])
    anchor = re.sub(r"[^a-z0-9]+", "-", f"ws {path}".lower()).strip("-")
    parts = [
        f'<h2 id="{anchor}"><code>WS {escape(path)}</code></h2>',
        f"<p><strong>{escape(str(socket.get('summary', '')))}</strong></p>",
        f"<p>The seat's token: {escape(str(socket.get('token', '')))}.</p>",
    ]
    for title, key in (
        ("query parameter", "query"),
        ("subprotocol", "subprotocols"),
        ("close code", "close_codes"),
    ):
        rows = "".join(
            f"<tr><td><code>{escape(str(name))}</code></td><td>{escape(str(text))}</td></tr>"
            for name, text in socket.get(key, [])
        )
        if rows:
            parts.append(f"<table><tr><th>{title}</th><th></th></tr>{rows}</table>")
    return parts


def reference_html(openapi: dict[str, Any], *sockets: dict[str, Any]) -> str:
    """The whole reference as one HTML page: the HTTP operations of ``openapi``,
    then each of ``sockets`` (see :func:`pyrummy.server.api.description.socket_reference`)."""
    escape = html.escape
    components = openapi.get("components", {}).get("schemas", {})
    info = openapi.get("info", {})
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{escape(info.get('title', 'API'))} API</title>",
        # A stylesheet of its own, not inline: the CSP allows no inline style.
        f"<link rel='stylesheet' href='{REFERENCE_CSS_PATH}'></head><body>",
        f"<h1>{escape(info.get('title', 'API'))} {escape(str(info.get('version', '')))}</h1>",
        f"<pre>{escape(str(info.get('description', '')).strip())}</pre>",
        "<p>Machine-readable: <a href='/openapi.json'>/openapi.json</a>.</p>",
    ]
    for path, operations in openapi.get("paths", {}).items():
        for method, operation in operations.items():
            anchor = re.sub(r"[^a-z0-9]+", "-", f"{method} {path}".lower()).strip("-")
            parts.append(
                f'<h2 id="{anchor}"><code>{escape(method.upper())} {escape(path)}</code></h2>'
            )
            if operation.get("summary"):
                parts.append(f"<p><strong>{escape(operation['summary'])}</strong></p>")
            if operation.get("description"):
                parts.append(f"<p>{escape(operation['description'])}</p>")
            parameters = operation.get("parameters", [])
            if parameters:
                rows = "".join(
                    f"<tr><td><code>{escape(p['name'])}</code></td><td>{escape(p.get('in', ''))}"
                    f"</td><td>{escape(_schema_name(p.get('schema', {})))}</td></tr>"
                    for p in parameters
                )
                parts.append(
                    f"<table><tr><th>parameter</th><th>in</th><th>type</th></tr>{rows}</table>"
                )
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                rows = "".join(
                    f"<tr><td><code>{escape(f)}</code></td><td>{escape(k)}</td><td>{escape(d)}</td></tr>"
                    for f, k, d in _fields(body.get("schema", {}), components)
                )
                parts.append(
                    f"<table><tr><th>body field</th><th>type</th><th></th></tr>{rows}</table>"
                )
    for socket in sockets:
        parts.extend(_socket_html(socket))
    parts.append("</body></html>")
    return "\n".join(parts)
