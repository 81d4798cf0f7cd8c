"""A hand-written pure-Python `<tool_error>` renderer, the yardstick for the
benchmark: what the component's `render-spec` costs against doing the same
work in Python. It covers the XML form only and is checked byte for byte
against the component before anything is timed; it is not part of the package."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# C0 controls other than tab, LF and CR, plus U+FFFE and U+FFFF, are not XML.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(value: str) -> str:
    value = _FORBIDDEN.sub("\ufffd", value)
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace("]]>", "]]&gt;")
    return value.replace("\r", "&#13;")


def _attr(value: str) -> str:
    value = _text(value).replace('"', "&quot;")
    return value.replace("\t", "&#9;").replace("\n", "&#10;")


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render_xml(spec: Mapping[str, Any], default_recovery: Mapping[str, str]) -> str:
    code = spec["code"]
    severity = spec.get("severity") or "error"
    out = [f'<tool_error code="{_attr(code)}" severity="{severity}">', f"  <message>{_text(spec['message'])}</message>"]
    recovery = spec.get("suggestion") or default_recovery.get(code)
    if recovery:
        out.append(f"  <recovery>{_text(recovery)}</recovery>")
    actions = spec.get("availableActions")
    if actions:
        out.append("  <available_actions>")
        out.extend(f"    <action>{_text(a)}</action>" for a in actions)
        out.append("  </available_actions>")
    details = spec.get("details")
    if details:
        out.append("  <details>")
        out.extend(f'    <detail key="{_attr(k)}">{_text(_scalar(v))}</detail>' for k, v in details.items())
        out.append("  </details>")
    retry_after = spec.get("retryAfter")
    if retry_after is not None:
        seconds = -(-retry_after // 1)
        out.append(f"  <retry_after>{int(seconds)} {'second' if seconds == 1 else 'seconds'}</retry_after>")
    if spec.get("category") is not None:
        out.append(f"  <category>{spec['category']}</category>")
    if spec.get("retryable") is not None:
        out.append(f"  <retryable>{_scalar(spec['retryable'])}</retryable>")
    if spec.get("customerMessage"):
        out.append(f"  <customer_message>{_text(spec['customerMessage'])}</customer_message>")
    if spec.get("correlationId"):
        out.append(f"  <correlation_id>{_text(spec['correlationId'])}</correlation_id>")
    out.append("</tool_error>")
    return "\n".join(out)
