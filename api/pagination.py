"""The paginator of every list (DEFAULT_PAGINATION_CLASS): one envelope,
``{"count", "next", "previous", "results"}``, and one pair of parameters, ``limit`` and ``offset``."""
from rest_framework import pagination, serializers

MAX_LIMIT = 200
# Databases take LIMIT and OFFSET as signed 64-bit integers: offset + limit must fit in one.
MAX_OFFSET = 2**63 - 1 - MAX_LIMIT


class PageQuery(serializers.Serializer):
    """``limit`` and ``offset`` as the schema states them: a value out of range or not a whole
    number is a 400 naming the parameter (DRF's paginator silently falls back to its default,
    so ``?limit=abc`` answered a page the client did not ask for)."""

    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT)
    offset = serializers.IntegerField(required=False, min_value=0, max_value=MAX_OFFSET)


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    """DRF's limit/offset pagination, with the parameters checked by PageQuery. Unbounded, a
    limit of 2**63 reached the database and overflowed there (a 500), and one request could ask
    for every row."""

    max_limit = MAX_LIMIT
    limit_query_description = f"Number of results to return per page (1-{MAX_LIMIT})."

    def paginate_queryset(self, queryset, request, view=None):
        repeated = [name for name in PageQuery().fields if len(request.query_params.getlist(name)) > 1]
        if repeated:  # DRF would read the last one and ignore the others
            raise serializers.ValidationError({name: ["give this parameter once"] for name in repeated})
        # A plain dict, not the QueryDict: DRF reads an empty value of a QueryDict as "not
        # given", and ``?limit=`` answered the default page; the schema says integer.
        query = PageQuery(data={name: request.query_params[name] for name in PageQuery().fields
                                if name in request.query_params})
        query.is_valid(raise_exception=True)
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view):
        bounds = {self.limit_query_param: {"minimum": 1, "maximum": MAX_LIMIT, "default": self.default_limit},
                  self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET, "default": 0}}
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters

