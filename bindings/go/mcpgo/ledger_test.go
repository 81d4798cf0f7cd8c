package mcpgo_test

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/sdktest"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/mcpgo"
)

func TestAStoresAnswerTakesNoLedgerStep(t *testing.T) {
	// A write whose idempotency key is still in progress: the store's CONFLICT, each time.
	ledger, want := sdktest.InProgress(t)
	s := billing(true, mcpgo.Options{Ledger: envelope.NewLedger(2)})
	s.AddTool(mcp.NewTool("refund_order", mcp.WithString("id")),
		func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mcpgo.NoteLedgerStep(ctx, ledger)
			return mcp.NewToolResultError(want), nil
		})
	c := connect(t, s)
	for i := 1; i <= 3; i++ {
		got := call(t, c, "refund_order", map[string]any{"id": "A-8812"})
		if !got.IsError || text(got) != want {
			t.Fatalf("call %d: got %q, want the store's answer as it is, %q", i, text(got), want)
		}
	}
}
