"""A scripted agent, not a language model: the Python twin of demo/ts/agent.mjs. It plays demo/plan.json against a
billing server over stdio twice, and writes what happened as JSON: "model alone" (each answer is a model turn; a
failed answer is sent again as it was, as models do, up to three turns) and "host loop" (each call goes through
`call_tool_with_recovery`, the core's host-step: the host waits out what is transient within its budget and escalates
what it cannot resolve; only what the model must fix comes back to it, which sends it again as it was, up to three
turns). Each run starts the server afresh. demo/compare.mjs (--agent) scores both agents' reports alike.

    python demo/python/agent.py --plan demo/plan.json -- COMMAND [ARGS...]
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from mcp_envelope.agent import call_tool_with_recovery

TURNS = 3


async def alone(client: Client, call: dict[str, Any]) -> dict[str, Any]:
    """One call as the model alone gets it: `done` for a success, `failed` for anything else."""
    try:
        result = await client.call_tool(call["tool"], call.get("arguments") or {})
    except MCPError:
        return {"then": "failed", "calls": 1}
    return {"then": "failed" if result.is_error else "done", "calls": 1}


async def with_host_loop(client: Client, call: dict[str, Any], tools: dict[str, Any]) -> dict[str, Any]:
    """One call through the host loop: `done`, `to-model` or `escalate`, and how many calls the host made."""
    outcome = await call_tool_with_recovery(client, call["tool"], call.get("arguments") or {}, tool=tools.get(call["tool"]))
    return {"then": outcome["then"], "calls": len(outcome["tried"])}


async def play(mode: str, plan: dict[str, Any], command: list[str]) -> list[dict[str, Any]]:
    server = StdioServerParameters(command=command[0], args=command[1:])
    rows = []
    async with Client(server, mode="legacy") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        for call in plan["calls"]:
            turns: list[dict[str, Any]] = []
            while len(turns) < TURNS:
                turn = await (alone(client, call) if mode == "alone" else with_host_loop(client, call, tools))
                turns.append(turn)
                # The model has its answer, or the host escalated: the run of this call ends.
                if turn["then"] in ("done", "escalate"):
                    break
            rows.append({"name": call["name"], "expected": call["expect"]["branch"], "turns": turns})
    return rows


def main(argv: list[str]) -> None:
    if len(argv) < 4 or argv[0] != "--plan" or argv[2] != "--":
        sys.exit("usage: python demo/python/agent.py --plan PLAN -- COMMAND [ARGS...]")
    with open(argv[1], encoding="utf-8") as f:
        plan = json.load(f)
    command = argv[3:]

    async def both() -> dict[str, Any]:
        return {"agent": "python", "command": command, "alone": await play("alone", plan, command),
                "hostLoop": await play("host-loop", plan, command)}  # fmt: skip

    print(json.dumps(anyio.run(both)))


if __name__ == "__main__":
    main(sys.argv[1:])
