"""`tcg lsp`: a language server over the checker (needs the `lsp` extra: pygls).

Diagnostics come from the checker `tcg check` runs (`check.files.check_text`), completion and
hover from the ruleset's own name tables; nothing here re-implements a check."""
