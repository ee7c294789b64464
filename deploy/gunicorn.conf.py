"""gunicorn's settings for the service as deployed: the Dockerfile's command and the README's
path without Docker both start ``gunicorn -c deploy/gunicorn.conf.py``.

- DEBUG is off unless the environment says DEBUG=1 (config/wsgi.py defaults it the same way), so
  a server never shows Django's debug pages.
- The static files WhiteNoise serves with DEBUG off (hashed, compressed, with a manifest) are
  built at start by ``manage.py collectstatic``, before any worker answers: a server started on a
  fresh clone serves them without a separate step (collectstatic copies only what changed).
- 4 processes (WEB_CONCURRENCY) of uvicorn's worker, each an event loop in front of 4 threads
  (WEB_THREADS) that run the requests (config/asgi.py): at most 16 requests run at once and at
  most 16 database connections are open (persistent, DB_CONN_MAX_AGE); more requests wait for a
  thread instead of exhausting PostgreSQL's connections. The remote seats' streams and long polls
  wait on the event loop, not in a thread: hundreds stay open without taking the threads the
  site needs (docs/remote.md, "Deployment").
- The access log goes to standard output (ARENA_ACCESS_LOG names a file instead, or is empty for
  none, as bench/load.py sets it).

Bound to 127.0.0.1:8000 unless ``--bind`` says otherwise (the Dockerfile binds 0.0.0.0:8000).
"""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("DEBUG", "0")

wsgi_app = "config.asgi:application"
chdir = str(ROOT)
bind = ["127.0.0.1:8000"]
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
worker_class = "uvicorn_worker.UvicornWorker"
os.environ.setdefault("WEB_THREADS", "4")  # read by config/asgi.py in each worker
timeout = 60
accesslog = os.environ.get("ARENA_ACCESS_LOG", "-") or None  # "-": standard output; empty: none


def on_starting(server) -> None:
    """Build the static files (once, in the master, before the workers start)."""
    if os.environ["DEBUG"] == "1":
        return  # DEBUG serves the files from the apps' folders
    done = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
                          cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"manage.py collectstatic failed:\n{done.stdout}{done.stderr}")
