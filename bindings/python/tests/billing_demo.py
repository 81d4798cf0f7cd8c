"""The demo's billing server (demo/python/server.py, demo/billing.md) for the agent-framework tests: started over
stdio with the `.venv` interpreter (it needs the mcp SDK 2.x, which that environment has), whichever environment the
test runs in; and the exact texts a model reads from it."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PYTHON = str(Path(__file__).resolve().parents[1] / ".venv" / "bin" / "python")
SERVER = str(ROOT / "demo" / "python" / "server.py")

JO = "jo@example.com"

# The answers as the core words them, shared with the JS package's tests (bindings/js/test/billing-demo.mjs).
_ANSWERS = json.loads((ROOT / "demo" / "expected-answers.json").read_text(encoding="utf-8"))

NOT_FOUND: str = _ANSWERS["toolErrors"]["notFound"]  # get_invoice of inv_404 for jo@example.com
FORBIDDEN: str = _ANSWERS["toolErrors"]["forbidden"]  # any tool for blocked@example.com
TIMEOUT: str = _ANSWERS["toolErrors"]["timeout"]  # get_invoice of inv_504: the upstream timed out (HTTP 504)

# The escalation records the host loop writes: a refusal stops at once; the upstream timeout is waited out twice
# (500 ms, then 1000 ms), until the server's repeat ledger (stopAfter 2) says stop on the third call.
FORBIDDEN_RECORD: str = _ANSWERS["escalations"]["forbidden"]["list_invoices"]["record"]
TIMEOUT_RECORD: str = _ANSWERS["escalations"]["timeout"]["get_invoice"]["record"]
TIMEOUT_TRIED: list[dict[str, object]] = _ANSWERS["escalations"]["timeout"]["get_invoice"]["tried"]
