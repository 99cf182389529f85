"""Expressions -> Python functions `fn(g, env)`, generated as source and compiled once.

Generating one function per expression (instead of one closure per AST node) removes
most of the call overhead on the engine's hot path; the DESIGN measured ~4x on
expression trees. Input is checked already: unknown names read as variables.

Semantics worth knowing: a value that cannot be seen (None, e.g. the cost of a reversed
card) makes every comparison false and every arithmetic result None; a one-card
selection reads as that card; inside `where`, `it` and bare property names refer to
the candidate, and the innermost filter wins.
"""

from __future__ import annotations

import ast as pyast
import contextlib
import dataclasses
import functools
import operator
import re
from collections.abc import Callable, Iterable, Iterator
from types import CodeType
from typing import Any, TypeGuard

from interpreter.compile.names import Names
from interpreter.engine import actions, chance, kernel, limits, repetition, triggers, vm
from interpreter.engine.linked import linked
from interpreter.engine.model import ActionDef, CardDef
from interpreter.engine.primitives import Param
from interpreter.engine.priority import divided
from interpreter.engine.state import CARD_ATTR_SOURCE, STATICS_PENDING, GameState, ZoneRef
from interpreter.lang import ast as A
from interpreter.lang.visit import Dispatch, Walker

Fn = Callable[[GameState, dict], Any]

MAX_PLAYERS = 16


# ---------- run-time helpers the generated code calls ----------
def single(v: Any) -> Any:
    """A one-card selection reads as that card."""
    if type(v) is tuple and len(v) == 1:
        return v[0]
    return v


def equal(a: Any, b: Any) -> bool:
    if type(a) is type(b) and type(a) is not tuple:
        return a == b
    if isinstance(a, ZoneRef) or isinstance(b, ZoneRef):
        return a == b
    if type(a) is tuple and len(a) == 1:  # (single, inlined: a card against a selection)
        a = a[0]
    if type(b) is tuple and len(b) == 1:
        b = b[0]
    return a == b


def _eq(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return False
    if type(a) is type(b) and type(a) is not tuple:  # the common case, without a call
        return a == b
    return equal(a, b)


def _ne(a: Any, b: Any) -> bool:
    return a is not None and b is not None and not equal(a, b)


# The helpers below test `type(x) is tuple` before calling single(): most values are plain
# numbers, and these run for every comparison the engine makes.
def _ordered(op: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    def compare(a: Any, b: Any) -> bool:
        if type(a) is tuple:
            a = single(a)
        if type(b) is tuple:
            b = single(b)
        return a is not None and b is not None and op(a, b)

    return compare


def _arith(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def arith(a: Any, b: Any) -> Any:
        if type(a) is tuple:
            a = single(a)
        if type(b) is tuple:
            b = single(b)
        return None if a is None or b is None else op(a, b)

    return arith


def _neg(a: Any) -> Any:
    a = single(a)
    return None if a is None else -a


def _abs(a: Any) -> Any:
    a = single(a)
    return None if a is None else abs(a)


def _other(g: GameState, p: Any) -> int | None:
    p = single(p)
    return None if p is None else g.other(p)


def _bottom(g: GameState, cards: Any, n: Any) -> tuple[int, ...]:
    cards, n = vm.as_cards(g, cards), max(single(n) or 0, 0)
    return cards[len(cards) - n:] if n else ()


def _field(g: GameState, v: Any, prop: str) -> Any:
    if type(v) is tuple and len(v) == 1:  # (single, inlined)
        v = v[0]
    elif type(v) is ZoneRef:
        v = _lone(g, v)
    return g.game.readers[prop](g, v) if type(v) is int else None


def _lone(g: GameState, zone: ZoneRef) -> int | None:
    """The card of a zone that holds one card (`hero(you).health`), else None (none to read)."""
    cards = g.zones[zone]
    return cards[0] if len(cards) == 1 else None


def _read_none(g: GameState, cid: int) -> None:
    """The reader of a property no ruleset declares (the checker reports reading one)."""
    return None


def _counter(g: GameState, v: Any, name: str) -> Any:
    v = single(v)
    if type(v) is ZoneRef:
        v = _lone(g, v)
    return g.counters.get((v, name), 0) if type(v) is int else None


def _resource(g: GameState, p: Any, name: str) -> Any:
    p = single(p)
    return None if p is None else g.res[p].get(name, 0)


def _zone_refs(name: str) -> dict:
    """A zone's ZoneRef per player, keyed by every value a player expression can have: a
    player number, a one-player tuple, or None (no one: no zone). A plain dict: in CPython
    3.11 a dict subclass's `d[k]` costs a method lookup and call."""
    refs: dict = {None: None, (None,): None}
    for p in range(MAX_PLAYERS):
        refs[p] = refs[(p,)] = ZoneRef(name, p)
    return refs


def _numbers(*values: Any) -> list:
    """The values that can be seen, a one-element selection as its value (max, min)."""
    out = []
    for v in values:  # (a loop, single() inlined: a comprehension and calls cost more)
        if type(v) is tuple and len(v) == 1:
            v = v[0]
        if v is not None:
            out.append(v)
    return out


def _playable(g: GameState, value: Any) -> bool:
    """Every card's own `condition` holds (and there is a card). Asked of each card an
    action could play: a loop with the env made inline (no call per card)."""
    cards = (value,) if type(value) is int else vm.as_cards(g, value)
    if not cards:
        return False
    defs, controller, opponent = g.defs, g.controller, g.game.opponent
    for cid in cards:
        cond = defs[cid].condition
        if cond is not None:
            you = controller[cid]
            if not cond(g, {"self": cid, "you": you, "opponent": opponent[you]}):
                return False
    return True


def _attached(g: GameState, value: Any) -> tuple[int, ...]:
    host = single(value)
    return tuple(sorted((c for c, h in g.host.items() if h == host), key=g.stamp.__getitem__))


def _beneath(g: GameState, value: Any) -> tuple[int, ...]:
    top = single(value)
    return kernel.beneath(g, top) if g.under and type(top) is int else ()


def _total(g: GameState, value: Any, prop: str) -> int:
    """A zone's total is kept for the state version: every player's heuristic asks for both
    players' boards."""
    key = ("total", value, prop) if type(value) is ZoneRef else None
    if key is not None and g.memo_version == g.version and (kept := g.memo.get(key)) is not None:
        return kept
    cards = g.zones[value] if key is not None else vm.as_cards(g, value)
    total = 0
    if prop in g.game.ruleset.counters:
        counters = g.counters
        for cid in cards:  # (loops: a generator is a call of its own)
            total += counters.get((cid, prop), 0)
    else:
        read = g.game.readers.get(prop, _read_none)
        for cid in cards:
            v = read(g, cid)
            if v is not None:
                total += v
    if key is not None:
        _remember(g, key, total)
    return total


def _printed(g: GameState, value: Any, prop: str) -> Any:
    """A card's property as its card data gives it (kernel.read without the modifiers): none
    while a state hides it, as every read; clamped to its bounds, as a printed value always
    reads. None for anything but one card."""
    cid = single(value)
    pdef = g.game.ruleset.properties.get(prop)
    if type(cid) is not int or pdef is None \
            or g.flags[cid] & g.game.hiding_mask and not pdef.always_known:
        return None
    printed = g.defs[cid].printed[list(g.game.ruleset.properties).index(prop)]
    if printed is not None and pdef.min is not None and printed < pdef.min:
        return pdef.min
    if printed is not None and pdef.max is not None and printed > pdef.max:
        return pdef.max
    return printed


def _neighbours(g: GameState, value: Any, sides: tuple[int, ...]) -> tuple[int, ...]:
    """The cards at these offsets from a card (-1: left, 1: right) in its zone's order (1-based
    positions, left to right: the zone's list, its top first); none for anything but one card."""
    card = single(value)
    if type(card) is not int:
        return ()
    cards = g.zones[g.zone_of[card]]
    i = cards.index(card)
    return tuple(cards[i + d] for d in sides if 0 <= i + d < len(cards))


def _union(g: GameState, *values: Any) -> tuple[int, ...]:
    """The cards of all the values, in order, each once. Different zones never share a card
    (a card is in one zone), so a union of different zones is their cards one after the
    other, without looking for copies (state rules ask union(main(p), sub(p)) after every
    event); the reference path always looks (_union_each)."""
    if g.game.reference:
        return _union_each(g, values)
    zones, out, refs = g.zones, [], []
    for v in values:
        if type(v) is not ZoneRef or v in refs:
            return _union_each(g, values)
        refs.append(v)
        out += zones[v]
    return tuple(out)


def _union_each(g: GameState, values: tuple) -> tuple[int, ...]:
    return tuple(dict.fromkeys(c for v in values for c in vm.as_cards(g, v)))


def _random(g: GameState, n: Any) -> int | None:
    n = single(n)
    return chance.roll(g, n) if isinstance(n, int) and n >= 1 else None


def _random_card(g: GameState, cards: Any) -> tuple[int, ...]:
    return chance.pick(g, vm.as_cards(g, cards))


def _heads(g: GameState, n: Any) -> int | None:
    n = single(n)
    if type(n) is not int or n < 0:
        return None
    g.steps += n  # each coin counts as a loop's pass (engine/limits.py): heads(10**9) ends
    if g.steps > limits.MAX_PASSES:
        limits.too_many_passes(g)
    return chance.heads(g, n)


def _turn_order(g: GameState) -> tuple[int, ...]:
    return tuple(triggers.apnap(g))


# a printed read of a property a state can hide: `(None if HIDDEN else READ)`
_VEILED = re.compile(r"\(None if (g\.flags\[\{c\}\] & \d+) else (g\.defs\[\{c\}\]\.printed\[\d+\])\)")

# a card's property read through its reader: `R['cost'](g, _v0)` (the card a local number)
_READ = re.compile(r"R\[('\w+')\]\(g, (\w+(?:\[0\])?)\)")


def printed_reads(source: str, printed: dict[str, str]) -> str:
    """The source with each reader's call of a property in `printed` (property -> its inline
    source: ExprCompiler.printed_later) as that source."""
    def inline(read: re.Match) -> str:
        found = printed.get(read.group(1)[1:-1])
        return read.group(0) if found is None else found.format(c=read.group(2))
    return _READ.sub(inline, source) if printed else source


_FIRST_CALLS: dict[str, CodeType] = {}


def _first_call(args: str) -> CodeType:
    """The code of a generated function of `args` that, at its first call, takes the code of
    its `_inline_source` (ExprCompiler.printed_known) for good and runs it."""
    code = _FIRST_CALLS.get(args)
    if code is None:
        namespace: dict = {}
        exec(compile(f"def _expr({args}):\n    return _inline_now(_expr)({args})\n",  # noqa: S102
                     "<effect expression>", "exec"), namespace)
        code = _FIRST_CALLS[args] = namespace["_expr"].__code__
    return code


def _inline_now(fn: Fn) -> Fn:
    namespace = fn.__globals__  # (one generated function's: `_expr` is fn)
    exec(compile(namespace.pop("_inline_source"), "<effect expression>", "exec"), namespace)  # noqa: S102
    fn.__code__ = namespace["_expr"].__code__
    namespace["_expr"] = fn
    return fn


def modified_source(name: str, printed: str) -> str:
    """Python source reading a number property some text modifies of card `{c}`: `printed`
    (its printed read, as exprs.printed holds) when the modifiers are indexed for this state
    version and the card has none (most reads: one lookup, no call), else its reader (which
    indexes them, then applies the card's). For a property without formula or clamping."""
    return (f"({printed} if g.mod_index[0] == g.version and {{c}} not in g.mod_index[2] "
            f"else R[{name!r}](g, {{c}}))")


def _remember(g: GameState, key: tuple, value: Any) -> Any:
    """Keep a value for this state version; not while static modifiers are being computed
    (reads see printed values then, which later reads in the same version must not reuse)."""
    if g._statics is None or g._statics[1] is not STATICS_PENDING or g._statics[0] != g.version:
        if g.memo_version != g.version:
            g.memo.clear()
            g.memo_version = g.version
        g.memo[key] = value
    return value


_BINARY = {
    "<": _ordered(operator.lt), "<=": _ordered(operator.le),
    ">": _ordered(operator.gt), ">=": _ordered(operator.ge),
    "+": _arith(operator.add), "-": _arith(operator.sub), "*": _arith(operator.mul),
    "/": _arith(lambda a, b: a // b if b else 0), "%": _arith(lambda a, b: a % b if b else 0),
}
_HELPERS = {
    "single": single, "equal": equal, "_eq": _eq, "_ne": _ne, "_neg": _neg,
    "_field": _field, "_counter": _counter, "_resource": _resource, "_abs": _abs,
    "_other": _other, "_bottom": _bottom,
    "_numbers": _numbers, "_playable": _playable, "_attached": _attached, "_total": _total,
    "_printed": _printed, "_beneath": _beneath, "_linked": linked, "_divided": divided,
    "_random": _random, "_heads": _heads, "_random_card": _random_card,
    "_turn_order": _turn_order, "_union": _union, "_neighbours": _neighbours,
    "as_cards": vm.as_cards, "_kept": vm.kept_copy, "_marked": vm.marked_cards,
    "_inline_now": _inline_now, "_by_rule": actions.by_rule, "_guarded": actions.guarded,
    "_barred": repetition.barred, "_too_many_passes": limits.too_many_passes,
    "_can_enter": kernel.can_enter, "_lifted": kernel.lifted,
}


@dataclasses.dataclass(frozen=True)
class Const:
    """A value known when compiling (a bare word, a parameter's default)."""

    value: Any


# what every env that runs code holds: effect_env, action, verb, turn and player envs (a card's
# formula and a deck rule's condition run with `it` alone: ExprCompiler.compile_card)
_ENGINE_VARS = frozenset({"you", "opponent", "self"})


class ExprCompiler:
    def __init__(self, names: Names) -> None:
        self.names = names
        self.variables = _Variables(names)
        # property -> Python source reading it from card `{c}`, for properties known to be
        # printed only (no text modifies them), and for number properties some text modifies
        # (modified_source): set while compiling action selections
        self.printed: dict[str, str] = {}
        # the printed only ones, kept once known (every card compiled), for code made later
        # (compile/straight.py) and before (printed_known). (The modified ones' inline read pays
        # in selections, over cards mostly without modifiers; elsewhere, where the index of
        # modifiers is often stale or the card has some, it costs more than it saves)
        self.printed_later: dict[str, str] = {}
        # the variables every env that runs the code being compiled holds (see compile_card)
        self.bound: frozenset[str] = _ENGINE_VARS
        # functions made before printed_later was known that read a property through its
        # reader, with their source and arguments: see printed_known
        self.unread: list[tuple[Fn, str, str]] = []
        # the ruleset's own code, not a card's text (build_game) nor an expression about one
        # card (compile_card): what printed_known inlines
        self.inline_later = True

    def printed_known(self) -> None:
        """printed_later is known (every card compiled): the functions made before it read
        those properties inline too, as the code made later does. Their code is replaced in
        place (whoever holds them keeps them), at their first call (Python compiles it then:
        a match runs only part of a game's code, and a game is built at every start)."""
        for fn, source, args in self.unread:
            inline = printed_reads(source, self.printed_later)
            if "R[" not in inline:  # (no reader left to read: no store of them at each call)
                inline = inline.replace("    R = g.game.readers\n", "", 1)
            if inline != source:
                fn.__globals__["_inline_source"] = inline
                fn.__code__ = _first_call(args)
        self.unread = []

    def compile_card(self, node: A.Expr) -> Fn:
        """An expression about one card (a computed property, a deck rule): its env holds
        `it` alone, not the engine variables every other env holds."""
        later = self.inline_later
        self.bound, self.inline_later = frozenset(), False  # (a deck rule's `g` is a view)
        try:
            return self.compile(node, True)
        finally:
            self.bound, self.inline_later = _ENGINE_VARS, later

    @contextlib.contextmanager
    def binding(self, names: Iterable[str]) -> Iterator[None]:
        """While compiling code whose env surely holds `names` too (a verb's parameters, an
        action's player and card): they are read by subscript."""
        self.bound = _ENGINE_VARS | frozenset(names)
        try:
            yield
        finally:
            self.bound = _ENGINE_VARS

    def compile(self, node: A.Expr, in_filter: bool = False) -> Fn:
        """A function of (g, env); with in_filter, env['it'] is the candidate card."""
        gen = _Generator(self)
        return gen.loop(node, in_filter) or gen.function(gen.expr(node, in_filter, local_it=False))

    def variable(self, node: A.Expr) -> str | None:
        """The variable `node` is a plain read of, when its compiled code would be `env[name]`
        alone (a bound variable, no special name): a reader then needs no function call."""
        if not isinstance(node, A.Name):
            return None
        return node.id if _Generator(self).expr(node, False, False) == f"env[{node.id!r}]" \
            else None

    def compile_call(self, fn: Callable[..., Any], values: list[A.Expr | Const]) -> Fn:
        """A function calling fn(g, env, *values): a primitive call with its arguments in
        one generated function (no tuple of arguments in between)."""
        gen = _Generator(self)
        items = gen.values(values)
        return gen.function(f"{gen.const(fn)}(g, env{''.join(', ' + i for i in items)})")

    def compile_params(self, params: tuple[Param, ...], values: list[A.Expr | Const]) -> Fn:
        """A function returning a verb call's parameters as a new dict, name -> value."""
        gen = _Generator(self)
        return gen.function(gen.params(params, values))

    def compile_selection(self, name: str, cards: A.Expr, rules: list[A.Expr],
                          visibility: dict[str, str] | None = None) -> Callable:
        """The options of action `name`: `fn(g, env, player, out)` appends (name, card, None)
        to `out` for the cards of `cards` for which every rule holds, `card` bound to each,
        one card per class of interchangeable cards (as vm.distinct_cards: the first of each,
        in order). One generated function instead of an interpreted loop over candidates.
        (`visibility`, zone -> its visibility: see _keep.)"""
        gen = _Generator(self, local_names=frozenset({"card"}))
        gen.args = {"player": "_p", "you": "_p"}  # (legal_actions: both are the player's)
        fn = gen.function("None", self._selection(gen, name, cards, rules, visibility or {}),
                          "g, env, _p, _o")
        filtered = isinstance(cards, A.Filter) and cards.name is None
        fn.printed_test = self.printed_test(cards.cond) if filtered else None  # type: ignore
        return fn  # (printed_test: see actions._plan)

    def compile_window(self, actions: list[tuple[ActionDef, tuple[A.Expr, list[A.Expr]] | None]],
                       visibility: dict[str, str]) -> Callable:
        """The options of a window of actions (each with its selection's (cards, rules) or
        None), as legal_actions gives them: `fn(g, player, plan)` returns a new list;
        plan (actions.window_of), per action, None when the game leaves it out, else the
        keys of the abilities that could forbid or permit it (then the rule-by-rule path
        applies, as for an action without a selection). Every selection inline: no call per
        action at every decision."""
        gen = _Generator(self, local_names=frozenset({"card"}))
        gen.args = {"player": "_p", "you": "_p"}
        gen.shared = {}  # (`count(mana(you))` in two actions' rules: counted once a call)
        lines = ["env = g.game.player_envs[_p]", "_o = []"]
        for i, (adef, selection) in enumerate(actions):
            name, limit = adef.name, adef.limit
            test = f"(_q := _a[{i}]) is not None"
            if limit is not None:  # (actions._count_key)
                test += f" and g.counts.get(({name!r}, {limit[1]!r}, _p), 0) < {limit[0]}"
            other = f"_by_rule(g, {gen.const(adef)}, _p, _o)"
            if selection is None:
                lines += [f"if {test}:", f"    {other}"]
                continue
            block = self._selection(gen, name, *selection, visibility)
            lines += [f"if {test}:", "    if _q and _guarded(g, _q):", f"        {other}",
                      "    else:", *_indent(block, 8)]
        lines += ["if g.board is not None:", "    _o = _barred(g, _p, _o)"]
        if gen.shared:
            lines.insert(2, f"{' = '.join(gen.shared.values())} = None")
        if not any(re.search(r"\benv\b", line) for line in lines[1:]):
            del lines[0]  # (no selection reads a variable: no env to look up at each call)
        return gen.function("_o", lines, "g, _p, _a")

    def _selection(self, gen: _Generator, name: str, cards: A.Expr, rules: list[A.Expr],
                   visibility: dict[str, str]) -> list[str]:
        """compile_selection's lines, to run as a block (no `return`), appending to `_o`.

        For speed (this runs for every action at every decision): the candidates come
        first, and with none the rules are not looked at; then rules that do not read
        `card` are tested once, before the rules about each candidate. A filter of a zone
        and the rules about the card are one pass over the zone: the rules that do not read
        `card` are tested at the first card passing the filter. Cards are merged as they
        pass (no tuple of them, no call): only a copy of a card seen before is looked at
        more closely (vm.kept_copy), and with the `visibility` of its zone the copies of one
        zone merge without a call in the common case (see _keep)."""
        pure = not _impure((cards, *rules))
        prelude: list[str] = []
        gen.prelude = prelude if pure else None  # (hoisting: see _Generator)
        card = gen.locals["card"]
        source = cards.source if isinstance(cards, A.Filter) and cards.name is None else cards
        zone = source.name if isinstance(source, A.Call) and source.name in self.names.zones \
            else None  # (its cards: one zone's list)
        keep = _keep(card, gen.const(name), visibility.get(zone, "hidden") if zone else "hidden")
        if not pure:  # evaluate as written: each `random` draws from the match's RNG
            conds = " and ".join(f"({gen.test(r, False, False)})" for r in rules) or "True"
            return ["_D, _f = g.defs, {}", f"for {card} in {gen.cards(cards, False, False)}:",
                    f"    if {conds}:", *_indent(keep, 8)]
        once = [r for r in rules if "card" not in self.reads(r, False)]
        per_card = [r for r in rules if r not in once]
        filtered = cards if isinstance(cards, A.Filter) and cards.name is None else None
        if filtered is not None:
            head = [f"_s = {gen.cards(filtered.source, False, False)}", "if _s:"]
            test = gen.per_candidate(filtered.cond, True, True)
        else:
            head = [f"_c = {gen.cards(cards, False, False)}", "if _c:"]
        head = [*prelude, *head]
        start = len(prelude)
        guard = " and ".join(f"({gen.test(r, False, False)})" for r in once)
        before_guard = prelude[start:]
        start = len(prelude)
        conds = " and ".join(_unveiled(card, [gen.per_candidate(r, False, False)
                                              for r in per_card]))
        first = [*prelude[start:], "_D, _f = g.defs, {}"]  # once, before the first candidate
        on_pass = [f"if {conds}:", *_indent(keep, 4)] if conds else keep
        if filtered is not None:  # one pass: the filter's test, then the rules' (break: none is taken)
            first = [*before_guard, *([f"if not ({guard}):", "    break"] if guard else []),
                     *first]
            body = ["_f = None", "for it in _s:", f"    if {test}:", f"        {card} = it",
                    "        if _f is None:",  # (its loops may bind `it`: the card is kept)
                    *_indent(first, 12), *_indent(on_pass, 8)]
        else:
            body = [*first, f"for {card} in _c:", *_indent(on_pass, 4)]
            if guard:
                body = [*before_guard, f"if {guard}:", *_indent(body, 4)]
        return [*head, *_indent(body, 4)]

    def printed_test(self, cond: A.Expr) -> Callable[[CardDef], bool] | None:
        """A test of a card definition that every card passing a filter's `cond` passes: the
        conjuncts of `cond` that read only printed properties never hidden (a card of a
        definition failing it never passes). None when no conjunct is such."""
        gen = _Generator(self)
        tests = [test for c in _conjuncts(cond)
                 if _of_definition(test := gen.test(c, True, True).replace("g.defs[it]", "_d"),
                                   gen.namespace)]
        if not tests:
            return None
        source = f"lambda _d: bool({' and '.join(f'({t})' for t in tests)})"
        return eval(compile(source, "<printed test>", "eval"), gen.namespace)  # noqa: S307

    def reads(self, node: A.Expr, in_filter: bool) -> set[str]:
        """The variables an expression reads ('it' for the candidate of a filter)."""
        return self.variables.reads(node, in_filter)


class _Variables(Walker):
    """The variables an expression reads: what a value computed once must not depend on."""

    def __init__(self, names: Names) -> None:
        self.names = names

    reads: Dispatch[set[str]] = Dispatch(A.Expr)

    @reads.on(A.Num, A.Str, A.Bool, A.NoneLit)
    def _literal(self, node: A.Expr, in_filter: bool) -> set[str]:
        return set()

    @reads.on(A.Name)
    def _name(self, node: A.Name, in_filter: bool) -> set[str]:
        name, names = node.id, self.names
        if name == "it" or (in_filter and names.card_field(name)):
            return {"it"}
        if name in ("turn_player", "players", "turn_order") or name in names.states \
                or name in names.enums or names.zones.get(name):
            return set()
        return {name}

    @reads.on(A.Member)
    def _member(self, node: A.Member, in_filter: bool) -> set[str]:
        return self.reads(node.obj, in_filter)

    @reads.on(A.Unary)
    def _unary(self, node: A.Unary, in_filter: bool) -> set[str]:
        return self.reads(node.operand, in_filter)

    @reads.on(A.Binary)
    def _binary(self, node: A.Binary, in_filter: bool) -> set[str]:
        return self.reads(node.left, in_filter) | self.reads(node.right, in_filter)

    @reads.on(A.Filter)
    def _filter(self, node: A.Filter, in_filter: bool) -> set[str]:
        return self.reads(node.source, in_filter) | (self.reads(node.cond, True) - {"it", node.name})

    @reads.on(A.Call)
    def _call(self, node: A.Call, in_filter: bool) -> set[str]:
        args = node.args[:1] if node.name in ("total", "printed") else node.args
        return set().union(*(self.reads(a.value, in_filter) for a in args))


def _keep(card: str, name: str, visibility: str) -> list[str]:
    """Lines adding the option of `card` (action `name`) to `_o` unless an earlier card is
    interchangeable with it (vm.distinct_cards' test, inlined: `_f`, printed card -> its
    first card here or the classes of its cards here; `_D`, the cards' definitions). The
    cards come from one zone of this `visibility` (else "hidden"): a copy of the first card of
    its printed card, neither marked (vm.marked_cards), merges here by vm._alike's test (the
    common case, no call); any other copy is left to vm.kept_copy."""
    option = f"_o.append(({name}, {card}, None))"
    alike = {"public": f" and (g.face[{card}] or g.owner[{card}] == _p)",
             "owner": f" and g.owner[{card}] == _p"}.get(visibility)
    merged = [] if alike is None else [
        f"elif type(_j := _f[_i]) is int and (not (g.mods or g.counters or g.host) or _j not in "
        f"(_m := _f.get(None) or _marked(g, _f)) and {card} not in _m) and "
        f"g.flags[_j] == g.flags[{card}] and g.face[_j] == g.face[{card}] and "
        f"g.owner[_j] == g.owner[{card}]{alike}:", "    pass"]
    return [f"_i = _D[{card}].id", "if _i not in _f:", f"    _f[_i] = {card}", f"    {option}",
            *merged, f"elif _kept(g, _f, _i, {card}, _p):", f"    {option}"]


def _shape(node: Any) -> Any:
    """An expression as nested tuples, without its place in the text: equal for the same
    expression written twice."""
    if dataclasses.is_dataclass(node):
        return (type(node).__name__, *(_shape(getattr(node, f.name))
                                       for f in dataclasses.fields(node) if f.name != "span"))
    if isinstance(node, tuple):
        return tuple(_shape(x) for x in node)
    return node


# a read of a card's property some state hides: `(None if HIDDEN else READ)` (state.py,
# compile/ruleset.py's _printed_source)
_HIDDEN = re.compile(r"\(None if g\.flags\[(\w+)\] & (\d+) else "
                     r"(g\.defs\[\1\]\.(?:name|printed\[\d+\]))\)")


def _unveiled(card: str, conds: list[str]) -> list[str]:
    """Conditions on `card` to test in turn, each only when those before hold, as sources in
    parentheses: after one that is, or has as a conjunct, `not g.flags[card] & M`, the card is
    in none of the states M, so a read those states would hide is the plain read (no
    condition changes a card's states)."""
    def plain(read: re.Match, off: int) -> str:
        return read.group(3) if read.group(1) == card and not int(read.group(2)) & ~off \
            else read.group(0)

    out, off = [], 0
    for cond in conds:
        if off:
            cond = _HIDDEN.sub(functools.partial(plain, off=off), cond)
        out.append(f"({cond})")
        test = pyast.parse(cond, mode="eval").body
        for term in test.values if isinstance(test, pyast.BoolOp) \
                and isinstance(test.op, pyast.And) else (test,):
            match term:
                case pyast.UnaryOp(pyast.Not(), pyast.BinOp(pyast.Subscript(
                        pyast.Attribute(pyast.Name("g"), "flags"), pyast.Name(c)),
                        pyast.BitAnd(), pyast.Constant(int() as states))) if c == card:
                    off |= states
    return out


def _indent(lines: list[str], spaces: int) -> list[str]:
    return [" " * spaces + line for line in lines]


def _impure(node: Any) -> bool:
    """Draws from the match's RNG (`random`): the speed-ups that skip, reorder, hoist or share
    evaluations must leave such an expression alone."""
    if isinstance(node, A.Call) and node.name in ("random", "heads", "random_card"):
        return True
    if isinstance(node, tuple):
        return any(_impure(x) for x in node)
    if dataclasses.is_dataclass(node):
        return any(_impure(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False


def _of_definition(source: str, namespace: dict) -> bool:
    """The generated test reads nothing but the definition `_d`, constants and pure helpers
    (anything reading the state, the env or the card goes through `g`, `env` or `it`)."""
    tree = pyast.parse(source, mode="eval")
    stored = {n.target.id for n in pyast.walk(tree) if isinstance(n, pyast.NamedExpr)}
    return all(n.id in ("_d", "type") or n.id in namespace or n.id in stored
               for n in pyast.walk(tree) if isinstance(n, pyast.Name))


def _conjuncts(node: A.Expr) -> list[A.Expr]:
    if isinstance(node, A.Binary) and node.op == "and":
        return [*_conjuncts(node.left), *_conjuncts(node.right)]
    return [node]


_PLAIN_OPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "+", "-", "*"})


def _whole_number(node: A.Expr) -> bool:
    """Always a whole number (never None, never a tuple): a number written out, a count, a
    total, and sums, differences and products of these."""
    return isinstance(node, A.Num) and type(node.value) is int \
        or isinstance(node, A.Call) and node.name in ("count", "total") \
        or isinstance(node, A.Binary) and node.op in ("+", "-", "*") \
        and _whole_number(node.left) and _whole_number(node.right)



class _Generator(Walker):
    """Builds the Python source of one expression; constants go into its namespace."""

    def __init__(self, owner: ExprCompiler, local_names: frozenset[str] = frozenset(),
                 hoist: bool = False) -> None:
        self.owner, self.names = owner, owner.names
        # variables that are Python locals in the generated code, not env entries
        self.locals: dict[str, str] = {n: f"_v{i}" for i, n in enumerate(sorted(local_names))}
        # variables the generated function takes as arguments (the same for all its candidates)
        self.args: dict[str, str] = {}
        self.tuples: set[str] = set()  # locals surely holding a tuple of cards
        self.players = set(_PLAYERS)  # sources surely holding a player (see _cards)
        self.namespace: dict[str, Any] = dict(_HELPERS)
        self.count = 0
        # hoist: state-only subexpressions are computed once, before the body (in a loop over
        # candidates they would otherwise be looked up in the memo for every candidate)
        self.prelude: list[str] | None = [] if hoist else None
        # the hoisted values the selections of one window share (see compile_window): an
        # expression's shape -> its variable, None until one of them computes it
        self.shared: dict[tuple, str] | None = None
        # > 0 while generating the cards a comprehension walks (no `:=` allowed there)
        self.iterable = 0
        self.per_item = 0  # > 0 while generating what is computed for each candidate

    def const(self, value: Any) -> str:
        """A name bound to `value` in the generated function's namespace."""
        self.count += 1
        name = f"_k{self.count}"
        self.namespace[name] = value
        return name

    def values(self, values: list[A.Expr | Const]) -> list[str]:
        """Source for each of a call's argument values (known constants bound by name)."""
        return [self.const(v.value) if isinstance(v, Const) else self.sub(v, False, False)
                for v in values]

    def params(self, params: tuple[Param, ...], values: list[A.Expr | Const]) -> str:
        """Source for a verb call's parameters, a new dict; a `cards` value as a tuple (as
        vm.call_verb takes it), made one only when it is not one already."""
        items = []
        for p, v in zip(params, self.values(values), strict=True):
            if p.type == "cards":
                self.count += 1
                t = f"_t{self.count}"
                v = f"({t} if type({t} := {v}) is tuple else as_cards(g, {t}))"
            items.append(f"{p.name!r}: {v}")
        return f"{{{', '.join(items)}}}"

    def loop(self, n: A.Expr, in_filter: bool) -> Fn | None:
        """A filter, or the count or existence of one, as a whole function: a loop over the
        candidates (in CPython 3.11 a comprehension is a call of its own). None for any other
        expression, and for one drawing from the RNG (left as written)."""
        lines = self.loop_lines(n, in_filter, "_c")
        return None if lines is None else self.function("_c", lines)

    def loop_lines(self, n: A.Expr, in_filter: bool, var: str) -> list[str] | None:
        """loop()'s lines, the value left in `var`."""
        kind = "filter"
        if isinstance(n, A.Call) and n.name in ("count", "exists") and len(n.args) == 1:
            kind, n = n.name, n.args[0].value
        if not isinstance(n, A.Filter) or n.name is not None or _impure(n):
            return None
        head, on_pass = {"filter": ("[]", f"{var}.append(it)"), "count": ("0", f"{var} += 1"),
                         "exists": ("False", f"{var} = True; break")}[kind]
        source = self.cards(n.source, in_filter, False)
        lines = [f"{var} = {head}", f"for it in {source}:",
                 f"    if {self.test(n.cond, True, True)}:", f"        {on_pass}"]
        return [*lines, f"{var} = tuple({var})"] if kind == "filter" else lines

    def function(self, body: str, head: list[str] | None = None, args: str = "g, env") -> Fn:
        """The function of `args` returning `body`; before it, `head` (by default the
        hoisted lines)."""
        lines = [*(self.prelude or () if head is None else head), f"return {body}"]
        if any("R[" in line for line in lines):  # (not read: a store saved at every call)
            lines.insert(0, "R = g.game.readers")
        source = f"def _expr({args}):\n" + "".join(f"    {line}\n" for line in lines)
        exec(compile(source, "<effect expression>", "exec"), self.namespace)  # noqa: S102
        fn = self.namespace["_expr"]
        if lines[0].startswith("R =") and not self.owner.printed_later and self.owner.inline_later:
            self.owner.unread.append((fn, source, args))
        return fn

    # the source of an expression's value (in_filter: inside a filter's condition; local_it:
    # the candidate is the local `it`, not env['it'])
    expr: Dispatch[str] = Dispatch(A.Expr)

    def sub(self, n: A.Expr, in_filter: bool, local_it: bool) -> str:
        """A subexpression. With hoisting on, a call or filter computed for each candidate
        without reading it (nor any variable bound per candidate) is computed once, before the
        loop: `hand where cost <= count(mana)` counts the mana once, not once per card in hand."""
        if not (isinstance(n, (A.Filter, A.Call)) and self.prelude is not None and self.per_item
                and not self.owner.reads(n, in_filter) & {*self.locals, "it"}):
            return self.expr(n, in_filter, local_it)
        self.count += 1
        name = f"_x{self.count}"  # (named first: what the loop's test hoists goes before it)
        if self.shared is not None:
            name = self.shared.setdefault((_shape(n), in_filter), name)
        lines = self.loop_lines(n, in_filter, name)  # (a loop: no comprehension's call)
        if lines is None:
            lines = [f"{name} = {self.expr(n, in_filter, local_it)}"]
        self.prelude += lines if self.shared is None \
            else [f"if {name} is None:", *_indent(lines, 4)]
        return name

    def per_candidate(self, n: A.Expr, in_filter: bool, local_it: bool) -> str:
        """test(), for a condition computed for each candidate of a loop."""
        self.per_item += 1
        try:
            return self.test(n, in_filter, local_it)
        finally:
            self.per_item -= 1

    def test(self, n: A.Expr, in_filter: bool, local_it: bool) -> str:
        """A condition only tested for truth (a filter's, a rule's): `and`, `or` and `not`
        need no bool() around them there."""
        if in_filter and (isinstance(n, A.Binary) and n.op == "and"
                          or isinstance(n, A.Unary) and n.op == "not"):
            states = self._state_masks(n)
            if states is not None:  # `not tapped and not reversed`: one test of the flags
                on, off = states
                flags = f"g.flags[{self._it(local_it)}]"
                return f"(not {flags} & {off})" if not on else f"({flags} & {on | off} == {on})"
        if isinstance(n, A.Binary) and n.op in ("and", "or"):
            a, b = self.test(n.left, in_filter, local_it), self.test(n.right, in_filter, local_it)
            return f"(({a}) {n.op} ({b}))"
        if isinstance(n, A.Unary) and n.op == "not":
            return f"(not {self.test(n.operand, in_filter, local_it)})"
        return self.sub(n, in_filter, local_it)

    def _state_masks(self, n: A.Expr) -> tuple[int, int] | None:
        """A filter's condition that only asks which states the candidate is in or not in
        (`not tapped and not reversed`): the bits that must be set, and those that must be
        clear. None for any other condition."""
        on = off = 0
        for term in _conjuncts(n):
            name = term.operand if isinstance(term, A.Unary) and term.op == "not" else term
            negated = name is not term
            if not (isinstance(name, A.Name) and name.id in self.names.states):
                return None
            bit = self.names.state_bits[name.id]
            if negated:
                off |= bit
            else:
                on |= bit
        return (on, off) if not on & off else None

    # literals
    @expr.on(A.Num)
    def _num(self, n: A.Num, in_filter: bool, local_it: bool) -> str:
        return repr(n.value)

    @expr.on(A.Str)
    def _str(self, n: A.Str, in_filter: bool, local_it: bool) -> str:
        return repr(n.value)

    @expr.on(A.Bool)
    def _bool(self, n: A.Bool, in_filter: bool, local_it: bool) -> str:
        return repr(n.value)

    @expr.on(A.NoneLit)
    def _nonelit(self, n: A.NoneLit, in_filter: bool, local_it: bool) -> str:
        return "None"

    # names
    def _it(self, local_it: bool) -> str:
        return "it" if local_it else "env.get('it')"

    @expr.on(A.Name)
    def _name(self, n: A.Name, in_filter: bool, local_it: bool) -> str:
        name, names = n.id, self.names
        if name == "it":
            return self._it(local_it)
        if in_filter and names.card_field(name):
            if name in names.counters:
                return f"g.counters.get(({self._it(local_it)}, {name!r}), 0)"
            return self._read(name, self._it(local_it), local_it)
        if name == "turn_player":
            return "g.turn_player"
        if name == "players":
            return "tuple(g.players)"
        if name == "turn_order":
            return "_turn_order(g)"
        if name in names.states or name in names.enums:
            return repr(name)
        if names.zones.get(name):
            return self.const(ZoneRef(name, -1))
        if name in self.locals:
            return self.locals[name]
        if name in self.args:
            return self.args[name]
        if name in self.owner.bound:  # (a subscript: dict.get is a call)
            return f"env[{name!r}]"
        return f"env.get({name!r})"

    def _literal(self, n: A.Expr, in_filter: bool) -> TypeGuard[A.Num | A.Str | A.Bool | A.Name]:
        """Compiles to a Python literal other than None (a number, text, state or enum word)."""
        if isinstance(n, (A.Num, A.Str, A.Bool)):
            return True
        return isinstance(n, A.Name) and n.id not in ("it", "turn_player", "players") \
            and not (in_filter and self.names.card_field(n.id)) \
            and (n.id in self.names.states or n.id in self.names.enums)

    def _reads_field(self, n: A.Expr, in_filter: bool) -> bool:
        """A card's property, counter or a player's resource: a number, text, flag or None."""
        return isinstance(n, A.Member) or isinstance(n, A.Name) and n.id != "it" \
            and in_filter and bool(self.names.card_field(n.id))

    @expr.on(A.Member)
    def _member(self, n: A.Member, in_filter: bool, local_it: bool) -> str:
        obj = self.sub(n.obj, in_filter, local_it)
        if n.name in self.names.resources:  # a player's number: inline for a player number
            if self.iterable:  # (where `:=` cannot go)
                return f"_resource(g, {obj}, {n.name!r})"
            self.count += 1
            p = f"_p{self.count}"
            return f"(g.res[{p}].get({n.name!r}, 0) if type({p} := {obj}) is int " \
                   f"else _resource(g, {p}, {n.name!r}))"
        card = obj == "it" or obj in self.locals.values()  # a comprehension's card: an int
        if n.name in self.names.counters:
            return f"g.counters.get(({obj}, {n.name!r}), 0)" if card \
                else f"_counter(g, {obj}, {n.name!r})"
        if not card:
            if not self._declared(n.name):
                return f"{self.const(_read_none)}(g, single({obj}))"
            if obj in self.tuples:  # (_field, inlined)
                return f"({self._read(n.name, f'{obj}[0]', True)} if len({obj}) == 1 else None)"
            if self.iterable:  # (where `:=` cannot go)
                return f"_field(g, {obj}, {n.name!r})"
            self.count += 1  # one card (an int) read inline; the rest through _field
            c = f"_r{self.count}"
            return f"({self._read(n.name, c, True)} if type({c} := {obj}) is int " \
                   f"else _field(g, {c}, {n.name!r}))"
        return self._read(n.name, obj, True)

    def _read(self, name: str, card: str, local: bool) -> str:
        """A card's field; `card` is a card number. A state or an engine attribute of a local
        card is read inline (these hot reads need no call); a property through its reader."""
        names = self.names
        if local and name in self.owner.printed:
            return self.owner.printed[name].format(c=card)
        if not local or name in names.properties:
            return f"{self._reader(name)}(g, {card})"
        if name in names.states:
            return f"(g.flags[{card}] & {names.state_bits[name]} != 0)"
        inline = CARD_ATTR_SOURCE.get(name)
        if inline is None:
            return f"{self._reader(name)}(g, {card})"
        return inline.format(c=card, hide=self.names.hiding_mask)

    def _reader(self, name: str) -> str:
        return f"R[{name!r}]" if self._declared(name) else self.const(_read_none)

    def _declared(self, name: str) -> bool:
        """A card field the game's readers hold: a declared property or state, or one of the
        engine's card attributes."""
        return name in CARD_ATTR_SOURCE or name in self.names.properties \
            or name in self.names.states

    @expr.on(A.Unary)
    def _unary(self, n: A.Unary, in_filter: bool, local_it: bool) -> str:
        x = self.sub(n.operand, in_filter, local_it)
        return f"(not {x})" if n.op == "not" else f"_neg({x})"

    @expr.on(A.Binary)
    def _binary(self, n: A.Binary, in_filter: bool, local_it: bool) -> str:
        op = n.op
        if op == "in":
            a = self.sub(n.left, in_filter, local_it)
            return f"(single({a}) in {self.cards(n.right, in_filter, local_it)})"
        a = self.sub(n.left, in_filter, local_it)
        b = self.sub(n.right, in_filter, local_it)
        if op in ("and", "or"):
            return f"bool(({a}) {op} ({b}))"
        if op in _PLAIN_OPS and _whole_number(n.left) and _whole_number(n.right):
            return f"({a} {op} {b})"  # `count(deck(player)) == 0`: ints, no None, no call
        if op in ("==", "!="):
            if isinstance(n.left, A.NoneLit) or isinstance(n.right, A.NoneLit):
                return f"({'' if op == '==' else 'not '}equal({a}, {b}))"
            if self._literal(n.right, in_filter) and self._reads_field(n.left, in_filter):
                # `kind == spell`, `kind != token`: one set lookup, no call (a field's value is
                # hashable); the set holds what single() and None-is-never-equal would accept
                v = n.right.id if isinstance(n.right, A.Name) else n.right.value
                if op == "==":
                    return f"({a} in {self.const(frozenset({v, (v,)}))})"
                return f"({a} not in {self.const(frozenset({None, v, (v,)}))})"
            if op == "==" and self._literal(n.right, in_filter):  # no call either
                return f"(single({a}) == {b})"
            helper = "_eq" if op == "==" else "_ne"
            cards = [x for x in (a, b) if x == "it" or x in self.locals.values()]
            if len(cards) == 2:  # `it != card`: two cards, ints
                return f"({a} {op} {b})"
            if cards and not self.iterable:  # a card against a card, or a one-card tuple
                self.count += 1
                c, y, other = cards[0], f"_y{self.count}", b if cards[0] == a else a
                return f"({c} {op} {y} if type({y} := {other}) is int else {c} {op} {y}[0] " \
                       f"if type({y}) is tuple and len({y}) == 1 and type({y}[0]) is int " \
                       f"else {helper}({c}, {y}))"  # (no call either)
            return f"{helper}({a}, {b})"
        if op in ("+", "-", "*") and not self.iterable:  # ints inline; the rest: the helper
            self.count += 1
            w, v, k = f"_w{self.count}", f"_u{self.count}", self.const(_BINARY[op])
            return f"({w} {op} {v} if type({w} := {a}) is type({v} := {b}) is int " \
                   f"else {k}({w}, {v}))"
        return self._int_compare(n, a, b, in_filter, local_it) \
            or f"{self.const(_BINARY[op])}({a}, {b})"

    def _whole_read(self, n: A.Expr, in_filter: bool,
                    local_it: bool) -> tuple[str | None, str] | None:
        """A local card's number property read as printed (exprs.printed: no text modifies
        it) where every card has a whole number: the source of the test that hides it (None
        when nothing can) and of the printed read. None for any other expression."""
        if isinstance(n, A.Member) and isinstance(n.obj, A.Name):
            name, card = n.name, self._name(n.obj, in_filter, local_it)
            if not (card == "it" or card in self.locals.values()):
                return None
        elif isinstance(n, A.Name) and in_filter and local_it and self.names.card_field(n.id):
            name, card = n.id, "it"  # (a filter's candidate, as _name reads it)
        else:
            return None
        printed = self.owner.printed.get(name)
        if name not in self.names.whole_numbers or name not in self.owner.printed_later \
                or printed is None:
            return None
        veiled = _VEILED.fullmatch(printed)  # (as compile/ruleset.py's _printed_source writes)
        if veiled is None:
            return None if "(" in printed else (None, printed.format(c=card))
        return veiled.group(1).format(c=card), veiled.group(2).format(c=card)

    def _int_compare(self, n: A.Binary, a: str, b: str, in_filter: bool,
                     local_it: bool) -> str | None:
        """`card.cost <= count(...)`, `speed >= you.bar`: an ordered compare, inline when the
        values are ints (None, a one-card tuple and the rest take the helper); a printed whole
        number against a whole number with no test of its type (_whole_read). None where
        `:=` cannot go."""
        if n.op not in ("<", "<=", ">", ">=") or self.iterable:
            return None
        read = self._whole_read(n.left, in_filter, local_it)
        if read is not None and _whole_number(n.right) and not _impure(n.right):
            hidden, value = read  # (hidden: the comparison is false, the right side unread)
            return f"({value} {n.op} {b})" if hidden is None \
                else f"(not {hidden} and {value} {n.op} {b})"
        self.count += 1
        w, k = f"_w{self.count}", self.const(_BINARY[n.op])
        if _whole_number(n.right) and not isinstance(n.left, A.Num):
            return f"({w} {n.op} {b} if type({w} := {a}) is int else {k}({w}, {b}))"
        if _whole_number(n.left) and not isinstance(n.right, A.Num) and not _impure(n.left):
            # (evaluates the right side first: the left one draws nothing)
            return f"({a} {n.op} {w} if type({w} := {b}) is int else {k}({a}, {w}))"
        v = f"_u{self.count}"  # both evaluated (a chained `is`), left first, as by the helper
        return f"({w} {n.op} {v} if type({w} := {a}) is type({v} := {b}) is int else {k}({w}, {v}))"

    def cards(self, n: A.Expr, in_filter: bool, local_it: bool) -> str:
        """Source for a value used as cards; a zone call reads the zone's list directly."""
        if isinstance(n, A.Call) and n.name in self.names.zones:
            ref = self.expr(n, in_filter, local_it)
            if self.names.zones[n.name] if not n.args \
                    else self.expr(n.args[0].value, in_filter, local_it) in self.players:
                return f"g.zones[{ref}]"  # (a subscript: dict.get is a call)
            return f"g.zones.get({ref}, ())"  # (the zone of no one: none)
        value = self.sub(n, in_filter, local_it)
        if self.iterable:  # (where `:=` cannot go)
            return f"as_cards(g, {value})"
        self.count += 1  # a tuple, the usual value: no call
        t = f"_b{self.count}"
        return f"({t} if type({t} := {value}) is tuple else as_cards(g, {t}))"

    @expr.on(A.Filter)
    def _filter(self, n: A.Filter, in_filter: bool, local_it: bool) -> str:
        return f"tuple([it {self._filter_loop(n, in_filter, local_it)}])"

    def _filter_loop(self, n: A.Filter, in_filter: bool, local_it: bool) -> str:
        """The comprehension clauses of a filter, `it` bound to each candidate that passes."""
        self.iterable += 1  # (a comprehension's iterable: no `:=` anywhere in it)
        try:
            source = self.cards(n.source, in_filter, local_it)
        finally:
            self.iterable -= 1
        if n.name is None:
            return f"for it in {source} if {self.per_candidate(n.cond, True, True)}"
        outer = self.locals.get(n.name)
        var = self.locals[n.name] = f"_v{len(self.locals)}_{self.count}"
        cond = self.per_candidate(n.cond, True, True)
        if outer is None:
            del self.locals[n.name]
        else:
            self.locals[n.name] = outer
        return f"for it in {source} for {var} in (it,) if {cond}"

    def _semijoin(self, f: A.Filter, in_filter: bool) -> str | None:
        """`exists(S where P and x == card.y)`, S and P not about the candidate `card`, in a
        selection (hoisting on): the values of x over S where P go into a dict's keys once, before
        the loop over candidates, and each candidate is one lookup (None is never equal).
        None when the filter has another shape."""
        if self.prelude is None or f.name is not None:
            return None
        outer = set(self.locals) | {"it"}
        if self.owner.reads(f.source, in_filter) & outer:
            return None
        terms = _conjuncts(f.cond)
        tied = [t for t in terms if self.owner.reads(t, True) - {"it"} & outer]
        if len(tied) != 1 or not (isinstance(tied[0], A.Binary) and tied[0].op == "=="):
            return None
        inner, other = tied[0].left, tied[0].right
        if self.owner.reads(inner, True) & outer - {"it"}:
            inner, other = other, inner
        if self.owner.reads(inner, True) & outer - {"it"} or "it" in self.owner.reads(other, True) \
                or not (self._reads_field(inner, True) and self._reads_field(other, True)):
            return None
        rest = [t for t in terms if t is not tied[0]]
        cond = " and ".join(f"({self.test(t, True, True)})" for t in rest) or "True"
        name = f"_j{len(self.prelude)}"
        self.prelude += [f"{name} = {{}}",  # (a loop: a comprehension is a call, set() too)
                         f"for it in {self.cards(f.source, in_filter, False)}:",
                         f"    if {cond}:", f"        {name}[{self.sub(inner, True, True)}] = None",
                         f"{name}.pop(None, None)"]
        return f"({self.sub(other, True, True)} in {name})"

    @expr.on(A.Call)
    def _call(self, n: A.Call, in_filter: bool, local_it: bool) -> str:
        if n.name in ("total", "printed"):  # (the property named bare)
            prop = n.args[1].value.id if isinstance(n.args[1].value, A.Name) else ""
            return f"_{n.name}(g, {self.sub(n.args[0].value, in_filter, local_it)}, {prop!r})"
        if n.name in ("count", "exists"):
            # A filter here is one comprehension, never its own memoised function: the filter
            # reads what the count reads, so when the count is memoised this is its body.
            arg = n.args[0].value
            if n.name == "exists" and isinstance(arg, A.Filter) and not _impure(arg):
                joined = self._semijoin(arg, in_filter)
                if joined is not None:
                    return joined
                # stops at the first card that passes instead of collecting them all
                return f"any(True {self._filter_loop(arg, in_filter, local_it)})"
            if n.name == "count" and isinstance(arg, A.Filter):  # no tuple to build
                return f"len([it {self._filter_loop(arg, in_filter, local_it)}])"
            cards = self.cards(arg, in_filter, local_it)
            return f"len({cards})" if n.name == "count" else f"bool({cards})"
        if n.name == "top":  # slices the zone's list: no copy of a whole deck to take one card
            cards = self.cards(n.args[0].value, in_filter, local_it)
            k = n.args[1].value if len(n.args) > 1 else None
            if k is None or isinstance(k, A.Num) and isinstance(k.value, int):
                return f"tuple({cards}[:{1 if k is None else max(k.value, 0)}])"
            return f"tuple({cards}[:max(single({self.sub(k, in_filter, local_it)}) or 0, 0)])"
        args = [self.sub(a.value, in_filter, local_it) for a in n.args]
        if n.name == "other" and not self.iterable:  # a player number: no call
            self.count += 1
            p = f"_h{self.count}"
            return f"(g.game.opponent[{p}] if type({p} := {args[0]}) is int else _other(g, {p}))"
        if n.name == "playable" and (args[0] == "it" or args[0] in self.locals.values()):
            # a card (an int) without a condition of its own, the usual case: no call
            return f"(g.defs[{args[0]}].condition is None or _playable(g, {args[0]}))"
        if n.name == "can_enter":
            inline = self._can_enter(n, args)
            if inline is not None:
                return inline
        if n.name in self.names.zones:
            if self.names.zones[n.name] or not args:
                return self.const(ZoneRef(n.name, -1))
            if args[0].isdigit():  # a player known here (the end check's): its zone
                return self.const(ZoneRef(n.name, int(args[0])))
            refs = self.const(_zone_refs(n.name))
            return f"{refs}[{args[0]}]"
        return _FUNCTIONS[n.name](args)


    def _can_enter(self, n: A.Call, args: list[str]) -> str | None:
        """`can_enter(CARD, ZONE(...))` of one card, as kernel.can_enter asks it: the zone's
        `enter` rules inline (no call per candidate of an action), each lifted by a live
        permission; several cards, or a zone known only as the code runs, through the kernel.
        In a selection, a player's zone named by what is the same for every candidate is found
        once, before the loop, and the rules' parts not about the card with it (a same-name
        rule: one lookup per candidate). None where it cannot be inline (then the call)."""
        zone = n.args[1].value
        if not isinstance(zone, A.Call) or self.iterable:  # (`:=` cannot go there)
            return None
        rules = self.names.enter_rules.get(zone.name)
        if not rules:  # (no rules: the kernel's answer)
            return None
        self.count += 1
        c, z, p = f"_ck{self.count}", f"_zk{self.count}", f"_pk{self.count}"
        once = self.prelude is not None and self.per_item > 0 \
            and not self.names.zones.get(zone.name) \
            and not self.owner.reads(zone, False) & {*self.locals, "it"}
        saved = self.args, self.prelude, dict(self.locals)
        self.args = {**self.args, "player": p, "you": p, "self": "None",
                     "opponent": f"(None if {p} is None else g.game.opponent[{p}])"}
        self.locals["card"] = c  # (an int in the inline branch: read as a loop's card)
        if once and self.prelude is not None:
            self.prelude += [f"{z} = {args[1]}", f"{p} = None if {z} is None else {z}.owner"]
        else:
            self.prelude = None  # (nothing hoisted out of a loop: the rules read the card)
        try:
            terms = [f"({self.sub(tree, False, False)} or _lifted(g, {rule!r}, {c}, {p}))"
                     for rule, tree in rules]
        finally:
            self.args, self.prelude = saved[:2]
            self.locals.clear()
            self.locals.update(saved[2])
        # (`X is X`: true, after binding the zone's player as kernel.refused finds it)
        found = f"{z} is not None" if once else f"({z} := {args[1]}) is not None and " \
            f"(({p} := {z}.owner if {z}.owner >= 0 else g.owner[{c}]) is {p})"
        return f"(_can_enter(g, {c}, {args[1] if not once else z}) " \
               f"if type({c} := single({args[0]})) is not int " \
               f"else {found} and {' and '.join(terms)})"


# generated sources that are surely a player (a zone of theirs is in g.zones): the engine
# variables every env holds, the turn player, a compiled selection's player argument
_PLAYERS = frozenset({"env['you']", "env['opponent']", "g.turn_player", "_p"})

_FUNCTIONS: dict[str, Callable[[list[str]], str]] = {
    "count": lambda a: f"len(as_cards(g, {a[0]}))",
    "exists": lambda a: f"bool(as_cards(g, {a[0]}))",
    "bottom": lambda a: f"_bottom(g, {a[0]}, {a[1] if len(a) > 1 else '1'})",
    "max": lambda a: f"max(_numbers({', '.join(a)}), default=None)",
    "min": lambda a: f"min(_numbers({', '.join(a)}), default=None)",
    "abs": lambda a: f"_abs({a[0]})",
    "other": lambda a: f"_other(g, {a[0]})",
    "playable": lambda a: f"_playable(g, {a[0]})",
    "attached": lambda a: f"_attached(g, {a[0]})",
    "beneath": lambda a: f"_beneath(g, {a[0]})",
    "linked": lambda a: f"_linked(g, {a[0]})",
    "divided": lambda a: f"_divided(g, env, {a[0]})",
    "random": lambda a: f"_random(g, {a[0]})",
    "heads": lambda a: f"_heads(g, {a[0]})",
    "random_card": lambda a: f"_random_card(g, {a[0]})",
    "union": lambda a: f"_union(g, {', '.join(a)})",
    "left": lambda a: f"_neighbours(g, {a[0]}, (-1,))",
    "right": lambda a: f"_neighbours(g, {a[0]}, (1,))",
    "adjacent": lambda a: f"_neighbours(g, {a[0]}, (-1, 1))",
    "zones": lambda a: f"({', '.join(a)},)",  # (a tuple of zones, for `choose zone`)
    "stack_size": lambda a: "len(g.stack)",
    "turn_number": lambda a: "g.turn",
    "can_enter": lambda a: f"_can_enter(g, {a[0]}, {a[1]})",
}
