"""Every API error has one shape: {"error": {"code": str, "detail": str, "fields": {...}}}.

A machine-readable ``code`` (DRF's error codes, or ours: "illegal_action", "upload_refused",
"conflict"...), a ``detail`` a person can read, and per-field reasons for validation errors.
"""
from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class ApiError(exceptions.APIException):
    """A 4xx with our own code: raise ApiError("why", code="upload_refused", status=400)."""

    def __init__(self, detail: str, *, code: str, status_code: int = status.HTTP_400_BAD_REQUEST):
        super().__init__(detail=detail, code=code)
        self.status_code = status_code


def _first_code(detail) -> str:
    if isinstance(detail, list) and detail:
        return _first_code(detail[0])
    if isinstance(detail, dict) and detail:
        return _first_code(next(iter(detail.values())))
    return getattr(detail, "code", None) or "invalid"


def exception_handler(exc, context):
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
    body = {"code": _first_code(detail) if isinstance(exc, exceptions.ValidationError)
            else getattr(exc, "default_code", "error"), "detail": "", "fields": {}}
    if isinstance(exc, ApiError):
        body["code"] = _first_code(detail)
    if isinstance(detail, dict):
        body["fields"] = {k: [str(v) for v in (vs if isinstance(vs, list) else [vs])] for k, vs in detail.items()}
        body["detail"] = "; ".join(f"{k}: {' '.join(v)}" for k, v in body["fields"].items())
    elif isinstance(detail, list):
        body["detail"] = " ".join(str(d) for d in detail)
    else:
        body["detail"] = str(detail)
    return Response({"error": body}, status=response.status_code, headers=dict(response.items()))


def json_not_found(request, exception=None):
    """handler404: API paths get the error envelope (a URL that matches no route, e.g. a
    malformed id, never reaches DRF); other paths get Django's page."""
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "not_found", "detail": f"no such resource: {request.path}",
                                       "fields": {}}}, status=404)
    return page_not_found(request, exception)


def json_server_error(request):
    """handler500: the envelope for API paths (a bug: it is logged, and tests forbid 5xx)."""
    from django.http import JsonResponse
    from django.views.defaults import server_error

    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "server_error", "detail": "internal error", "fields": {}}},
                            status=500)
    return server_error(request)
