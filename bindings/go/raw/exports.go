// Package raw calls every export of the mcp-envelope components, JSON text in
// and JSON text out, one function per function of the WIT package (wit/). The
// envelope package gives the common ones names and types; this one is for
// everything else and for callers that hold JSON already.
package raw

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"unicode/utf8"

	"github.com/tetratelabs/wazero/api"
)

type paramsShape int

const (
	paramsNone     paramsShape = iota // ()
	paramsText                        // (string)
	paramsFormat                      // (string, format)
	paramsProtocol                    // (protocol-error-kind, string, option<string>)
)

type resultShape int

const (
	resultString        resultShape = iota // string
	resultList                             // list<string>
	resultStringOrError                    // result<string, string>
	resultOptionOrError                    // result<option<string>, string>
)

type shape struct {
	params paramsShape
	result resultShape
}

// coreSignature is the core function the canonical ABI makes of a shape: each
// string a pointer and a length, an enum an i32, an option its case then its
// payload; every result here is larger than one value, so it comes back
// through a return area whose pointer the function returns.
func (s shape) coreSignature() (params, results []api.ValueType) {
	i32 := api.ValueTypeI32
	switch s.params {
	case paramsText:
		params = []api.ValueType{i32, i32}
	case paramsFormat:
		params = []api.ValueType{i32, i32, i32}
	case paramsProtocol:
		params = []api.ValueType{i32, i32, i32, i32, i32, i32}
	}
	return params, []api.ValueType{i32}
}

// wit is the shape as its WIT line writes it, parameter names aside.
func (s shape) wit() string {
	params := map[paramsShape]string{
		paramsNone: "()", paramsText: "(string)", paramsFormat: "(string, format)",
		paramsProtocol: "(protocol-error-kind, string, option<string>)",
	}[s.params]
	result := map[resultShape]string{
		resultString: "string", resultList: "list<string>", resultStringOrError: "result<string, string>",
		resultOptionOrError: "result<option<string>, string>",
	}[s.result]
	return "func" + params + " -> " + result
}

// Export is one function of the WIT package.
type Export struct {
	// Interface is the WIT interface the function is in: "envelope", "server", "agent" or "contract".
	Interface string
	Name      string
	shape     shape
}

// Signature is the export's WIT type with the parameter names left out,
// such as "func(string, format) -> result<string, string>".
func (e Export) Signature() string { return e.shape.wit() }

// CoreName is the core modules' export of the function, such as
// "mcp:envelope/envelope@1.0.0#render".
func (e Export) CoreName() string { return Package + "/" + e.Interface + "@" + Version + "#" + e.Name }

// onEnvelope tells whether the envelope module has the function; the full module has every one.
func (e Export) onEnvelope() bool { return e.Interface == "envelope" }

var (
	request  = shape{paramsText, resultStringOrError}
	rendered = shape{paramsFormat, resultStringOrError}
)

// Exports is every function the two core modules export, interface by interface
// (wit/envelope.wit, server.wit, agent.wit, contract.wit), each in its file's
// order; a test holds it to those files.
var Exports = []Export{
	{"envelope", "canonical-codes", shape{paramsNone, resultList}},
	{"envelope", "code-defaults", request},
	{"envelope", "limits", request},
	{"envelope", "render", rendered},
	{"envelope", "call-tool-result", rendered},
	{"envelope", "protocol-error", shape{paramsProtocol, resultStringOrError}},
	{"envelope", "render-partial", request},
	{"envelope", "partial-result", request},
	{"envelope", "partial-limits", request},
	{"envelope", "render-validation", request},
	{"envelope", "validation-result", request},
	{"envelope", "read-envelope", request},
	{"envelope", "error-of-result", shape{paramsText, resultOptionOrError}},
	{"envelope", "after-trap", request},
	{"server", "exception-result", request},
	{"server", "upstream-error", request},
	{"server", "access-error", request},
	{"server", "empty-result", request},
	{"server", "unknown-tool", request},
	{"server", "user-error", request},
	{"server", "handler-result", request},
	{"server", "idempotency-key-argument", shape{paramsNone, resultString}},
	{"server", "answer-for-revision", request},
	{"server", "backoff", request},
	{"server", "ledger-key", request},
	{"server", "ledger-failure", request},
	{"server", "ledger-observe", request},
	{"server", "compare-and-set-script", shape{paramsNone, resultString}},
	{"server", "idempotency-key", request},
	{"server", "idempotency-begin", request},
	{"server", "idempotency-finish", request},
	{"agent", "decide", request},
	{"agent", "host-step", request},
	{"agent", "span-attributes", request},
	{"contract", "contract-lock", request},
	{"contract", "contract-diff", request},
}

var exportsByName = func() map[string]*Export {
	byName := make(map[string]*Export, len(Exports))
	for i := range Exports {
		byName[Exports[i].Name] = &Exports[i]
	}
	return byName
}()

// Formats are the cases of the WIT enum `format`, in order: a case's index is its ABI value.
var Formats = []string{"xml", "json", "text"}

// ProtocolErrorKinds are the cases of the WIT enum `protocol-error-kind`, in order.
var ProtocolErrorKinds = []string{"parse-error", "invalid-request", "method-not-found", "invalid-params", "internal-error"}

// SpecError is the core refusing an input: Message is its exact words, the same in every host.
type SpecError struct{ Message string }

func (e *SpecError) Error() string { return e.Message }

// TrapError is a call that trapped and could not be answered: the after-trap
// policy (docs/state.md "After a trap") found no answer, or the call trapped
// again on a fresh instance (Message holds the core's words for that).
type TrapError struct {
	Message string
	// Trap is the runtime's words for the trap, when there was one.
	Trap string
}

func (e *TrapError) Error() string { return e.Message }

// LoadError is a core module that could not be loaded: not WebAssembly, or
// not the one this package was written for.
type LoadError struct{ Message string }

func (e *LoadError) Error() string { return e.Message }

var (
	processRuntime    *Runtime
	processRuntimeErr error
	processRuntimeSet sync.Once
	processMu         sync.RWMutex
)

// Default is the process's runtime, made from the embedded modules on first use
// (the full module compiled on its own first use).
func Default() (*Runtime, error) {
	processRuntimeSet.Do(func() {
		rt, err := NewRuntime(context.Background(), Options{})
		processMu.Lock()
		processRuntime, processRuntimeErr = rt, err
		processMu.Unlock()
	})
	processMu.RLock()
	defer processMu.RUnlock()
	return processRuntime, processRuntimeErr
}

// SetDefault replaces the process's runtime (tests inject faults this way) and gives back the old one.
func SetDefault(rt *Runtime) *Runtime {
	old, _ := Default()
	processMu.Lock()
	processRuntime, processRuntimeErr = rt, nil
	processMu.Unlock()
	return old
}

// Call calls one export by its WIT name with its arguments: a string for each
// string, a *string for an option<string>, a uint32 for an enum's case. It gives
// the text (Codes for a list), "" and ok false for ok(none), or a *SpecError
// with the core's words for an err. After a trap the instance is gone and a
// fresh one's `after-trap` decides: an answer in the call's own shape, or the
// call made once more; *TrapError when no answer can be made.
func (r *Runtime) Call(ctx context.Context, name string, args ...any) (text string, ok bool, err error) {
	e := exportsByName[name]
	if e == nil {
		return "", false, fmt.Errorf("mcp-envelope: %s@%s has no function %q", Package, Version, name)
	}
	got, err := r.call(ctx, e, args)
	if t, isTrap := err.(*trapped); isTrap {
		got, err = r.afterTrap(ctx, e, args, t.words)
	}
	if err != nil {
		return "", false, err
	}
	if got.refused {
		return "", false, &SpecError{Message: got.text}
	}
	return got.text, !got.none, nil
}

// codes calls an export giving a list<string>.
func (r *Runtime) codes(ctx context.Context, name string) ([]string, error) {
	got, err := r.call(ctx, exportsByName[name], nil)
	if t, isTrap := err.(*trapped); isTrap { // no answer stands in for a list: made once more
		got, err = r.call(ctx, exportsByName[name], nil)
		if again, isTrap := err.(*trapped); isTrap {
			return nil, &TrapError{Message: fmt.Sprintf("mcp-envelope: %s trapped twice: %s", name, again.words), Trap: t.words}
		}
	}
	return got.list, err
}

// afterTrap asks a fresh instance of the module that trapped what a call that trapped answers, logs its
// log line, and answers or calls once more as it says.
func (r *Runtime) afterTrap(ctx context.Context, e *Export, args []any, trap string) (value, error) {
	random := make([]byte, 6) // the core's CORRELATION_ID_RANDOM_BYTES, the same in every host
	_, _ = rand.Read(random)
	request := trapRequest(e, args, trap, hex.EncodeToString(random))
	// Asked of the module that trapped: after-trap is in both.
	p, err := r.poolFor(ctx, e)
	if err != nil {
		return value{}, err
	}
	answerText, err := r.callOn(ctx, p, exportsByName["after-trap"], []any{request})
	unanswered := func(why string) error {
		return &TrapError{
			Message: fmt.Sprintf("mcp-envelope: %s trapped (%s) and no answer could be made for it: %s", e.Name, trap, why),
			Trap:    trap,
		}
	}
	if t, isTrap := err.(*trapped); isTrap {
		return value{}, unanswered(t.words)
	}
	if answerText.refused {
		return value{}, unanswered(answerText.text)
	}
	var answer struct {
		Then   string `json:"then"`
		Answer string `json:"answer"`
		Again  string `json:"again"`
		Log    string `json:"log"`
	}
	if err := json.Unmarshal([]byte(answerText.text), &answer); err != nil {
		return value{}, unanswered(err.Error())
	}
	slog.Error(answer.Log, "component", "mcp-envelope")
	if answer.Then == "answer" {
		return value{text: answer.Answer}, nil
	}
	got, err := r.call(ctx, e, args)
	if _, isTrap := err.(*trapped); isTrap {
		return value{}, &TrapError{Message: answer.Again, Trap: trap}
	}
	return got, err
}

// trapRequest is the after-trap request: the call's own `format` argument, else
// the request's top-level `format`, `locale`, `tool` and `key` when they are
// strings of at most 256 characters (a longer one may be what trapped).
func trapRequest(e *Export, args []any, trap, random string) string {
	request := struct {
		Call   string `json:"call"`
		Trap   string `json:"trap"`
		Random string `json:"random"`
		Format string `json:"format,omitempty"`
		Locale string `json:"locale,omitempty"`
		Tool   string `json:"tool,omitempty"`
		Key    string `json:"key,omitempty"`
	}{Call: e.Name, Trap: trap, Random: random}
	if len(args) > 0 {
		if text, ok := args[0].(string); ok {
			var members map[string]any
			if json.Unmarshal([]byte(text), &members) == nil {
				member := func(key string) string {
					s, _ := members[key].(string)
					if utf8.RuneCountInString(s) > 256 {
						return ""
					}
					return s
				}
				request.Format, request.Locale, request.Tool, request.Key = member("format"), member("locale"), member("tool"), member("key")
			}
		}
	}
	if e.shape.params == paramsFormat {
		request.Format = Formats[args[1].(uint32)]
	}
	text, _ := json.Marshal(request)
	return string(text)
}
