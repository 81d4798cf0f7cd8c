"""Puts the component into the wheel and sdist as mcp_envelope/mcp_envelope.wasm:
the package folder's copy when it holds one (an sdist, or a copy made by hand),
else the clone's build/mcp-envelope.wasm. With neither, the build stops at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGED = Path("src/mcp_envelope/mcp_envelope.wasm")
BUILT = Path("../../build/mcp-envelope.wasm")


class ComponentHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        if (root / PACKAGED).is_file():
            source = root / PACKAGED
        elif (root / BUILT).is_file():
            source = (root / BUILT).resolve()
        else:
            raise RuntimeError(
                f"mcp-envelope: no component to package: neither {PACKAGED} nor {BUILT} exists "
                f"(relative to {root}). Build it first with scripts/build-component, from the repository root."
            )
        target = "mcp_envelope/mcp_envelope.wasm" if self.target_name == "wheel" else str(PACKAGED)
        build_data["force_include"][str(source)] = target
