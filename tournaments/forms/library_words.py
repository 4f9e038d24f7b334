"""The messages of Django's forms and admin and of Django REST framework that Pulka's pages and
API show people, marked here so that Pulka's own catalogue (``LOCALE_PATHS``, read before the
libraries') says them as Pulka does: in German with "Sie", never the libraries' "du" (issue 36;
``tests/tournaments/test_german_sie.py``). Nothing imports this module; ``makemessages`` reads it.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

LIBRARY_WORDS = (
    gettext_noop("Show all"),
    gettext_noop("Date has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Datetime has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Time has wrong format. Use one of these formats instead: {format}."),
    gettext_noop(
        'Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.'
    ),
    gettext_noop('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'),
    gettext_noop("Enter a valid URL."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("The submitted data was not a file. Check the encoding type on the form."),
    gettext_noop("Connect, get help, or contribute"),
)
