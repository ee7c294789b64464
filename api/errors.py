"""Every API error has one shape: {"error": {"code": str, "detail": str, "fields": {...}}}.

A machine-readable ``code`` (DRF's error codes, or ours: "illegal_action", "upload_refused",
"conflict"...), a ``detail`` a person can read, and per-field reasons for validation errors.
"""
from django.conf import settings
from django.core.exceptions import (PermissionDenied, RequestDataTooBig, TooManyFieldsSent,
                                    TooManyFilesSent)
from django.http import Http404, JsonResponse
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


def error_response(detail: str, *, code: str, status: int) -> JsonResponse:
    """The envelope outside DRF (URL handlers, pages that answer JSON)."""
    return JsonResponse({"error": {"code": code, "detail": detail, "fields": {}}}, status=status)


def body_refusal(exc) -> ApiError | None:
    """Django's refusal of a request body as an ApiError: 413 over DATA_UPLOAD_MAX_MEMORY_SIZE,
    400 over the field or file count. Django raises these (SuspiciousOperations) when the body
    is read, i.e. inside a view at request.data; left alone they become its HTML 400 page."""
    if isinstance(exc, RequestDataTooBig):
        return ApiError(f"the request body is over the limit of {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes",
                        code="request_too_large", status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, TooManyFieldsSent):
        return ApiError(f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,} fields",
                        code="too_many_fields")
    if isinstance(exc, TooManyFilesSent):
        return ApiError(f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FILES:,} files",
                        code="too_many_files")
    return None


def exception_handler(exc, context):
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    else:
        exc = body_refusal(exc) or exc
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


def json_bad_request(request, exception=None):
    """handler400: the envelope for API paths, for a SuspiciousOperation raised outside a DRF
    view (inside one, exception_handler answers); 413 for a body over the size limit."""
    from django.views.defaults import bad_request

    if not request.path.startswith("/api/"):
        return bad_request(request, exception)
    refusal = body_refusal(exception)
    if refusal is not None:
        return error_response(str(refusal.detail), code=refusal.detail.code, status=refusal.status_code)
    return error_response("bad request", code="bad_request", status=400)


def json_not_found(request, exception=None):
    """handler404: API paths get the error envelope (a URL that matches no route, e.g. a
    malformed id, never reaches DRF); other paths get Django's page."""
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        return error_response(f"no such resource: {request.path}", code="not_found", status=404)
    return page_not_found(request, exception)


def json_server_error(request):
    """handler500: the envelope for API paths (a bug: it is logged, and tests forbid 5xx)."""
    from django.views.defaults import server_error

    if request.path.startswith("/api/"):
        return error_response("internal error", code="server_error", status=500)
    return server_error(request)
