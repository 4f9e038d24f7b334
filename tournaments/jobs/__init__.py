"""Background jobs: the outbox nothing can lose, the Celery task base and the tasks.

- :mod:`.outbox` writes a job's row in the caller's transaction and hands it to the broker after
  the commit; the lease, the heartbeat and the sweep that re-sends what a broker lost;
- :mod:`.base` is the Celery task class that runs a task under its outbox row's lease;
- :mod:`.tasks` and :mod:`.result_tasks` are the tasks: thin wrappers that load by id and call
  one plain function of the services, which can also run inline.

:mod:`.outbox` may import models, the Celery app (``tournaments.celery``) and the pure packages
only (services enqueue through it, by task name); what a lost job means for the layers above
and the standings' own sweep are registered by the tasks (:func:`.outbox.on_lost`,
``outbox.SWEEPS``). The tasks may import everything below the views; the app's ``ready()``
imports them, so every task is registered when the app loads.
"""
