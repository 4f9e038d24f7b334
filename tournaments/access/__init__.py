"""Who may do what: per-event permissions (:mod:`.permissions`) and the doors that take a
secret, which slow down and then lock out repeated failures (:mod:`.lockout`).

May import: models and Django's auth and cache; imported by services, views, the API, the
middleware and the template tags.
"""
