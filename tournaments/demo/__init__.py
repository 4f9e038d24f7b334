"""The demo tournament ``manage.py demo_setup`` builds (each area adds its part)."""
