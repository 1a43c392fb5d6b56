"""Optional answer rewriting by an OpenAI-compatible chat endpoint (PAPERKG_LLM_BASE_URL), from the same
evidence the extractive answer used. Off unless configured; a failing endpoint leaves the extractive answer."""

from __future__ import annotations

import logging

import httpx

from kg.qa.engine import Rewriter
from kg.settings import Settings

log = logging.getLogger("paperkg.qa")
_PROMPT = ("Answer the question using only the evidence passages. If they do not answer it, reply with the "
           "extractive answer unchanged.\n\nQuestion: {question}\nExtractive answer: {answer}\n\nEvidence:\n{evidence}")


def rewriter(settings: Settings) -> Rewriter | None:
    if not settings.llm_base_url:
        return None
    url = settings.llm_base_url.rstrip("/") + "/chat/completions"
    headers = {"Authorization": f"Bearer {settings.llm_api_key.get_secret_value()}"} if settings.llm_api_key else {}

    def rewrite(question: str, answer: str, evidence: list[dict]) -> str:
        passages = "\n".join(f"[{i + 1}] (p. {e['page']}) {e['text']}" for i, e in enumerate(evidence))
        body = {"model": settings.llm_model, "temperature": 0,
                "messages": [{"role": "user", "content": _PROMPT.format(question=question, answer=answer,
                                                                        evidence=passages)}]}
        try:
            reply = httpx.post(url, json=body, headers=headers, timeout=30.0)
            reply.raise_for_status()
            return reply.json()["choices"][0]["message"]["content"].strip() or answer
        except (httpx.HTTPError, KeyError, IndexError, ValueError) as exc:
            log.warning("LLM rewrite failed, keeping the extractive answer: %s", exc)
            return answer

    return rewrite
