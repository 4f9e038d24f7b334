"""``manage.py`` commands: the demo, the draws' re-check, the archive, the catalogues' build and
the job sweep. Thin wrappers over services and selectors, like views.
"""
