"""`tcg serve`: the playtest table in the browser (needs the `table` extra: starlette, uvicorn).

The server holds the game; a seat's page is drawn from that seat's observation alone and every
click comes back as an option index the server checks."""
