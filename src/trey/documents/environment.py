"""The Jinja2 environment: package templates, autoescaping on, undefined names an error."""

from __future__ import annotations

import base64
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined


def _base64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("trey.documents", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["b64"] = _base64
    return env


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)
