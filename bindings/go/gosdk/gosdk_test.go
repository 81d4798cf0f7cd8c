package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/gosdk"
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

var notFound = envelope.ToolError{
	Code:             "NOT_FOUND",
	Message:          "No invoice with that ID",
	AvailableActions: []string{"billing.list_invoices"},
}

// billing is a server with a tool for each kind of outcome.
func billing(middleware bool, options gosdk.Options) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "billing", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "get_invoice", Description: "One invoice"},
		func(ctx context.Context, req *mcp.CallToolRequest, in invoiceInput) (*mcp.CallToolResult, any, error) {
			switch in.ID {
			case "inv_1":
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "paid"}}}, nil, nil
			case "boom":
				panic("index out of range, password=hunter2")
			case "words":
				return nil, nil, errors.New("Entity with name Nobody not found")
			}
			e := notFound
			return nil, nil, &e
		})
	mcp.AddTool(server, &mcp.Tool{Name: "read_text_file", Description: "A file's text"},
		func(ctx context.Context, req *mcp.CallToolRequest, in pathInput) (*mcp.CallToolResult, any, error) {
			_, err := os.ReadFile(in.Path)
			return nil, nil, err
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

func TestAToolErrorIsSentAsItsEnvelope(t *testing.T) {
	session := connect(t, billing(true, gosdk.Options{}))
	got := call(t, session, "get_invoice", map[string]any{"id": "inv_404"})
	want, _ := envelope.Render(notFound, envelope.XML)
	if !got.IsError || text(got) != want {
		t.Fatalf("got %v %q, want the envelope %q", got.IsError, text(got), want)
	}
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

func TestAResultIsSentAsItIs(t *testing.T) {
	session := connect(t, billing(true, gosdk.Options{}))
	if got := call(t, session, "get_invoice", map[string]any{"id": "inv_1"}); got.IsError || text(got) != "paid" {
		t.Fatalf("got %v %q", got.IsError, text(got))
	}
}

func TestTheAuthorsWordsAreAToolError(t *testing.T) {
	session := connect(t, billing(true, gosdk.Options{}))
	got := call(t, session, "get_invoice", map[string]any{"id": "words"})
	if !strings.HasPrefix(text(got), `<tool_error code="TOOL_ERROR"`) || !strings.Contains(text(got), "Entity with name Nobody not found") {
		t.Fatalf("got %q", text(got))
	}
}

func TestAPanicIsAnInternalErrorAndTheServerGoesOn(t *testing.T) {
	var lines []string
	var mu sync.Mutex
	session := connect(t, billing(true, gosdk.Options{Log: func(line string) { mu.Lock(); lines = append(lines, line); mu.Unlock() }}))
	got := call(t, session, "get_invoice", map[string]any{"id": "boom"})
	if !got.IsError || !strings.HasPrefix(text(got), `<tool_error code="INTERNAL_ERROR"`) || strings.Contains(text(got), "hunter2") {
		t.Fatalf("got %q", text(got))
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "index out of range") {
		t.Fatalf("logged %q", lines)
	}
	if got := call(t, session, "get_invoice", map[string]any{"id": "inv_1"}); text(got) != "paid" {
		t.Fatalf("the call after a panic gave %q", text(got))
	}
}

func TestAMissingFileNamesTheArgument(t *testing.T) {
	session := connect(t, billing(true, gosdk.Options{Log: func(string) {}}))
	got := call(t, session, "read_text_file", map[string]any{"path": "missing.txt"})
	if !strings.HasPrefix(text(got), `<tool_error code="NOT_FOUND"`) || !strings.Contains(text(got), `path "missing.txt"`) {
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

func TestToolsListIsUnchanged(t *testing.T) {
	list := func(middleware bool) string {
		tools, err := connect(t, billing(middleware, gosdk.Options{})).ListTools(context.Background(), nil)
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

func TestArgumentsThatFailTheSchemaAreTheCoresValidationError(t *testing.T) {
	session := connect(t, billing(true, gosdk.Options{}))
	line := map[string]string{
		`{"id":42}`: `<field name="id">Wrong type. You sent: 42. Expected a string.</field>`,
		`{}`:        `<field name="id">Missing required field. You sent: nothing. Expected a string.</field>`,
		`{"extra":true,"id":"inv_1"}`: `<field name="(arguments)">Unrecognized key 'extra'. You sent: 'extra'. ` +
			`Expected only the declared keys; remove it.</field>`,
	}
	for arguments, field := range line {
		var given map[string]any
		_ = json.Unmarshal([]byte(arguments), &given)
		got := call(t, session, "get_invoice", given)
		want := "<validation_error action=\"get_invoice\">\n  " + field + "\n" +
			"  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n" +
			"</validation_error>"
		if !got.IsError || text(got) != want {
			t.Errorf("%s: got %v %q, want %q", arguments, got.IsError, text(got), want)
		}
	}
}

func TestTheLedgerShortensARepeatedFailureThenSaysStop(t *testing.T) {
	session := connect(t, billing(true, gosdk.Options{Ledger: envelope.NewLedger(2)}))
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
	for i, text := range want {
		id := "inv_404"
		if text == "paid" {
			id = "inv_1"
		}
		got := call(t, session, "get_invoice", map[string]any{"id": id})
		if got.IsError != (text != "paid") || got.Content[0].(*mcp.TextContent).Text != text {
			t.Fatalf("call %d: got %v %q, want %q", i+1, got.IsError, got.Content[0].(*mcp.TextContent).Text, text)
		}
	}
}
