"""The agent host's side: what to do with a tool's result (`decide`), the host loop's step and a call that recovers
on its own, and the OpenTelemetry span attributes of a result (docs/decide.md, docs/host-loop.md,
docs/telemetry.md). Each name is defined in its own module; this one gathers them."""

from .envelope import Decision, decide
from .host_loop import HostBudget, Recovered, call_tool_with_recovery, host_step
from .telemetry import span_attributes

__all__ = ["Decision", "HostBudget", "Recovered", "call_tool_with_recovery", "decide", "host_step", "span_attributes"]
