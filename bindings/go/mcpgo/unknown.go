package mcpgo

// mcp-go looks a call's tool up before any tool middleware runs and answers
// an unknown one itself (-32602, "tool 'x' not found"), and it has no
// extension point that sends a JSON-RPC error of the server's choosing: a
// handler's error becomes -32603. So the unknown tool is routed, by mcp-go's
// own hooks, to a tool this option registers and never lists, whose handler
// sends the core's unknown-tool answer in the form mcp-go can carry, the
// CallToolResult ("tool-result").

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/outcome"
)

// unknownToolName is the tool an unknown tool's call is routed to: never
// listed, and itself treated as unknown when a client calls it by name.
const unknownToolName = "~mcp-envelope.unknown-tool"

// calledHeader carries the name the client called to the routed call's handler.
const calledHeader = "Mcp-Envelope-Called-Tool"

// UnknownTool is the server option that answers a call of a tool the server
// does not list as the core's unknown-tool says, as a CallToolResult
// (isError, the UNKNOWN_ACTION envelope naming the listed tools), whatever
// Options.UnknownToolAnswer says: mcp-go sends no JSON-RPC error of a
// server's choosing. Give it after server.WithHooks, which replaces the
// hooks it adds; a tool filter must let the tool it registers through.
//
//	s := server.NewMCPServer("billing", "1.0.0",
//		server.WithToolHandlerMiddleware(mcpgo.Middleware(options)), mcpgo.UnknownTool(options))
func UnknownTool(options Options) server.ServerOption {
	return func(s *server.MCPServer) {
		hooks := s.GetHooks()
		if hooks == nil {
			hooks = &server.Hooks{}
			server.WithHooks(hooks)(s)
		}
		hooks.AddBeforeCallTool(func(ctx context.Context, _ any, request *mcp.CallToolRequest) {
			called := request.Params.Name
			if known(ctx, s, called) {
				return
			}
			header := request.Header.Clone()
			if header == nil {
				header = http.Header{}
			}
			header.Set(calledHeader, called)
			request.Header, request.Params.Name = header, unknownToolName
		})
		// The server's own hooks see the name the client called once the call
		// is answered: these run first, whenever those were added.
		restore := func(request *mcp.CallToolRequest) {
			if request.Params.Name == unknownToolName {
				request.Params.Name = request.Header.Get(calledHeader)
			}
		}
		hooks.OnAfterCallTool = slices.Insert(hooks.OnAfterCallTool, 0, func(_ context.Context, _ any, request *mcp.CallToolRequest, _ any) {
			restore(request)
		})
		hooks.OnError = slices.Insert(hooks.OnError, 0, func(_ context.Context, _ any, method mcp.MCPMethod, message any, _ error) {
			if request, ok := message.(*mcp.CallToolRequest); ok && method == mcp.MethodToolsCall {
				restore(request)
			}
		})
		hooks.AddAfterListTools(func(_ context.Context, _ any, _ *mcp.ListToolsRequest, result *mcp.ListToolsResult) {
			result.Tools = slices.DeleteFunc(result.Tools, func(tool mcp.Tool) bool { return tool.Name == unknownToolName })
		})
		tool := mcp.NewTool(unknownToolName)
		tool.InputSchema.AdditionalProperties = true
		s.AddTool(tool, func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			called := request.Header.Get(calledHeader)
			tools, err := listed(ctx, s)
			if err != nil {
				return nil, err
			}
			asked := options
			asked.UnknownToolAnswer = "tool-result"
			_, result, err := outcome.Unknown(called, tools, asked)
			if err != nil {
				return nil, err
			}
			return toResult(result)
		})
	}
}

// known is whether the server has a tool called name for this call: its own
// or the session's (mcp-go's own answers then stand), or one tools/list sends.
func known(ctx context.Context, s *server.MCPServer, name string) bool {
	if name == unknownToolName {
		return false
	}
	if s.GetTool(name) != nil {
		return true
	}
	if session, ok := server.ClientSessionFromContext(ctx).(server.SessionWithTools); ok {
		if _, ok := session.GetSessionTools()[name]; ok {
			return true
		}
	}
	tools, err := listed(ctx, s)
	return err != nil || slices.Contains(tools, name)
}

// listed is the names tools/list sends in this call's session, every page,
// asked of the server's own request handler so that its tool filters apply.
func listed(ctx context.Context, s *server.MCPServer) ([]string, error) {
	tools := []string{}
	params := map[string]any{}
	for {
		request, err := json.Marshal(map[string]any{
			"jsonrpc": mcp.JSONRPC_VERSION, "id": "mcp-envelope/tools-list", "method": mcp.MethodToolsList, "params": params,
		})
		if err != nil {
			return nil, err
		}
		response, err := json.Marshal(s.HandleMessage(ctx, request))
		if err != nil {
			return nil, err
		}
		var page struct {
			Result *struct {
				Tools      []struct{ Name string } `json:"tools"`
				NextCursor string                  `json:"nextCursor"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(response, &page); err != nil {
			return nil, err
		}
		if page.Result == nil {
			return nil, fmt.Errorf("mcp-envelope: tools/list answered %s", page.Error)
		}
		for _, tool := range page.Result.Tools {
			tools = append(tools, tool.Name)
		}
		if page.Result.NextCursor == "" {
			return tools, nil
		}
		params = map[string]any{"cursor": page.Result.NextCursor}
	}
}
