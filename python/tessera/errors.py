"""Tessera's exceptions: every problem of the input is an InputError, a plugin's failure a
PluginError; both derive from tessera.Error."""
from __future__ import annotations

import re
from typing import List, NamedTuple, Optional


class Diagnostic(NamedTuple):
    """One problem of the input, located as the CLI prints it (`FILE:LINE:COL: error: ...`)."""

    file: str  # the file, "<dict>" for Scenario.from_dict, "<command line>" for set=/arguments
    line: int  # 1-based; 0 when unknown
    column: int  # 1-based; 0 when unknown
    message: str  # "workload.batch: expected an integer ≥ 1, found 'x'"
    text: str  # the whole line as the CLI prints it

    @property
    def key_path(self) -> Optional[str]:
        """The dotted key path the message starts with ("workload.batch"), or None."""
        return _key_path(self.message)


_KEY = re.compile(r"^([A-Za-z_][\w\-]*(?:\.[\w\-\[\]]+)*)[:\s]")
_UNKNOWN = re.compile(r"unknown key '([^']*)'")
_SET = re.compile(r"^--set ([^=\s]+)=[^:]*: ")


def _key_path(message: str) -> Optional[str]:
    # "--set workload.batchh=1: ..." (a set= override): the path it names.
    s = _SET.match(message)
    if s:
        return s.group(1)
    m = _KEY.match(message)
    u = _UNKNOWN.search(message)
    if u:  # "unknown key 'x'" or "workload: unknown key 'batchh'": the key, under its mapping
        parent = m.group(1) if m and message.startswith(m.group(1) + ":") else ""
        return f"{parent}.{u.group(1)}" if parent else u.group(1)
    if not m:
        return None
    key = m.group(1)
    return key if ("." in key or message.startswith(key + ":")) else None


class Error(Exception):
    """Any Tessera failure."""


class InputError(Error, ValueError):
    """Bad input: a scenario, model or machine file, a set= override, a dict, an argument.

    `file`, `line`, `column` and `key_path` describe the first problem (line and column are
    1-based, 0 when unknown); `diagnostics` lists every problem found (the loader collects them
    all), each as the CLI prints it."""

    def __init__(self, message: str, diagnostics: Optional[list] = None):
        super().__init__(message)
        self.diagnostics: List[Diagnostic] = [Diagnostic(*d) for d in (diagnostics or [])]
        first = self.diagnostics[0] if self.diagnostics else None
        self.file: Optional[str] = first.file if first else None
        self.line: int = first.line if first else 0
        self.column: int = first.column if first else 0
        self.key_path: Optional[str] = first.key_path if first else _key_path(message)


class PluginError(Error, RuntimeError):
    """A plugin failed (could not be created, threw, returned a bad value); the message names
    the plugin's id, version and path."""
