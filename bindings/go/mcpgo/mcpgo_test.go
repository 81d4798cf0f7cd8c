package mcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/mcpgo"
)

var notFound = envelope.ToolError{
	Code:             "NOT_FOUND",
	Message:          "No invoice with that ID",
	AvailableActions: []string{"billing.list_invoices"},
}

// billing is a server with a tool for each kind of outcome.
func billing(middleware bool, options mcpgo.Options) *server.MCPServer {
	var serverOptions []server.ServerOption
	if middleware {
		serverOptions = append(serverOptions, server.WithToolHandlerMiddleware(mcpgo.Middleware(options)), mcpgo.UnknownTool(options))
	}
	s := server.NewMCPServer("billing", "1.0.0", serverOptions...)
	s.AddTool(mcp.NewTool("get_invoice", mcp.WithDescription("One invoice"), mcp.WithString("id", mcp.Required())),
		func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			switch request.GetString("id", "") {
			case "inv_1":
				return mcp.NewToolResultText("paid"), nil
			case "boom":
				panic("index out of range, password=hunter2")
			case "words":
				return nil, errors.New("Entity with name Nobody not found")
			}
			e := notFound
			return nil, &e
		})
	s.AddTool(mcp.NewTool("read_text_file", mcp.WithString("path", mcp.Required())),
		func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, err := os.ReadFile(request.GetString("path", ""))
			return nil, err
		})
	return s
}

func connect(t *testing.T, s *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	initialize := mcp.InitializeRequest{}
	initialize.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, initialize); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func call(t *testing.T, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	request := mcp.CallToolRequest{}
	request.Params.Name, request.Params.Arguments = tool, args
	result, err := c.CallTool(context.Background(), request)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return result
}

func text(result *mcp.CallToolResult) string {
	return result.Content[0].(mcp.TextContent).Text
}

func TestAToolErrorIsSentAsItsEnvelope(t *testing.T) {
	c := connect(t, billing(true, mcpgo.Options{}))
	got := call(t, c, "get_invoice", map[string]any{"id": "inv_404"})
	want, _ := envelope.Render(notFound, envelope.XML)
	if !got.IsError || text(got) != want {
		t.Fatalf("got %v %q, want the envelope %q", got.IsError, text(got), want)
	}
}

func TestAResultIsSentAsItIs(t *testing.T) {
	c := connect(t, billing(true, mcpgo.Options{}))
	if got := call(t, c, "get_invoice", map[string]any{"id": "inv_1"}); got.IsError || text(got) != "paid" {
		t.Fatalf("got %v %q", got.IsError, text(got))
	}
}

func TestTheAuthorsWordsAreAToolError(t *testing.T) {
	c := connect(t, billing(true, mcpgo.Options{Format: envelope.Text}))
	got := call(t, c, "get_invoice", map[string]any{"id": "words"})
	if !got.IsError || !strings.HasPrefix(text(got), "error_code: TOOL_ERROR") || !strings.Contains(text(got), "Entity with name Nobody not found") {
		t.Fatalf("got %q", text(got))
	}
}

func TestAPanicIsAnInternalErrorAndTheServerGoesOn(t *testing.T) {
	var lines []string
	c := connect(t, billing(true, mcpgo.Options{Log: func(line string) { lines = append(lines, line) }}))
	got := call(t, c, "get_invoice", map[string]any{"id": "boom"})
	if !got.IsError || !strings.HasPrefix(text(got), `<tool_error code="INTERNAL_ERROR"`) || strings.Contains(text(got), "hunter2") {
		t.Fatalf("got %q", text(got))
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "index out of range") {
		t.Fatalf("logged %q", lines)
	}
	if got := call(t, c, "get_invoice", map[string]any{"id": "inv_1"}); text(got) != "paid" {
		t.Fatalf("the call after a panic gave %q", text(got))
	}
}

func TestAMissingFileNamesTheArgument(t *testing.T) {
	c := connect(t, billing(true, mcpgo.Options{Log: func(string) {}}))
	got := call(t, c, "read_text_file", map[string]any{"path": "missing.txt"})
	if !strings.HasPrefix(text(got), `<tool_error code="NOT_FOUND"`) || !strings.Contains(text(got), `path "missing.txt"`) {
		t.Fatalf("got %q", text(got))
	}
}

func TestToolsListIsUnchanged(t *testing.T) {
	list := func(middleware bool) string {
		tools, err := connect(t, billing(middleware, mcpgo.Options{})).ListTools(context.Background(), mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		text, _ := json.Marshal(tools)
		return string(text)
	}
	if with, without := list(true), list(false); with != without {
		t.Fatalf("with the middleware %s, without %s", with, without)
	}
}

func TestTheLedgerShortensARepeatedFailureThenSaysStop(t *testing.T) {
	c := connect(t, billing(true, mcpgo.Options{Ledger: envelope.NewLedger(2)}))
	first, _ := envelope.Render(notFound, envelope.XML)
	want := []string{
		first,
		"<tool_error code=\"NOT_FOUND\" severity=\"error\">\n" +
			"  <message>Nothing has changed since the last attempt: the same failure again (2 in a row).</message>\n" +
			"  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>\n" +
			"</tool_error>",
		"<tool_error code=\"NOT_FOUND\" severity=\"critical\">\n" +
			"  <message>Stop retrying: this call has failed the same way 3 times in a row and nothing has changed.</message>\n" +
			"  <recovery>Do not make this call again. Tell the user what failed and that retrying did not help.</recovery>\n" +
			"</tool_error>",
		"paid",
		// The success ended the streak: the same failure is answered in full again.
		first,
	}
	for i, sent := range want {
		id := "inv_404"
		if sent == "paid" {
			id = "inv_1"
		}
		got := call(t, c, "get_invoice", map[string]any{"id": id})
		if got.IsError != (sent != "paid") || text(got) != sent {
			t.Fatalf("call %d: got %v %q, want %q", i+1, got.IsError, text(got), sent)
		}
	}
}

func TestAnUnknownToolIsTheCoresAnswer(t *testing.T) {
	var hooked []string
	hooks := &server.Hooks{}
	hooks.AddAfterCallTool(func(_ context.Context, _ any, request *mcp.CallToolRequest, _ any) {
		hooked = append(hooked, request.Params.Name)
	})
	s := server.NewMCPServer("billing", "1.0.0", server.WithHooks(hooks),
		server.WithToolHandlerMiddleware(mcpgo.Middleware(mcpgo.Options{})), mcpgo.UnknownTool(mcpgo.Options{}))
	s.AddTools(*billing(false, mcpgo.Options{}).GetTool("get_invoice"))
	c := connect(t, s)
	for _, name := range []string{"get_invoices", "~mcp-envelope.unknown-tool"} {
		got := call(t, c, name, map[string]any{"id": "inv_1"})
		want := "<tool_error code=\"UNKNOWN_ACTION\" severity=\"error\">\n" +
			"  <message>No tool named '" + name + "' on this server.</message>\n" +
			"  <recovery>Call one of the available tools instead, with the arguments its input schema asks for.</recovery>\n" +
			"  <available_actions>\n    <action>get_invoice</action>\n  </available_actions>\n" +
			"</tool_error>"
		if !got.IsError || text(got) != want {
			t.Errorf("%s: got %v %q, want %q", name, got.IsError, text(got), want)
		}
	}
	if strings.Join(hooked, ",") != "get_invoices,~mcp-envelope.unknown-tool" {
		t.Errorf("the server's hooks saw %q", hooked)
	}
}
