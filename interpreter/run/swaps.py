"""A deck with some cards swapped for others (`tcg simulate --swap OLD=NEW`): below both the
runner that plays the changed matches (run/simulate.py) and the comparison (run/ablation.py)."""

from __future__ import annotations


def swap_sections(sections: dict[str, list[str]], swaps: tuple[tuple[str, str], ...]
                  ) -> dict[str, list[str]]:
    """The deck with every copy of each OLD replaced by its NEW, in place (order kept)."""
    if not swaps:
        return sections
    table = dict(swaps)
    return {section: [table.get(name, name) for name in names] for section, names in sections.items()}
