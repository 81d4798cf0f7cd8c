// Package gosdk puts mcp-envelope into a server on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): one receiving middleware turns what
// a tool handler failed with into the envelope the core decides, and answers a
// call of an unknown tool as the core's unknown-tool says.
//
//	server.AddReceivingMiddleware(gosdk.Middleware(gosdk.Options{}))
//
// A handler returns &envelope.ToolError{...} for its own failures; any other
// error, a panic or a JSON-RPC error it returns is classified by its Go type
// (docs/handler-outcomes.md). A result the handler returns is sent as it is,
// and tools/list is left alone.
package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/arguments"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/outcome"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options are the server's choices: format, locale, thrown messages, the unknown tool's answer, the log.
type Options = outcome.Options

// The JSON-RPC errors that ask the client itself to act (a URL elicitation the
// call needs, a missing client capability): requests, not failures, passed on.
var clientActions = map[int64]bool{-32042: true, -32021: true}

// Middleware is the receiving middleware; it acts on tools/call only. A
// call's arguments are checked against the tool's input schema before its
// handler runs, and a failure is answered with the core's
// <validation_error> (the SDK's own check words its failures itself, as
// text the model cannot tell from a tool's); with a Ledger, every tool
// result goes through it.
func Middleware(options Options) mcp.Middleware {
	checked := &arguments.Schemas{}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			if options.Ledger == nil {
				result, err, _ := toolCall(ctx, next, call, options, checked)
				return result, err
			}
			ctx, noStep := outcome.WithLedgerStep(ctx)
			result, err, listed := toolCall(ctx, next, call, options, checked)
			if err != nil || !listed || noStep.Load() {
				return result, err
			}
			return observed(call, result, options)
		}
	}
}

// NoteLedgerStep passes on, from a tool handler, the ledger step the core
// named for an idempotency store's answer (idempotency-begin's "ledger"):
// with "none" (a replay, the in-progress CONFLICT, the store's SERVER_BUSY),
// the result the handler returns is sent as it is and the tool's streak is
// left alone, as no failure of the call itself. ctx is the handler's.
func NoteLedgerStep(ctx context.Context, ledger string) { outcome.NoteLedgerStep(ctx, ledger) }

// toolCall is the call's answer, and whether it is of a listed tool (an
// unknown tool's answer goes through no ledger).
func toolCall(ctx context.Context, next mcp.MethodHandler, call *mcp.CallToolRequest, options Options, checked *arguments.Schemas) (result mcp.Result, err error, listed bool) {
	defer func() {
		if p := outcome.Recovered(recover()); p != nil {
			result, err = answer(call, p, options)
		}
	}()
	tools, err := listTools(ctx, next, call)
	if err != nil {
		return nil, err, false
	}
	tool := findTool(tools, call.Params.Name)
	if tool == nil {
		result, err = unknownTool(tools, call, options)
		return result, err, false
	}
	if schema, err := json.Marshal(tool.InputSchema); err == nil && tool.InputSchema != nil {
		refused, err := checked.Check(call.Params.Name, schema, call.Params.Arguments)
		if err != nil {
			return nil, err, true
		}
		if refused != nil {
			result, err = toResult(refused)
			return result, err, true
		}
	}
	result, err = next(ctx, "tools/call", call)
	result, err = settle(ctx, next, call, result, err, options)
	return result, err, true
}

// observed is the result the ledger sends for result: a repeated failure
// replaced, anything else as it is.
func observed(call *mcp.CallToolRequest, result mcp.Result, options Options) (mcp.Result, error) {
	res, ok := result.(*mcp.CallToolResult)
	if !ok || res == nil {
		return result, nil
	}
	text, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	instead, err := options.Ledger.Observe(call.Params.Name, text, call.Params.Arguments)
	if err != nil {
		return nil, err
	}
	if instead == nil {
		return result, nil
	}
	return toResult(instead)
}

func findTool(tools []*mcp.Tool, name string) *mcp.Tool {
	for _, tool := range tools {
		if tool.Name == name {
			return tool
		}
	}
	return nil
}

func settle(ctx context.Context, next mcp.MethodHandler, call *mcp.CallToolRequest, result mcp.Result, err error, options Options) (mcp.Result, error) {
	name := call.Params.Name
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		if rpc.Code == jsonrpc.CodeInvalidParams && rpc.Message == fmt.Sprintf("unknown tool %q", name) {
			tools, err := listTools(ctx, next, call)
			if err != nil {
				return nil, err
			}
			return unknownTool(tools, call, options)
		}
		if clientActions[rpc.Code] {
			return nil, err
		}
		return answer(call, outcome.RPCError{Code: rpc.Code, Message: rpc.Message}, options)
	}
	if err != nil { // a handler added with Server.AddTool returned an error
		return answer(call, err, options)
	}
	res, ok := result.(*mcp.CallToolResult)
	if !ok || res == nil || res.GetError() == nil {
		return result, nil
	}
	// The SDK wraps a typed handler's error as a result holding its text
	// alone; a result the handler filled in itself is sent as it is.
	if text, ok := onlyText(res); ok && text == res.GetError().Error() {
		return answer(call, res.GetError(), options)
	}
	return result, nil
}

func onlyText(res *mcp.CallToolResult) (string, bool) {
	if len(res.Content) != 1 {
		return "", false
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "", false
	}
	return text.Text, true
}

// answer is the result the core makes of a failure, as the SDK's type.
func answer(call *mcp.CallToolRequest, failure any, options Options) (mcp.Result, error) {
	text, err := outcome.Result(call.Params.Name, call.Params.Arguments, failure, options)
	if err != nil {
		return nil, err
	}
	return toResult(text)
}

func toResult(text json.RawMessage) (*mcp.CallToolResult, error) {
	var result mcp.CallToolResult
	if err := json.Unmarshal(text, &result); err != nil {
		return nil, fmt.Errorf("mcp-envelope: the core's result does not fit the SDK's CallToolResult: %w", err)
	}
	return &result, nil
}

// listTools is the server's tools, listed through the same handler, so what a client would see.
func listTools(ctx context.Context, next mcp.MethodHandler, call *mcp.CallToolRequest) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	params := &mcp.ListToolsParams{}
	for {
		listed, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: call.Session, Params: params, Extra: call.Extra})
		if err != nil {
			return nil, err
		}
		page, ok := listed.(*mcp.ListToolsResult)
		if !ok {
			return nil, fmt.Errorf("mcp-envelope: tools/list gave %T", listed)
		}
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" {
			return tools, nil
		}
		params = &mcp.ListToolsParams{Cursor: page.NextCursor}
	}
}

// unknownTool answers a call of a tool the server does not list as the core's unknown-tool says.
func unknownTool(listed []*mcp.Tool, call *mcp.CallToolRequest, options Options) (mcp.Result, error) {
	tools := []string{}
	for _, tool := range listed {
		tools = append(tools, tool.Name)
	}
	rpc, result, err := outcome.Unknown(call.Params.Name, tools, options)
	if err != nil {
		return nil, err
	}
	if rpc != nil {
		return nil, &jsonrpc.Error{Code: rpc.Code, Message: rpc.Message, Data: rpc.Data}
	}
	return toResult(result)
}
