"""The WSGI application that gunicorn serves (deploy/gunicorn.conf.py). A server runs with DEBUG
off unless the environment asks for DEBUG=1: Django's debug pages (settings, URL lists) never
reach a visitor by default. manage.py (runserver, the demo, the commands) keeps DEBUG on for
local development unless DEBUG=0 is set (config/settings.py)."""
import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

if not settings.configured:  # a server's process; not one that loaded the settings already (a test)
    os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
