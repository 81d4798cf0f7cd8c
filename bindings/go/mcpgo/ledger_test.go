package mcpgo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/mcpgo"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
)

func TestAStoresAnswerTakesNoLedgerStep(t *testing.T) {
	// A write whose idempotency key is still in progress: the store's CONFLICT, each time.
	conflict, err := raw.IdempotencyBegin(`{"tool":"refund_order","key":"refund-A-8812-1","arguments":{"amountCents":3200,"orderId":"A-8812"},` +
		`"nowMs":1767225600050,"stored":"{\"arguments\":\"96a58219c0bdd75461973f1631f6072a\",\"expiresAtMs\":1767312000000}"}`)
	if err != nil {
		t.Fatal(err)
	}
	var begun struct {
		Outcome string          `json:"outcome"`
		Ledger  string          `json:"ledger"`
		Result  json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(conflict), &begun); err != nil || begun.Outcome != "in-progress" || begun.Ledger != "none" {
		t.Fatalf("the core's begin gave %s (%v)", conflict, err)
	}
	var want struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(begun.Result, &want); err != nil {
		t.Fatal(err)
	}
	s := billing(true, mcpgo.Options{Ledger: envelope.NewLedger(2)})
	s.AddTool(mcp.NewTool("refund_order", mcp.WithString("id")),
		func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mcpgo.NoteLedgerStep(ctx, begun.Ledger)
			return mcp.NewToolResultError(want.Content[0].Text), nil
		})
	c := connect(t, s)
	for i := 1; i <= 3; i++ {
		got := call(t, c, "refund_order", map[string]any{"id": "A-8812"})
		if !got.IsError || text(got) != want.Content[0].Text {
			t.Fatalf("call %d: got %q, want the store's answer as it is, %q", i, text(got), want.Content[0].Text)
		}
	}
}
