"""Agents answer decisions from what they may see: an observation and labelled options.

Search agents (greedy, mcts) define `choose_in(state, player, labels)` instead: runners call
it when present; it reads the state only through determinized copies.
"""

from interpreter.agents.basic import AGENTS, Agent, make_agent
from interpreter.agents.greedy import GreedyAgent
from interpreter.agents.mcts import MCTSAgent

__all__ = ["AGENTS", "Agent", "GreedyAgent", "MCTSAgent", "make_agent"]
