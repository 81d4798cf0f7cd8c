package mcpgo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/sdktest"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/mcpgo"
)

// billing is a server with a tool for each kind of outcome (sdktest).
func billing(middleware bool, options mcpgo.Options) *server.MCPServer {
	var serverOptions []server.ServerOption
	if middleware {
		serverOptions = append(serverOptions, server.WithToolHandlerMiddleware(mcpgo.Middleware(options)), mcpgo.UnknownTool(options))
	}
	s := server.NewMCPServer("billing", "1.0.0", serverOptions...)
	s.AddTool(mcp.NewTool("get_invoice", mcp.WithDescription("One invoice"), mcp.WithString("id", mcp.Required()),
		mcp.WithSchemaAdditionalProperties(false)),
		func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text, err := sdktest.Invoice(request.GetString("id", ""))
			if err != nil {
				return nil, err
			}
			return mcp.NewToolResultText(text), nil
		})
	s.AddTool(mcp.NewTool("read_text_file", mcp.WithString("path", mcp.Required())),
		func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, sdktest.ReadTextFile(request.GetString("path", ""))
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

// sdkClient is mcp-go's client as sdktest calls it.
type sdkClient struct{ c *client.Client }

func (s sdkClient) Call(t *testing.T, tool string, args map[string]any) sdktest.Answer {
	got := call(t, s.c, tool, args)
	return sdktest.Answer{IsError: got.IsError, Text: text(got)}
}

func (s sdkClient) ListTools(t *testing.T) string {
	tools, err := s.c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return sdktest.JSON(t, tools)
}

func TestWhatEveryIntegrationDoes(t *testing.T) {
	sdktest.Run(t, func(t *testing.T, wrapped bool, options mcpgo.Options) sdktest.Client {
		return sdkClient{connect(t, billing(wrapped, options))}
	})
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
