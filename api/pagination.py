"""The paginator of every list (DEFAULT_PAGINATION_CLASS)."""
from rest_framework import pagination

MAX_LIMIT = 200
# Databases take LIMIT and OFFSET as signed 64-bit integers: offset + limit must fit in one.
MAX_OFFSET = 2**63 - 1 - MAX_LIMIT


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    """DRF's limit/offset pagination with bounds: a larger ``limit`` is read as MAX_LIMIT (as
    DRF does with max_limit), a larger ``offset`` as MAX_OFFSET. Unbounded, a limit of 2**63
    reached the database and overflowed there (a 500), and one request could ask for every row."""

    max_limit = MAX_LIMIT
    limit_query_description = f"Number of results to return per page (at most {MAX_LIMIT})."

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_OFFSET)

    def get_schema_operation_parameters(self, view):
        bounds = {self.limit_query_param: {"minimum": 1, "maximum": MAX_LIMIT},
                  self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET}}
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters
