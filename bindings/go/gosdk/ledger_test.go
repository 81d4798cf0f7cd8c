package gosdk_test

import (
	"context"
	"encoding/json"
	"testing"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/gosdk"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestAStoresAnswerTakesNoLedgerStep(t *testing.T) {
	server := billing(false, gosdk.Options{})
	// A write whose idempotency key is still in progress: the store's CONFLICT, each time.
	conflict, err := raw.IdempotencyBegin(`{"tool":"refund_order","key":"refund-A-8812-1","arguments":{"amountCents":3200,"orderId":"A-8812"},` +
		`"nowMs":1767225600050,"stored":"{\"arguments\":\"96a58219c0bdd75461973f1631f6072a\",\"expiresAtMs\":1767312000000}"}`)
	if err != nil {
		t.Fatal(err)
	}
	var begun struct {
		Outcome string              `json:"outcome"`
		Ledger  string              `json:"ledger"`
		Result  *mcp.CallToolResult `json:"result"`
	}
	if err := json.Unmarshal([]byte(conflict), &begun); err != nil || begun.Outcome != "in-progress" || begun.Ledger != "none" {
		t.Fatalf("the core's begin gave %s (%v)", conflict, err)
	}
	mcp.AddTool(server, &mcp.Tool{Name: "refund_order", Description: "A refund"},
		func(ctx context.Context, req *mcp.CallToolRequest, in invoiceInput) (*mcp.CallToolResult, any, error) {
			gosdk.NoteLedgerStep(ctx, begun.Ledger)
			return begun.Result, nil, nil
		})
	server.AddReceivingMiddleware(gosdk.Middleware(gosdk.Options{Ledger: envelope.NewLedger(2)}))
	session := connect(t, server)
	want := begun.Result.Content[0].(*mcp.TextContent).Text
	for i := 1; i <= 3; i++ {
		got := call(t, session, "refund_order", map[string]any{"id": "A-8812"})
		if !got.IsError || text(got) != want {
			t.Fatalf("call %d: got %q, want the store's answer as it is, %q", i, text(got), want)
		}
	}
}
