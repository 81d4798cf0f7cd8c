package envelope_test

// The Go package's per-call cost: Render of the seed spec every host's
// benchmark times (benches/inputs.json) against a hand-written pure-Go
// renderer giving the same bytes, checked first. The renderer handles only
// that input (with escaping as a correct port must do it for any string) and
// is no part of the package.
//
//	go test -run '^$' -bench Render
//
// scripts/bench runs TestWriteBenchmarkRows with MCP_ENVELOPE_BENCH_OUT set:
// interleaved rounds of both, their medians written as JSON rows for
// tools/write-benchmarks.mjs.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
)

// benchSpec is the render input of benches/inputs.json.
func benchSpec(tb testing.TB) envelope.ToolError {
	tb.Helper()
	text, err := os.ReadFile(filepath.Join("..", "..", "benches", "inputs.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var inputs struct {
		Render envelope.ToolError `json:"render"`
	}
	if err := json.Unmarshal(text, &inputs); err != nil {
		tb.Fatal(err)
	}
	return inputs.Render
}

// The escapes of XML content (& < CR and the > of ]]>), and of attributes
// (also " tab LF); characters XML 1.0 forbids become U+FFFD.
var (
	contentEscapes = strings.NewReplacer("&", "&amp;", "<", "&lt;", "]]>", "]]&gt;", "\r", "&#13;")
	attrEscapes    = strings.NewReplacer("&", "&amp;", "<", "&lt;", "]]>", "]]&gt;", "\r", "&#13;", `"`, "&quot;", "\t", "&#9;", "\n", "&#10;")
)

func xmlAllowed(s string) string {
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0xFFFE || r == 0xFFFF {
			return '\uFFFD'
		}
		return r
	}, s)
}

func contentText(s string) string { return contentEscapes.Replace(xmlAllowed(s)) }
func attrText(s string) string    { return attrEscapes.Replace(xmlAllowed(s)) }

// renderByHand is the <tool_error> of a spec holding every member the seed has.
func renderByHand(e envelope.ToolError) string {
	var b strings.Builder
	severity := e.Severity
	if severity == "" {
		severity = "error"
	}
	b.WriteString(`<tool_error code="` + attrText(e.Code) + `" severity="` + severity + "\">\n")
	b.WriteString("  <message>" + contentText(e.Message) + "</message>\n")
	b.WriteString("  <recovery>" + contentText(e.Suggestion) + "</recovery>\n  <available_actions>\n")
	for _, action := range e.AvailableActions {
		b.WriteString("    <action>" + contentText(action) + "</action>\n")
	}
	b.WriteString("  </available_actions>\n  <details>\n")
	for _, detail := range e.Details {
		var value string
		if json.Unmarshal(detail.Value.(json.RawMessage), &value) != nil {
			value = string(detail.Value.(json.RawMessage))
		}
		b.WriteString(`    <detail key="` + attrText(detail.Key) + `">` + contentText(value) + "</detail>\n")
	}
	b.WriteString("  </details>\n  <retry_after>" + strconv.FormatFloat(*e.RetryAfter, 'f', -1, 64) + " seconds</retry_after>\n</tool_error>")
	return b.String()
}

func TestThePureGoRendererGivesTheSameBytes(t *testing.T) {
	spec := benchSpec(t)
	got, err := envelope.Render(spec, envelope.XML)
	if err != nil {
		t.Fatal(err)
	}
	if want := renderByHand(spec); got != want {
		t.Fatalf("Render gave\n%s\nthe pure-Go renderer\n%s", got, want)
	}
}

func BenchmarkRender(b *testing.B) {
	spec := benchSpec(b)
	for b.Loop() {
		if _, err := envelope.Render(spec, envelope.XML); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderPureGo(b *testing.B) {
	spec := benchSpec(b)
	for b.Loop() {
		renderByHand(spec)
	}
}

// TestWriteBenchmarkRows writes the per-call row to MCP_ENVELOPE_BENCH_OUT
// (scripts/bench sets it); without it, it is skipped.
func TestWriteBenchmarkRows(t *testing.T) {
	out := os.Getenv("MCP_ENVELOPE_BENCH_OUT")
	if out == "" {
		t.Skip("MCP_ENVELOPE_BENCH_OUT is not set")
	}
	TestThePureGoRendererGivesTheSameBytes(t)
	const rounds = 9
	var ours, reference []float64
	perCall := func(r testing.BenchmarkResult) float64 { return float64(r.T.Nanoseconds()) / float64(r.N) / 1e3 }
	for range rounds {
		ours = append(ours, perCall(testing.Benchmark(BenchmarkRender)))
		reference = append(reference, perCall(testing.Benchmark(BenchmarkRenderPureGo)))
	}
	round := func(v float64) float64 { return float64(int(v*100+0.5)) / 100 }
	report := map[string]any{"host": "go", "rows": []map[string]any{{
		"table": "per-call", "case": "render", "value": round(median(ours)), "unit": "µs",
		"reference": round(median(reference)), "referenceName": "pure-Go renderer",
	}}}
	text, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, append(text, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("render %.2f µs, pure-Go renderer %.2f µs", median(ours), median(reference))
}

func median(values []float64) float64 {
	sorted := append([]float64(nil), values...)
	sort.Float64s(sorted)
	return sorted[len(sorted)/2]
}
