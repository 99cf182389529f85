"""AST of the effect language: frozen dataclasses, each carrying its source span."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True, slots=True)
class Span:
    """1-based line and column of a node inside its effect text."""

    line: int
    col: int


NOWHERE = Span(1, 1)


# ---------- expressions ----------
@dataclass(frozen=True, slots=True)
class Num:
    span: Span
    value: int


@dataclass(frozen=True, slots=True)
class Str:
    span: Span
    value: str


@dataclass(frozen=True, slots=True)
class Bool:
    span: Span
    value: bool


@dataclass(frozen=True, slots=True)
class NoneLit:
    span: Span


@dataclass(frozen=True, slots=True)
class Name:
    span: Span
    id: str


@dataclass(frozen=True, slots=True)
class Member:
    span: Span
    obj: Expr
    name: str


@dataclass(frozen=True, slots=True)
class Arg:
    span: Span
    name: str | None
    value: Expr


@dataclass(frozen=True, slots=True)
class Call:
    span: Span
    name: str
    args: tuple[Arg, ...]


@dataclass(frozen=True, slots=True)
class Unary:
    span: Span
    op: str  # "not" | "-"
    operand: Expr


@dataclass(frozen=True, slots=True)
class Binary:
    span: Span
    op: str  # and or == != < <= > >= in + - * / %
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Filter:
    """`source [as name] where cond`: inside cond, `it`, bare property names and `name` (if
    given) refer to each candidate; `name` still does so inside filters nested in cond."""

    span: Span
    source: Expr
    cond: Expr
    name: str | None = None


Expr = Union[Num, Str, Bool, NoneLit, Name, Member, Call, Unary, Binary, Filter]  # noqa: UP007 (forward references)


# ---------- statements ----------
@dataclass(frozen=True, slots=True)
class If:
    span: Span
    cond: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class May:
    span: Span
    by: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Prompt:
    """`as "which creature blocks {attacker}?"`: a decision's question, naming variables in
    braces. The checker notes the types of the variables each one names (check/effects.py,
    PROMPT_TYPES, weakly keyed: no slots, so that it can be), for the compiler to show them."""

    span: Span
    text: str


@dataclass(frozen=True, slots=True)
class Choose:
    span: Span
    count: Expr
    up_to: bool
    name: str
    source: Expr
    by: Expr | None
    prompt: Prompt | None = None


@dataclass(frozen=True, slots=True)
class ChooseValue:
    """`choose zone x from ZONES`, `choose number x from LOW to HIGH`, `choose player x from
    PLAYERS`: one value that is not a card."""

    span: Span
    kind: str  # zone | number | player
    name: str
    source: Expr  # the zones, the players, or the lowest number
    high: Expr | None  # the highest number
    by: Expr | None
    prompt: Prompt | None


@dataclass(frozen=True, slots=True)
class Mode:
    span: Span
    label: str | None  # None: labelled by its text
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class ChooseMode:
    """`choose one { ... } or "label": { ... }`: the chooser picks which block runs."""

    span: Span
    modes: tuple[Mode, ...]
    by: Expr | None
    prompt: Prompt | None


@dataclass(frozen=True, slots=True)
class ForEach:
    span: Span
    name: str
    source: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Repeat:
    span: Span
    count: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Let:
    span: Span
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Modify:
    """`target.prop += value [until end of X]`: a modifier on a property."""

    span: Span
    target: Expr
    prop: str
    op: str  # "=" | "+=" | "-="
    value: Expr
    until: str | None


@dataclass(frozen=True, slots=True)
class Settle:
    """A timing point: pending triggered abilities resolve here."""

    span: Span


@dataclass(frozen=True, slots=True)
class Together:
    """`simultaneously { ... }`: win/loss checks wait until the whole block is done."""

    span: Span
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Delayed:
    """`at next EVENT where COND { ... }`: a triggered ability the effect sets up, which
    triggers once, at the next EVENT for which COND holds (a delayed trigger)."""

    span: Span
    event: str
    cond: Expr | None
    body: tuple[Stmt, ...]


Stmt = Union[Call, If, May, Choose, ChooseValue, ChooseMode, ForEach, Repeat, Let, Modify,  # noqa: UP007
             Settle, Together, Delayed]  # (forward references)
Body = tuple[Stmt, ...]


# ---------- abilities ----------
@dataclass(frozen=True, slots=True)
class Trigger:
    span: Span
    event: str
    cond: Expr | None
    body: Body


@dataclass(frozen=True, slots=True)
class Activated:
    """`activate [cost {...}] [where cond]: body`; cond says when it may be used."""

    span: Span
    cost: Body
    cond: Expr | None
    body: Body


@dataclass(frozen=True, slots=True)
class Static:
    span: Span
    cond: Expr | None
    modifiers: tuple[Modify, ...]


@dataclass(frozen=True, slots=True)
class Replacement:
    span: Span
    verb: str
    cond: Expr | None
    body: Body


@dataclass(frozen=True, slots=True)
class Prohibition:
    span: Span
    action: str
    cond: Expr | None


@dataclass(frozen=True, slots=True)
class Permission:
    span: Span
    action: str
    cond: Expr | None


@dataclass(frozen=True, slots=True)
class InZones:
    """`in hand, soul: <ability>`: the ability works while its card is in one of these zones
    (instead of the ruleset's ability_zones)."""

    span: Span
    zones: tuple[str, ...]
    ability: Ability


Ability = Union[Trigger, Activated, Static, Replacement, Prohibition, Permission, InZones]  # noqa: UP007 (forward references)
