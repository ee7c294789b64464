"""API tokens: a secret shown once, stored only as its sha256.

A token reads ``<prefix>.<secret>``: the prefix (8 characters) finds the row and is safe to show
in lists; the secret is compared by its hash, in constant time. Tokens expire after
``settings.API_TOKEN_DAYS`` and can be revoked; a revoked row stays, for the record.
"""
from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=64, help_text="What the owner calls it (e.g. 'laptop', 'ci').")
    prefix = models.CharField(max_length=8, unique=True, help_text="First part of the token, for display and lookup.")
    key_hash = models.CharField(max_length=64, help_text="sha256 hex of the secret part; the secret is never stored.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.prefix}… ({self.name}, user {self.user_id})"
