"""Python values as the plain tree a scenario file holds (Scenario.from_dict, set= values, the
mappings of with_model/with_machine), held to the limits of files (docs/limits.md "YAML"):
nesting deeper than yaml.depth (counted as in a YAML file: the value itself is level 1, a scalar
is a level), more than yaml.nodes nodes (mapping keys count), a string or key longer than
scalar.bytes, more text than file.bytes (strings and keys, counted as they are walked), an
integer beyond a double, and a list or mapping that contains itself raise InputError at the key
path before the copy grows. The walk keeps its own stack, so Python's
recursion limit plays no part."""
from __future__ import annotations

import collections.abc
import numbers
import os
from typing import Any, Dict, Iterator, List, Tuple, Union

import numpy as _np

from . import _tessera
from .errors import InputError

_Part = Union[str, int]  # a mapping key or a list index
_SHOWN = 200  # the most characters of a key path a message shows
_DOUBLE_BITS = 1024  # an integer of more bits is beyond every double (1.8e308)


def input_error(file: str, key: str, message: str) -> InputError:
    """An InputError of one field, located at `file` ("<command line>" for set=, "<dict>" for
    from_dict) with its key path."""
    text = f"{key}: {message}"
    return InputError(f"{file}: error: {text}", [(file, 0, 0, text, f"{file}: error: {text}")])


def _path_text(key: str, parts: List[_Part]) -> str:
    s = key
    for p in parts:
        s = f"{s}[{p}]" if isinstance(p, int) else (f"{s}.{p}" if s else p)
    if len(s) > _SHOWN:
        s = s[:_SHOWN - 60] + "…" + s[-59:]
    return s or "<root>"


def _utf8_bytes(s: str, most: int) -> int:
    """The UTF-8 size of `s`, exact when it may exceed `most` (a character is at most 4 bytes)."""
    return len(s) if 4 * len(s) <= most else len(s.encode("utf-8", "surrogatepass"))


class _Walk:
    """One conversion: the limits in force, the nodes seen, the key path of the current node."""

    def __init__(self, key: str, file: str):
        self.key, self.file = key, file
        self.max_depth = int(_tessera._limit("yaml.depth"))
        self.max_nodes = int(_tessera._limit("yaml.nodes"))
        self.max_bytes = int(_tessera._limit("scalar.bytes"))
        self.max_text = int(_tessera._limit("file.bytes"))
        self.nodes = 0
        self.text_bytes = 0  # the text of the strings and keys walked, and a byte per node
        self.parts: List[_Part] = []  # the key path below `key`

    def fail(self, message: str) -> InputError:
        return input_error(self.file, _path_text(self.key, self.parts), message)

    def count(self) -> None:
        self.nodes += 1
        self.text_bytes += 1
        if self.nodes > self.max_nodes:
            raise self.fail(f"more than {self.max_nodes} nodes (mapping keys count), the limit yaml.nodes")

    def text(self, s: str, what: str) -> str:
        n = _utf8_bytes(s, self.max_bytes)
        if n > self.max_bytes:
            raise self.fail(f"{what} of {n} bytes is longer than the limit scalar.bytes ({self.max_bytes})")
        # Shared strings count each time they are met: the text json.dumps writes repeats them.
        self.text_bytes += n
        if self.text_bytes > self.max_text:
            raise self.fail(f"the strings so far make more than {self.max_text} bytes of text, the limit file.bytes")
        return s

    def integer(self, i: int) -> int:
        if i.bit_length() > _DOUBLE_BITS:
            raise self.fail(f"an integer of {i.bit_length()} bits is a number beyond the range of a double")
        return i

    def leaf(self, v: Any) -> Any:
        """A scalar as JSON-able Python; a container is None here (the caller opens it)."""
        if isinstance(v, _np.generic):
            v = v.item()
        if isinstance(v, os.PathLike):
            v = os.fspath(v)
        if v is None or isinstance(v, bool):
            return v
        if isinstance(v, str):
            return self.text(v, "a string")
        if isinstance(v, numbers.Integral):
            return self.integer(int(v))
        if isinstance(v, numbers.Real):
            return float(v)
        raise self.fail(f"expected a number, string, bool, list or mapping, found {type(v).__name__} {v!r:.60}")

    def open(self, v: Any) -> Tuple[Any, Union[None, Iterator[Tuple[_Part, Any]]]]:
        """The node `v` converted: (value, None) for a scalar, (empty container, its items) else."""
        t = type(v)  # the plain types first: a large list of numbers is walked in a few seconds
        if t is dict:
            return {}, self.items(v)
        if t is list or t is tuple:
            return [], iter(enumerate(v))
        if t is str:
            return self.text(v, "a string"), None
        if t is float or t is bool or v is None:
            return v, None
        if t is int:
            return self.integer(v), None
        if isinstance(v, _np.ndarray):
            if v.size > self.max_nodes:
                raise self.fail(f"an array of {v.size} values is more than the limit yaml.nodes ({self.max_nodes})")
            v = v.tolist()
        if isinstance(v, collections.abc.Mapping):
            return {}, self.items(v)
        if isinstance(v, (list, tuple)):
            return [], iter(enumerate(v))
        return self.leaf(v), None

    def items(self, m: collections.abc.Mapping) -> Iterator[Tuple[_Part, Any]]:
        for k, x in m.items():
            if not isinstance(k, str):
                raise self.fail(f"keys must be strings, found {k!r:.60}")
            self.count()  # the key is a node
            yield self.text(k, "a key"), x

    def run(self, root: Any) -> Any:
        self.count()
        out, items = self.open(root)
        if items is None:
            return out
        # One frame per open container: (its copy, its items, the original). `on_path`
        # maps the id of each open original to its depth, so a container met again inside itself
        # is a cycle, not a deeper level.
        # The frame holds the original too, so that no id on the path is freed and reused.
        stack: List[Tuple[Any, Iterator[Tuple[_Part, Any]], Any]] = [(out, items, root)]
        on_path: Dict[int, int] = {id(root): 0}
        while stack:
            copy, items, original = stack[-1]
            step = next(items, None)
            if step is None:
                stack.pop()
                del on_path[id(original)]
                if self.parts and stack:
                    self.parts.pop()
                continue
            part, x = step
            self.parts.append(part)
            if len(self.parts) + 1 > self.max_depth:
                raise self.fail(f"nesting deeper than yaml.depth ({self.max_depth})")
            self.count()
            value, sub = self.open(x)
            if sub is not None and id(x) in on_path:
                kind = "list" if isinstance(value, list) else "mapping"
                back = _path_text(self.key, self.parts[:on_path[id(x)]])
                raise self.fail(f"the {kind} contains itself (the value here is the {kind} at {back}); "
                                "a scenario is a tree")
            if type(copy) is dict:
                copy[part] = value
            else:
                copy.append(value)
            if sub is None:
                self.parts.pop()
            else:
                on_path[id(x)] = len(self.parts)
                stack.append((value, sub, x))
        return out


def plain(v: Any, key: str, file: str) -> Any:
    """`v` as JSON-able Python (NumPy scalars and arrays, os.PathLike too), else InputError at
    `key` (below it, the key path of the bad node)."""
    return _Walk(key, file).run(v)
