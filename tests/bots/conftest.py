"""Shared fixtures of the bot tests."""
import os

import pytest

from bots.sandbox import SandboxUnavailable, sandbox_check


@pytest.fixture
def sandbox_required():
    """Skip without bwrap, or fail when CI requires the sandbox (ARENA_REQUIRE_SANDBOX=1)."""
    try:
        sandbox_check()
    except SandboxUnavailable as exc:
        if os.environ.get("ARENA_REQUIRE_SANDBOX") == "1":
            pytest.fail(f"ARENA_REQUIRE_SANDBOX=1 but the sandbox is unavailable: {exc}")
        pytest.skip(f"sandbox unavailable: {exc}")
