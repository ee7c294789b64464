"""The application gunicorn serves as deployed (deploy/gunicorn.conf.py): uvicorn's worker, one
event loop per process, in front of the WSGI application of config/wsgi.py.

Every request runs as before, in a pool of WEB_THREADS threads per process (a2wsgi), each with
its persistent database connection, so at most processes x threads requests run at once and
that many connections are open. What changes is waiting: the remote seats' stream and long
poll (api/views_remote.py) hold a connection open for minutes, and with a thread each 16 of them
took the whole server. Here their view runs in a thread like any other (authentication,
throttles, parameters, refusals, the response's headers) and hands its waiting to the event
loop (``response.async_tail``): an open stream costs a socket, a subscription to its owner's
Redis channel and a few kilobytes, not a thread (docs/remote.md, "Deployment").
"""
import asyncio
import contextvars
import functools
import os

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import Body, build_environ

from config.wsgi import application as django_application  # sets DEBUG's default and Django up

from django.db import close_old_connections  # noqa: E402  (after Django's set-up)
from django.urls import Resolver404, resolve  # noqa: E402

from api.views_remote import ASYNC_TAIL  # noqa: E402

THREADS = int(os.environ.get("WEB_THREADS", "4"))
WAITING_VIEWS = {"remote-stream", "remote-next"}  # the URL names whose view may hand its wait over

threads = WSGIMiddleware(django_application, workers=THREADS)


async def application(scope, receive, send):
    if scope["type"] == "http" and _waits(scope["path"]):
        await _view_with_async_tail(scope, receive, send)
    else:
        await threads(scope, receive, send)


@functools.lru_cache(maxsize=1024)
def _waits(path: str) -> bool:
    try:
        return resolve(path).url_name in WAITING_VIEWS
    except Resolver404:
        return False


async def run_sync(function):
    """``function()`` in the server's threads (a database read of a waiting view)."""
    def call():
        close_old_connections()  # as at a request's start: a broken or aged connection is replaced
        return function()

    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(threads.executor, contextvars.copy_context().run, call)


async def _view_with_async_tail(scope, receive, send) -> None:
    """The view in a thread; its response's body, if it has an ``async_tail``, from the loop."""
    loop = asyncio.get_running_loop()
    environ = build_environ(scope, Body(loop, receive))
    environ[ASYNC_TAIL] = True
    started: dict = {}

    def start_response(status, headers, exc_info=None):
        started.update(status=int(status.split(" ", 1)[0]),
                       headers=[(k.lower().encode("latin1"), v.encode("latin1")) for k, v in headers])

    def view():
        response = django_application(environ, start_response)
        tail = getattr(response, "async_tail", None)
        try:
            body = b"" if tail is not None else b"".join(response)
        finally:
            response.close()  # the request is over for Django (request_finished): the tail is the loop's
        return body, tail

    body, tail = await loop.run_in_executor(threads.executor, contextvars.copy_context().run, view)
    await send({"type": "http.response.start", "status": started["status"], "headers": started["headers"]})
    if tail is None:
        await send({"type": "http.response.body", "body": body})
        return
    disconnected = asyncio.Event()
    watcher = asyncio.create_task(_watch(receive, disconnected))
    try:
        async for chunk in tail(run_sync, disconnected):
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    finally:
        watcher.cancel()


async def _watch(receive, disconnected: asyncio.Event) -> None:
    """Set ``disconnected`` when the client goes away (the stream then ends at once)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    disconnected.set()
