"""The organiser's forms (:mod:`.event`) and the one layout every form of the pages renders
with (:mod:`.rendering`, ``settings.FORM_RENDERER``). Forms only shape input; services hold the
rules.

May import: models, the rule families' adapters and the pure packages; imported by views.
"""
