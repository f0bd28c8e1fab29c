"""A command's plain values checked without pydantic.

typer (0.2x) checks every value of a command with a pydantic ``TypeAdapter``, built when the
command runs: importing pydantic and building the adapters cost about a third of a short
``pdn validate``. The values our commands take are mostly plain (a text, a list of texts, a
whole number, a value a parser of ours reads), and for those ``plain_runtime`` gives the value
pydantic would give without it. Anything else, and any value the plain check does not take
(``--jobs x``, ``--jobs -1``), goes to typer's own check, built on first use: its error
messages stay typer's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, get_args, get_origin

try:  # typer 0.2x; an older typer checks values with click's types, fast already
    from typer._coercion import RuntimeParam, build_runtime_param
except ImportError:  # pragma: no cover - older typer
    RuntimeParam = None  # type: ignore[assignment,misc]

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
_NOT_PLAIN = object()


def plain_value(annotation: Any, info: Any, value: Any) -> Any:
    """``value`` as the parameter's type when it is a plain case (the same value typer's
    pydantic check gives), else ``_NOT_PLAIN``.

    >>> from typer.models import OptionInfo
    >>> plain_value(int, OptionInfo(min=0), "12"), plain_value(list[str], OptionInfo(), ("a",))
    (12, ['a'])
    >>> plain_value(int, OptionInfo(min=0), "-1") is _NOT_PLAIN
    True
    """
    if info.parser is not None:
        return info.parser(value) if type(value) is str else _NOT_PLAIN
    if get_origin(annotation) is list:
        (item,) = get_args(annotation) or (Any,)
        if not isinstance(value, (list, tuple)):
            value = [value]
        items = [plain_value(item, info, one) for one in value]
        return _NOT_PLAIN if any(one is _NOT_PLAIN for one in items) else items
    if annotation is str:
        return value if type(value) is str else _NOT_PLAIN
    if annotation is int and not info.clamp:
        if type(value) is str and _WHOLE_NUMBER.fullmatch(value):
            value = int(value)
        if type(value) is not int:
            return _NOT_PLAIN
        if (info.min is not None and value < info.min) or (
                info.max is not None and value > info.max):
            return _NOT_PLAIN
        return value
    return _NOT_PLAIN


if RuntimeParam is not None:
    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """typer's runtime check of one parameter, plain values taken without pydantic."""

        descriptor: Any = None
        _typer: list = field(default_factory=list)  # typer's own check, built on first use

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                plain = plain_value(self.annotation, self.parameter_info, value)
            except Exception:  # typer's own check says what is wrong
                plain = _NOT_PLAIN
            if plain is not _NOT_PLAIN:
                return plain
            if not self._typer:
                self._typer.append(build_runtime_param(self.descriptor))
            return self._typer[0]._coerce_value(value, param=param, ctx=ctx)


def plain_runtime(param: Any) -> None:
    """Give a typer parameter the plain check (nothing for an older typer, or a parameter
    whose check is built already or opens files)."""
    descriptor = getattr(param, "type_descriptor", None)
    if (RuntimeParam is None or descriptor is None or descriptor.file_annotation is not None
            or getattr(param, "_runtime_param", False) is not None):
        return
    try:
        param._runtime_param = PlainRuntimeParam(
            parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
            descriptor=descriptor)
    except TypeError:  # a typer whose check takes other fields: its own check stays
        return
