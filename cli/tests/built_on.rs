//! `mcp-envelope audit -- COMMAND` names the MCP API the server's source is
//! built on, and the line that wraps it, in the text and JSON reports: the
//! command is resolved to its entry file and that file's imports are read.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The handshake and an empty tool list, answered by hand over stdio in
/// Node's standard library: the audit reads a server's imports and never
/// runs them for this, so the fixtures need no SDK installed and may not
/// load one.
const JS_SERVE: &str = r#"
const readline = require('node:readline');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  const result =
    method === 'initialize'
      ? { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'fixture', version: '1.0.0' } }
      : { tools: [] };
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
});
"#;

/// A server built on the TypeScript SDK's low-level Server, as TypeScript
/// compiled to CommonJS imports it.
const JS_LOW_LEVEL: &str = r#"
let Server;
try {
  ({ Server } = require('@modelcontextprotocol/sdk/server/index.js'));
} catch {}
"#;

/// A server run as `python3 -m lowlevel_fixture`, its import of the SDK's
/// low-level Server in a module of its own package, as `mcp-server-sqlite` has it.
const PY_MAIN: &str = "from .server import serve\n\nserve()\n";
const PY_SERVER: &str = r#"import json
import sys

try:
    from mcp.server.lowlevel import NotificationOptions, Server
except ImportError:
    pass


def serve() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        if message["method"] == "initialize":
            result = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fixture", "version": "1.0.0"},
            }
        else:
            result = {"tools": []}
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
"#;

/// A fresh folder holding the fixtures.
fn fixtures() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-envelope-built-on-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("lowlevel_fixture")).unwrap();
    std::fs::write(dir.join("server.cjs"), format!("{JS_LOW_LEVEL}{JS_SERVE}")).unwrap();
    std::fs::write(dir.join("plain.cjs"), JS_SERVE).unwrap();
    std::fs::write(dir.join("lowlevel_fixture/__init__.py"), "").unwrap();
    std::fs::write(dir.join("lowlevel_fixture/__main__.py"), PY_MAIN).unwrap();
    std::fs::write(dir.join("lowlevel_fixture/server.py"), PY_SERVER).unwrap();
    dir
}

/// The audit with no calls, run in `dir`: its exit status, stderr and report.
fn audit(dir: &Path, extra: &[&str], command: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
        .args(["audit", "--no-probes", "--timeout", "20"])
        .args(extra)
        .arg("--")
        .args(command)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn report(command: &str, built_on: &str) -> String {
    format!(
        "\
fixture 1.0.0 ({command}), 0 tools, protocol 2025-11-25; graded by MCP 2025-11-25
{built_on}
call  channel  isError  envelope  code  stated  leaks  bytes  branch  expected  ok  spec
score: 0/0 points, 100%
"
    )
}

#[test]
fn the_report_names_the_api_a_server_imports_and_its_one_line() {
    let dir = fixtures();
    let cases = [
        (
            vec!["node", "server.cjs"],
            "built on: TypeScript SDK low-level Server, imported in server.cjs; the one line (mcp-envelope/mcp): envelopeServer(server)",
        ),
        (
            vec!["python3", "-m", "lowlevel_fixture"],
            "built on: Python SDK low-level Server, imported in lowlevel_fixture/server.py; the one line (mcp_envelope.lowlevel): server = envelope_server(Server(...))",
        ),
        // No SDK import to read: the audit says so, and runs as ever.
        (vec!["node", "plain.cjs"], "built on: unknown"),
    ];
    for (command, built_on) in cases {
        let run = audit(&dir, &[], &command);
        assert_eq!(
            run,
            (0, String::new(), report(&command.join(" "), built_on)),
            "{command:?}"
        );
    }

    let (status, _, json) = audit(&dir, &["--json"], &["python3", "-m", "lowlevel_fixture"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (status, &json["builtOn"]),
        (
            0,
            &serde_json::json!({
                "api": "Python SDK low-level Server",
                "file": "lowlevel_fixture/server.py",
                "guess": false,
                "oneLine": "server = envelope_server(Server(...))",
                "module": "mcp_envelope.lowlevel",
            })
        )
    );
    let (_, _, json) = audit(&dir, &["--json"], &["node", "plain.cjs"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["builtOn"], serde_json::Value::Null);
    std::fs::remove_dir_all(dir).unwrap();
}
