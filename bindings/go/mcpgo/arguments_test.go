package mcpgo_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/mcpgo"
)

// refund answers "refunded" whatever it is given.
func refund(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText("refunded"), nil
}

func validationError(action, field string) string {
	return "<validation_error action=\"" + action + "\">\n  " + field + "\n" +
		"  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n" +
		"</validation_error>"
}

func wrapped() *server.MCPServer {
	options := mcpgo.Options{Log: func(string) {}}
	return server.NewMCPServer("billing", "1.0.0",
		server.WithToolHandlerMiddleware(mcpgo.Middleware(options)), mcpgo.UnknownTool(options))
}

func TestARawInputSchemaIsTheOneChecked(t *testing.T) {
	s := wrapped()
	s.AddTool(mcp.NewToolWithRawSchema("refund", "Refund an amount",
		json.RawMessage(`{"type":"object","properties":{"amount":{"type":"integer","minimum":1}},"required":["amount"]}`)), refund)
	c := connect(t, s)
	got := call(t, c, "refund", map[string]any{"amount": 0})
	want := validationError("refund", `<field name="amount">Too small. You sent: 0. Expected at least 1.</field>`)
	if !got.IsError || text(got) != want {
		t.Fatalf("got %v %q, want %q", got.IsError, text(got), want)
	}
	if got := call(t, c, "refund", map[string]any{"amount": 5}); got.IsError || text(got) != "refunded" {
		t.Fatalf("a fitting call got %v %q", got.IsError, text(got))
	}
	// The tool registered again: its new schema is the one checked.
	s.AddTool(mcp.NewTool("refund", mcp.WithNumber("amount", mcp.Required(), mcp.Max(10))), refund)
	got = call(t, c, "refund", map[string]any{"amount": 50})
	want = validationError("refund", `<field name="amount">Too large. You sent: 50. Expected at most 10.</field>`)
	if !got.IsError || text(got) != want {
		t.Fatalf("re-registered: got %v %q, want %q", got.IsError, text(got), want)
	}
}

func TestASchemaThatDoesNotCompileLetsTheCallThrough(t *testing.T) {
	s := wrapped()
	s.AddTool(mcp.NewToolWithRawSchema("refund", "Refund an amount",
		json.RawMessage(`{"type":"object","properties":{"amount":{"type":"money"}}}`)), refund)
	got := call(t, connect(t, s), "refund", map[string]any{"amount": "ten"})
	if got.IsError || text(got) != "refunded" {
		t.Fatalf("got %v %q", got.IsError, text(got))
	}
}

// A session's own tool is called instead of the server's of the same name,
// so its schema is the one checked. mcp-go's in-process session holds no
// tools of its own: this runs over Streamable HTTP.
func TestASessionsOwnToolIsCheckedAgainstItsSchema(t *testing.T) {
	s := wrapped()
	s.AddTool(mcp.NewTool("refund", mcp.WithString("invoice", mcp.Required())), refund)
	httpServer := httptest.NewServer(server.NewStreamableHTTPServer(s))
	defer httpServer.Close()
	c, err := client.NewStreamableHttpClient(httpServer.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	initialize := mcp.InitializeRequest{}
	initialize.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1.0.0"}
	// A revision with sessions: a modern request is served by a session of its own.
	initialize.Params.ProtocolVersion = "2025-11-25"
	if _, err := c.Initialize(ctx, initialize); err != nil {
		t.Fatal(err)
	}
	if err := s.AddSessionTool(c.GetSessionId(), mcp.NewTool("refund", mcp.WithNumber("cents", mcp.Required())), refund); err != nil {
		t.Fatal(err)
	}
	got := call(t, c, "refund", map[string]any{"invoice": "inv_1"})
	want := validationError("refund", `<field name="cents">Missing required field. You sent: nothing. Expected a number.</field>`)
	if !got.IsError || text(got) != want {
		t.Fatalf("got %v %q, want %q", got.IsError, text(got), want)
	}
	if got := call(t, c, "refund", map[string]any{"cents": 100}); got.IsError || text(got) != "refunded" {
		t.Fatalf("a fitting call got %v %q", got.IsError, text(got))
	}
}
