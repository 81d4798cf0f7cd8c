package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/gosdk"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/sdktest"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type invoiceInput struct {
	ID string `json:"id"`
}

type pathInput struct {
	Path string `json:"path"`
}

var notFound = sdktest.NotFound

// billing is a server with a tool for each kind of outcome (sdktest).
func billing(middleware bool, options gosdk.Options) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "billing", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "get_invoice", Description: "One invoice"},
		func(ctx context.Context, req *mcp.CallToolRequest, in invoiceInput) (*mcp.CallToolResult, any, error) {
			text, err := sdktest.Invoice(in.ID)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	mcp.AddTool(server, &mcp.Tool{Name: "read_text_file", Description: "A file's text"},
		func(ctx context.Context, req *mcp.CallToolRequest, in pathInput) (*mcp.CallToolResult, any, error) {
			return nil, nil, sdktest.ReadTextFile(in.Path)
		})
	if middleware {
		server.AddReceivingMiddleware(gosdk.Middleware(options))
	}
	return server
}

func connect(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverTransport, nil); err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, clientTransport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

func call(t *testing.T, session *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	result, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return result
}

func text(result *mcp.CallToolResult) string {
	return result.Content[0].(*mcp.TextContent).Text
}

// client is the SDK's client session as sdktest calls it.
type client struct{ session *mcp.ClientSession }

func (c client) Call(t *testing.T, tool string, args map[string]any) sdktest.Answer {
	got := call(t, c.session, tool, args)
	return sdktest.Answer{IsError: got.IsError, Text: text(got)}
}

func (c client) ListTools(t *testing.T) string {
	tools, err := c.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return sdktest.JSON(t, tools)
}

func TestWhatEveryIntegrationDoes(t *testing.T) {
	sdktest.Run(t, func(t *testing.T, wrapped bool, options gosdk.Options) sdktest.Client {
		return client{connect(t, billing(wrapped, options))}
	})
}

func TestTheServersFormatAndLocale(t *testing.T) {
	session := connect(t, billing(true, gosdk.Options{Format: envelope.JSON, Locale: "pt-BR", Log: func(string) {}}))
	got := call(t, session, "get_invoice", map[string]any{"id": "inv_404"})
	want, _ := envelope.Render(notFound, envelope.JSON)
	if text(got) != want {
		t.Fatalf("got %q, want %q", text(got), want)
	}
	// The server's locale words what the core writes; a ToolError's own words are its spec's.
	got = call(t, session, "get_invoice", map[string]any{"id": "boom"})
	if !strings.Contains(text(got), `"code":"INTERNAL_ERROR"`) || !strings.Contains(text(got), "Não tente de novo") {
		t.Fatalf("got %q", text(got))
	}
}

func TestAnUnknownToolIsTheCoresAnswer(t *testing.T) {
	session := connect(t, billing(true, gosdk.Options{}))
	_, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_invoices", Arguments: map[string]any{}})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) {
		t.Fatalf("got %v, want a JSON-RPC error", err)
	}
	wantText, _ := raw.UnknownTool(`{"tool":"get_invoices","tools":["get_invoice","read_text_file"]}`)
	var want struct {
		Error jsonrpc.Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(wantText), &want); err != nil {
		t.Fatal(err)
	}
	if rpc.Code != want.Error.Code || rpc.Message != want.Error.Message || string(rpc.Data) != string(want.Error.Data) {
		t.Fatalf("got %d %q %s, want %s", rpc.Code, rpc.Message, rpc.Data, wantText)
	}
}

func TestAnUnknownToolAsAToolResult(t *testing.T) {
	session := connect(t, billing(true, gosdk.Options{UnknownToolAnswer: "tool-result"}))
	got := call(t, session, "get_invoices", nil)
	if !got.IsError || !strings.HasPrefix(text(got), `<tool_error code="UNKNOWN_ACTION"`) || !strings.Contains(text(got), "get_invoice") {
		t.Fatalf("got %q", text(got))
	}
}
