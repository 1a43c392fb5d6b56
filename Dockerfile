# The paperkg API image used by docker-compose.yml (Neo4j runs in its own container).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY kg ./kg
COPY extractors ./extractors
COPY ontology ./ontology
COPY api ./api
COPY cli ./cli
RUN pip install .

EXPOSE 8000
CMD ["kg", "serve"]
