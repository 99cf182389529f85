"""`tcg simulate`: many seeded matches, batched into tasks for any concurrent.futures.Executor.

Match i uses seed S+i. Deck A (with the first agent) sits in seat 0 in even matches and in
seat 1 in odd ones, so seat advantage and deck strength can be told apart. Each seat's agent
is seeded as `tcg play` seeds it (seed*1000 + seat), so any match, an error included, is
reproduced by `tcg play RULESET --deck <seat 0> --deck <seat 1> --seed <seed> --agents ...`.

Tasks carry only plain data (ruleset spec, deck paths, agent names, match indexes); every
worker loads the game itself (load_game is cached per process). Records do not depend on the
worker count, the chunking or the backend.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import asdict, dataclass, field
from functools import cache, partial
from pathlib import Path

from interpreter.agents.protocol import decide
from interpreter.diagnostics import TcgError
from interpreter.run import outputs
from interpreter.run.backends import InlineExecutor, Pool, check_backend, default_workers, open_pool
from interpreter.run.cards import CardTracker, card_rows, card_spec, deck_cards, sides, write_cards
from interpreter.run.stats import outcome_of, summarize

RESULTS, SUMMARY_JSON, SUMMARY_CSV, RUN = "results.jsonl", "summary.json", "summary.csv", "run.json"
KEYS = ("A", "B")


@dataclass(frozen=True)
class Plan:
    """What a run is: enough to reproduce every match (and to check a --resume matches)."""

    ruleset: str
    decks: tuple[str, str]  # deck A, deck B (resolved paths)
    names: tuple[str, ...]  # (two)
    agents: tuple[str, ...]  # (two) deck A's agent, deck B's agent
    seed: int
    games: int
    deck_digest: str = ""  # the decks' contents, so a resume notices an edited deck
    turns: int | None = None  # the matches' turn limit, when not the ruleset's
    swaps: tuple[tuple[str, str], ...] = ()  # deck A's cards replaced (old, new): run/ablation.py
    options: tuple[tuple[str, str], ...] = ()  # the ruleset's options picked (load.options.Chosen)

    def seats(self, index: int) -> tuple[str, str]:
        return ("B", "A") if index % 2 else ("A", "B")

    def reproduce(self, record: dict) -> str:
        seats = [KEYS.index(k) for k in record["seats"]]
        decks = " ".join(f"--deck {self.decks[i]}" for i in seats)
        agents = ",".join(self.agents[i] for i in seats)
        turns = f" --turns {self.turns}" if self.turns is not None else ""
        swaps = "".join(f" (deck A with {new} for {old})" for old, new in self.swaps)
        options = "".join(f" --option {name}={choice}" for name, choice in self.options)
        return (f"tcg play {self.ruleset} {decks} --seed {record['seed']} --agents {agents}{turns}"
                f"{options}{swaps}")


def make_plan(ruleset: str, decks: list[str], agents: list[str], seed: int, games: int,
              turns: int | None = None, options: tuple[tuple[str, str], ...] = ()) -> Plan:
    """Load and check everything in this process first: bad input fails before any work."""
    from interpreter.agents import make_agent
    from interpreter.agents.basic import is_human
    from interpreter.run.loading import load_game
    from interpreter.run.match import resolve_decks

    if games < 1:
        raise TcgError("err.games")
    if turns is not None and turns < 1:
        raise TcgError("err.turns", n=turns)
    if len(agents) == 1:
        agents = agents * 2
    if len(agents) != 2:
        raise TcgError("err.agents_two", n=len(agents))
    if any(is_human(a) for a in agents):
        raise TcgError("err.agents_human")
    for a in agents:
        make_agent(a, 0)  # unknown names fail here, with the list of known ones
    game = load_game(ruleset, chosen=options)
    if game.ruleset.players != 2:
        raise TcgError("err.two_players", n=game.ruleset.players)
    loaded = resolve_decks(game, ruleset, decks)
    digest = hashlib.sha256(json.dumps([d.sections for d in loaded], ensure_ascii=False,
                                       sort_keys=True).encode()).hexdigest()[:16]
    names = [d.name for d in loaded]
    if names[0] == names[1]:
        names = [f"{names[0]} (A)", f"{names[1]} (B)"]
    return Plan(ruleset, (str(loaded[0].doc.path), str(loaded[1].doc.path)), tuple(names),
                tuple(agents), seed, games, digest, turns, options=options)


# ---------- one match (runs in workers) ----------

@cache
def _setup(ruleset: str, decks: tuple[str, str], swaps: tuple[tuple[str, str], ...] = (),
           options: tuple[tuple[str, str], ...] = ()):
    from interpreter.run.loading import load_game
    from interpreter.run.match import resolve_decks
    from interpreter.run.swaps import swap_sections

    game = load_game(ruleset, chosen=options)
    sections = dict(zip(KEYS, (d.sections for d in resolve_decks(game, ruleset, list(decks))), strict=True))
    sections["A"] = swap_sections(sections["A"], swaps)
    return game, sections


class LeadTracker:
    """Counts lead changes: the leader is the seat the ruleset's heuristic (Game.score) rates
    higher, looked at before every decision; a tie keeps the previous leader. The scores are
    not computed again while nothing the heuristic reads changed (Game.score_reads)."""

    def __init__(self, game) -> None:
        self.leader: int | None = None
        self.score, self.reads, self.changes = game.score, game.score_reads, 0
        self.at = -1  # the state's version at the last look

    def look(self, state) -> None:
        if self.reads is not None:
            if state.unchanged(self.at, self.reads):
                return
            self.at = state.version
        diff = self.score(state, 0) - self.score(state, 1)
        now = 0 if diff > 0 else 1 if diff < 0 else self.leader
        if self.leader is not None and now != self.leader:
            self.changes += 1
        self.leader = now


def play_match(ruleset: str, decks: tuple[str, str], agents: tuple[str, ...], base_seed: int,
               index: int, turns: int | None = None, swaps: tuple = (), cards: bool = True,
               options: tuple = ()) -> dict:
    """Play match `index` to the end; an exception becomes an error record, never a crash.
    `cards`: follow the cards drawn and played (record["cards"], see run/cards.py)."""
    from interpreter.agents import make_agent

    seed = base_seed + index
    keys = ("B", "A") if index % 2 else ("A", "B")
    record = {"match": index, "seed": seed, "seats": list(keys), "starter": None, "outcome": "error",
              "winner": None, "winner_seat": None, "reason": "", "turns": 0, "decisions": 0, "unasked": 0,
              "lead_changes": None}
    state = None
    try:
        game, sections = _setup(ruleset, decks, swaps, options)
        seated = [make_agent(agents[KEYS.index(k)], seed * 1000 + seat) for seat, k in enumerate(keys)]
        state = game.new_state([sections[k] for k in keys], seed, log=False, turns=turns)
        lead, starter = LeadTracker(game), None
        tracker = CardTracker(state) if cards else None
        while state.result is None:  # (not is_over: a property is a call, at every decision)
            lead.look(state)
            if starter is None and state.turn == 1:
                starter = state.turn_player
            d = state.decision
            choice = decide(seated[d.player], state, d.player)[0]
            if tracker is not None:
                tracker.look(state, d, choice)
            state.apply(choice)
        r = state.result
        if starter is None and state.turn >= 1:
            starter = 0  # ended before anyone decided in turn 1: P1 takes the first turn
        record.update(starter=starter, outcome=outcome_of(r.winner, r.reason),
                      winner=None if r.winner is None else keys[r.winner], winner_seat=r.winner,
                      reason=r.reason, turns=r.turns or state.turn, decisions=state.decisions,
                      unasked=state.unasked, lead_changes=lead.changes)
        if tracker is not None:
            record["cards"] = tracker.record(state, keys)
    except Exception as e:  # noqa: BLE001 - a failing match is data: its seed reproduces it
        record["error"] = f"{type(e).__name__}: {e}"
        if state is not None:
            record.update(turns=state.turn, decisions=state.decisions, unasked=state.unasked)
    return record


def run_chunk(ruleset: str, decks: tuple[str, str], agents: tuple[str, ...], base_seed: int,
              indexes: list[int], turns: int | None = None, swaps: tuple = (),
              options: tuple = ()) -> list[dict]:
    return [play_match(ruleset, decks, agents, base_seed, i, turns, swaps, options=options)
            for i in indexes]


def chunk_size(remaining: int, workers: int, least: int = 1) -> int:
    """Several tasks per worker (the tail stays short) but not one task per match; at least
    `least` matches per task where a task costs more than a match (Ray: ~3 ms a task)."""
    if workers <= 1 and least == 1:
        return 1
    most = max(1, -(-remaining // workers))
    return min(most, max(least, min(64, remaining // (workers * 16))))


def chunks(indexes: list[int], size: int) -> Iterator[list[int]]:
    for i in range(0, len(indexes), size):
        yield indexes[i:i + size]


def execute(plan: Plan, executor: Executor, indexes: list[int], size: int,
            window: int) -> Iterator[list[dict]]:
    """Yield records chunk by chunk as tasks finish, keeping at most `window` tasks in flight."""
    todo = chunks(indexes, size)
    running: dict[Future, list[int]] = {}

    def fill() -> None:
        while len(running) < window:
            part = next(todo, None)
            if part is None:
                return
            fut = executor.submit(run_chunk, plan.ruleset, plan.decks, plan.agents, plan.seed, part,
                                  plan.turns, plan.swaps, plan.options)
            running[fut] = part

    fill()
    while running:
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for fut in sorted(done, key=lambda f: running[f][0]):
            part = running.pop(fut)
            try:
                yield fut.result()
            except Exception as e:  # noqa: BLE001 - a lost worker: its matches are errors
                yield [_lost(plan, i, e) for i in part]
        fill()


def _lost(plan: Plan, index: int, e: Exception) -> dict:
    return {"match": index, "seed": plan.seed + index, "seats": list(plan.seats(index)),
            "starter": None, "outcome": "error", "winner": None, "winner_seat": None, "reason": "",
            "turns": 0, "decisions": 0, "unasked": 0, "lead_changes": None,
            "error": f"the task failed: {type(e).__name__}: {e}"}


# ---------- results on disk ----------

def _plan_doc(plan: Plan) -> dict:
    doc = asdict(plan)
    doc.pop("games")  # a resume may ask for more (or fewer) games of the same run
    if not plan.swaps:
        doc.pop("swaps")  # (as runs written before swaps existed read back)
    if not plan.options:
        doc.pop("options")  # (likewise options)
    return json.loads(json.dumps(doc))  # tuples as lists, as they read back


def _open_out(out: Path | None, plan: Plan, resume: bool) -> tuple[outputs.Lock | None, dict[int, dict]]:
    """Lock OUT for this run, and the matches an earlier run of the same plan left there."""
    if out is None:
        return None, {}
    outputs.check_folder(out)
    lock = outputs.lock_folder(out)
    try:
        return lock, _earlier(out, plan, resume)
    except BaseException:
        lock.close()
        raise


def _earlier(out: Path, plan: Plan, resume: bool) -> dict[int, dict]:
    """Finished matches are never dropped: a resume must be of the same run, with no fewer
    games than are recorded."""
    if not (out / RESULTS).exists():
        return {}
    if not resume:
        raise TcgError("err.out_exists", path=out / RESULTS)
    if not (out / RUN).exists():
        raise TcgError("err.out_no_run", out=out, results=RESULTS, run=RUN)
    records = read_results(out, plan)
    beyond = sorted(i for i in records if not 0 <= i < plan.games)
    if beyond:
        raise TcgError("err.out_beyond", out=out, n=len(records), last=beyond[-1], games=plan.games,
                       dropped=len(beyond), least=beyond[-1] + 1)
    return records


def read_results(out: Path, plan: Plan) -> dict[int, dict]:
    """The records of an earlier run of the same plan (a torn last line is dropped)."""
    run = out / RUN
    if run.exists():
        outputs.regular_or_absent(run, "read")
        try:
            before = json.loads(run.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise TcgError("err.cannot_read", path=run, reason=e) from None
        mine = _plan_doc(plan)
        # (keys of both: a run with options is not one without)
        diff = [k for k in {**before, **mine} if before.get(k) != mine.get(k) and k != "names"]
        if diff:
            raise TcgError("err.other_run", out=out, keys=", ".join(diff))
    records: dict[int, dict] = {}
    path = out / RESULTS
    if not path.exists():
        return records
    outputs.regular_or_absent(path, "read")  # (a pipe would block here forever)
    # (a run stopped by a full disk may have cut its last line inside a character)
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            r = json.loads(line)
            records[int(r["match"])] = r
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            continue  # a line cut short when the run was killed
    return records


class ResultsFile:
    """results.jsonl, appended and flushed chunk by chunk so a killed run keeps its matches."""

    def __init__(self, out: Path, plan: Plan, kept: Iterable[dict] | None) -> None:
        outputs.replace_whole(out / RUN, json.dumps(_plan_doc(plan), ensure_ascii=False, indent=1) + "\n")
        path = out / RESULTS
        if kept is not None:  # rewrite the good lines: a torn last line must not glue onto new ones
            outputs.replace_whole(path, "".join(_line(r) for r in sorted(kept, key=lambda r: r["match"])))
        self.path = path
        self.f = outputs.open_output(path, "a" if kept is not None else "w")

    def write(self, records: list[dict]) -> None:
        with outputs.writing(self.path):
            self.f.write("".join(_line(r) for r in records))
            self.f.flush()

    def close(self) -> None:
        self.f.close()


def _line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


def write_summary(out: Path, summary: dict) -> None:
    outputs.write_json(out / SUMMARY_JSON, summary)
    outputs.write_csv(out / SUMMARY_CSV, ["metric", "value", "ci95_low", "ci95_high", "count", "n"],
                      summary_rows(summary))


def summary_rows(s: dict) -> Iterator[list]:
    def rated(name: str, r: dict) -> list:
        return [name, _num(r["rate"]), _num(r["ci95"][0]), _num(r["ci95"][1]), r["count"], r["n"]]

    yield ["games", s["games"], "", "", "", ""]
    for key, a in s.get("agents", {}).items():
        yield [f"agent:{key}", a["described"], "", "", "", ""]
    yield ["completed", s["completed"], "", "", "", ""]
    for key, d in s["decks"].items():
        for what in ("win", "win_when_first", "win_when_second"):
            yield rated(f"{key}:{d['name']}:{what}", d[what])
    for what in ("draw", "turn_limit", "loop_limit", "timeouts", "undecided"):
        yield rated(what, s[what])
    fp = s["first_player"]
    yield rated("first_player_wins", fp)
    yield ["first_player_advantage", _num(fp["advantage"]), _num(fp["advantage_ci95"][0]),
           _num(fp["advantage_ci95"][1]), fp["count"], fp["n"]]
    for what in ("turns", "decisions", "unasked", "lead_changes"):
        sp = s[what]
        for stat in ("mean", "sd", "min", "median", "max"):
            if stat in sp:
                yield [f"{what}_{stat}", _num(sp[stat]), "", "", "", sp["n"]]
    if "games_with_a_change" in s["lead_changes"]:
        yield rated("games_with_a_lead_change", s["lead_changes"]["games_with_a_change"])
    for reason, n in s["reasons"].items():
        yield [f"reason:{reason}", n, "", "", n, s["completed"]]
    yield ["errors", s["errors"]["count"], "", "", s["errors"]["count"], s["games"]]


def _num(x: float) -> float:
    return round(x, 6)


# ---------- the whole run ----------

@dataclass
class Run:
    plan: Plan
    records: list[dict]
    summary: dict
    ran: int  # matches played now (the rest came from --resume)
    cards: list[dict] = field(default_factory=list)  # the per-card table (run/cards.py)


def simulate(plan: Plan, workers: int | None = None, backend: str = "local", out: Path | None = None,
             resume: bool = False, chunk: int | None = None,
             progress: Callable[[int, int], Callable[[int], None]] | None = None,
             address: str | None = None, pool: Pool | None = None) -> Run:
    """Play the plan's matches; `progress(total, already_done)` returns an advance(n) callback.

    `workers` defaults to this machine's cores (local, or a local Ray instance) or the Ray
    cluster's CPUs (with `address`). A `pool` given is used (and left open) instead.
    """
    if workers is not None and workers < 1:
        raise TcgError("err.workers")
    if resume and out is None:
        raise TcgError("err.resume_out")
    check_backend(backend, address)
    lock, kept = _open_out(out, plan, resume)
    todo = [i for i in range(plan.games) if i not in kept]
    records = dict(kept)
    own = pool is None
    sink = None
    if pool is None:
        tasks = -(-len(todo) // (chunk or chunk_size(len(todo), workers or default_workers())))
        setup = partial(_setup, plan.ruleset, plan.decks, plan.swaps, plan.options)
        pool = open_pool(backend, workers, address, setup, tasks) \
            if todo else Pool(InlineExecutor(), 1)
    try:
        size = chunk or chunk_size(len(todo), pool.workers, pool.least_chunk)
        sink = ResultsFile(out, plan, kept.values() if resume else None) if out is not None else None
        advance = progress(plan.games, len(kept)) if progress else (lambda n: None)
        for part in execute(plan, pool.executor, todo, size, pool.window):
            for r in part:
                records[r["match"]] = r
            if sink is not None:
                sink.write(part)
            advance(len(part))
    finally:
        if own:
            pool.close()
        if sink is not None:
            sink.close()
        if lock is not None:
            lock.close()
    ordered = [records[i] for i in sorted(records)]
    summary = summarize(ordered, dict(zip(KEYS, plan.names, strict=True)))
    summary["plan"] = {**asdict(plan), "decks": list(plan.decks), "names": list(plan.names),
                       "agents": list(plan.agents)}
    if not plan.options:
        summary["plan"].pop("options")  # a default run's summary reads as before options existed
    summary["agents"] = agents_doc(plan)
    summary["reproduce"] = {str(r["seed"]): plan.reproduce(r) for r in ordered if r["outcome"] == "error"}
    run = Run(plan, ordered, summary, len(todo), card_table(plan, ordered))
    if out is not None:
        write_summary(out, summary)
        game = _setup(plan.ruleset, plan.decks, plan.swaps, plan.options)[0]
        write_cards(out, run.cards, card_spec(game).hand)
    return run


def agents_doc(plan: Plan) -> dict[str, dict]:
    """Who played each deck, in words and numbers: the figures are only as good as these
    players (agents/budget.py). A `default` agent names the trained weights it read, if any."""
    from interpreter.agents.budget import budget, describe
    from interpreter.agents.train import load_weights, weights_path

    ruleset_file = str(_setup(plan.ruleset, plan.decks, plan.swaps, plan.options)[0].ruleset.path or "")
    doc = {}
    for key, name in zip(KEYS, plan.agents, strict=True):
        described = describe(name)
        weights = None
        if name.partition(":")[0] == "default" and load_weights(ruleset_file) is not None:
            weights = str(weights_path(ruleset_file))
            described = described[:-1] + f", weights {Path(weights).name})"
        doc[key] = {"agent": name, "described": described, "budget": budget(name), "weights": weights}
    return doc


def card_table(plan: Plan, records: list[dict]) -> list[dict]:
    """The per-card rows of both decks (run/cards.py), deck A's first (none without a hand)."""
    game, sections = _setup(plan.ruleset, plan.decks, plan.swaps, plan.options)
    if not card_spec(game).hand:
        return []
    return [row for key, name in zip(KEYS, plan.names, strict=True)
            for row in card_rows(name, sides(records, key), deck_cards(sections[key]))]
