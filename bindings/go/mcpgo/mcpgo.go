// Package mcpgo puts mcp-envelope into a server on mark3labs/mcp-go: one tool
// handler middleware checks a call's arguments against the tool's input
// schema, answering a failure with the core's <validation_error>, and turns
// what a handler failed with (an error, a panic) into the envelope the core
// decides, sent as a result the model reads instead of mcp-go's JSON-RPC
// internal error.
//
//	s := server.NewMCPServer("billing", "1.0.0",
//		server.WithToolHandlerMiddleware(mcpgo.Middleware(options)), mcpgo.UnknownTool(options))
//
// A handler returns &envelope.ToolError{...} for its own failures; any other
// error or a panic is classified by its Go type (docs/handler-outcomes.md). A
// result the handler returns is sent as it is, and tools/list is left alone.
// mcp-go answers a call of an unknown tool before any middleware runs; the
// UnknownTool option routes it to the core's unknown-tool answer.
package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/arguments"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/outcome"
)

// Options are the server's choices: format, locale, thrown messages, the log, the ledger.
type Options = outcome.Options

// Middleware is the tool handler middleware. A call's arguments are checked
// against the tool's input schema before its handler runs, and a failure is
// answered with the core's <validation_error>; with a Ledger, every tool
// result goes through it.
func Middleware(options Options) server.ToolHandlerMiddleware {
	// mcp-go wraps the handler anew on every call: the compiled schemas are kept here.
	checked := &arguments.Schemas{}
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		enveloped := envelopedHandler(next, options, checked)
		if options.Ledger == nil {
			return enveloped
		}
		return func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ctx, noStep := outcome.WithLedgerStep(ctx)
			result, err := enveloped(ctx, request)
			// An unknown tool's answer (UnknownTool) goes through no ledger, as in gosdk.
			if err != nil || result == nil || request.Params.Name == unknownToolName || noStep.Load() {
				return result, err
			}
			return observed(request, result, options)
		}
	}
}

// NoteLedgerStep passes on, from a tool handler, the ledger step the core
// named for an idempotency store's answer (idempotency-begin's "ledger"):
// with "none" (a replay, the in-progress CONFLICT, the store's SERVER_BUSY),
// the result the handler returns is sent as it is and the tool's streak is
// left alone. ctx is the handler's.
func NoteLedgerStep(ctx context.Context, ledger string) { outcome.NoteLedgerStep(ctx, ledger) }

// observed is the result the ledger sends for result: a repeated failure replaced, anything else as it is.
func observed(request mcp.CallToolRequest, result *mcp.CallToolResult, options Options) (*mcp.CallToolResult, error) {
	text, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	instead, err := options.Ledger.Observe(request.Params.Name, text, rawArguments(request))
	if err != nil || instead == nil {
		return result, err
	}
	return toResult(instead)
}

// envelopedHandler is next behind the arguments' check, with its failures
// answered as the core decides.
func envelopedHandler(next server.ToolHandlerFunc, options Options, checked *arguments.Schemas) server.ToolHandlerFunc {
	return func(ctx context.Context, request mcp.CallToolRequest) (result *mcp.CallToolResult, err error) {
		defer func() {
			if p := outcome.Recovered(recover()); p != nil {
				result, err = answer(request, p, options)
			}
		}()
		if schema := inputSchema(ctx, request.Params.Name); schema != nil {
			refused, err := checked.Check(request.Params.Name, schema, rawArguments(request))
			if err != nil {
				return nil, err
			}
			if refused != nil {
				return toResult(refused)
			}
		}
		result, err = next(ctx, request)
		if err == nil || asksTheClient(err) {
			return result, err
		}
		return answer(request, err, options)
	}
}

// asksTheClient is an error that is a request to the client (a URL
// elicitation the call needs, a missing client capability), passed on.
func asksTheClient(err error) bool {
	var url mcp.URLElicitationRequiredError
	var urlPointer *mcp.URLElicitationRequiredError
	var capability mcp.MissingRequiredClientCapabilityError
	return errors.As(err, &url) || errors.As(err, &urlPointer) || errors.As(err, &capability)
}

func answer(request mcp.CallToolRequest, failure any, options Options) (*mcp.CallToolResult, error) {
	text, err := outcome.Result(request.Params.Name, rawArguments(request), failure, options)
	if err != nil {
		return nil, err
	}
	return toResult(text)
}

// rawArguments is the call's arguments as the client sent them.
func rawArguments(request mcp.CallToolRequest) json.RawMessage {
	arguments := request.Params.RawArguments
	if len(arguments) == 0 && request.Params.Arguments != nil {
		arguments, _ = json.Marshal(request.Params.Arguments)
	}
	return arguments
}

func toResult(text json.RawMessage) (*mcp.CallToolResult, error) {
	var result mcp.CallToolResult
	if err := json.Unmarshal(text, &result); err != nil {
		return nil, fmt.Errorf("mcp-envelope: the core's result does not fit mcp-go's CallToolResult: %w", err)
	}
	return &result, nil
}
