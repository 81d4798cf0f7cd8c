"""Packaging: the wheel holds both components (envelope.wasm, full.wasm) and the
type marker, installs into a fresh virtual environment, and renders the seed
example there, and a server's answer on the full component."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel scripts/test-python built (MCP_ENVELOPE_WHEEL), else one built here."""
    given = os.environ.get("MCP_ENVELOPE_WHEEL")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(PACKAGE_DIR)],
        check=True,
        capture_output=True,
    )
    [built] = out.glob("mcp_envelope-*.whl")
    return built


def test_the_wheel_ships_both_components_and_the_type_marker(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        metadata = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert {"mcp_envelope/py.typed", "mcp_envelope/__init__.py"} <= names
    assert sorted(n for n in names if n.endswith(".wasm")) == ["mcp_envelope/envelope.wasm", "mcp_envelope/full.wasm"]
    assert not any("tests/" in n or n.endswith(".pyc") for n in names)
    assert "Requires-Dist: wasmtime>=50.0.1" in metadata
    assert "Requires-Python: >=3.10" in metadata
    # PEP 639: the licence expression and both texts.
    assert "License-Expression: MIT OR Apache-2.0" in metadata
    assert "License-File: LICENSE-MIT" in metadata and "License-File: LICENSE-APACHE" in metadata
    licenses = {n.split(".dist-info/licenses/", 1)[1] for n in names if ".dist-info/licenses/" in n}
    assert licenses == {"LICENSE-MIT", "LICENSE-APACHE"}


def fresh_venv(tmp_path: Path) -> Path:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


PIP = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]


def test_the_wheel_installs_in_a_fresh_venv_and_renders_the_seed(wheel, tmp_path, seed_invoice):
    python = fresh_venv(tmp_path)
    subprocess.run([str(python), *PIP, "-c", str(PACKAGE_DIR / "requirements-runtime.txt"), str(wheel)], check=True)
    renders_the_seed(python, tmp_path, seed_invoice)
    # The entry points beside the front need no extra; the full component answers there.
    entries = "import mcp_envelope.server, mcp_envelope.agent, mcp_envelope.contract, mcp_envelope.raw\n"
    entries += "print(mcp_envelope.server.forbidden('refund', 'order A-8812')['content'][0]['text'])"
    done = subprocess.run([str(python), "-c", entries], check=True, capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout.startswith('<tool_error code="FORBIDDEN" severity="error">')
    # No framework installed: each integration's import names its extra.
    for module, framework, extra in [
        ("mcp_server", "mcp", "mcp"), ("fastmcp", "fastmcp", "fastmcp"), ("redis", "redis", "redis"),
        ("langchain", "langchain_mcp_adapters", "langchain"), ("pydantic_ai", "pydantic_ai", "pydantic-ai"),
    ]:  # fmt: skip
        done = subprocess.run([str(python), "-c", f"import mcp_envelope.{module}"], capture_output=True, text=True,
                              cwd=tmp_path)  # fmt: skip
        assert done.returncode == 1
        assert done.stderr.endswith(
            f"ModuleNotFoundError: mcp_envelope.{module} needs the '{framework}' package, which is not installed: "
            f"pip install 'mcp-envelope[{extra}]'\n"
        )


def test_the_extras_name_their_frameworks_and_the_package_imports_none(wheel, tmp_path):
    with zipfile.ZipFile(wheel) as z:
        metadata = next(z.read(n).decode() for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    assert "Provides-Extra: mcp\nRequires-Dist: mcp!=2.0.*,!=2.1.*,!=2.2.*,<3,>=1.30; extra == 'mcp'" in metadata
    assert "Provides-Extra: fastmcp\nRequires-Dist: fastmcp<5,>=4.2.3; extra == 'fastmcp'" in metadata
    assert "Provides-Extra: redis\nRequires-Dist: redis<9,>=5; extra == 'redis'" in metadata
    assert (
        "Provides-Extra: langchain\nRequires-Dist: langchain-mcp-adapters<0.4,>=0.3.2; extra == 'langchain'\n"
        "Requires-Dist: langchain<2,>=1.5.2; extra == 'langchain'"
    ) in metadata
    assert (
        "Provides-Extra: pydantic-ai\nRequires-Dist: pydantic-ai-slim[mcp]<3,>=2.68.0; extra == 'pydantic-ai'"
        in metadata
    )
    # Here both frameworks are installed; importing the package loads neither.
    script = (
        "import sys, mcp_envelope\n"
        "mcp_envelope.render({'code': 'X', 'message': 'y'})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'fastmcp', 'mcp_types', 'pydantic_ai', 'langchain_mcp_adapters')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert done.stdout == "[]\n"


def test_pip_install_from_the_clone_takes_the_built_component(tmp_path, seed_invoice):
    """`pip install ./bindings/python` after scripts/build-component: the build hook puts both components in."""
    assert not list((PACKAGE_DIR / "src/mcp_envelope").glob("*.wasm")), "a stale copy in the package folder"
    python = fresh_venv(tmp_path)
    subprocess.run([str(python), *PIP, "-r", str(PACKAGE_DIR / "requirements-runtime.txt")], check=True)
    subprocess.run([str(python), *PIP, "--no-deps", str(PACKAGE_DIR)], check=True)
    renders_the_seed(python, tmp_path, seed_invoice)


@pytest.mark.parametrize("present", [(), ("envelope.wasm",)], ids=["neither", "the envelope one alone"])
def test_a_build_without_both_components_stops_and_names_the_script(tmp_path, present):
    """A copy of the package folder with neither component, or the envelope one alone, beside it, and no build/
    two levels up."""
    copy = tmp_path / "a" / "b"
    shutil.copytree(
        PACKAGE_DIR, copy, ignore=shutil.ignore_patterns(".venv*", "dist", "build", "tests", "bench", "*.wasm")
    )
    for name in present:
        shutil.copy(Path(__file__).resolve().parents[3] / "build" / name, copy / "src/mcp_envelope" / name)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path / "out"), str(copy)],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    missing = "full.wasm" if present else "envelope.wasm"
    said = done.stderr + done.stdout
    assert "no component to package" in said and f"src/mcp_envelope/{missing} nor ../../build/{missing}" in said
    assert "scripts/build-component" in said


def renders_the_seed(python: Path, tmp_path: Path, seed_invoice) -> None:
    venv = python.parents[1]
    script = (
        "import json, sys, mcp_envelope\n"
        "print(mcp_envelope.__file__)\n"
        "sys.stdout.write(mcp_envelope.render(json.loads(sys.argv[1])))\n"
    )
    done = subprocess.run(
        [str(python), "-c", script, json.dumps(seed_invoice["spec"])],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the source tree: the import must come from the venv
    )
    location, _, rendered = done.stdout.partition("\n")
    assert Path(location).is_relative_to(venv)
    assert rendered == seed_invoice["xml"]
    assert done.stderr == ""
