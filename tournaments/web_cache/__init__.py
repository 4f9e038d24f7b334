"""The public pages' cache: what lets an anonymous viewer's page be served without the database.

- :mod:`.versions` keeps two versions of each event's public pages in the cache and bumps them
  on every change of what the pages show (the serving side is ``views.caching``);
- :mod:`.warm` renders the pages a hall opens first ahead of its viewers, after a change;
- :mod:`.kept` is what one process keeps in its own memory of what the shared cache holds;
- :mod:`.backend` is Django's Redis cache with one client per connection pool and process.

May import: models, selectors, the job outbox (the queue's name; :mod:`.warm` sends its task by
name through the Celery app) and the pure packages; never the services. Imported by services
(to bump a version), views and the jobs.
"""
