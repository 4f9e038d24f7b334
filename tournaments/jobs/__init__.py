"""Background jobs: the outbox nothing can lose, the Celery task base and the tasks.

- :mod:`.outbox` writes a job's row in the caller's transaction and hands it to the broker after
  the commit; the lease, the heartbeat and the sweep that re-sends what a broker lost;
- :mod:`.base` is the Celery task class that runs a task under its outbox row's lease;
- :mod:`.tasks` and :mod:`.result_tasks` are the tasks: thin wrappers that load by id and call
  one plain function of the services, which can also run inline.

:mod:`.outbox` may import models and the pure packages only (services enqueue through it); the
tasks may import everything below the views. Celery finds the tasks through
``tournaments.celery``.
"""
