"""Issue 39.1, accounts on the site (web.site_accounts): sign up by the rules of POST /api/users/,
change one's password, create an API token (its secret shown once) and revoke it. In Chromium a
visitor signs up from the login page, is refused a common password, creates a token that the API
then accepts, revokes it (the API refuses it), changes the password and logs in with the new
one. With Django's client: the same refusals as the API, the CSRF check, the tokens page's rights.
Screenshots go to var/test-artifacts/site-accounts-<name>.png."""
import html

from django.contrib.auth import get_user_model
from django.test import Client

from api.models import ApiToken
from api.services import token_create

from tests.api.conftest import make_user
from .test_viewer_browser import ARTIFACTS, browser, page  # noqa: F401 (fixtures)

GOOD_PASSWORD = "quill-Lantern-42"


def _shot(tab, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"site-accounts-{name}.png"), full_page=True)


def _bearer(tab, url, plaintext):
    return tab.request.get(f"{url}/api/tokens/", headers={"Authorization": f"Bearer {plaintext}"})


def test_a_visitor_signs_up_creates_and_revokes_a_token_and_changes_the_password(page, live_server, live_db):  # noqa: F811
    url = live_server.url
    page.goto(f"{url}/login/")
    assert "/api/users/" not in page.inner_text("main")  # the login page no longer sends people to the API
    page.click("#sign-up-link")
    page.wait_for_url(f"{url}/signup/")
    page.fill("#id_username", "vera")
    page.fill("#id_password", "password123")
    page.fill("#id_password_again", "password123")
    with page.expect_response(f"{url}/signup/") as answer:
        page.click("#signup-form button[type=submit]")
    assert answer.value.status == 400
    assert "This password is too common." in page.inner_text("#signup-errors")
    assert page.input_value("#id_username") == "vera"
    assert not get_user_model().objects.filter(username="vera").exists()
    _shot(page, "refused")

    page.fill("#id_password", GOOD_PASSWORD)
    page.fill("#id_password_again", GOOD_PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_url(f"{url}/me/")
    assert "vera" in page.inner_text("#my-page")

    page.click("#my-tokens")
    page.wait_for_url(f"{url}/tokens/")
    page.fill("#token-name", "my laptop")
    page.click("#token-form button[type=submit]")
    page.wait_for_selector("#token-created")
    plaintext = page.inner_text("#token-plaintext")
    token = ApiToken.objects.get(user__username="vera")
    assert token.name == "my laptop" and plaintext.startswith(f"{token.prefix}.")
    assert _bearer(page, url, plaintext).status == 200  # the API takes it
    _shot(page, "token")
    page.goto(f"{url}/tokens/")  # shown once: the list has its prefix, never its secret
    assert plaintext not in page.content() and token.prefix in page.inner_text("tr.token-row")

    page.click(f"tr.token-row[data-token='{token.pk}'] form.revoke button")
    page.wait_for_selector("#token-revoked")
    assert page.inner_text(f"tr.token-row[data-token='{token.pk}'] td.token-state") == "revoked"
    assert _bearer(page, url, plaintext).status == 401

    page.goto(f"{url}/password/")
    page.fill("#id_old_password", GOOD_PASSWORD)
    page.fill("#id_new_password1", "vera")
    page.fill("#id_new_password2", "vera")
    with page.expect_response(f"{url}/password/") as answer:
        page.click("#password-form button[type=submit]")
    assert answer.value.status == 400 and "too short" in page.inner_text("#password-errors")
    page.fill("#id_old_password", GOOD_PASSWORD)
    page.fill("#id_new_password1", "Another-quill-77")
    page.fill("#id_new_password2", "Another-quill-77")
    page.click("#password-form button[type=submit]")
    page.wait_for_url(f"{url}/me/?password=changed")
    assert page.is_visible("#password-changed")

    page.click(".site-nav form.logout button")
    page.wait_for_url(f"{url}/")
    assert page.is_visible("#log-in")
    page.goto(f"{url}/login/")
    page.fill("#id_username", "vera")
    page.fill("#id_password", "Another-quill-77")
    page.click("#login-form button[type=submit]")
    page.wait_for_url(f"{url}/me/")


def test_it_refuses_what_the_api_refuses_with_the_same_reasons(client, anon):
    make_user("alice")
    cases = [({"username": "Alice", "password": GOOD_PASSWORD}, 409),  # taken, without case
             ({"username": "bad name!", "password": GOOD_PASSWORD}, 400),
             ({"username": "nadia", "password": "12345678901"}, 400),  # all digits
             ({"username": "nadiastrong", "password": "nadiastrong1"}, 400)]  # too like the username
    for fields, status in cases:
        api = anon.post("/api/users/", fields, format="json")
        site = client.post("/signup/", {**fields, "password_again": fields["password"]})
        assert (api.status_code, site.status_code) == (status, status), fields
        error = api.json()["error"]
        reasons = [m for ms in error["fields"].values() for m in ms] or [error["detail"]]
        page = html.unescape(site.content.decode())
        assert all(reason in page for reason in reasons), (reasons, fields)
    differ = client.post("/signup/", {"username": "nadia", "password": GOOD_PASSWORD, "password_again": "x" + GOOD_PASSWORD})
    assert differ.status_code == 400 and "The two passwords differ." in differ.content.decode()
    assert not get_user_model().objects.filter(username="nadia").exists()
    made = client.post("/signup/", {"username": "nadia", "password": GOOD_PASSWORD, "password_again": GOOD_PASSWORD,
                                    "next": "https://elsewhere.example/"})
    assert made.status_code == 302 and made["Location"] == "/me/"  # no open redirect
    assert get_user_model().objects.get(username="nadia").check_password(GOOD_PASSWORD)


def test_every_form_needs_its_csrf_token(db):
    alice = make_user("alice")
    _, plaintext = token_create(user=alice, name="old")
    browser_without_token = Client(enforce_csrf_checks=True)
    signup = browser_without_token.post("/signup/", {"username": "nadia", "password": GOOD_PASSWORD,
                                                     "password_again": GOOD_PASSWORD})
    assert signup.status_code == 403 and not get_user_model().objects.filter(username="nadia").exists()
    browser_without_token.force_login(alice)
    assert browser_without_token.post("/tokens/", {"name": "sneaky"}).status_code == 403
    token = ApiToken.objects.get(user=alice)
    assert browser_without_token.post(f"/tokens/{token.pk}/revoke/").status_code == 403
    assert browser_without_token.post("/password/", {"old_password": "alice-Secret-123", "new_password1": GOOD_PASSWORD,
                                                     "new_password2": GOOD_PASSWORD}).status_code == 403
    token.refresh_from_db()
    assert ApiToken.objects.filter(user=alice).count() == 1 and not token.revoked
    assert get_user_model().objects.get(username="alice").check_password("alice-Secret-123")


def test_the_tokens_page_is_its_users_alone(client, db):
    alice, bob = make_user("alice"), make_user("bob")
    token, _ = token_create(user=alice, name="alice's")
    assert client.get("/tokens/").status_code == 302  # to the login page
    client.force_login(bob)
    assert "alice's" not in client.get("/tokens/").content.decode()
    assert client.post(f"/tokens/{token.pk}/revoke/").status_code == 404
    token.refresh_from_db()
    assert not token.revoked
    assert client.post("/tokens/", {"name": " "}).status_code == 400
    assert not ApiToken.objects.filter(user=bob).exists()
    client.force_login(alice)
    assert client.get("/tokens/").status_code == 200
    assert client.post(f"/tokens/{token.pk}/revoke/").status_code == 302
    token.refresh_from_db()
    assert token.revoked
