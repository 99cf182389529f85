"""Static checks: names, arity and types in effect texts; deck legality."""
