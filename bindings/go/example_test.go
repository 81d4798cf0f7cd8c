package envelope_test

import (
	"errors"
	"fmt"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
)

func ExampleRender() {
	text, err := envelope.Render(envelope.ToolError{
		Code:             "NOT_FOUND",
		Message:          "No invoice with that ID",
		Suggestion:       "List invoices first, then retry with a real ID",
		AvailableActions: []string{"billing.list_invoices"},
		Details:          envelope.Details{{Key: "requestedId", Value: "inv_2026_9999"}},
	}, envelope.XML)
	if err != nil {
		panic(err)
	}
	fmt.Println(text)
	// Output:
	// <tool_error code="NOT_FOUND" severity="error">
	//   <message>No invoice with that ID</message>
	//   <recovery>List invoices first, then retry with a real ID</recovery>
	//   <available_actions>
	//     <action>billing.list_invoices</action>
	//   </available_actions>
	//   <details>
	//     <detail key="requestedId">inv_2026_9999</detail>
	//   </details>
	// </tool_error>
}

func ExampleCheckResult() {
	result, _ := envelope.Result(envelope.ToolError{Code: "RATE_LIMITED", Message: "Too many calls", RetryAfter: ptr(30.0)}, envelope.JSON)
	var failed *envelope.EnvelopeError
	if errors.As(envelope.CheckResult(result), &failed) {
		reading := failed.Envelope()
		fmt.Println(failed.Code, reading.Retryable, *reading.Error.RetryAfter)
	}
	// Output: RATE_LIMITED true 30
}

func ExampleSpecError() {
	_, err := envelope.Render(envelope.ToolError{Message: "no code"}, envelope.Text)
	var refused *envelope.SpecError
	fmt.Println(errors.As(err, &refused))
	// Output: true
}

func ptr[T any](v T) *T { return &v }
