"""What an agent name means in words (its kind and budget), and the same agent with more budget.

A report's figures are only as good as the players behind them, so every `tcg simulate`
report names each agent with its budget spelled out (`default (worlds=2)`, `mcts
(iterations=100)`, `random`), read from the agent make_agent builds, defaults included.
`stronger` gives the name of the agent `tcg simulate --check-skill` plays instead: the same
kind with FACTOR times the budget; an agent without a budget (random, first) is replaced by
`default` with FACTOR times its budget.
"""

from __future__ import annotations

from pathlib import Path

from interpreter.agents.basic import make_agent

FACTOR = 4  # --check-skill's budget: this many times the worlds, iterations or seconds


def budget(name: str) -> dict[str, float | int]:
    """The agent's budget as numbers (`{"worlds": 2}`, `{"iterations": 100}`; {} for none)."""
    from interpreter.agents.default import DefaultAgent
    from interpreter.agents.greedy import GreedyAgent
    from interpreter.agents.mcts import MCTSAgent

    agent = make_agent(name, 0)  # (a bad name fails here, as everywhere)
    if isinstance(agent, DefaultAgent | GreedyAgent):
        return {"worlds": agent.worlds}
    if isinstance(agent, MCTSAgent):
        spent: dict[str, float | int] = {}
        if agent.iterations is not None:
            spent["iterations"] = agent.iterations
        if agent.time_limit is not None:
            spent["seconds"] = agent.time_limit
        return spent
    return {}


def describe(name: str) -> str:
    """The agent in words: its kind and its budget, e.g. `mcts (iterations=400, seconds=0.5)`."""
    spent = budget(name)
    kind = name.partition(":")[0]
    if not spent:
        return kind
    return f"{kind} ({', '.join(f'{k}={v:g}' for k, v in spent.items())})"


def in_words(agent: dict) -> str:
    """A report's agent (summary.json's `agents` entry) in the chosen language: its kind (a
    name, as typed) and its budget and weights in words."""
    from interpreter.words.ui import tr

    parts = [tr(f"ui.budget.{k}", n=f"{v:g}") for k, v in agent["budget"].items()]
    if agent.get("weights"):
        parts.append(tr("ui.budget.weights", name=Path(agent["weights"]).name))
    kind = agent["agent"].partition(":")[0]
    return tr("ui.budget", kind=kind, budget=tr("comma").join(parts)) if parts else kind


def stronger(name: str, factor: int = FACTOR) -> str:
    """The agent name with `factor` times the budget (`default` for one without a budget)."""
    spent = budget(name)
    kind = name.partition(":")[0]
    if not spent:
        return stronger("default", factor)
    if kind in ("default", "greedy"):
        return f"{kind}:{int(spent['worlds']) * factor}"
    parts = [str(int(spent["iterations"]) * factor)] if "iterations" in spent else []
    if "seconds" in spent:
        parts.append(f"{spent['seconds'] * factor:g}s")
    return ":".join([kind, *parts])
