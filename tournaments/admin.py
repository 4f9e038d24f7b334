"""The Django admin: a back office for superusers. Organisers and referees use the event pages."""

from django.contrib import admin

from tournaments.models import (
    AuditLogEntry,
    Entry,
    Event,
    EventRole,
    Organisation,
    OrganisationRole,
    Person,
    PersonLogEntry,
    Player,
    Round,
    Seat,
    Series,
    Table,
)


class EventRoleInline(admin.TabularInline):
    model = EventRole
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "starts_on", "variant", "rounds_planned", "published")
    list_filter = ("variant", "published")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [EventRoleInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "city", "rating", "federation_id")
    search_fields = ("name", "club", "city", "federation_id")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("player", "event", "status", "joined_round")
    list_filter = ("event", "status")
    search_fields = ("player__name",)
    readonly_fields = ("url_key",)
    list_select_related = ("player", "event")


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("entry",)
    fields = ("position", "entry")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "round", "first_dealer")
    list_filter = ("round__event",)
    inlines = [SeatInline]
    readonly_fields = ("url_key",)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "state", "draw_method", "drawn_at")
    list_filter = ("event", "state")
    readonly_fields = ("draw_seed", "draw_seed_hash", "draw_params", "draw_report")


@admin.register(AuditLogEntry)
class AuditLogEntryAdmin(admin.ModelAdmin):
    """Read only: the log is append-only (``models.audit``); only the services write it."""

    list_display = ("created_at", "event", "user", "action", "reason")
    list_filter = ("event", "action")
    readonly_fields = ("event", "user", "action", "reason", "data", "created_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- leagues and cups (issue 39): organisations with their organisers, persons (their log;
# merging and erasing are the organisers' pages, which log them), series (their events and
# rules are written on the organisers' pages, services.series)


class OrganisationRoleInline(admin.TabularInline):
    model = OrganisationRole
    extra = 0


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "kind", "city")
    list_filter = ("kind",)
    search_fields = ("name", "slug", "city")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [OrganisationRoleInline]


class PersonLogInline(admin.TabularInline):
    model = PersonLogEntry
    extra = 0
    can_delete = False
    readonly_fields = ("action", "user", "data", "created_at")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "city", "federation_id", "shown_as", "erased_at")
    search_fields = ("name", "club", "city", "federation_id")
    readonly_fields = ("name_key", "erased_at")
    inlines = [PersonLogInline]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "organisation", "family", "season", "published")
    list_filter = ("family", "published")
    search_fields = ("name", "slug")
    readonly_fields = ("family", "points", "place_points", "best_of", "min_events", "tiebreaks")
