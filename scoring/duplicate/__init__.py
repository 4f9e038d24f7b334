"""Duplicate Preference: the same prepared deals at every table, compared like bridge.

Lesnoy's rules of Preference competitions name duplicate Preference the first of three kinds
of tournament (the same deals at every table: prepared boards, protocols and a movement
scheme); the Croatian Preferans kodeks (2nd ed., Samobor 2014) has articles on competition
boards, table order and the movement of boards and competitors. Where they are silent this
package follows bridge's duplicate scoring; ``docs/duplicate.md`` names every choice and its
source.

What lives here (pure Python, plain data in and out, no Django):

- :mod:`.cards` — the 32-card deck and its one-character code (prefko's Portable Preferans
  Notation, PPN);
- :mod:`.boards` — a board (number, dealer, three hands of ten and the talon), boards generated
  from a published seed (commit–reveal, as the draws) and read from or written to a board file;
- :mod:`.movement` — which set of boards each table plays in each stanza of a round, so that
  every board is played by several tables and no one plays a board twice;
- :mod:`.values` — one deal's value for each seat, through the family's registry entry
  (:class:`scoring.variant_base.Variant`), without the game's running state;
- :mod:`.comparison` — matchpoints (with Neuberg's factoring) or the difference from the
  board's average, per board and seat; the players' totals with their tie-breaks.

It imports :mod:`scoring.variant_base`, :mod:`scoring.model` and the standard library; no rule
family, and nothing of :mod:`tournaments`.
"""
