// One function per function of the WIT package, on the process's runtime: JSON
// text in, the core's exact text out, a refusal as *SpecError. Each function's
// meaning is documented on its WIT line; those of server, agent and contract
// compile the full module on first use.

package raw

import (
	"context"
	"fmt"
)

func format(name string) (uint32, error) {
	for i, f := range Formats {
		if f == name {
			return uint32(i), nil
		}
	}
	return 0, fmt.Errorf("mcp-envelope: unknown format %q: use \"xml\", \"json\" or \"text\"", name)
}

func callDefault(name string, args ...any) (string, bool, error) {
	rt, err := Default()
	if err != nil {
		return "", false, err
	}
	return rt.Call(context.Background(), name, args...)
}

// Request calls an export that takes one JSON request (every export but
// canonical-codes, render, call-tool-result, protocol-error, error-of-result and
// the two that take nothing) by its WIT name.
func Request(name string, request string) (string, error) {
	if e := exportsByName[name]; e == nil || e.shape != (shape{paramsText, resultStringOrError}) {
		return "", fmt.Errorf("mcp-envelope: %s@%s has no function %q taking one request", Package, Version, name)
	}
	text, _, err := callDefault(name, request)
	return text, err
}

// CanonicalCodes calls `canonical-codes`.
func CanonicalCodes() ([]string, error) {
	rt, err := Default()
	if err != nil {
		return nil, err
	}
	return rt.codes(context.Background(), "canonical-codes")
}

// Render calls `render`; format is "xml", "json" or "text".
func Render(spec, format string) (string, error) { return rendering("render", spec, format) }

// CallToolResult calls `call-tool-result`; format is "xml", "json" or "text".
func CallToolResult(spec, format string) (string, error) {
	return rendering("call-tool-result", spec, format)
}

func rendering(name, spec, formatName string) (string, error) {
	f, err := format(formatName)
	if err != nil {
		return "", err
	}
	text, _, err := callDefault(name, spec, f)
	return text, err
}

// ProtocolError calls `protocol-error`; kind is one of ProtocolErrorKinds, data an error spec or nil.
func ProtocolError(kind, message string, data *string) (string, error) {
	for i, k := range ProtocolErrorKinds {
		if k == kind {
			text, _, err := callDefault("protocol-error", uint32(i), message, data)
			return text, err
		}
	}
	return "", fmt.Errorf("mcp-envelope: unknown protocol error kind %q", kind)
}

// ErrorOfResult calls `error-of-result`: the outcome JSON and true for an
// error result, "" and false for a result that is not one.
func ErrorOfResult(toolResult string) (string, bool, error) {
	return callDefault("error-of-result", toolResult)
}

// IdempotencyKeyArgument calls `idempotency-key-argument`.
func IdempotencyKeyArgument() (string, error) {
	text, _, err := callDefault("idempotency-key-argument")
	return text, err
}

// CompareAndSetScript calls `compare-and-set-script`.
func CompareAndSetScript() (string, error) {
	text, _, err := callDefault("compare-and-set-script")
	return text, err
}

// CodeDefaults calls `code-defaults`.
func CodeDefaults(request string) (string, error) { return Request("code-defaults", request) }

// Limits calls `limits`.
func Limits(request string) (string, error) { return Request("limits", request) }

// ExceptionResult calls `exception-result`.
func ExceptionResult(request string) (string, error) { return Request("exception-result", request) }

// UpstreamError calls `upstream-error`.
func UpstreamError(request string) (string, error) { return Request("upstream-error", request) }

// AccessError calls `access-error`.
func AccessError(request string) (string, error) { return Request("access-error", request) }

// EmptyResult calls `empty-result`.
func EmptyResult(request string) (string, error) { return Request("empty-result", request) }

// UnknownTool calls `unknown-tool`.
func UnknownTool(request string) (string, error) { return Request("unknown-tool", request) }

// UserError calls `user-error`.
func UserError(request string) (string, error) { return Request("user-error", request) }

// HandlerResult calls `handler-result`.
func HandlerResult(request string) (string, error) { return Request("handler-result", request) }

// RenderPartial calls `render-partial`.
func RenderPartial(request string) (string, error) { return Request("render-partial", request) }

// PartialResult calls `partial-result`.
func PartialResult(request string) (string, error) { return Request("partial-result", request) }

// PartialLimits calls `partial-limits`.
func PartialLimits(request string) (string, error) { return Request("partial-limits", request) }

// RenderValidation calls `render-validation`.
func RenderValidation(request string) (string, error) { return Request("render-validation", request) }

// ValidationResult calls `validation-result`.
func ValidationResult(request string) (string, error) { return Request("validation-result", request) }

// ReadEnvelope calls `read-envelope`.
func ReadEnvelope(request string) (string, error) { return Request("read-envelope", request) }

// ContractLock calls `contract-lock`.
func ContractLock(request string) (string, error) { return Request("contract-lock", request) }

// ContractDiff calls `contract-diff`.
func ContractDiff(request string) (string, error) { return Request("contract-diff", request) }

// Decide calls `decide`.
func Decide(request string) (string, error) { return Request("decide", request) }

// AnswerForRevision calls `answer-for-revision`.
func AnswerForRevision(request string) (string, error) {
	return Request("answer-for-revision", request)
}

// HostStep calls `host-step`.
func HostStep(request string) (string, error) { return Request("host-step", request) }

// SpanAttributes calls `span-attributes`.
func SpanAttributes(request string) (string, error) { return Request("span-attributes", request) }

// Backoff calls `backoff`.
func Backoff(request string) (string, error) { return Request("backoff", request) }

// LedgerKey calls `ledger-key`.
func LedgerKey(request string) (string, error) { return Request("ledger-key", request) }

// LedgerFailure calls `ledger-failure`.
func LedgerFailure(request string) (string, error) { return Request("ledger-failure", request) }

// LedgerObserve calls `ledger-observe`.
func LedgerObserve(request string) (string, error) { return Request("ledger-observe", request) }

// IdempotencyKey calls `idempotency-key`.
func IdempotencyKey(request string) (string, error) { return Request("idempotency-key", request) }

// IdempotencyBegin calls `idempotency-begin`.
func IdempotencyBegin(request string) (string, error) { return Request("idempotency-begin", request) }

// IdempotencyFinish calls `idempotency-finish`.
func IdempotencyFinish(request string) (string, error) { return Request("idempotency-finish", request) }

// AfterTrap calls `after-trap`.
func AfterTrap(request string) (string, error) { return Request("after-trap", request) }
