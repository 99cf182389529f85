"""Compile checked AST into VM instructions and expression closures."""
