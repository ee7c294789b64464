"""The README's production path without Docker (issue 39, item 5), run as written.

The test takes the README's block under "### Without Docker" and runs its `export`, `manage.py`
and gunicorn lines in bash, in the block's order, exactly as printed; only what would reach this
machine's shared services is redirected after the exports (a database and a static folder of the
test's own, tasks in process) and gunicorn binds a free port. Then, over plain http: the site's
pages answer without a redirect to https, a hashed static file is served (built at start), an
unknown URL gets the site's own 404 (never Django's debug page), and a person logs in through
the site's form (the session cookie travels over http)."""
import http.cookiejar
import os
import re
import secrets
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import stop_process_group

ROOT = Path(__file__).resolve().parent.parent
RUN_AS_WRITTEN = ("export ", ".venv/bin/python manage.py migrate", ".venv/bin/python manage.py builtinbots",
                  ".venv/bin/gunicorn ")


def _block() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Without Docker", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1).splitlines()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer to look at, not to follow


def _script(tmp_path: Path, port: int) -> str:
    """The block's lines that run here, as written, with this test's sandbox after the exports."""
    lines = [line.split("  #")[0].rstrip() for line in _block()]
    chosen = [line for line in lines if line.startswith(RUN_AS_WRITTEN)]
    exports = [line for line in chosen if line.startswith("export ")]
    commands = [line for line in chosen if not line.startswith("export ")]
    assert [c.split()[0:4] for c in commands] == [
        [".venv/bin/python", "manage.py", "migrate"], [".venv/bin/python", "manage.py", "builtinbots"],
        [".venv/bin/gunicorn", "-c", "deploy/gunicorn.conf.py", "&"]], commands
    python = shlex.quote(sys.executable)
    sandbox = (f"export DATABASE_URL=sqlite:///{tmp_path}/arena.sqlite3 ARENA_VAR_DIR={tmp_path}/var "
               f"SIGNING_KEY_DIR={tmp_path}/keys ALLOWED_HOSTS=127.0.0.1\nunset CELERY_BROKER_URL CACHE_URL")
    body = []
    for command in commands:
        command = command.replace(".venv/bin/python", python).replace(".venv/bin/gunicorn", f"{python} -m gunicorn")
        if "gunicorn" in command:  # the last line: the server, in the foreground of this script
            command = "exec " + command.rstrip(" &") + f" --bind 127.0.0.1:{port}"
        body.append(command)
    return "\n".join(["set -e", f"cd {shlex.quote(str(ROOT))}", *exports, sandbox, *body])


@pytest.mark.no_services  # its own SQLite file and in-process tasks, whatever the pass
def test_the_readme_production_path_serves_the_site_with_debug_off_over_plain_http(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("DJANGO_SETTINGS_MODULE", "DEBUG", "SECRET_KEY", "ARENA_PLAIN_HTTP")}
    server = subprocess.Popen(["bash", "-c", _script(tmp_path, port)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)
    try:
        deadline = time.monotonic() + 240  # migrate, the built-in bots, collectstatic, on a busy machine
        while True:
            assert server.poll() is None, f"the server stopped:\n{server.stdout.read()[-3000:]}"
            try:
                with browser.open(f"{base}/api/health/", timeout=5) as answer:
                    assert answer.status == 200
                    break
            except urllib.error.HTTPError as answer:  # e.g. a redirect to https
                raise AssertionError(f"/api/health/ answered {answer.code} {answer.headers.get('Location')}")
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not answer within 240 s"
                time.sleep(0.5)

        def get(path: str) -> tuple[int, str, dict]:
            try:
                with browser.open(base + path, timeout=30) as answer:
                    return answer.status, answer.read().decode(), dict(answer.headers)
            except urllib.error.HTTPError as refused:
                return refused.code, refused.read().decode(), dict(refused.headers)

        status, home, headers = get("/")
        assert status == 200, (status, headers.get("Location"))  # no redirect to https
        assert "Strict-Transport-Security" not in headers
        # DEBUG is off: the static files are the hashed copies collectstatic built at start
        stylesheet = re.search(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', home)
        assert stylesheet, "no hashed stylesheet on the home page"
        assert get(stylesheet.group(1))[0] == 200
        status, missing, _ = get(f"/no-such-page-{secrets.token_hex(4)}/")
        assert status == 404
        assert "Spellbound Arena" in missing and "URLconf" not in missing and "DEBUG = True" not in missing

        password = secrets.token_urlsafe(12)
        made = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                               "from django.contrib.auth.models import User; "
                               f"User.objects.create_user('morgana', password='{password}')"],
                              cwd=ROOT, capture_output=True, text=True,
                              env=dict(env, DEBUG="0", SECRET_KEY="unused-here",
                                       DATABASE_URL=f"sqlite:///{tmp_path}/arena.sqlite3",
                                       ARENA_VAR_DIR=str(tmp_path / "var")))
        assert made.returncode == 0, made.stderr
        status, form, _ = get("/login/")
        assert status == 200
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
        fields = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": "morgana",
                                         "password": password, "next": ""}).encode()
        request = urllib.request.Request(f"{base}/login/", data=fields, headers={"Referer": f"{base}/login/"})
        try:
            browser.open(request, timeout=30)
            raise AssertionError("the login form did not redirect")
        except urllib.error.HTTPError as answer:
            assert answer.code == 302, (answer.code, answer.read()[:500])
        session = [cookie for cookie in jar if cookie.name == "sessionid"]
        assert session and not session[0].secure
        status, page, _ = get("/me/")
        assert status == 200 and "morgana" in page
    finally:
        stop_process_group(server)
