"""Agents answer decisions from what they may see: an observation and labelled options."""

from interpreter.agents.basic import AGENTS, Agent, make_agent

__all__ = ["AGENTS", "Agent", "make_agent"]
