"""Swedish Priffe (seed 004), in pure Python (no Django).

Four players in two partnerships (bolag) play 13 tricks a deal; the sides write trick points
**below the line** (under strecket), which make games (utgång), and honours, slams and bonuses
**above** it; a side's second game wins the **sits** (rubber), and after three sits, in which
everyone partnered everyone, the player with the most points wins. Modern and old-fashioned
(gammaldags) scorings and the simpler variant are conventions and options of
:mod:`rules.priffe`.

Modules: :mod:`scoring.priffe.protocol` (the input model), :mod:`scoring.priffe.score`
(scoring), :mod:`scoring.priffe.check` (findings), :mod:`scoring.priffe.jsonio` and
:mod:`scoring.priffe.notation` (the formats), :mod:`scoring.priffe.result_json` (the result
document), :mod:`scoring.priffe.render` (the readable sheet), :mod:`scoring.priffe.generate`
(random legal games), :mod:`scoring.priffe.variant` (the registry entry).
It imports :mod:`rules` and the shared machinery of :mod:`scoring` (findings, model, jsonio,
notation_lexer, variant_base), never another family nor the registry :mod:`scoring.variants`,
which imports it.
"""
