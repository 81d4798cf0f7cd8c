"""The READMEs' and docs' Python runs as written: the repository README's quick start, the Python example of each
recovery feature (one per section of docs/recovery-features.md, next to the Rust and TypeScript ones) and of the
contract diff (docs/contract-diff.md), and the package README's server for each framework, called through that
framework's own client."""

from __future__ import annotations

import json
import logging
import re
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import anyio
import pytest

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
RECOVERY_FEATURES = ROOT / "docs" / "recovery-features.md"
CONTRACT_DIFF = ROOT / "docs" / "contract-diff.md"
FEATURES = ["Size caps", "Upstream failures", "Exceptions", "Repeat ledger", "Empty results", "Partial results",
            "Permission and authentication", "Words in en and pt-BR", "ToolFailure metadata"]  # fmt: skip


def section(heading: str, document: Path = README) -> str:
    return document.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def run(code: str, where: str) -> None:
    exec(compile(code, where, "exec"), {"__name__": "readme"})


def test_the_python_quick_start_runs():
    blocks = python_blocks(section("Quick start: Python"))
    assert len(blocks) == 1, "the Python quick start has exactly one python block"
    code = blocks[0]
    assert "tool_error(" in code and "validation_error(" in code
    run(code, "README.md (Quick start: Python)")


def feature_examples() -> dict[str, list[str]]:
    parts = re.split(r"\n## (.+)\n", RECOVERY_FEATURES.read_text(encoding="utf-8"))
    return {title: python_blocks(body) for title, body in zip(parts[1::2], parts[2::2], strict=False)}


def test_each_recovery_feature_has_one_python_example():
    assert {title: len(blocks) for title, blocks in feature_examples().items()} == dict.fromkeys(FEATURES, 1)


@pytest.mark.parametrize("title", FEATURES)
def test_the_recovery_feature_example_runs(title):
    [code] = feature_examples()[title]
    run(code, f"docs/recovery-features.md ({title})")


# The package README opens with one server per framework; each runs here in the environment holding its framework
# (the mcp SDK 1.x one in .venv-mcp1: scripts/test-python runs this file's framework tests there too).
PACKAGE_README = Path(__file__).resolve().parents[1] / "README.md"
MCP1 = find_spec("mcp.server.mcpserver") is None
FRAMEWORKS = {  # heading: (the extra, the server's name in the example, the line of mcp it runs on)
    "The `mcp` SDK 2.x: `MCPServer`": ("mcp", "server", "2"),
    "The `mcp` SDK 1.x: `FastMCP`": ("mcp", "mcp", "1"),
    "FastMCP (the `fastmcp` package, 4.x)": ("fastmcp", "server", "2"),
}
HERE = [heading for heading, (_, _, line) in FRAMEWORKS.items() if (line == "1") == MCP1]


def package_section(heading: str) -> str:
    return PACKAGE_README.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def framework_examples() -> dict[str, str]:
    parts = re.split(r"\n### (.+)\n", package_section("In an MCP server"))
    return dict(zip(parts[1::2], parts[2::2], strict=False))


def test_the_package_readme_opens_with_one_server_per_framework_and_its_extra():
    readme = PACKAGE_README.read_text(encoding="utf-8")
    assert readme.index("\n## ") == readme.index("\n## In an MCP server\n")  # the first section
    examples = framework_examples()
    assert list(examples) == [*FRAMEWORKS, "What the model reads"]
    for heading, (extra, _, _) in FRAMEWORKS.items():
        assert len(python_blocks(examples[heading])) == 1, heading
        assert f"`pip install 'mcp-envelope[{extra}]'`" in examples[heading], heading


def connect(heading: str, server: object) -> Any:
    """The framework's own in-memory client, and how it calls a tool, giving the CallToolResult."""
    if heading.startswith("FastMCP"):
        import fastmcp

        client = fastmcp.Client(server)
        return client, lambda c, name, arguments: c.call_tool_mcp(name, arguments)
    if MCP1:
        from mcp.shared.memory import create_connected_server_and_client_session

        session = create_connected_server_and_client_session(server)
        return session, lambda c, name, arguments: c.call_tool(name, arguments)
    from mcp import Client

    return Client(server), lambda c, name, arguments: c.call_tool(name, arguments)


@pytest.mark.parametrize("heading", HERE)
def test_the_framework_example_runs_and_the_model_reads_what_the_readme_says(heading, caplog):
    _, name, _ = FRAMEWORKS[heading]
    namespace: dict[str, Any] = {"__name__": "readme"}  # not "__main__": the server is made, not run
    [code] = python_blocks(framework_examples()[heading])
    exec(compile(code, f"bindings/python/README.md ({heading})", "exec"), namespace)
    [reads] = re.findall(r"```text\n(.*?)\n```", framework_examples()["What the model reads"], flags=re.DOTALL)
    [unknown] = re.findall(r"```json\n(.*?)\n```", framework_examples()["What the model reads"], flags=re.DOTALL)
    steps = [("get_invoice", {"invoice_id": "inv_9"}), ("get_invoice", {"invoice_id": "42"}),
             ("get_invoice", {"invoice_id": "inv_500"})]  # fmt: skip

    async def go() -> tuple[list[str], Any]:
        client, call = connect(heading, namespace[name])
        async with client as session:
            texts = [(await call(session, tool, arguments)).content[0].text for tool, arguments in steps]
            try:
                await call(session, "get_invoices", {})
            except Exception as error:  # the SDK's MCPError (McpError in 1.x): the JSON-RPC error response
                return texts, error.error.model_dump(mode="json", exclude_none=True)
            raise AssertionError("a call of an unknown tool was answered with a result")

    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        texts, error = anyio.run(go)
    [fresh] = set(re.findall(r"err_[0-9a-f]{12}", texts[2]))
    assert "\n\n".join(texts).replace(fresh, "err_4f1c9a07d2b8") == reads
    assert error == json.loads(unknown)
    assert any(fresh in r.getMessage() and "password=hunter2" in r.getMessage() for r in caplog.records)


def test_the_contract_changes_python_example_runs():
    [code] = python_blocks(section("From code, and in each integration", CONTRACT_DIFF))
    run(code, "docs/contract-diff.md (From code, and in each integration)")
