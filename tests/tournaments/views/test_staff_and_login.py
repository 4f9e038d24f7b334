"""Per-event roles (issue 4: "organiser, referee (chief and table referees), and the public"):
an organiser grants and revokes them on the event's staff page, creating accounts; referees
log in with the site's own login (the admin's form admits staff only) and find their events."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import EventFactory, UserFactory
from tournaments.errors import UserFacingError
from tournaments.models import AuditLogEntry, EventRole
from tournaments.services.events import event_role_revoke, event_staff_add

pytestmark = pytest.mark.django_db


def organiser_of(event):
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role="organiser")
    return user


def test_a_referee_without_staff_rights_logs_in_and_finds_the_event(client):
    event = EventFactory(name="Autumn Cup")
    referee = get_user_model().objects.create_user("vera", password="whist-on-six")
    EventRole.objects.create(event=event, user=referee, role="referee")
    manage = reverse("manage", args=[event.slug])
    to_login = client.get(manage)
    assert to_login.status_code == 302 and to_login["Location"].startswith("/accounts/login/")
    page = client.post(
        to_login["Location"], {"username": "vera", "password": "whist-on-six", "next": manage}
    )
    assert page.status_code == 302 and page["Location"] == manage
    assert client.get(manage).status_code == 200
    home = client.get("/").content.decode()
    assert "Your events" in home and "Autumn Cup" in home and "Table referee" in home
    client.post(reverse("logout"))
    assert client.get(manage).status_code == 302


def test_a_wrong_password_is_refused_on_the_login_page(client):
    get_user_model().objects.create_user("vera", password="whist-on-six")
    page = client.post(reverse("login"), {"username": "vera", "password": "pass"})
    assert page.status_code == 200
    assert "correct username and password" in page.content.decode()


def test_the_staff_page_creates_an_account_grants_and_revokes(client):
    event = EventFactory()
    client.force_login(organiser_of(event))
    url = reverse("manage-staff", args=[event.slug])
    page = client.post(url, {"username": "boris", "role": "chief_referee"}, follow=True)
    body = page.content.decode()
    assert "Account boris created with the password" in body
    password = body.split("with the password ")[1].split(":")[0]
    boris = get_user_model().objects.get(username="boris")
    assert boris.check_password(password) and not boris.is_staff
    assert EventRole.objects.filter(event=event, user=boris, role="chief_referee").exists()
    # an account that exists gets the role, and no new password
    page = client.post(url, {"username": "boris", "role": "referee"}, follow=True)
    assert "The role is granted." in page.content.decode()
    assert boris.check_password(password)
    role = EventRole.objects.get(event=event, user=boris, role="referee")
    client.post(url, {"action": "revoke", "role": role.pk})
    assert not EventRole.objects.filter(pk=role.pk).exists()
    actions = set(AuditLogEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"account.created", "role.granted", "role.revoked"} <= actions


def test_the_last_organiser_stays_and_bad_names_are_refused():
    event = EventFactory()
    organiser = organiser_of(event)
    with pytest.raises(UserFacingError, match="at least one organiser"):
        event_role_revoke(role=EventRole.objects.get(event=event, user=organiser))
    with pytest.raises(UserFacingError) as err:
        event_staff_add(event=event, username="two words", role="referee")
    assert err.value.extra == {"field": "username"}
    with pytest.raises(UserFacingError, match="Unknown role"):
        event_staff_add(event=event, username="anna", role="captain")
    assert not get_user_model().objects.filter(username="anna").exists()  # nothing half-done


def test_only_an_organiser_opens_the_staff_page(client):
    event = EventFactory()
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role="referee")
    client.force_login(referee)
    assert client.get(reverse("manage-staff", args=[event.slug])).status_code == 403


def test_the_demo_has_a_referee_who_signs_in(client):
    from tournaments.demo.events import demo_referee

    event = EventFactory()
    demo_referee(event)
    demo_referee(event)  # idempotent
    assert EventRole.objects.filter(event=event, user__username="referee").count() == 1
    page = client.post(reverse("login"), {"username": "referee", "password": "referee"})
    assert page.status_code == 302
    assert client.get(reverse("manage", args=[event.slug])).status_code == 200


def test_a_table_referee_sees_no_link_to_the_log_they_may_not_read(client):
    event = EventFactory()
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role="referee")
    client.force_login(referee)
    page = client.get(reverse("manage", args=[event.slug])).content.decode()
    log = reverse("manage-log", args=[event.slug])
    assert log not in page and client.get(log).status_code == 403
    chief = UserFactory()
    EventRole.objects.create(event=event, user=chief, role="chief_referee")
    client.force_login(chief)
    assert log in client.get(reverse("manage", args=[event.slug])).content.decode()


@pytest.mark.parametrize("role", ["referee", "chief_referee", "organiser", "appeals"])
def test_every_link_of_a_staff_members_pages_opens(client, role):
    """From the home page to the desk and each of its links, nothing answers 403 or 404."""
    import re

    event = EventFactory()
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=role)
    client.force_login(user)
    home = client.get("/").content.decode()
    desk = re.search(rf'href="(/e/{event.slug}/[^"]*)"', home).group(1)
    page = client.get(desk)
    assert page.status_code == 200, desk
    links = set(re.findall(r'href="(/e/[^"]+)"', page.content.decode()))
    assert links
    assert [(link, client.get(link).status_code) for link in sorted(links)] == [
        (link, 200) for link in sorted(links)
    ]


def test_the_manage_link_shows_only_for_the_events_staff(client):
    event = EventFactory()
    manage = reverse("manage", args=[event.slug])
    client.force_login(UserFactory())  # signed in, but no role in this event
    assert manage not in client.get(reverse("event", args=[event.slug])).content.decode()
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role="referee")
    client.force_login(referee)
    assert manage in client.get(reverse("event", args=[event.slug])).content.decode()
