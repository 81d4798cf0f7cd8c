// Package sdktest is what the Go MCP integrations' tests share: the billing
// server's tools, as what each call does whatever SDK carries it, and the
// checks every integration passes through its SDK's own client. Each
// integration's test gives a Connect that builds the server on its SDK and
// connects that SDK's client; what only one SDK does is tested beside it.
package sdktest

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/outcome"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
)

// InProgress is the core's answer to a write whose idempotency key is still
// in progress (the store's CONFLICT): the ledger step it names ("none") and
// the result's text. A handler that returns it and notes the step must reach
// the model as it is, however often it comes.
func InProgress(t *testing.T) (ledger, text string) {
	t.Helper()
	begun, err := raw.IdempotencyBegin(`{"tool":"refund_order","key":"refund-A-8812-1","arguments":{"amountCents":3200,"orderId":"A-8812"},` +
		`"nowMs":1767225600050,"stored":"{\"arguments\":\"96a58219c0bdd75461973f1631f6072a\",\"expiresAtMs\":1767312000000}"}`)
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Outcome string `json:"outcome"`
		Ledger  string `json:"ledger"`
		Result  struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(begun), &answer); err != nil || answer.Outcome != "in-progress" ||
		answer.Ledger != "none" || len(answer.Result.Content) != 1 {
		t.Fatalf("the core's begin gave %s (%v)", begun, err)
	}
	return answer.Ledger, answer.Result.Content[0].Text
}

// NotFound is the ToolError get_invoice returns for an invoice it does not have.
var NotFound = envelope.ToolError{
	Code:             "NOT_FOUND",
	Message:          "No invoice with that ID",
	AvailableActions: []string{"billing.list_invoices"},
}

// Invoice is what get_invoice does for an id: "inv_1" is paid, "boom"
// panics, "words" fails in its author's words, any other is NotFound.
func Invoice(id string) (string, error) {
	switch id {
	case "inv_1":
		return "paid", nil
	case "boom":
		panic("index out of range, password=hunter2")
	case "words":
		return "", errors.New("Entity with name Nobody not found")
	}
	e := NotFound
	return "", &e
}

// ReadTextFile is what read_text_file does for a path: the error of reading it.
func ReadTextFile(path string) error {
	_, err := os.ReadFile(path)
	return err
}

// Answer is a tools/call result as the client read it.
type Answer struct {
	IsError bool
	Text    string
}

// Client is a connected SDK client of the billing server.
type Client interface {
	// Call calls a tool; a JSON-RPC error fails the test.
	Call(t *testing.T, tool string, args map[string]any) Answer
	// ListTools is the tools/list result as JSON.
	ListTools(t *testing.T) string
}

// Connect builds the billing server (get_invoice calling Invoice with its
// "id", a required string and the only key its input schema allows,
// read_text_file calling ReadTextFile with its "path"), with the integration
// when wrapped, and connects the SDK's client to it.
type Connect func(t *testing.T, wrapped bool, options outcome.Options) Client

// Run runs the checks every integration passes.
func Run(t *testing.T, connect Connect) {
	quiet := outcome.Options{Log: func(string) {}}
	t.Run("a ToolError is sent as its envelope", func(t *testing.T) {
		got := connect(t, true, outcome.Options{}).Call(t, "get_invoice", map[string]any{"id": "inv_404"})
		want, _ := envelope.Render(NotFound, envelope.XML)
		if !got.IsError || got.Text != want {
			t.Fatalf("got %v %q, want the envelope %q", got.IsError, got.Text, want)
		}
	})
	t.Run("a result is sent as it is", func(t *testing.T) {
		if got := connect(t, true, outcome.Options{}).Call(t, "get_invoice", map[string]any{"id": "inv_1"}); got.IsError || got.Text != "paid" {
			t.Fatalf("got %v %q", got.IsError, got.Text)
		}
	})
	t.Run("the author's words are a TOOL_ERROR", func(t *testing.T) {
		for format, prefix := range map[envelope.Format]string{envelope.XML: `<tool_error code="TOOL_ERROR"`, envelope.Text: "error_code: TOOL_ERROR"} {
			got := connect(t, true, outcome.Options{Format: format}).Call(t, "get_invoice", map[string]any{"id": "words"})
			if !got.IsError || !strings.HasPrefix(got.Text, prefix) || !strings.Contains(got.Text, "Entity with name Nobody not found") {
				t.Fatalf("%s: got %q", format, got.Text)
			}
		}
	})
	t.Run("a panic is an INTERNAL_ERROR and the server goes on", func(t *testing.T) {
		var lines []string
		var mu sync.Mutex
		c := connect(t, true, outcome.Options{Log: func(line string) { mu.Lock(); lines = append(lines, line); mu.Unlock() }})
		got := c.Call(t, "get_invoice", map[string]any{"id": "boom"})
		if !got.IsError || !strings.HasPrefix(got.Text, `<tool_error code="INTERNAL_ERROR"`) || strings.Contains(got.Text, "hunter2") {
			t.Fatalf("got %q", got.Text)
		}
		if len(lines) != 1 || !strings.Contains(lines[0], "index out of range") {
			t.Fatalf("logged %q", lines)
		}
		if got := c.Call(t, "get_invoice", map[string]any{"id": "inv_1"}); got.Text != "paid" {
			t.Fatalf("the call after a panic gave %q", got.Text)
		}
	})
	t.Run("a missing file names the argument", func(t *testing.T) {
		got := connect(t, true, quiet).Call(t, "read_text_file", map[string]any{"path": "missing.txt"})
		if !strings.HasPrefix(got.Text, `<tool_error code="NOT_FOUND"`) || !strings.Contains(got.Text, `path "missing.txt"`) {
			t.Fatalf("got %q", got.Text)
		}
	})
	t.Run("arguments that fail the input schema are the core's validation_error", func(t *testing.T) {
		c := connect(t, true, quiet)
		line := map[string]string{
			`{"id":42}`: `<field name="id">Wrong type. You sent: 42. Expected a string.</field>`,
			`{}`:        `<field name="id">Missing required field. You sent: nothing. Expected a string.</field>`,
			`{"extra":true,"id":"inv_1"}`: `<field name="(arguments)">Unrecognized key 'extra'. You sent: 'extra'. ` +
				`Expected only the declared keys; remove it.</field>`,
		}
		for arguments, field := range line {
			var given map[string]any
			if err := json.Unmarshal([]byte(arguments), &given); err != nil {
				t.Fatal(err)
			}
			got := c.Call(t, "get_invoice", given)
			want := "<validation_error action=\"get_invoice\">\n  " + field + "\n" +
				"  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n" +
				"</validation_error>"
			if !got.IsError || got.Text != want {
				t.Errorf("%s: got %v %q, want %q", arguments, got.IsError, got.Text, want)
			}
		}
	})
	t.Run("tools/list is unchanged", func(t *testing.T) {
		if with, without := connect(t, true, quiet).ListTools(t), connect(t, false, quiet).ListTools(t); with != without {
			t.Fatalf("with the integration %s, without %s", with, without)
		}
	})
	t.Run("the ledger shortens a repeated failure, then says stop", func(t *testing.T) {
		c := connect(t, true, outcome.Options{Ledger: envelope.NewLedger(2)})
		first, _ := envelope.Render(NotFound, envelope.XML)
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
			if got := c.Call(t, "get_invoice", map[string]any{"id": id}); got.IsError != (sent != "paid") || got.Text != sent {
				t.Fatalf("call %d: got %v %q, want %q", i+1, got.IsError, got.Text, sent)
			}
		}
	})
}

// JSON is a value as JSON text, for ListTools.
func JSON(t *testing.T, value any) string {
	t.Helper()
	text, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}
