"""Loading: YAML with positions, schema checks, bundled file lookup."""
