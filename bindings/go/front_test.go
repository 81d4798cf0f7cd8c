package envelope_test

import (
	"context"
	"testing"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
)

// The package's front (render, result, read, validation, partial results, a
// client's check) runs on the envelope module alone: a program that uses only
// it never compiles the full module.
func TestTheFrontNeverCompilesTheFullModule(t *testing.T) {
	ctx := context.Background()
	rt, err := raw.NewRuntime(ctx, raw.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	defer raw.SetDefault(raw.SetDefault(rt))

	e := envelope.ToolError{Code: "NOT_FOUND", Message: "No invoice inv_404"}
	text, err := envelope.Render(e, envelope.XML)
	must(t, err)
	result, err := envelope.Result(e, envelope.JSON)
	must(t, err)
	reading, err := envelope.Read(text)
	if err != nil || reading == nil || reading.Code != "NOT_FOUND" {
		t.Fatalf("Read gave %v, %v", reading, err)
	}
	if err := envelope.CheckResult(result); err == nil {
		t.Fatal("CheckResult of an error result gave nil")
	}
	validation := `{"action":"billing.get_invoice","issues":[{"path":["id"],"code":"invalid_format","format":"email","input":"x"}]}`
	_, err = envelope.RenderValidation(validation)
	must(t, err)
	_, err = envelope.ValidationResult(validation)
	must(t, err)
	partial := `{"task":"t","obtained":["a"],"failed":[{"item":"b","code":"TIMEOUT","message":"slow"}]}`
	_, err = envelope.RenderPartial(partial)
	must(t, err)
	_, err = envelope.PartialResult(partial)
	must(t, err)
	if rt.FullLoaded() {
		t.Fatal("the front compiled the full module")
	}

	// The check sees a load when there is one.
	_, err = raw.Decide(`{"result":` + string(result) + `}`)
	must(t, err)
	if !rt.FullLoaded() {
		t.Fatal("decide did not compile the full module")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
