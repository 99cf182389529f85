"""The generic engine: game state, the resumable interpreter, triggers and state checks."""
