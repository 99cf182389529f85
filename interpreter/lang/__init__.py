"""The effect language: Lark grammar -> typed, frozen AST."""

from interpreter.lang.parser import parse_ability, parse_body, parse_expr

__all__ = ["parse_ability", "parse_body", "parse_expr"]
