"""Safe YAML loading that remembers where every node came from.

Reads YAML 1.2 scalars (only true/false are booleans, 010 is ten), refuses
duplicate keys and non-standard tags, and bounds alias expansion.
"""

from __future__ import annotations

import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from interpreter.diagnostics import Diagnostic, DiagnosticError, Related

_Loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python PyYAML
    _Loader = yaml.SafeLoader

MAX_BYTES = 20_000_000
MAX_NODES = 300_000  # a 2,000-card set is ~40,000 nodes; an alias bomb is billions
MAX_DEPTH = 64  # nested mappings and lists (the bundled files nest 8 deep)
MAX_EXPANDED = MAX_BYTES  # characters of text after aliases are expanded
MAX_DIGITS = 18  # digits in an integer: every such integer fits in 64 bits

_INT = re.compile(r"[-+]?[0-9]+$")
_HEX = re.compile(r"0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_STANDARD_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq", "tag:yaml.org,2002:timestamp",
}

Path_ = tuple  # a path into the document: keys and indexes


@dataclass
class Doc:
    """A loaded YAML file: its data and the position of every node."""

    path: str
    text: str
    data: Any
    positions: dict[Path_, tuple[int, int, str | None]] = field(default_factory=dict)
    keys: dict[Path_, tuple[int, int]] = field(default_factory=dict)  # where each key is written

    def pos(self, at: Path_) -> tuple[int, int]:
        """(line, col) of the node at `at`, or of its nearest known parent."""
        at = tuple(at)
        while at not in self.positions and at:
            at = at[:-1]
        line, col, _ = self.positions.get(at, (1, 1, None))
        return line, col

    def text_pos(self, at: Path_, line: int, col: int) -> tuple[int, int]:
        """File position of (line, col) inside the string scalar at `at`."""
        if tuple(at) not in self.positions:
            return self.pos(at)
        start_line, start_col, style = self.positions[tuple(at)]
        if style in ("|", ">"):
            lines = self.text.splitlines()
            body_line = start_line + line  # the text starts on the line after the indicator
            first = next((x for x in lines[start_line:] if x.strip()), "")
            indent = len(first) - len(first.lstrip(" "))  # the block's own indentation
            return body_line, indent + col
        offset = 1 if style in ('"', "'") else 0
        if line == 1:
            return start_line, start_col + offset + col - 1
        return start_line + line - 1, col

    def key_pos(self, at: Path_) -> tuple[int, int]:
        """(line, col) of the key that names the node at `at` (a misspelt key is reported
        there, not at its value); the node's own place for a list item or the root."""
        return self.keys.get(tuple(at)) or self.pos(at)

    def key_diag(self, at: Path_, code: str, message: str, hint: str = "") -> Diagnostic:
        line, col = self.key_pos(at)
        return self.diag_at(line, col, code, message, hint)

    def related(self, at: Path_, message: str) -> Related:
        """A secondary location for another diagnostic ("first defined here")."""
        line, col = self.pos(at)
        return Related(self.path, line, col, message, self.line_text(line))

    def line_text(self, line: int) -> str:
        lines = self.text.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def diag(self, at: Path_, code: str, message: str, hint: str = "", ref: str = "") -> Diagnostic:
        line, col = self.pos(at)
        return self.diag_at(line, col, code, message, hint, ref)

    def diag_at(
        self, line: int, col: int, code: str, message: str, hint: str = "", ref: str = ""
    ) -> Diagnostic:
        return Diagnostic(self.path, line, col, code, message, hint, ref,
                          source_line=self.line_text(line))


def load_yaml(path: str | Path, display: str | None = None) -> Doc:
    """Load one YAML file; raise DiagnosticError (unusable) on anything unreadable."""
    name = display or str(path)
    raw = _read(Path(path), name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise _unusable(name, line, col, "ENCODING", "file is not valid UTF-8",
                        "save the file as UTF-8") from None
    return load_text(text, name)


def _read(path: Path, name: str) -> bytes:
    """The file's bytes: a regular file of at most MAX_BYTES (a device such as /dev/zero or
    a pipe would never end, or block)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise _unusable(name, 1, 1, "NOT-A-FILE", "not a regular file (a folder, device or pipe)",
                            "name a YAML file")
        with path.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise _unusable(name, 1, 1, "IO", f"cannot read file: {e.strerror or e}") from None
    if len(raw) > MAX_BYTES:
        raise _unusable(name, 1, 1, "TOO-LARGE", f"file is larger than {MAX_BYTES:,} bytes")
    return raw


def load_text(text: str, name: str) -> Doc:
    doc = Doc(name, text, None)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except RecursionError:  # libyaml stops at 1,000 levels; its composer may not get there
        raise _unusable(name, 1, 1, "TOO-DEEP", f"YAML nested deeper than {MAX_DEPTH} levels") from None
    except yaml.MarkedYAMLError as e:
        from interpreter.load.yaml_errors import explain

        raise DiagnosticError([explain(name, text, e)], unusable=True) from None
    except yaml.YAMLError as e:
        raise _unusable(name, 1, 1, "YAML", f"malformed YAML: {e}") from None
    if node is None:
        raise _unusable(name, 1, 1, "EMPTY", "file is empty")
    builder = _Builder(doc)
    doc.data = builder.build(node, ())
    if builder.errors:
        raise DiagnosticError(builder.errors, unusable=True)
    return doc


def _unusable(name: str, line: int, col: int, code: str, msg: str, hint: str = "") -> DiagnosticError:
    return DiagnosticError([Diagnostic(name, line, col, code, msg, hint)], unusable=True)


class _Builder:
    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.errors: list[Diagnostic] = []
        self.count = 0
        self.chars = 0  # characters of scalars built: aliases count each time they expand
        self.stopped = False

    def build(self, node: yaml.Node, at: Path_) -> Any:
        if not self._within_limits(node, at):
            return None
        style = getattr(node, "style", None) or None
        self.doc.positions[at] = (node.start_mark.line + 1, node.start_mark.column + 1, style)
        if node.tag not in _STANDARD_TAGS:
            self.errors.append(self._diag(node, "UNSAFE-TAG", f"tag {node.tag!r} is not allowed",
                                          "remove the tag; only plain YAML data is read"))
            return None
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, at)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, (*at, i)) for i, child in enumerate(node.value)]
        return _scalar(node)  # type: ignore[arg-type]  # (neither a mapping nor a sequence)

    def _mapping(self, node: yaml.MappingNode, at: Path_) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.errors.append(self._diag(key_node, "MERGE", "merge keys (<<) are not supported"))
                continue
            key = _scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            if isinstance(key, (dict, list)) or key is None:
                self.errors.append(self._diag(key_node, "KEY", "mapping keys must be plain scalars"))
                continue
            key = str(key) if not isinstance(key, str) else key
            if key in out:
                self.errors.append(self._diag(key_node, "DUPLICATE-KEY", f"duplicate key {key!r}",
                                              "each key may appear once; the earlier one would be lost"
                                              ).with_related(self._first_key((*at, key))))
                continue
            self.doc.keys[at + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[sys.intern(key)] = self.build(value_node, (*at, key))
        return out

    def _first_key(self, at: Path_) -> Related:
        line, col = self.doc.keys[at]
        return Related(self.doc.path, line, col, "first written here", self.doc.line_text(line))

    def _within_limits(self, node: yaml.Node, at: Path_) -> bool:
        """Count the work before building a node: nodes, nesting (checked before recursing,
        so an anchor that contains itself stops here too), text after alias expansion, and
        the digits of an integer (Python refuses to read more than 4,300)."""
        if self.stopped:
            return False
        self.count += 1
        if isinstance(node, yaml.ScalarNode):
            self.chars += len(node.value)
        if self.count > MAX_NODES or self.chars > MAX_EXPANDED:
            self.stopped = True
            what = f"more than {MAX_NODES:,} nodes" if self.count > MAX_NODES else \
                f"more than {MAX_EXPANDED:,} characters of text"
            self.errors.append(self.doc.diag_at(
                1, 1, "ALIAS-BOMB", f"document expands to {what}",
                "anchors and aliases (&a / *a) multiply: this looks like an alias bomb"))
            return False
        if len(at) > MAX_DEPTH:
            self.stopped = True
            self.errors.append(self._diag(node, "TOO-DEEP", f"YAML nested deeper than {MAX_DEPTH} levels",
                                          "an anchor that contains an alias to itself nests forever"))
            return False
        if isinstance(node, yaml.ScalarNode) and not node.style and _too_long(node.value):
            self.errors.append(self._diag(node, "NUMBER-TOO-LARGE",
                                          f"integer has more than {MAX_DIGITS} digits",
                                          "quote it if it is text"))
            return False
        return True

    def _diag(self, node: yaml.Node, code: str, message: str, hint: str = "") -> Diagnostic:
        return self.doc.diag_at(node.start_mark.line + 1, node.start_mark.column + 1, code,
                                message, hint)


def _too_long(value: str) -> bool:
    if len(value) <= MAX_DIGITS:
        return False
    digits = value.lstrip("+-")
    return bool(_INT.match(value) and len(digits) > MAX_DIGITS
                or _HEX.match(value) and len(digits) - 2 > MAX_DIGITS * 5 // 6)


def _scalar(node: yaml.ScalarNode) -> Any:
    """A scalar's value. Text is interned: names (zones, states, properties, events) are
    looked up and compared at every step of a match, and one object per name makes each
    such lookup an identity check instead of a comparison of characters."""
    value = node.value
    if node.style or node.tag == "tag:yaml.org,2002:str":
        return sys.intern(value)
    low = value.lower()
    if low in ("", "~", "null"):
        return None
    if low == "true":
        return True
    if low == "false":
        return False
    if _INT.match(value):
        return int(value)
    if _HEX.match(value):
        return int(value, 16)
    if _FLOAT.match(value):
        return float(value)
    return sys.intern(value)
