FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
# bubblewrap: the sandbox of uploaded bots; nodejs: their node runtime (docs/protocol.md, "Runtimes")
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap nodejs && rm -rf /var/lib/apt/lists/*
COPY requirements.lock requirements-numeric.txt ./
# Every package pinned with its files' hashes (README, "Dependencies": python3 dev.py lock)
RUN pip install --no-cache-dir --require-hashes -r requirements.lock
# The python-numeric runtime: numpy, pinned with hashes, in a directory of its own that the
# sandbox binds read-only (never the service's site-packages).
RUN pip install --no-cache-dir --require-hashes --no-deps --only-binary=:all: \
        --target /opt/arena/python-numeric -r requirements-numeric.txt \
    && chmod -R a+rX /opt/arena
ENV ARENA_PYTHON_NUMERIC=/opt/arena/python-numeric
COPY . .
# The hashed, compressed static files WhiteNoise serves with DEBUG off (a throwaway key: nothing
# is signed at build time).
RUN DEBUG=0 SECRET_KEY=collectstatic-only ARENA_VAR_DIR=/app/var python manage.py collectstatic --noinput
EXPOSE 8000
# The production server: gunicorn with deploy/gunicorn.conf.py (DEBUG off, 4 processes of
# uvicorn's worker, each an event loop in front of 4 threads: at most 16 requests run at once
# and at most 16 database connections are open, while the remote seats' streams wait on the
# event loops, hundreds at once: config/asgi.py, docs/remote.md "Deployment").
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py builtinbots && exec gunicorn -c deploy/gunicorn.conf.py --bind 0.0.0.0:8000"]
