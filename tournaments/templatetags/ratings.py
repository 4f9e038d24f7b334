"""Template filters of the rating pages (issue 41): a rating list's title in the reader's
language (``tournaments.words.ratings.list_title``)."""

from django import template

from tournaments.words.ratings import list_title

register = template.Library()


@register.filter
def rating_title(rating) -> str:
    return list_title(rating)
