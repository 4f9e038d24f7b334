"""The REST API, ``/api/v1/``: one class per operation (HackSoft), errors as
``{"message", "extra"}``."""
