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

func TestAFileThatIsNotAComponentIsALoadError(t *testing.T) {
	for _, bytes := range [][]byte{[]byte("not wasm"), {0, 'a', 's', 'm', 1, 0, 0, 0}} {
		_, err := NewRuntime(context.Background(), Options{Component: bytes})
		var e *LoadError
		if !errors.As(err, &e) {
			t.Fatalf("gave %v, want a *LoadError", err)
		}
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
