package gosdk_test

import (
	"context"
	"testing"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/gosdk"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/internal/sdktest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestAStoresAnswerTakesNoLedgerStep(t *testing.T) {
	server := billing(false, gosdk.Options{})
	// A write whose idempotency key is still in progress: the store's CONFLICT, each time.
	ledger, want := sdktest.InProgress(t)
	mcp.AddTool(server, &mcp.Tool{Name: "refund_order", Description: "A refund"},
		func(ctx context.Context, req *mcp.CallToolRequest, in invoiceInput) (*mcp.CallToolResult, any, error) {
			gosdk.NoteLedgerStep(ctx, ledger)
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: want}}}, nil, nil
		})
	server.AddReceivingMiddleware(gosdk.Middleware(gosdk.Options{Ledger: envelope.NewLedger(2)}))
	session := connect(t, server)
	for i := 1; i <= 3; i++ {
		got := call(t, session, "refund_order", map[string]any{"id": "A-8812"})
		if !got.IsError || text(got) != want {
			t.Fatalf("call %d: got %q, want the store's answer as it is, %q", i, text(got), want)
		}
	}
}
