"""Short text of what a block of statements does, for the prompts that ask about it
(`may { draw(you, 2) }` asks "may draw(you, 2)?")."""

from __future__ import annotations

from interpreter.lang import ast as A
from interpreter.lang.visit import Dispatch, Walker

MOST_STEPS = 3  # a longer body is cut, ending in "…"


def describe(body: A.Body) -> str:
    """The steps of `body` as its text reads them (calls, choices, modifiers; the bodies of
    conditions and loops flattened), at most MOST_STEPS; "" when it has none to show."""
    steps = [step for s in body for step in _Describer().steps(s)]
    shown = "; ".join(steps[:MOST_STEPS])
    return shown + "; …" if len(steps) > MOST_STEPS else shown


def mode_label(mode: A.Mode) -> str:
    """A mode of `choose one` as its option reads: its label, else its text."""
    return mode.label if mode.label is not None else describe(mode.body) or "nothing"


class _Describer(Walker):
    steps: Dispatch[list[str]] = Dispatch(A.Stmt)
    text: Dispatch[str] = Dispatch(A.Expr)

    @steps.on(A.Call)
    def _call(self, s: A.Call) -> list[str]:
        return [self.text(s)]

    @steps.on(A.Choose)
    def _choose(self, s: A.Choose) -> list[str]:
        return [f"choose {'up to ' if s.up_to else ''}{self.text(s.count)} {s.name} "
                f"from {self.text(s.source)}"]

    @steps.on(A.ChooseValue)
    def _choose_value(self, s: A.ChooseValue) -> list[str]:
        high = f" to {self.text(s.high)}" if s.high is not None else ""
        return [f"choose {s.kind} {s.name} from {self.text(s.source)}{high}"]

    @steps.on(A.ChooseMode)
    def _choose_mode(self, s: A.ChooseMode) -> list[str]:
        return ["choose one: " + " or ".join(mode_label(m) for m in s.modes)]

    @steps.on(A.Modify)
    def _modify(self, s: A.Modify) -> list[str]:
        return [f"{self.text(s.target)}.{s.prop} {s.op} {self.text(s.value)}"]

    @steps.on(A.If)
    def _if(self, s: A.If) -> list[str]:
        return self._all(s.then) + self._all(s.orelse)

    @steps.on(A.ForEach, A.Repeat, A.Together, A.May)
    def _block(self, s: A.ForEach | A.Repeat | A.Together | A.May) -> list[str]:
        return self._all(s.body)

    @steps.on(A.Delayed)
    def _delayed(self, s: A.Delayed) -> list[str]:
        return [f"at the next {s.event}"]

    @steps.on(A.Let, A.Settle)
    def _bookkeeping(self, s: A.Let | A.Settle) -> list[str]:
        return []

    def _all(self, body: A.Body) -> list[str]:
        return [step for s in body for step in self.steps(s)]

    @text.on(A.Num, A.Bool)
    def _literal(self, e: A.Num | A.Bool) -> str:
        return str(e.value).lower() if isinstance(e, A.Bool) else str(e.value)

    @text.on(A.Str)
    def _str(self, e: A.Str) -> str:
        return f'"{e.value}"'

    @text.on(A.NoneLit)
    def _none(self, e: A.NoneLit) -> str:
        return "none"

    @text.on(A.Name)
    def _name(self, e: A.Name) -> str:
        return e.id

    @text.on(A.Member)
    def _member(self, e: A.Member) -> str:
        return f"{self.text(e.obj)}.{e.name}"

    @text.on(A.Call)
    def _call_expr(self, e: A.Call) -> str:
        args = ", ".join(f"{a.name}={self.text(a.value)}" if a.name else self.text(a.value)
                         for a in e.args)
        return f"{e.name}({args})"

    @text.on(A.Unary)
    def _unary(self, e: A.Unary) -> str:
        return f"{'-' if e.op == '-' else 'not '}{self._operand(e.operand)}"

    @text.on(A.Binary)
    def _binary(self, e: A.Binary) -> str:
        return f"{self._operand(e.left)} {e.op} {self._operand(e.right)}"

    def _operand(self, e: A.Expr) -> str:
        return f"({self.text(e)})" if isinstance(e, A.Binary) else self.text(e)

    @text.on(A.Filter)
    def _filter(self, e: A.Filter) -> str:
        return f"{self.text(e.source)} where …"
