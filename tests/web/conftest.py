"""The site's tests use the API's fixtures (users, clients, bots): the same people on both."""
from tests.api.conftest import *  # noqa: F401,F403 (fixtures)
from tests.api.conftest import fast_passwords, fresh_throttles  # noqa: F401 (autouse fixtures)
