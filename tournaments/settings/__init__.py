"""Settings modules: ``base`` reads the environment (the default everywhere); ``test`` insists
on PostgreSQL and Redis. Nothing is imported here, so that ``test`` can set its defaults before
``base`` reads the environment."""
