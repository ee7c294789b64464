"""`manage.py check --deploy` is clean under the production settings (DEBUG off)."""
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _check_deploy(tmp_path, **extra):
    env = dict(os.environ, DEBUG="0", SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="arena.example",
               ARENA_VAR_DIR=str(tmp_path), **extra)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_it_passes_the_deploy_check_in_production(tmp_path):
    done = _check_deploy(tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "security." not in output, output  # every deployment setting is right
    assert "no issues" in output, output


def test_it_lets_the_environment_override_a_production_setting(tmp_path):
    done = _check_deploy(tmp_path, SECURE_SSL_REDIRECT="0")
    assert "security.W008" in done.stdout + done.stderr  # the check notices the override
