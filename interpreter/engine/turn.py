"""The turn structure as VM instructions: turns, phases, action windows, trigger ordering.

Going on: once a turn instruction is done, the next one runs in the same dispatch. Each is
a timing point and settles first (see instructions.Instr): when settling started something,
that runs first and the loop comes back to it. Only the loop's round trip goes. TurnEnd
starts the next turn itself, but TurnStart does not go on: a chain of such calls is at most
one turn long.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine import control, repetition, vm
from interpreter.engine.actions import (
    PASS,
    start_action,
    window_full,
    window_of,
)
from interpreter.engine.instructions import Instr, closed_run
from interpreter.engine.model import PhaseDef
from interpreter.engine.state import Decision, Frame, GameOver, GameState, Result
from interpreter.engine.timing import inline_settle, needs_settling


class TurnStart(Instr):
    __slots__ = ()

    def run(self, g: GameState, f: Frame) -> None:
        if g.turn >= g.turn_limit:
            judge(g, f, f"turn limit: {g.turn_limit} turns reached", "limits.turns")
            return
        f.pc += 1
        g.turn += 1
        env, you = f.env, g.turn_player
        env["you"] = you  # (no env.update: keywords build a dict)
        env["opponent"] = g.game.opponent[you]
        for k in g.counts:  # limits 'per own_turn' last from a player's turn start to the next
            if k[1] == "own_turn" and k[2] == you:  # (a dict is rebuilt only then)
                g.counts = {k: v for k, v in g.counts.items()
                            if not (k[1] == "own_turn" and k[2] == you)}
                break
        if "turn_start" not in g.heard:  # (quiet, inlined)
            g.version += 1
        elif not vm.quiet(g, "turn_start"):
            vm.emit(g, "turn_start", {"player": g.turn_player, "turn": g.turn})


class PhaseStart(Instr):
    """Enter a phase, or skip it when its `if` condition does not hold. With `ending`, the
    phase before ends first (it reports phase_end, its limits and states expire): one
    dispatch for both. A plain PhaseStart of the same phase follows it, where the loop comes
    back when that end started something (settling first), and where a scenario starts the
    phase."""

    __slots__ = ("phase", "name", "when", "skip", "ending")

    def __init__(self, phase: PhaseDef, ending: PhaseDef | None = None) -> None:
        self.phase, self.name, self.when, self.ending = phase, phase.name, phase.when, ending
        self.skip = 0  # where to go on when the phase is skipped: set by the program's maker

    @inline_settle
    def run(self, g: GameState, f: Frame) -> None:
        if needs_settling(g) and vm.settle_point(g):
            return  # a timing point: what settling started runs first, then this again
        ending = self.ending
        if ending is not None:
            f.pc += 1  # (the plain start, next)
            if ("phase_end" in g.heard or g.mods or g.counts or "phase" in g.expiring
                    or g.controls) \
                    and end_phase(g, ending):  # (else nothing to do: no call)
                return  # as the plain start does: what settling started runs first
        # every change to what the win/loss rules read checks them at once: here only the
        # state a match or a scenario starts from
        if g.clean_at < 0:
            vm.check_end(g)
        when = self.when  # (see instructions.Straight.run)
        if when is None or when(g, f.env):
            f.pc += 1
            g.phase = self.name
            if "phase_start" not in g.heard:  # (quiet, inlined)
                g.version += 1
            elif not vm.quiet(g, "phase_start"):
                vm.emit(g, "phase_start", {"phase": self.name, "player": g.turn_player},
                        ref=self.phase.ref)
        else:
            f.pc = self.skip
        # go on (see the module's docstring)
        f.code[f.pc].run(g, f)


class Window(Instr):
    """The turn player acts: any legal action of this phase, or pass to end the phase.
    With `max_actions`, the phase also ends once that many actions were taken."""

    __slots__ = ("phase", "max_actions", "prompt", "plan")

    def __init__(self, phase: PhaseDef) -> None:
        self.phase, self.max_actions = phase, phase.max_actions
        self.prompt = f"{phase.name} phase: act"
        self.plan: tuple = (None, None, ())  # (game, window_of's): see actions.Offer

    @inline_settle
    def run(self, g: GameState, f: Frame) -> None:
        if needs_settling(g) and vm.settle_point(g):
            return  # a timing point: what settling started runs first, then this again
        if "#end_turn" in f.env:  # an ability that ends the turn was used: the turn ends
            self.end_turn(g, f)
            return
        if self.max_actions is None or not window_full(f, self.max_actions):
            plan = self.plan
            if plan[0] is not g.game:
                plan = self.plan = (g.game, *window_of(g, self.phase.actions))
            out = plan[1](g, g.turn_player, plan[2])
            if out:
                out.append(PASS)
                g.decision = Decision((g.turn_player, "action", tuple(out), self.prompt))
                return  # (vm.ask, inlined)
            f.env.pop("#taken", None)  # (close_window, inlined)
            f.pc += 1
            g.unasked += 1
        # closed with nothing asked: go on
        f.code[f.pc].run(g, f)

    def end_turn(self, g: GameState, f: Frame) -> None:
        """The phase ends (as a phase does), the phases left are skipped, and the turn ends:
        on to the turn's plain TurnEnd (the last instruction of its loop)."""
        del f.env["#end_turn"]
        f.env.pop("#taken", None)
        f.pc = next(i for i in range(len(f.code) - 1, -1, -1)
                    if isinstance(f.code[i], TurnEnd) and f.code[i].ending is None)
        if ("phase_end" in g.heard or g.mods or g.counts or "phase" in g.expiring) \
                and end_phase(g, self.phase):
            return  # what settling started runs first; then the turn's end
        f.code[f.pc].run(g, f)

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        if option == PASS:
            f.env.pop("#taken", None)  # (close_window, inlined)
            f.pc += 1
            f.code[f.pc].run(g, f)  # go on (vm.answer's run loop takes it from there)
        else:
            start_action(g, f, option, g.turn_player, self.max_actions)


class TurnEnd(Instr):
    """Announce the turn's end; once the abilities that heard it resolved, pass the turn.
    With `ending`, the turn's last phase ends first (as in PhaseStart): a plain TurnEnd
    follows, where the loop comes back when that end or the announcement started something."""

    __slots__ = ("loop", "ending")

    def __init__(self, loop: int, ending: PhaseDef | None = None) -> None:
        self.loop, self.ending = loop, ending

    @inline_settle
    def run(self, g: GameState, f: Frame) -> None:
        if needs_settling(g) and vm.settle_point(g):
            return  # a timing point: what settling started runs first, then this again
        ending = self.ending
        if ending is not None:  # (as in PhaseStart)
            f.pc += 1  # (the plain end, next)
            if ("phase_end" in g.heard or g.mods or g.counts or "phase" in g.expiring
                    or g.controls) \
                    and end_phase(g, ending):
                return  # as the plain end does: what settling started runs first
        env = f.env
        if "#ending" in env:  # again, once the abilities that heard it resolved
            del env["#ending"]
        elif "turn_end" in g.heard and not vm.quiet(g, "turn_end", changed=False):
            vm.emit(g, "turn_end", {"player": g.turn_player, "turn": g.turn}, changed=False)
            if g.pending:  # end-of-turn triggers resolve before the turn passes
                env["#ending"] = True
                return
        limits = g.game.ruleset.limits
        if limits.board_turns and repetition.board_at_turn_end(g):
            env["#ending"] = True  # (after the judgement, the turn passes)
            judge(g, f, f"the same board for {limits.board_turns} turns", limits.board_ref)
            return
        if g.mods or g.counts or "turn" in g.expiring or g.controls:  # (else nothing ends)
            expire(g, "turn")
        g.turn_player = g.game.opponent[g.turn_player]  # (g.other, no call)
        g.version += 1
        g.marks["@turn"] = g.version
        f.pc = self.loop
        f.code[self.loop].run(g, f)  # the next turn starts (not a timing point: nothing settles)


@inline_settle
def end_phase(g: GameState, phase: PhaseDef) -> bool:
    """The phase ends: phase_end is announced where heard, what lasts until a phase's end
    expires. True when settling then started something, which runs first."""
    if "phase_end" in g.heard and not vm.quiet(g, "phase_end", changed=False):
        vm.emit(g, "phase_end", {"phase": phase.name, "player": g.turn_player}, changed=False)
    if g.mods or g.counts or "phase" in g.expiring or g.controls:  # (else nothing ends)
        expire(g, "phase")
    return bool(needs_settling(g) and vm.settle_point(g))


def judge(g: GameState, f: Frame, reason: str, ref: str) -> None:
    """A limit is reached: the ruleset's judgement decides the game; without one (or if it
    decides nothing) the game is a draw."""
    limits = g.game.ruleset.limits
    if not limits.judge or f.env.get("#judged"):
        raise GameOver(Result(None, reason, ref))
    f.env["#judged"] = True
    vm.emit(g, "judgement", {"reason": reason}, ref=limits.judge_ref or ref, changed=False)
    env = {"you": g.turn_player, "opponent": g.other(g.turn_player), "self": None}
    g.frames.append(Frame(limits.judge, env, "effect"))


def expire(g: GameState, until: str) -> None:
    """End modifiers, states, action counts and control changes that last until the end of a
    phase or turn."""
    if g.controls:
        control.expire(g, until)
    ended: tuple[str, ...] = ()  # the change channels (compile/reads.py) of what ended
    if g.mods and any(m[4] == until for m in g.mods):
        g.mods = [m for m in g.mods if m[4] != until]
        ended = ("@mods",)
    cards = g.expiring.pop(until, None) if g.expiring else None  # (the only cards in such a state)
    if cards:
        mask = g.game.clear_masks[until]
        if _clear(g.flags, cards, mask):
            ended += g.game.clear_marks[until]
            if mask & g.game.disabling_mask:
                g.epoch += 1
    counts = g.counts  # (action counts: no expression reads them; a clone has its own)
    counted = len(counts)
    for k in tuple(counts):  # (a comprehension would be a call)
        if k[1] == until:
            del counts[k]
    if ended or len(counts) != counted:  # derived values stay valid when nothing ended
        g.version += 1
        for channel in ended:
            g.marks[channel] = g.version
            vm.check_end(g, channel)


def _clear(flags: list[int], cards: list[int], mask: int) -> bool:
    """Clear the `mask` states of `cards`; True if one of them was in such a state."""
    had = False
    for c in cards:
        if flags[c] & mask:
            flags[c] &= ~mask
            had = True
    return had


class Push(Instr):
    """Run a piece of ruleset code (setup, a phase's procedure) as an effect of the turn player.
    One closed Straight run (instructions.closed_run) runs here, as a direct verb does."""

    __slots__ = ("code", "direct")

    def __init__(self, code: tuple) -> None:
        self.code = code
        self.direct = closed_run(code)

    @inline_settle
    def run(self, g: GameState, f: Frame) -> None:
        if needs_settling(g) and vm.settle_point(g):
            return  # a timing point: what settling started runs first, then this again
        f.pc += 1
        if not self.code:
            return
        env = {"you": f.env["you"], "opponent": f.env["opponent"], "self": None}
        if not self.direct:
            g.frames.append(Frame(self.code, env, "effect"))
            return
        below = len(g.frames)
        fn = self.code[0].fn  # (see instructions.Straight.run)
        resume = fn(g, env)
        if resume is not None:  # it goes on in the VM, after what it left to run
            body = Frame(self.code, env, "effect")
            body.pc = resume
            g.frames.insert(below, body)
            return
        if needs_settling(g) and vm.settle_point(g):  # the effect's end, as in vm.run: something started
            return
        # go on
        f.code[f.pc].run(g, f)
