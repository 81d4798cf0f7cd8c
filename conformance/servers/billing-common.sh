# Sourced by conformance/servers/billing-*: serves one of the demo's billing
# servers (demo/billing.md) over MCP Streamable HTTP for scripts/conformance.
# Each demo server serves HTTP itself with `--http PORT` (its framework's own
# transport, the integration in place as over stdio); `plain` starts it with
# BILLING_ENVELOPE=off, which leaves out the integration's one line. The
# demo servers print nothing for this harness, so `listening` is said here,
# once the port accepts a connection; whatever the server prints goes to
# stderr.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# billing_usage NAME: exits with the usage line unless the arguments are `plain|wrapped PORT` or `build`.
billing_usage() {
  echo "usage: $1 plain|wrapped PORT, or $1 build" >&2
  exit 2
}

# serve_billing MODE PORT COMMAND...: runs COMMAND --http PORT until killed,
# says `listening` once the port answers, exits when the server does.
serve_billing() {
  local mode=$1 port=$2 pid
  shift 2
  [[ $port =~ ^[0-9]+$ ]] || billing_usage "$(basename "$0")"
  case $mode in
    plain) export BILLING_ENVELOPE=off ;;
    wrapped) unset BILLING_ENVELOPE ;;
    *) billing_usage "$(basename "$0")" ;;
  esac
  cd "$root"
  "$@" --http "$port" >&2 &
  pid=$!
  trap 'kill "$pid" 2>/dev/null' EXIT
  until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || { wait "$pid"; exit 1; }
    sleep 0.05
  done
  echo listening
  wait "$pid"
}

# npm_ci_demo DIR: installs a demo TypeScript server's packages as scripts/demo
# does (DIR's .npmrc installs mcp-envelope as a copy of bindings/js, so a
# rebuilt package reinstalls).
npm_ci_demo() {
  [ -f "$root/bindings/js/dist/mcp.js" ] || {
    echo "$1: bindings/js is not built (scripts/conformance builds it)" >&2
    exit 1
  }
  "$root/scripts/npm-ci-if-changed" "$1" bindings/js/dist bindings/js/generated >&2
}

# python_demo_ready: the Python demo servers run in bindings/python/.venv (the
# pinned requirements-test.txt holds every version their requirements.txt
# pins), with the wheel built from this checkout installed; it is built again
# when missing or older than the package's sources or the component.
python_demo_ready() {
  local installed
  "$root/scripts/pinned-venv" "$root/bindings/python/.venv" "$root/bindings/python/requirements-test.txt"
  installed=$(ls -d "$root"/bindings/python/.venv/lib/python3*/site-packages/mcp_envelope/__init__.py 2>/dev/null | head -n1)
  if [ -z "$installed" ] ||
    [ -n "$(find "$root/bindings/python/src" "$root/build/envelope.wasm" "$root/build/full.wasm" -newer "$installed" -print -quit 2>/dev/null)" ]; then
    "$root/scripts/build-wheel" >/dev/null
  fi
}
