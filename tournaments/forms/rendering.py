"""One layout for every form of the pages (Django's form renderer, ``settings.FORM_RENDERER``):
each field's label above its input, the field's errors beside the input, the help text under
it; the form's own errors (not about one field) first, as an alert. ``{{ form }}``,
``{{ form.as_div }}`` and ``{{ field.as_field_group }}`` all render through these templates
(``templates/tournaments/forms/``)."""

from __future__ import annotations

from django.forms.renderers import TemplatesSetting

__all__ = ["PulkaFormRenderer"]


class PulkaFormRenderer(TemplatesSetting):
    """The project's templates (so ``templates/`` is searched) with Pulka's form layout."""

    form_template_name = "tournaments/forms/div.html"
    field_template_name = "tournaments/forms/field.html"
