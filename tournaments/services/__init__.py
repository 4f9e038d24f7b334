"""Services: every write (and every check of the outside world) lives here, not in views.

One module per concern (events, entries, rounds and their draws, protocols, rulings, standings,
audit, health); a service takes plain values or model instances, checks the rules (raising
``errors.UserFacingError`` naming the field and the rule), writes in one transaction and
enqueues its follow-up jobs by name through :mod:`tournaments.jobs.outbox`.

May import: words, selectors, models, the rule families' domain face, the page cache's versions,
the job outbox, access and the pure packages (seating, standings, scoring, rules). Never views,
the API, the tasks, the PDFs or the archive (they import services).
"""
