"""Issue 13.21: "The docs stand on their own: the README links `../shared/ARCHITECTURE.md`, which
is not in the repository a user clones. The architecture belongs in `docs/`, and no link leaves
the repository."

Every Markdown link of the README, BENCHMARKS.md and docs/ must point at a file or folder of the
repository (or an anchor of a heading in it); the only web addresses are the service's own on
this machine (the curl tour)."""
import re
from pathlib import Path

import pytest

from games.engine import registry

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "BENCHMARKS.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
URL = re.compile(r"\bhttps?://[^\s)`'\"<>]+")
LOCAL = re.compile(r"^https?://(localhost|127\.0\.0\.1|\[::1\])([:/]|$)")


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    anchors = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


def _outside_code(text: str) -> str:
    return re.sub(r"```.*?```", "", text, flags=re.S)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_stays_in_the_repository_and_leads_somewhere(page):
    text = _outside_code(page.read_text())
    for target in LINK.findall(text):
        assert not target.startswith(("http://", "https://", "//", "mailto:")) or LOCAL.match(target), \
            f"{page.name}: {target} leaves the repository"
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.is_relative_to(ROOT), f"{page.name}: {target} is outside the repository"
        assert resolved.exists(), f"{page.name}: {target} does not exist"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved), f"{page.name}: no heading #{anchor} in {path or page.name}"
    for url in URL.findall(text):
        assert LOCAL.match(url), f"{page.name}: {url} leaves the repository"


def test_the_architecture_is_in_the_repository_and_the_readme_points_at_it():
    readme = (ROOT / "README.md").read_text()
    assert "../shared" not in readme
    assert "(docs/architecture.md)" in readme
    architecture = (ROOT / "docs" / "architecture.md").read_text()
    for part in ("games/", "replays/", "bots/", "tournaments/", "api/", "event_append", "view(state, seat)"):
        assert part in architecture


@pytest.mark.parametrize("game", [r.spec.name for r in registry.builtin()])
def test_each_rules_page_lists_every_option_as_the_engine_has_it(game):
    """Issue 13, done when: "A bot written from a rules page alone [...] plays every game": the
    authors who wrote them from the pages had to guess the options' ranges and some defaults.
    Each page now carries a table written from the ruleset's Options; it must match the engine
    (python3 -m games.engine.options_doc rewrites it)."""
    from games.engine.options_doc import options_table, page_section
    from games.engine.protocol import options_schema

    ruleset = registry.get(game)
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    assert page_section(text) == options_table(ruleset), "run: python3 -m games.engine.options_doc"
    for option in options_schema(ruleset.Options):
        assert f"| `{option['name']}` |" in page_section(text)
