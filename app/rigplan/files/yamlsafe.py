"""Parse build-file YAML defensively: refuse what would crash, hang or silently drop data, with a line number.

- Depth: libyaml's composer recurses in C, so a 60 KB file of nested brackets overflows the stack and kills the
  process (no Python exception). The event stream is flat, so nesting is counted there, before anything recurses.
- Aliases: refused in the same pass, so a "billion laughs" file never expands.
- Duplicate keys: YAML loaders keep the last one silently (a second `items:` would drop every part, and the next
  save would make that permanent). Refused with both line numbers.
- Huge integers: Python refuses to convert more than 4,300 digits (CVE-2020-10735 limit) with a ValueError that
  names sys.set_int_max_str_digits(); no real build number has more than a few digits.
"""

from __future__ import annotations

from typing import Any

import yaml

try:
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

# A real build nests six levels (file > items > item > part > pcie_slots > slot); 32 leaves room for growth.
MAX_DEPTH = 32
# 30 digits is far beyond any price, wattage or count (a float carries 17 significant digits anyway).
MAX_INT_DIGITS = 30

_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


class YamlRefused(Exception):
    """A problem at a line of the text; the caller adds the file name."""

    def __init__(self, line: int | None, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.line, self.column, self.message = line, column, message

    def __str__(self) -> str:
        where = f"line {self.line}, column {self.column}: " if self.column else f"line {self.line}: "
        return (where if self.line else "") + self.message


class StrictLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """The safe loader (C parser when available) with duplicate keys and over-long integers refused."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node.start_mark.line + 1)
            except TypeError:  # unhashable key: the base constructor reports it
                continue
            if first != key_node.start_mark.line + 1:
                raise YamlRefused(
                    key_node.start_mark.line + 1,
                    f"the key {key!r} appears twice (first at line {first}); remove one of them",
                )
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        text = str(node.value)
        digits = sum(ch.isalnum() for ch in text)
        if digits > MAX_INT_DIGITS:
            raise YamlRefused(
                node.start_mark.line + 1, f"a number with {digits} digits is too long (at most {MAX_INT_DIGITS})"
            )
        return super().construct_yaml_int(node)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, OverflowError) as exc:  # e.g. a date such as 2025-13-45
            raise YamlRefused(node.start_mark.line + 1, f"a value cannot be read ({exc})") from None


StrictLoader.add_constructor("tag:yaml.org,2002:int", StrictLoader.construct_yaml_int)


def check_structure(text: str) -> None:
    """One pass over the flat event stream: refuse aliases and nesting deeper than MAX_DEPTH."""
    try:
        _check_events(text)
    except yaml.MarkedYAMLError as exc:
        # PyYAML 6.0.4's libyaml stops deep nesting itself while scanning ("exceeded maximum nesting depth", at about
        # 1,000 levels): the same refusal as ours, said in the project's words.
        mark = exc.problem_mark
        if "nesting depth" in str(exc.problem) and mark is not None:
            raise YamlRefused(
                mark.line + 1, f"lists or mappings are nested more than {MAX_DEPTH} levels deep"
            ) from None
        raise


def _check_events(text: str) -> None:
    depth = 0
    for event in yaml.parse(text, Loader=_BaseLoader):
        if isinstance(event, yaml.AliasEvent):
            mark = event.start_mark
            raise YamlRefused(mark.line + 1, "YAML aliases (*name) are not allowed", mark.column + 1)
        if isinstance(event, _OPEN):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlRefused(
                    event.start_mark.line + 1, f"lists or mappings are nested more than {MAX_DEPTH} levels deep"
                )
        elif isinstance(event, _CLOSE):
            depth -= 1


def parse(text: str) -> Any:
    """Check, then load. Raises YamlRefused, or yaml.YAMLError for plain syntax errors."""
    check_structure(text)
    return yaml.load(text, Loader=StrictLoader)  # noqa: S506 - a subclass of the safe loader
