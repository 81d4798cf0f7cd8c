// The demo billing server of demo/billing.md on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk), as a Go server author writes it:
// typed tools added with mcp.AddTool, their input schemas inferred from the
// argument structs and given their formats, patterns and bounds, and one
// line of mcp-envelope (gosdk.Middleware, with a repeat ledger and the
// unknown-tool answer). Every failure is worded by the core, through its
// exports in package raw (the recovery helpers, the backoff, the idempotency
// store's steps), so no envelope is worded here. Served over stdio, or with
// `--http PORT` over MCP Streamable HTTP at http://127.0.0.1:PORT/mcp.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/gosdk"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The backoff's budget inside one call: under a client's usual timeout.
const backoffDeadlineMs = 2500

const jo = "jo@example.com"

type getInvoice struct {
	Customer  string `json:"customer"`
	InvoiceID string `json:"invoice_id"`
}

type listInvoices struct {
	Customer string `json:"customer"`
	Status   string `json:"status,omitempty"`
}

type refundOrder struct {
	InvoiceID      string  `json:"invoice_id"`
	Amount         float64 `json:"amount"`
	IdempotencyKey string  `json:"idempotency_key"`
}

type invoice struct {
	id     string
	cents  int64
	status string
	// refundable is the refundable balance before any refund.
	refundable int64
}

// jo@example.com's invoices, in listing order.
var invoices = []invoice{
	{id: "inv_1", cents: 12000, status: "paid", refundable: 12000},
	{id: "inv_2", cents: 7550, status: "open", refundable: 0},
}

func find(id string) *invoice {
	for i := range invoices {
		if invoices[i].id == id {
			return &invoices[i]
		}
	}
	return nil
}

func money(cents int64) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }

func line(i *invoice) string { return fmt.Sprintf("%s: %s EUR, %s", i.id, money(i.cents), i.status) }

func text(body string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: body}}}
}

// DatabaseError is what a database driver returns: an error type of its own,
// never its author's words for the model.
type DatabaseError struct{ message string }

func (e *DatabaseError) Error() string { return e.message }

// fromCore is a CallToolResult the core wrote as JSON, as the SDK's type.
func fromCore(answer string, err error) *mcp.CallToolResult {
	if err != nil {
		// The core's helpers are given fixed inputs here: a refusal is this server's bug.
		panic(fmt.Sprintf("the demo server built a spec the core refuses: %v", err))
	}
	var result mcp.CallToolResult
	if err := json.Unmarshal([]byte(answer), &result); err != nil {
		panic(fmt.Sprintf("the core's result does not fit the SDK's: %v", err))
	}
	return &result
}

// request is a core request's JSON text.
func request(members map[string]any) string {
	text, err := json.Marshal(members)
	if err != nil {
		panic(err)
	}
	return string(text)
}

// errorResult is the CallToolResult of an error spec (JSON), in XML.
func errorResult(spec string) *mcp.CallToolResult {
	return fromCore(raw.CallToolResult(spec, "xml"))
}

func toolError(e envelope.ToolError) *mcp.CallToolResult {
	result, err := envelope.Result(e, envelope.XML)
	return fromCore(string(result), err)
}

// forbidden is the access helper's answer for a blocked customer.
func forbidden(customer string) *mcp.CallToolResult {
	if customer != "blocked@example.com" {
		return nil
	}
	spec, err := raw.AccessError(request(map[string]any{
		"kind": "forbidden", "action": "read", "resource": "the invoices of " + customer,
	}))
	if err != nil {
		panic(err)
	}
	return errorResult(spec)
}

func nothingFound(customer string) *mcp.CallToolResult {
	return fromCore(raw.EmptyResult(request(map[string]any{"what": "invoices", "query": "for " + customer})))
}

// upstreamSpec is the upstream helper's error spec (JSON) for one answer of
// the billing API: its HTTP status and headers.
func upstreamSpec(status int, headers map[string]string) string {
	answer, err := raw.UpstreamError(request(map[string]any{"status": status, "headers": headers, "service": "billing-api"}))
	if err != nil {
		panic(err)
	}
	var report struct {
		Error json.RawMessage `json:"error"`
		Log   struct {
			Status int `json:"status"`
		} `json:"log"`
	}
	if err := json.Unmarshal([]byte(answer), &report); err != nil {
		panic(err)
	}
	fmt.Fprintf(os.Stderr, "upstream billing-api answered %d\n", report.Log.Status)
	return string(report.Error)
}

func notFound(id, message string, detail bool) *mcp.CallToolResult {
	e := envelope.ToolError{Code: "NOT_FOUND", Message: message, AvailableActions: []string{"list_invoices"}}
	if detail {
		e.Details = envelope.Details{{Key: "invoiceId", Value: id}}
	}
	return toolError(e)
}

// books is what a refund writes and later calls read, in this process.
type books struct {
	mu       sync.Mutex
	refunded map[string]int64
	refunds  int64
}

// refund books cents on inv if its balance allows: the refund's number, or
// (refused, nothing written) what is still refundable.
func (b *books) refund(inv *invoice, cents int64) (number int64, refundable int64, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	left := inv.refundable - b.refunded[inv.id]
	if cents > left {
		return 0, left, false
	}
	b.refunded[inv.id] += cents
	b.refunds++
	return b.refunds, 0, true
}

// idempotency is the idempotency store, in this process: each key's record
// as the core's steps hand it back.
type idempotency struct {
	mu      sync.Mutex
	records map[string]string
}

func nowMs() int64 { return time.Now().UnixMilli() }

// once runs write at most once per idempotency key of tool: a replay gets the
// first outcome, a key reused with other arguments the core's refusal. ctx is
// the handler's: the ledger step the core names for the store's answer is
// passed on to the integration.
func (s *idempotency) once(ctx context.Context, tool, key string, arguments json.RawMessage, write func() *mcp.CallToolResult) *mcp.CallToolResult {
	storeKey, err := raw.IdempotencyKey(request(map[string]any{"tool": tool, "key": key}))
	if err != nil {
		panic(err)
	}
	s.mu.Lock()
	begin := map[string]any{"tool": tool, "key": key, "arguments": arguments, "nowMs": nowMs(), "format": "xml"}
	if stored, ok := s.records[storeKey]; ok {
		begin["stored"] = stored
	}
	answerText, err := raw.IdempotencyBegin(request(begin))
	if err != nil {
		s.mu.Unlock()
		panic(err)
	}
	var begun struct {
		Outcome string          `json:"outcome"`
		Ledger  string          `json:"ledger"`
		Record  string          `json:"record"`
		Result  json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(answerText), &begun); err != nil {
		s.mu.Unlock()
		panic(err)
	}
	if begun.Outcome != "run" {
		s.mu.Unlock()
		gosdk.NoteLedgerStep(ctx, begun.Ledger)
		return fromCore(string(begun.Result), nil)
	}
	s.records[storeKey] = begun.Record
	s.mu.Unlock()

	result := write()
	resultText, err := json.Marshal(result)
	if err != nil {
		panic(err)
	}
	finishText, err := raw.IdempotencyFinish(request(map[string]any{
		"tool": tool, "key": key, "claim": begun.Record, "result": json.RawMessage(resultText), "nowMs": nowMs(),
	}))
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		fmt.Fprintf(os.Stderr, "billing: the outcome of refund key %s was refused: %v\n", key, err)
		return result
	}
	var finished struct {
		Finished string `json:"finished"`
		Record   string `json:"record"`
	}
	if err := json.Unmarshal([]byte(finishText), &finished); err != nil {
		panic(err)
	}
	if finished.Finished == "stored" {
		s.records[storeKey] = finished.Record
	} else {
		delete(s.records, storeKey)
	}
	return result
}

// The state every client shares: the books and the idempotency store.
var (
	ledgerBooks = &books{refunded: map[string]int64{}}
	refundKeys  = &idempotency{records: map[string]string{}}
)

func handleGetInvoice(ctx context.Context, req *mcp.CallToolRequest, in getInvoice) (*mcp.CallToolResult, any, error) {
	if denied := forbidden(in.Customer); denied != nil {
		return denied, nil, nil
	}
	id := in.InvoiceID
	switch id {
	case "inv_404":
		return notFound(id, fmt.Sprintf("No invoice inv_404 for %s.", in.Customer), true), nil, nil
	case "inv_500":
		return nil, nil, &DatabaseError{"db connect failed: password=hunter2"}
	case "inv_504":
		return errorResult(upstreamSpec(504, map[string]string{})), nil, nil
	case "inv_429", "inv_430":
		return withBackoff(ctx, req, id), nil, nil
	case "inv_old":
		return toolError(envelope.ToolError{
			Code:       "DEPRECATED",
			Message:    "inv_old is an archived invoice id; use inv_1 instead.",
			Suggestion: "Use invoice_id inv_1 from now on.",
			Severity:   "warning",
		}), nil, nil
	}
	if inv := find(id); inv != nil && in.Customer == jo {
		return text(line(inv)), nil, nil
	}
	return notFound(id, fmt.Sprintf("No invoice %s for %s.", id, in.Customer), true), nil, nil
}

// withBackoff calls the rate-limited upstream, retried inside the call as the core's backoff says.
func withBackoff(ctx context.Context, req *mcp.CallToolRequest, id string) *mcp.CallToolResult {
	started := time.Now()
	token := req.Params.GetProgressToken()
	for attempt := 1; ; attempt++ {
		// inv_429 is rate limited on the first attempt only; inv_430 always.
		if id == "inv_429" && attempt > 1 {
			return text("inv_1: 120.00 EUR, paid")
		}
		failure := upstreamSpec(429, map[string]string{"Retry-After": "1"})
		stepText, err := raw.Backoff(request(map[string]any{
			"attempt": attempt, "elapsedMs": time.Since(started).Milliseconds(), "deadlineMs": backoffDeadlineMs,
			"failure": json.RawMessage(failure),
		}))
		if err != nil {
			panic(fmt.Sprintf("the backoff refused its request: %v", err))
		}
		var step struct {
			WaitMs   *int64          `json:"waitMs"`
			Result   json.RawMessage `json:"result"`
			Progress struct {
				Progress float64 `json:"progress"`
				Total    float64 `json:"total"`
				Message  string  `json:"message"`
			} `json:"progress"`
		}
		if err := json.Unmarshal([]byte(stepText), &step); err != nil {
			panic(err)
		}
		if step.WaitMs == nil {
			return fromCore(string(step.Result), nil)
		}
		if token != nil {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token, Progress: step.Progress.Progress, Total: step.Progress.Total, Message: step.Progress.Message,
			})
		}
		select {
		case <-time.After(time.Duration(*step.WaitMs) * time.Millisecond):
		case <-ctx.Done():
			return nil
		}
	}
}

func handleListInvoices(ctx context.Context, req *mcp.CallToolRequest, in listInvoices) (*mcp.CallToolResult, any, error) {
	if denied := forbidden(in.Customer); denied != nil {
		return denied, nil, nil
	}
	switch in.Customer {
	case "nobody@example.com":
		return nothingFound(in.Customer), nil, nil
	case "partial@example.com":
		return fromCore(raw.PartialResult(request(map[string]any{
			"task":     "invoices for " + in.Customer,
			"obtained": []string{"inv_7: 10.00 EUR, open"},
			"failed": []map[string]string{
				{"item": "the 2025 archive", "code": "TIMEOUT", "message": "The archive did not answer in time."},
			},
		}))), nil, nil
	case "flaky@example.com":
		return errorResult(upstreamSpec(503, map[string]string{})), nil, nil
	case jo:
		var lines []string
		for i := range invoices {
			if in.Status == "" || invoices[i].status == in.Status {
				lines = append(lines, line(&invoices[i]))
			}
		}
		return text(strings.Join(lines, "\n")), nil, nil
	}
	return nothingFound(in.Customer), nil, nil
}

func handleRefundOrder(ctx context.Context, req *mcp.CallToolRequest, in refundOrder) (*mcp.CallToolResult, any, error) {
	return refundKeys.once(ctx, "refund_order", in.IdempotencyKey, req.Params.Arguments, func() *mcp.CallToolResult {
		inv := find(in.InvoiceID)
		if inv == nil {
			return notFound(in.InvoiceID, fmt.Sprintf("No invoice %s.", in.InvoiceID), false)
		}
		// To whole cents, half away from zero, as every twin rounds.
		cents := int64(math.Round(in.Amount * 100))
		number, left, ok := ledgerBooks.refund(inv, cents)
		if !ok {
			refundable := money(left)
			no := false
			return toolError(envelope.ToolError{
				Code:            "REFUND_LIMIT_EXCEEDED",
				Message:         fmt.Sprintf("Refund of %s exceeds the refundable %s on %s.", money(cents), refundable, inv.id),
				Category:        "business",
				Retryable:       &no,
				Suggestion:      "Tell the user the most that can be refunded; do not retry with a larger amount.",
				CustomerMessage: fmt.Sprintf("We can refund at most %s EUR on this invoice.", refundable),
			})
		}
		return text(fmt.Sprintf("Refunded %s EUR on %s (refund rf_%d).", money(cents), inv.id, number))
	}), nil, nil
}

// schemaOf is the input schema the SDK infers from T, each property then
// given what the tool's contract says (format, pattern, enum, bounds).
func schemaOf[T any](refine func(properties map[string]*jsonschema.Schema)) *jsonschema.Schema {
	schema, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	refine(schema.Properties)
	return schema
}

var (
	email     = func(s *jsonschema.Schema) { s.Format = "email" }
	invoiceID = func(s *jsonschema.Schema) { s.Pattern = "^inv_[a-z0-9]+$" }
)

// billingServer is the server one client talks to: the three tools, and,
// unless BILLING_ENVELOPE=off (the conformance suite's plain run), the
// integration's middleware with a repeat ledger of its own.
func billingServer(unknownTool string) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "billing", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "get_invoice",
		Description: "Get one invoice of a customer.",
		InputSchema: schemaOf[getInvoice](func(p map[string]*jsonschema.Schema) {
			email(p["customer"])
			invoiceID(p["invoice_id"])
		}),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, handleGetInvoice)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "list_invoices",
		Description: "List a customer's invoices.",
		InputSchema: schemaOf[listInvoices](func(p map[string]*jsonschema.Schema) {
			email(p["customer"])
			p["status"].Enum = []any{"open", "paid"}
		}),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, handleListInvoices)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "refund_order",
		Description: "Refund part or all of an invoice.",
		InputSchema: schemaOf[refundOrder](func(p map[string]*jsonschema.Schema) {
			invoiceID(p["invoice_id"])
			zero, most, least := 0.0, 10000.0, 8
			p["amount"].ExclusiveMinimum, p["amount"].Maximum = &zero, &most
			p["idempotency_key"].MinLength = &least
		}),
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true},
	}, handleRefundOrder)
	if os.Getenv("BILLING_ENVELOPE") != "off" {
		server.AddReceivingMiddleware(gosdk.Middleware(gosdk.Options{
			Ledger:            envelope.NewLedger(2),
			UnknownToolAnswer: unknownTool,
			Log:               func(line string) { fmt.Fprintln(os.Stderr, line) },
		}))
	}
	return server
}

func main() {
	// An unknown tool gets the JSON-RPC -32602 the MCP specification asks
	// for (protocol-error, the default), or SEP-2145's isError result with
	// BILLING_UNKNOWN_TOOL=tool-result.
	unknownTool := ""
	switch answer := os.Getenv("BILLING_UNKNOWN_TOOL"); answer {
	case "", "protocol-error":
	case "tool-result":
		unknownTool = answer
	default:
		fmt.Fprintf(os.Stderr, "billing: BILLING_UNKNOWN_TOOL is %q: expected protocol-error or tool-result\n", answer)
		os.Exit(1)
	}
	switch args := os.Args[1:]; {
	case len(args) == 0:
		// One stdio client: one server, one repeat ledger.
		if err := billingServer(unknownTool).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintf(os.Stderr, "billing: %v\n", err)
			os.Exit(1)
		}
	case len(args) == 2 && args[0] == "--http":
		port, err := strconv.ParseUint(args[1], 10, 16)
		if err != nil {
			fmt.Fprintf(os.Stderr, "billing: --http takes a port, not %q\n", args[1])
			os.Exit(2)
		}
		// One server (and repeat ledger) per session; the SDK's handler
		// refuses a Host header that is not loopback (DNS rebinding).
		handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return billingServer(unknownTool) }, nil)
		address := fmt.Sprintf("127.0.0.1:%d", port)
		fmt.Fprintf(os.Stderr, "billing: serving MCP Streamable HTTP at http://%s/mcp\n", address)
		mux := http.NewServeMux()
		mux.Handle("/mcp", handler)
		if err := http.ListenAndServe(address, mux); err != nil {
			fmt.Fprintf(os.Stderr, "billing: %v\n", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: demo-billing-go [--http PORT]")
		os.Exit(2)
	}
}
