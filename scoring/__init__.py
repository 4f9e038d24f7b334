"""Pulka scoring: every rule family's protocols read, scored and checked, in pure Python (no Django).

Each rule family is a package: :mod:`scoring.russian` (seed 001, the Kodeks), :mod:`scoring.balkan`
(seed 002), :mod:`scoring.pot` (seeds 000 and 003), :mod:`scoring.priffe` (seed 004). Beside them
the shared machinery: :mod:`scoring.findings` (what a check reports), :mod:`scoring.model` (the
types every input model shares), :mod:`scoring.jsonio` (the JSON envelope and bounded reading),
:mod:`scoring.notation_lexer` (the lexer of the text notations), :mod:`scoring.notation_errors`
(the notations' errors by code, with their words), :mod:`scoring.variant_base` (the
interface a family fills in); on top of them the registry :mod:`scoring.variants` and the command
line :mod:`scoring.cli`. The shared modules import only :mod:`rules` and one another; a family
imports :mod:`rules` and the shared modules, never another family nor the registry; the registry
and the command line may import every family. Nothing here imports Django or :mod:`tournaments`,
and :mod:`rules` never imports :mod:`scoring`.
"""
