package mcpgo

// mcp-go checks no arguments unless a server asks it to
// (server.WithInputSchemaValidation, which words its failures itself), so the
// middleware checks them (internal/arguments) against the schema tools/list
// publishes for the tool, found in the server's own registry as mcp-go finds
// the tool it calls.

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/server"
)

// inputSchema is the inputSchema tools/list publishes for the tool called
// name: the session's own tool first, then the server's, as mcp-go looks a
// call's tool up. nil when neither has it (the handler decides then), and for
// the tool an unknown tool's call is routed to (UnknownTool), whose answer
// takes no arguments.
func inputSchema(ctx context.Context, name string) json.RawMessage {
	if name == unknownToolName {
		return nil
	}
	var tool *server.ServerTool
	if session, ok := server.ClientSessionFromContext(ctx).(server.SessionWithTools); ok {
		if own, ok := session.GetSessionTools()[name]; ok {
			tool = &own
		}
	}
	if s := server.ServerFromContext(ctx); tool == nil && s != nil {
		tool = s.GetTool(name)
	}
	if tool == nil {
		return nil
	}
	// The schema as mcp-go writes it for tools/list: RawInputSchema when the
	// author gave one, else the structured InputSchema.
	text, err := json.Marshal(tool.Tool)
	if err != nil {
		return nil
	}
	var listed struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if json.Unmarshal(text, &listed) != nil || string(listed.InputSchema) == "null" {
		return nil
	}
	return listed.InputSchema
}
