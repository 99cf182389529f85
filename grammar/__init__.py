"""Lark grammars, shipped as package data (interpreter.grammar)."""
