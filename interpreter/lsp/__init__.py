"""`tcg lsp`: a language server over the checker (needs the `lsp` extra: pygls).

Diagnostics come from the checker `tcg check` runs (`check.files.check_text`), completion and
hover from the ruleset's own name tables; nothing here re-implements a check (incremental.py
checks a long card set a card at a time with that same checker). framing.py and peer.py are
the connection: bounded, resynchronising framing, and an answer to every invalid request."""
