"""JSON Schemas (draft-07) for the YAML files a designer writes.

One file per kind: ``ruleset``, ``cards``, ``deck`` and ``scenario``
(``<kind>.schema.json``). `interpreter.load.schema` validates loaded YAML against
them; editors using yaml-language-server can point a modeline at them, e.g.
``# yaml-language-server: $schema=.../cards.schema.json``.
"""
