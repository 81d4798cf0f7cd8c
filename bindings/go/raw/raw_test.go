package raw

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

func testRuntime(t *testing.T) *Runtime {
	t.Helper()
	rt, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestEachShapeLifts(t *testing.T) {
	codes, err := CanonicalCodes()
	if err != nil || len(codes) != 17 || codes[0] == "" {
		t.Fatalf("canonical-codes gave %q, %v", codes, err)
	}
	xml, err := Render(`{"code":"NOT_FOUND","message":"No invoice é <"}`, "xml")
	if err != nil || !strings.HasPrefix(xml, `<tool_error code="NOT_FOUND"`) || !strings.Contains(xml, "é &lt;") {
		t.Fatalf("render gave %q, %v", xml, err)
	}
	_, err = Render(`{"code":""}`, "text")
	var refused *SpecError
	if !errors.As(err, &refused) || refused.Message == "" {
		t.Fatalf("an empty code gave %v, want a *SpecError", err)
	}
	if _, isError, err := ErrorOfResult(`{"content":[]}`); isError || err != nil {
		t.Fatalf("a success is an error: %v %v", isError, err)
	}
	outcome, isError, err := ErrorOfResult(`{"isError":true,"content":[{"type":"text","text":"no"}]}`)
	if !isError || err != nil || !strings.Contains(outcome, `"message":"no"`) {
		t.Fatalf("error-of-result gave %q %v %v", outcome, isError, err)
	}
	data := `{"code":"NOT_FOUND","message":"gone"}`
	for _, d := range []*string{nil, &data} {
		got, err := ProtocolError("invalid-params", "bad", d)
		if err != nil || !strings.HasPrefix(got, `{"code":-32602`) || (d != nil) != strings.Contains(got, "gone") {
			t.Fatalf("protocol-error gave %q, %v", got, err)
		}
	}
	if key, err := IdempotencyKeyArgument(); err != nil || key == "" {
		t.Fatalf("idempotency-key-argument gave %q, %v", key, err)
	}
}

func TestTextThatIsNotUTF8CrossesAsReplacementCharacters(t *testing.T) {
	got, err := Render("{\"code\":\"X\",\"message\":\"a\xffb\"}", "json")
	if err != nil || !strings.Contains(got, "a\uFFFDb") {
		t.Fatalf("gave %q, %v", got, err)
	}
}

// A runtime whose instances have little memory traps on a large input.
func smallMemory(t *testing.T) *Runtime {
	t.Helper()
	rt, err := NewRuntime(context.Background(), Options{MemoryLimitPages: 40})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

func huge() string {
	return `{"code":"NOT_FOUND","message":"` + strings.Repeat("x", 4<<20) + `"}`
}

func TestATrapInRenderAnswersInternalErrorAndTheNextCallWorks(t *testing.T) {
	rt := smallMemory(t)
	ctx := context.Background()
	got, _, err := rt.Call(ctx, "render", huge(), uint32(0))
	if err != nil || !strings.HasPrefix(got, `<tool_error code="INTERNAL_ERROR"`) {
		t.Fatalf("a render that trapped gave %.200q, %v", got, err)
	}
	got, _, err = rt.Call(ctx, "render", `{"code":"NOT_FOUND","message":"m"}`, uint32(2))
	if err != nil || !strings.HasPrefix(got, "error_code: NOT_FOUND") {
		t.Fatalf("the call after a trap gave %q, %v", got, err)
	}
}

func TestATrapInDecideIsMadeOnceMoreThenUnavailable(t *testing.T) {
	rt := smallMemory(t)
	_, _, err := rt.Call(context.Background(), "decide", `{"result":`+huge()+`}`)
	var unavailable *TrapError
	if !errors.As(err, &unavailable) || !strings.Contains(unavailable.Message, "decide trapped twice") || unavailable.Trap == "" {
		t.Fatalf("gave %v, want the core's words for a second trap", err)
	}
}

func TestCallsOnManyGoroutinesAgree(t *testing.T) {
	want, _ := Render(`{"code":"RATE_LIMITED","message":"slow down","retryAfter":3}`, "xml")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if got, err := Render(`{"code":"RATE_LIMITED","message":"slow down","retryAfter":3}`, "xml"); got != want || err != nil {
					t.Errorf("gave %q, %v", got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestBytesThatAreNotTheModulesAreALoadError(t *testing.T) {
	ctx := context.Background()
	for _, bytes := range [][]byte{[]byte("not wasm"), {0, 'a', 's', 'm', 1, 0, 0, 0}} {
		_, err := NewRuntime(ctx, Options{Envelope: bytes})
		var e *LoadError
		if !errors.As(err, &e) || !strings.Contains(e.Message, "envelope module") {
			t.Fatalf("gave %v, want a *LoadError", err)
		}
		// The full module is compiled on first use: the envelopes work without it.
		rt, err := NewRuntime(ctx, Options{Full: bytes})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := rt.Call(ctx, "render", `{"code":"NOT_FOUND","message":"m"}`, uint32(0)); err != nil {
			t.Fatalf("render without a full module: %v", err)
		}
		_, _, err = rt.Call(ctx, "decide", `{"result":{"content":[]}}`)
		if !errors.As(err, &e) || !strings.Contains(e.Message, "full module") {
			t.Fatalf("decide on a broken full module gave %v, want a *LoadError", err)
		}
		rt.Close(ctx)
	}
}

// The envelope module lacks server, agent and contract, so it cannot stand in for the full one.
func TestTheEnvelopeModuleIsNotAFullModule(t *testing.T) {
	envelope, _ := EmbeddedModules()
	rt, err := NewRuntime(context.Background(), Options{Full: envelope})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	_, _, err = rt.Call(context.Background(), "decide", `{"result":{"content":[]}}`)
	var e *LoadError
	if !errors.As(err, &e) || !strings.Contains(e.Message, "lacks mcp:envelope/server@1.0.0#") {
		t.Fatalf("gave %v, want a *LoadError naming a missing export", err)
	}
}

func TestTheFullModuleIsCompiledOnFirstUseOfServerAgentOrContract(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"handler-result", "decide", "contract-lock"} {
		rt, err := NewRuntime(ctx, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range Exports {
			if e.Interface != "envelope" {
				continue
			}
			args := map[paramsShape][]any{
				paramsNone: nil, paramsText: {"{}"}, paramsFormat: {"{}", uint32(0)},
				paramsProtocol: {uint32(0), "m", (*string)(nil)},
			}[e.shape.params]
			rt.Call(ctx, e.Name, args...) // refusals and answers alike: only the module matters here
		}
		if rt.FullLoaded() {
			t.Fatal("a function of interface envelope compiled the full module")
		}
		rt.Call(ctx, name, "{}")
		if !rt.FullLoaded() {
			t.Fatalf("%s did not compile the full module", name)
		}
		rt.Close(ctx)
	}
}

func TestATrapInTheFullModuleIsAnsweredByTheFullModule(t *testing.T) {
	rt := smallMemory(t)
	got, _, err := rt.Call(context.Background(), "handler-result", `{"tool":"t","outcome":{"error":`+huge()+`},"format":"text"}`)
	if err != nil || !strings.Contains(got, "INTERNAL_ERROR") {
		t.Fatalf("a handler-result that trapped gave %.200q, %v", got, err)
	}
}

func BenchmarkRender(b *testing.B) {
	spec := `{"code":"NOT_FOUND","message":"No invoice with that ID","availableActions":["billing.list_invoices"]}`
	for b.Loop() {
		if _, err := Render(spec, "xml"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNewRuntime(b *testing.B) {
	for b.Loop() {
		rt, err := NewRuntime(context.Background(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		rt.Close(context.Background())
	}
}
