"""Hand-written pure-Python yardsticks for the benchmark: what each timed call
costs done directly in Python. Each handles only the benchmark's inputs
(benches/inputs.json) and is checked against the package's answer (same bytes,
or an equal dict) before anything is timed; none is part of the package."""

from __future__ import annotations

import html
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
    """`render(spec, "xml")`: a `<tool_error>`."""
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


def render_validation(spec: Mapping[str, Any]) -> str:
    """`render_validation_spec(spec)` for issues that are all `invalid_format` emails with a short string sent."""
    out = [f'<validation_error action="{_attr(spec["action"])}">']
    for issue in spec["issues"]:
        assert issue["code"] == "invalid_format" and issue["format"] == "email", "only the benchmark's issues"
        path = issue["path"]
        name = str(path[0]) + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[1:])
        sent = f"You sent: '{_text(issue['input'])}'. Expected a valid email address."
        out.append(f'  <field name="{_attr(name)}">Invalid email format. {sent}</field>')
    out.append("  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>")
    out.append("</validation_error>")
    return "\n".join(out)


_ENVELOPE = re.compile(r'<tool_error code="([^"]*)" severity="([^"]*)">\n(.*?)\n</tool_error>', re.S)
_LINE = re.compile(r' *<(\w+)(?: key="([^"]*)")?>(.*?)</\1>$', re.M)


def read_back(text: str, defaults: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """`parse_envelope(text)` for a `<tool_error>` in XML holding only message, recovery, actions, string
    details and a retry delay: the reading, with the code's defaults for what the envelope leaves out."""
    found = _ENVELOPE.search(text)
    assert found, "only a <tool_error> in XML"
    code, severity, body = found.groups()
    error: dict[str, Any] = {"code": html.unescape(code), "message": ""}
    for tag, key, value in _LINE.findall(body):
        value = html.unescape(value)
        if tag == "message":
            error["message"] = value
        elif tag == "recovery":
            error["suggestion"] = value
        elif tag == "action":
            error.setdefault("availableActions", []).append(value)
        elif tag == "detail":
            error.setdefault("details", {})[html.unescape(key)] = value
        elif tag == "retry_after":
            error["retryAfter"] = int(value.split()[0])
    default = defaults.get(error["code"]) or {}
    return {
        "kind": "tool_error", "code": error["code"], "message": error["message"], "severity": severity,
        "category": default.get("category"), "retryable": default.get("retryable", False),
        "recovery": error.get("suggestion", default.get("recovery")), "error": error,
    }  # fmt: skip
