"""The base of the API's filter sets (django-filter)."""
from django_filters import rest_framework as filters


class FilterSet(filters.FilterSet):
    """A filter set where a parameter that is present but empty is a 400, unless it filters
    text. django-filter reads ``?created_before=`` as absent (an HTML form sends empty fields),
    but the schema types the parameter as a date-time, an id or one of a few choices, and an
    empty string is none of them."""

    def is_valid(self):
        valid = super().is_valid()
        for name, filter_ in self.filters.items():
            if not isinstance(filter_, filters.CharFilter) and self.data.get(name) == "":
                self.form.add_error(name, "must not be empty; leave the parameter out to not filter")
                valid = False
        return valid
