"""Template tags and filters of the pages (``{% load pulka %}``): formatting only, over what a
view already read. May import models, access, words and the rule families' page face.
"""
