"""Staff accounts: the account a role is granted to, made on the spot when the organiser names
someone who has none (an event's and an organisation's staff pages alike).

Imports Django's auth only; the roles themselves are the events' and organisations' services'.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError

from tournaments.errors import UserFacingError


def staff_account(username: str):
    """The account named ``username``, created if there is none.

    :returns: the user and, for a new account, its password (shown once to the organiser, who
        hands it over; ``""`` for an account that existed).
    :raises UserFacingError: the name is not a valid username (field ``username``).
    """
    username = (username or "").strip()
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise UserFacingError(" ".join(exc.messages), {"field": "username"}) from exc
    users = get_user_model()
    user = users.objects.filter(username=username).first()
    if user is not None:
        return user, ""
    password = secrets.token_urlsafe(9)
    return users.objects.create_user(username=username, password=password), password
