"""Running matches: loading a game, playing with agents, logs and replays."""
