"""Services: every write (and every check of the outside world) lives here, not in views."""
