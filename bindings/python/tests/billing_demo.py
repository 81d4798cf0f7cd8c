"""The demo's billing server (demo/python/server.py, demo/billing.md) for the agent-framework tests: started over
stdio with the `.venv` interpreter (it needs the mcp SDK 2.x, which that environment has), whichever environment the
test runs in; and the exact texts a model reads from it."""

from __future__ import annotations

from pathlib import Path

PYTHON = str(Path(__file__).resolve().parents[1] / ".venv" / "bin" / "python")
SERVER = str(Path(__file__).resolve().parents[3] / "demo" / "python" / "server.py")

JO = "jo@example.com"

NOT_FOUND = """<tool_error code="NOT_FOUND" severity="error">
  <message>No invoice inv_404 for jo@example.com.</message>
  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>
  <available_actions>
    <action>list_invoices</action>
  </available_actions>
  <details>
    <detail key="invoiceId">inv_404</detail>
  </details>
</tool_error>"""

FORBIDDEN = """<tool_error code="FORBIDDEN" severity="error">
  <message>Not permitted: the caller may not read the invoices of blocked@example.com.</message>
  <recovery>Do not retry or probe. Tell the user this needs access they do not have.</recovery>
  <customer_message>You don't have permission to do this. If you need it, ask an administrator for access.</customer_message>
</tool_error>"""

TIMEOUT = """<tool_error code="TIMEOUT" severity="error">
  <message>billing-api did not answer in time (HTTP 504).</message>
  <recovery>Retry once after a short wait; if it times out again, tell the user the service is slow.</recovery>
  <customer_message>The service took too long to respond. Please try again in a moment.</customer_message>
</tool_error>"""

# The escalation records the host loop writes: a refusal stops at once; the upstream timeout is waited out twice
# (500 ms, then 1000 ms), until the server's repeat ledger (stopAfter 2) says stop on the third call.
FORBIDDEN_RECORD = """<partial_result severity="error">
  <summary>Obtained 0 of 1 item; 1 failed.</summary>
  <task>call list_invoices: not permitted: tell the user</task>
  <failed>
    <failure item="list_invoices" code="FORBIDDEN" category="permission" retryable="false"/>
  </failed>
  <tried>
    <attempt>call 1: FORBIDDEN (stop-and-tell)</attempt>
  </tried>
  <recovery>Do not call it again: tell the user what failed, with what was obtained.</recovery>
</partial_result>"""

TIMEOUT_RECORD = """<partial_result severity="error">
  <summary>Obtained 0 of 1 item; 1 failed.</summary>
  <task>call get_invoice: critical: stop</task>
  <failed>
    <failure item="get_invoice" code="TIMEOUT" category="transient" retryable="true"/>
  </failed>
  <tried>
    <attempt>call 1: TIMEOUT (wait-and-retry), then waited 500 ms</attempt>
    <attempt>call 2: TIMEOUT (wait-and-retry), then waited 1000 ms</attempt>
    <attempt>call 3: TIMEOUT (stop-and-tell)</attempt>
  </tried>
  <recovery>Do not call it again: tell the user what failed, with what was obtained.</recovery>
</partial_result>"""

TIMEOUT_TRIED = [
    {"code": "TIMEOUT", "branch": "wait-and-retry", "waitedMs": 500},
    {"code": "TIMEOUT", "branch": "wait-and-retry", "waitedMs": 1000},
    {"code": "TIMEOUT", "branch": "stop-and-tell"},
]
