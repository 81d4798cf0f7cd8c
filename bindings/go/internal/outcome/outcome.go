// Package outcome is what every Go MCP integration does with a tool call that
// failed: it says what kind of thing the handler produced, by its Go type, and
// the core's handler-result decides the result (docs/handler-outcomes.md); an
// unknown tool is answered by the core's unknown-tool.
package outcome

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"reflect"
	"runtime/debug"
	"sync/atomic"
	"syscall"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
)

// Options are a server's choices, the same for every integration.
type Options struct {
	// Format of the envelopes; XML when empty.
	Format envelope.Format
	// Locale of the words the core writes: "en" (the default) or "pt-BR".
	Locale string
	// ThrownMessages is "shown" (the default: an error its author wrote
	// reaches the model, scrubbed) or "hidden" (INTERNAL_ERROR instead).
	ThrownMessages string
	// UnknownToolAnswer is "" (a JSON-RPC -32602 with the envelope as data,
	// the specification's answer) or "tool-result".
	UnknownToolAnswer string
	// Log receives the core's log line of a failure; slog.Error when nil.
	Log func(line string)
	// Ledger is the repeat ledger every tool result goes through (one per
	// session); none when nil.
	Ledger *envelope.Ledger
}

// RPCError is a JSON-RPC error an SDK's handler returned for the client.
type RPCError struct {
	Code    int64
	Message string
}

// Panic is a value a handler panicked with, and where.
type Panic struct {
	Value any
	Stack []byte
}

// Recovered is the Panic of a recovered value: call it as Recovered(recover()) in a defer.
func Recovered(value any) *Panic {
	if value == nil {
		return nil
	}
	return &Panic{Value: value, Stack: debug.Stack()}
}

// Result is the CallToolResult (JSON) the core makes of what a handler
// produced: an error, a *Panic, or an RPCError (the SDK's own).
func Result(tool string, arguments json.RawMessage, failure any, options Options) (json.RawMessage, error) {
	kind, withArguments := classify(failure)
	format := options.Format
	if format == "" {
		format = envelope.XML
	}
	random := make([]byte, 6)
	_, _ = rand.Read(random)
	request := map[string]any{
		"tool": tool, "outcome": kind, "format": format, "random": hex.EncodeToString(random),
	}
	if options.Locale != "" {
		request["locale"] = options.Locale
	}
	if options.ThrownMessages != "" {
		request["thrownMessages"] = options.ThrownMessages
	}
	if withArguments && len(arguments) > 0 && json.Valid(arguments) {
		request["arguments"] = arguments
	}
	text, err := json.Marshal(request)
	if err != nil {
		return nil, err
	}
	answerText, err := raw.HandlerResult(string(text))
	if err != nil {
		return nil, err
	}
	var answer struct {
		Result json.RawMessage `json:"result"`
		Log    string          `json:"log"`
	}
	if err := json.Unmarshal([]byte(answerText), &answer); err != nil {
		return nil, err
	}
	if answer.Log != "" {
		if options.Log != nil {
			options.Log(answer.Log)
		} else {
			slog.Error(answer.Log, "component", "mcp-envelope")
		}
	}
	return answer.Result, nil
}

// classify is the outcome member handler-result reads, and whether the
// call's arguments serve it (a known failure names the argument it concerns).
func classify(failure any) (map[string]any, bool) {
	switch f := failure.(type) {
	case *Panic:
		return map[string]any{"exception": fmt.Sprintf("panic: %v\n\n%s", f.Value, f.Stack)}, false
	case RPCError:
		return map[string]any{"rpcError": map[string]any{"code": f.Code, "message": f.Message}}, false
	case error:
		var spec *envelope.ToolError
		if errors.As(f, &spec) {
			return map[string]any{"error": spec}, false
		}
		if known := knownFailure(f); known != nil {
			known["exception"] = f.Error()
			return map[string]any{"known": known}, true
		}
		// The author's own words: an error made by errors.New or by
		// fmt.Errorf without %w. Libraries return types of their own, or
		// wrap what they were given.
		if reflect.TypeOf(f).String() == "*errors.errorString" {
			return map[string]any{"message": f.Error()}, false
		}
		return map[string]any{"exception": f.Error()}, false
	}
	return map[string]any{"exception": fmt.Sprint(failure)}, false
}

// The system errors whose kind the core knows (docs/thrown-errors.md), by their POSIX names.
var errnoNames = map[syscall.Errno]string{
	syscall.ENOENT: "ENOENT", syscall.ENOTDIR: "ENOTDIR", syscall.EISDIR: "EISDIR",
	syscall.EACCES: "EACCES", syscall.EPERM: "EPERM", syscall.EEXIST: "EEXIST",
	syscall.ENOTEMPTY: "ENOTEMPTY", syscall.ETIMEDOUT: "ETIMEDOUT",
	syscall.ECONNREFUSED: "ECONNREFUSED", syscall.ECONNRESET: "ECONNRESET",
	syscall.EHOSTUNREACH: "EHOSTUNREACH", syscall.ENETUNREACH: "ENETUNREACH",
}

// knownFailure reads what an error's structure says: a system error's code
// (with the path it concerns), a timeout, an unreachable host.
func knownFailure(err error) map[string]any {
	var link *os.LinkError
	var path *fs.PathError
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if name, ok := errnoNames[errno]; ok {
			known := map[string]any{"errno": name}
			if errors.As(err, &link) {
				known["path"], known["dest"] = link.Old, link.New
			} else if errors.As(err, &path) {
				known["path"] = path.Path
			}
			return known
		}
	}
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) ||
		(errors.As(err, &netErr) && netErr.Timeout()) {
		return map[string]any{"timeout": true}
	}
	var dns *net.DNSError
	var op *net.OpError
	if errors.As(err, &dns) || (errors.As(err, &op) && op.Op == "dial") {
		return map[string]any{"unreachable": true}
	}
	return nil
}

// Unknown is the core's answer to a call of a tool the server does not have:
// a JSON-RPC error (code, message, data) or, with UnknownToolAnswer
// "tool-result", a CallToolResult.
func Unknown(tool string, tools []string, options Options) (rpc *UnknownError, result json.RawMessage, err error) {
	request := map[string]any{"tool": tool, "tools": tools}
	if options.Format != "" {
		request["format"] = options.Format
	}
	if options.UnknownToolAnswer != "" {
		request["answer"] = options.UnknownToolAnswer
	}
	text, err := json.Marshal(request)
	if err != nil {
		return nil, nil, err
	}
	answerText, err := raw.UnknownTool(string(text))
	if err != nil {
		return nil, nil, err
	}
	var answer struct {
		Error  *UnknownError   `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(answerText), &answer); err != nil {
		return nil, nil, err
	}
	return answer.Error, answer.Result, nil
}

// UnknownError is the JSON-RPC error the core answers an unknown tool with.
type UnknownError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

type noLedgerStepKey struct{}

// WithLedgerStep is ctx for a tool handler, and what NoteLedgerStep sets
// through it: whether the handler's result takes no ledger step.
func WithLedgerStep(ctx context.Context) (context.Context, *atomic.Bool) {
	noStep := new(atomic.Bool)
	return context.WithValue(ctx, noLedgerStepKey{}, noStep), noStep
}

// NoteLedgerStep passes on the ledger step the core named for an
// idempotency store's answer (idempotency-begin's "ledger"): "none" marks
// the handler's result as one the ledger sends as it is.
func NoteLedgerStep(ctx context.Context, ledger string) {
	if noStep, ok := ctx.Value(noLedgerStepKey{}).(*atomic.Bool); ok && ledger == "none" {
		noStep.Store(true)
	}
}
