"""The Celery app. Without CELERY_BROKER_URL tasks run in process (settings.CELERY_TASK_ALWAYS_EAGER)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
