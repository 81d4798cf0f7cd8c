package envelope_test

// Runs every shared vector (../../vectors, vectors/README.md "How to write a
// runner") through this package: the idiomatic front where a case can be said
// with it, the raw exports for the rest, comparing exact strings.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	envelope "github.com/mcp-envelope/mcp-envelope/bindings/go"
	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
)

const vectorsDir = "../../vectors"

// counts are the run's tallies; each test of vectors starts them anew.
var counts struct{ run, passed, idiomatic atomic.Int64 }

type vectorCase struct {
	name string
	data *jv
}

func loadVectors(t *testing.T) []vectorCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(vectorsDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	var cases []vectorCase
	for _, path := range paths {
		if filepath.Base(path) == "schema.json" {
			continue
		}
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		groups, err := parseJSON(string(text))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		file := strings.TrimSuffix(filepath.Base(path), ".json")
		for _, group := range groups.items {
			for _, c := range group.get("cases").items {
				c = expand(c)
				name := file + " / " + group.get("description").str() + " / " + c.get("description").str()
				cases = append(cases, vectorCase{name, c})
			}
		}
	}
	return cases
}

// TestVectors runs every case on the process's runtime: the envelope module
// for the functions of interface envelope, the full module for the rest.
func TestVectors(t *testing.T) {
	cases := loadVectors(t)
	if len(cases) < 1000 {
		t.Fatalf("read only %d vector cases from %s", len(cases), vectorsDir)
	}
	runVectors(t, cases)
	t.Logf("vectors: %d run, %d passed, 0 skipped; %d also through the idiomatic front",
		counts.run.Load(), counts.passed.Load(), counts.idiomatic.Load())
}

// TestEnvelopeVectorsOnTheFullModule runs the cases of interface envelope with
// the full module standing in for the envelope module: both components give the
// same bytes. The full module's own slot stays empty, which proves that no case
// counted here called server, agent or contract.
func TestEnvelopeVectorsOnTheFullModule(t *testing.T) {
	var onEnvelope []vectorCase
	for _, c := range loadVectors(t) {
		if caseInterface(c.data) == "envelope" {
			onEnvelope = append(onEnvelope, c)
		}
	}
	if len(onEnvelope) < 500 {
		t.Fatalf("only %d cases of interface envelope", len(onEnvelope))
	}
	_, full := raw.EmbeddedModules()
	rt, err := raw.NewRuntime(context.Background(), raw.Options{Envelope: full})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	defer raw.SetDefault(raw.SetDefault(rt))
	runVectors(t, onEnvelope)
	if rt.FullLoaded() {
		t.Error("a case of interface envelope called a function of another interface")
	}
	t.Logf("vectors of interface envelope on the full module: %d run, %d passed, 0 skipped; %d also through the idiomatic front",
		counts.run.Load(), counts.passed.Load(), counts.idiomatic.Load())
}

func runVectors(t *testing.T, cases []vectorCase) {
	counts.run.Store(0)
	counts.passed.Store(0)
	counts.idiomatic.Store(0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			counts.run.Add(1)
			if err := runCase(c.data); err != nil {
				t.Fatal(err)
			}
			counts.passed.Add(1)
		})
	}
}

// caseInterface is the WIT interface of the functions a case calls.
func caseInterface(c *jv) string {
	if call := c.get("call"); call != nil {
		for _, e := range raw.Exports {
			if e.Name == call.str() {
				return e.Interface
			}
		}
		return "unknown"
	}
	switch c.get("kind").str() {
	case "ledger", "idempotency":
		return "server"
	}
	return "envelope"
}

func runCase(c *jv) error {
	if call := c.get("call"); call != nil {
		return runCall(call.str(), c)
	}
	kind := c.get("kind").str()
	switch kind {
	case "render":
		return runRender(c)
	case "spec-error":
		return runSpecError(c)
	case "parse":
		return runParse(c.get("input").str(), c, "tool_error")
	case "validation-parse":
		return runParse(c.get("parseValidation").str(), c, "validation_error")
	case "read":
		return runRead(c)
	case "error-of-result":
		return runErrorOfResult(c)
	case "protocol-error":
		return runProtocolError(c)
	case "validation":
		return runValidation(c)
	case "validation-error":
		return runValidationError(c)
	case "ledger":
		return runLedger(c)
	case "idempotency":
		return runIdempotency(c)
	}
	return fmt.Errorf("a case of a kind this runner does not know: %q", kind)
}

// same compares exactly; on a mismatch it says where the strings part, briefly (some are a megabyte).
func same(what, got, want string) error {
	if got == want {
		return nil
	}
	at := 0
	for at < len(got) && at < len(want) && got[at] == want[at] {
		at++
	}
	around := func(s string) string {
		start, end := max(at-40, 0), min(at+80, len(s))
		return fmt.Sprintf("%q", s[min(start, len(s)):end])
	}
	return fmt.Errorf("%s differs at byte %d (got %d bytes, want %d):\n  got:  %s\n  want: %s",
		what, at, len(got), len(want), around(got), around(want))
}

func refusedWith(what string, err error, want string) error {
	var refused *raw.SpecError
	if !errors.As(err, &refused) {
		return fmt.Errorf("%s: want the refusal %q, got %v", what, want, err)
	}
	return same(what+" refusal", refused.Message, want)
}

// specOf is a case's spec as the component reads it: `specText` as written, else `spec` compact.
func specOf(c *jv) string {
	if text := c.get("specText"); text != nil {
		return text.str()
	}
	return c.get("spec").compact()
}

// sameError compares two error specs by meaning: equal when their JSON forms are identical.
func sameError(got, want string) error {
	gotForm, err := raw.Render(got, "json")
	if err != nil {
		return fmt.Errorf("the reading's error does not render: %v", err)
	}
	wantForm, err := raw.Render(want, "json")
	if err != nil {
		return fmt.Errorf("the expected error does not render: %v", err)
	}
	return same("parsed error (as its JSON form)", gotForm, wantForm)
}

// strictToolError is the spec as a ToolError, when the struct holds all of it.
func strictToolError(spec string) (*envelope.ToolError, bool) {
	decoder := json.NewDecoder(strings.NewReader(spec))
	decoder.DisallowUnknownFields()
	var e envelope.ToolError
	if decoder.Decode(&e) != nil || decoder.More() {
		return nil, false
	}
	return &e, true
}

// The keys a rendering depends on beyond what an envelope states.
var renderingKeys = []string{"limits", "locale", "localizeSteering"}

func runRender(c *jv) error {
	spec := specOf(c)
	typed, idiomatic := strictToolError(spec)
	if idiomatic {
		counts.idiomatic.Add(1)
	}
	for _, m := range c.get("expected").members {
		format, want := m.key, m.value.str()
		got, err := raw.Render(spec, format)
		if err != nil {
			return fmt.Errorf("%s render: %v", format, err)
		}
		if err := same(format+" render", got, want); err != nil {
			return err
		}
		if idiomatic {
			got, err := envelope.Render(*typed, envelope.Format(format))
			if err != nil {
				return fmt.Errorf("%s envelope.Render: %v", format, err)
			}
			if err := same(format+" envelope.Render", got, want); err != nil {
				return err
			}
		}
		reading, err := envelope.Read(want)
		if err != nil || reading == nil || reading.Kind != "tool_error" {
			return fmt.Errorf("%s does not read back as a tool error: %v %v", format, reading, err)
		}
		back, err := parseJSON(string(reading.JSON))
		if err != nil {
			return err
		}
		backError := back.get("error")
		wantBack := spec
		if parsed := c.get("parsed").get(format); parsed != nil {
			wantBack = parsed.compact()
		}
		if err := sameError(backError.compact(), wantBack); err != nil {
			return fmt.Errorf("%s read back: %v", format, err)
		}
		// The reading holds the faithful spec: rendered again under the spec's
		// rendering keys, it gives the same text, lossy or not (caps cut once).
		if c.has("spec") {
			again := &jv{kind: jsonObject, members: append([]member(nil), backError.members...)}
			for _, key := range renderingKeys {
				if v := c.get("spec").get(key); v != nil {
					again.members = append(again.members, member{key, v})
				}
			}
			got, err := raw.Render(again.compact(), format)
			if err != nil {
				return fmt.Errorf("%s rendering of the reading: %v", format, err)
			}
			if err := same(format+" rendering of the reading", got, want); err != nil {
				return err
			}
		}
	}
	if result := c.get("result"); result != nil {
		for _, m := range result.members {
			got, err := raw.CallToolResult(spec, m.key)
			if err != nil {
				return fmt.Errorf("%s call-tool-result: %v", m.key, err)
			}
			if err := same(m.key+" call-tool-result", got, m.value.str()); err != nil {
				return err
			}
			if idiomatic {
				got, err := envelope.Result(*typed, envelope.Format(m.key))
				if err != nil {
					return err
				}
				if err := same(m.key+" envelope.Result", string(got), m.value.str()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func runSpecError(c *jv) error {
	spec, want := specOf(c), c.get("error").str()
	for _, format := range []string{"xml", "text"} {
		_, err := raw.Render(spec, format)
		if err := refusedWith(format+" render", err, want); err != nil {
			return err
		}
	}
	_, err := raw.CallToolResult(spec, "json")
	return refusedWith("call-tool-result", err, want)
}

// runParse reads an input back through envelope.Read and checks the reading of one kind.
func runParse(input string, c *jv, kind string) error {
	reading, err := envelope.Read(input)
	if malformed := c.get("malformed"); malformed != nil {
		var e *envelope.MalformedError
		if !errors.As(err, &e) {
			return fmt.Errorf("want the malformed message %q, got %v %v", malformed.str(), reading, err)
		}
		return same("malformed message", e.Message, malformed.str())
	}
	if err != nil {
		return err
	}
	parsed := c.get("parsed")
	if parsed.isNull() {
		if reading != nil && reading.Kind == kind {
			return fmt.Errorf("found a %s where there is none: %s", kind, reading.JSON)
		}
		return nil
	}
	if reading == nil || reading.Kind != kind {
		return fmt.Errorf("found no %s: %v", kind, reading)
	}
	if kind == "validation_error" {
		return same("parsed envelope", string(reading.Validation), parsed.compact())
	}
	back, err := parseJSON(string(reading.JSON))
	if err != nil {
		return err
	}
	return sameError(back.get("error").compact(), parsed.compact())
}

func textOrCompact(v *jv) string {
	if v.kind == jsonString {
		return v.text
	}
	return v.compact()
}

func runRead(c *jv) error {
	input := textOrCompact(c.get("read"))
	got, err := raw.ReadEnvelope(input)
	if malformed := c.get("malformed"); malformed != nil {
		if err := refusedWith("read-envelope", err, malformed.str()); err != nil {
			return err
		}
		var e *envelope.MalformedError
		if _, err := envelope.Read(input); !errors.As(err, &e) || e.Message != malformed.str() {
			return fmt.Errorf("envelope.Read gave %v, want a *MalformedError", err)
		}
		return nil
	}
	if err != nil {
		return err
	}
	want := c.get("reading")
	if err := same("reading", got, want.compact()); err != nil {
		return err
	}
	reading, err := envelope.Read(input)
	if err != nil {
		return err
	}
	if (reading == nil) != (want.get("kind").str() == "none") {
		return fmt.Errorf("envelope.Read gave %v for a reading of kind %s", reading, want.get("kind").str())
	}
	return nil
}

func runErrorOfResult(c *jv) error {
	result, outcome := c.get("errorOfResult").compact(), c.get("outcome")
	got, isError, err := raw.ErrorOfResult(result)
	if err != nil {
		return err
	}
	checked := envelope.CheckResult(result)
	if outcome.isNull() {
		if isError || checked != nil {
			return fmt.Errorf("a result that is no error gave %q, %v", got, checked)
		}
		return nil
	}
	if err := same("error-of-result", got, outcome.compact()); err != nil {
		return err
	}
	var e *envelope.EnvelopeError
	if !errors.As(checked, &e) {
		return fmt.Errorf("envelope.CheckResult gave %v, want an *EnvelopeError", checked)
	}
	malformed := ""
	if m := outcome.get("malformed"); m != nil {
		malformed = m.str()
	}
	if e.Code != outcome.get("code").str() || e.Message != outcome.get("message").str() || e.Malformed != malformed {
		return fmt.Errorf("envelope.CheckResult gave %+v, want %s", e, outcome)
	}
	if (e.Envelope() == nil) != outcome.get("reading").isNull() {
		return fmt.Errorf("envelope.CheckResult's reading is %v, want %s", e.Envelope(), outcome.get("reading"))
	}
	return same("the error's reading", string(e.Reading), outcome.get("reading").compact())
}

func runProtocolError(c *jv) error {
	p := c.get("protocolError")
	var data *string
	if d := p.get("data"); d != nil {
		text := d.compact()
		data = &text
	}
	got, err := raw.ProtocolError(p.get("kind").str(), p.get("message").str(), data)
	if err != nil {
		return err
	}
	return same("protocol-error", got, c.get("expected").str())
}

func runValidation(c *jv) error {
	spec := textOrCompact(c.get("validation"))
	got, err := envelope.RenderValidation(spec)
	if err != nil {
		return fmt.Errorf("render-validation: %v", err)
	}
	want := c.get("expected").str()
	if err := same("render-validation", got, want); err != nil {
		return err
	}
	if result := c.get("result"); result != nil {
		got, err := envelope.ValidationResult(spec)
		if err != nil {
			return err
		}
		if err := same("validation-result", string(got), result.str()); err != nil {
			return err
		}
	}
	reading, err := envelope.Read(want)
	if err != nil || reading == nil || reading.Kind != "validation_error" {
		return fmt.Errorf("does not read back as a validation error: %v %v", reading, err)
	}
	if parsed := c.get("parsed"); parsed != nil {
		return same("parsed envelope", string(reading.Validation), parsed.compact())
	}
	return nil
}

func runValidationError(c *jv) error {
	spec, want := textOrCompact(c.get("validation")), c.get("error").str()
	_, err := envelope.RenderValidation(spec)
	if err := refusedWith("render-validation", err, want); err != nil {
		return err
	}
	_, err = envelope.ValidationResult(spec)
	return refusedWith("validation-result", err, want)
}

func runCall(name string, c *jv) error {
	var got string
	var err error
	if name == "idempotency-key-argument" { // takes nothing: the vector's input is null
		got, err = raw.IdempotencyKeyArgument()
	} else {
		got, err = raw.Request(name, c.get("input").compact())
	}
	if refused := c.get("refused"); refused != nil {
		return refusedWith(name, err, refused.str())
	}
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return same(name+" output", got, textOrCompact(c.get("output")))
}

// memberOf is a member of an answer: a string's text, ok and null false for
// JSON null, any other value as its compact text; found false when absent.
func memberOf(answer, name string) (text string, null bool, found bool) {
	v, err := parseJSON(answer)
	if err != nil {
		return "", false, false
	}
	m := v.get(name)
	switch {
	case m == nil:
		return "", false, false
	case m.kind == jsonNull:
		return "", true, true
	}
	return textOrCompact(m), false, true
}

func quoted(text string) string { return (&jv{kind: jsonString, text: text}).compact() }

func orNull(v *jv) string {
	if v == nil {
		return "null"
	}
	return v.compact()
}

// runLedger runs the steps on one conversation's ledger, its streaks held
// here as a host holds them, each step through ledger-failure or ledger-observe.
func runLedger(c *jv) error {
	stopAfter := "2"
	if n := c.get("ledger").get("stopAfter"); n != nil {
		stopAfter = n.text
	}
	streaks := map[string]string{}
	streakOf := func(tool string) string {
		if s, ok := streaks[tool]; ok {
			return quoted(s)
		}
		return "null"
	}
	for n, step := range c.get("steps").items {
		tool := step.get("tool").str()
		var export, request string
		switch {
		case step.has("observe"):
			export = "ledger-observe"
			request = fmt.Sprintf(`{"result":%s,"arguments":%s,"stopAfter":%s,"streak":%s}`,
				step.get("observe").compact(), orNull(step.get("arguments")), stopAfter, streakOf(tool))
		case step.has("failure"):
			format := "xml"
			if f := step.get("format"); f != nil {
				format = f.str()
			}
			export = "ledger-failure"
			request = fmt.Sprintf(`{"spec":%s,"arguments":%s,"stopAfter":%s,"format":"%s","streak":%s}`,
				step.get("failure").compact(), orNull(step.get("arguments")), stopAfter, format, streakOf(tool))
		default:
			delete(streaks, tool)
			continue
		}
		answer, err := raw.Request(export, request)
		if err != nil {
			return fmt.Errorf("step %d: %v", n, err)
		}
		if record, null, found := memberOf(answer, "streak"); found && null {
			delete(streaks, tool)
		} else if found {
			streaks[tool] = record
		}
		sent, _, _ := memberOf(answer, "result")
		if export == "ledger-failure" {
			if err := same(fmt.Sprintf("step %d result", n), sent, step.get("result").compact()); err != nil {
				return err
			}
		} else {
			want := ""
			if r := step.get("replaced"); !r.isNull() {
				want = r.compact()
			}
			if err := same(fmt.Sprintf("step %d observe", n), sent, want); err != nil {
				return err
			}
		}
	}
	return nil
}

// runIdempotency runs the steps on one idempotency store, its records held
// here in memory as a host holds them (at most `capacity`, the first claimed
// going first), each step through idempotency-begin and idempotency-finish.
func runIdempotency(c *jv) error {
	capacity, ttlSeconds := 1000, "86400"
	if n := c.get("idempotency").get("capacity"); n != nil {
		fmt.Sscan(n.text, &capacity)
	}
	if n := c.get("idempotency").get("ttlSeconds"); n != nil {
		ttlSeconds = n.text
	}
	records := map[string]string{}
	var order []string
	forget := func(key string) {
		for i, k := range order {
			if k == key {
				order = append(order[:i], order[i+1:]...)
				return
			}
		}
	}
	for n, step := range c.get("steps").items {
		tool, key := step.get("tool").str(), step.get("key").str()
		storeKey, err := raw.IdempotencyKey(fmt.Sprintf(`{"tool":%s,"key":%s}`, quoted(tool), quoted(key)))
		if err != nil {
			return err
		}
		if arguments := step.get("begin"); arguments != nil {
			format := "xml"
			if f := step.get("format"); f != nil {
				format = f.str()
			}
			stored := "null"
			if r, ok := records[storeKey]; ok {
				stored = quoted(r)
			}
			request := fmt.Sprintf(`{"tool":%s,"key":%s,"arguments":%s,"nowMs":%s,"ttlSeconds":%s,"format":"%s","stored":%s}`,
				quoted(tool), quoted(key), arguments.compact(), step.get("nowMs").text, ttlSeconds, format, stored)
			got, err := raw.IdempotencyBegin(request)
			if err != nil {
				return fmt.Errorf("step %d: %v", n, err)
			}
			if claim, null, found := memberOf(got, "record"); found && !null {
				if _, had := records[storeKey]; had {
					forget(storeKey)
				}
				records[storeKey] = claim
				order = append(order, storeKey)
				for len(records) > max(capacity, 1) {
					oldest := order[0]
					order = order[1:]
					delete(records, oldest)
				}
			}
			// What a store answers: the outcome, its ledger step and the result, without the claim.
			outcome, _, _ := memberOf(got, "outcome")
			answered := `{"outcome":` + quoted(outcome)
			if ledger, null, found := memberOf(got, "ledger"); found && !null {
				answered += `,"ledger":` + quoted(ledger)
			}
			if result, null, found := memberOf(got, "result"); found && !null {
				answered += `,"result":` + result
			}
			answered += "}"
			if err := same(fmt.Sprintf("step %d answer", n), answered, step.get("answer").compact()); err != nil {
				return err
			}
			continue
		}
		claim, running := records[storeKey]
		if running {
			if _, _, hasResult := memberOf(claim, "result"); hasResult {
				running = false
			}
		}
		finished := "absent"
		if running {
			request := fmt.Sprintf(`{"tool":%s,"key":%s,"claim":%s,"result":%s,"nowMs":%s,"ttlSeconds":%s}`,
				quoted(tool), quoted(key), quoted(claim), orNull(step.get("finish")), step.get("nowMs").text, ttlSeconds)
			answer, err := raw.IdempotencyFinish(request)
			if refused := step.get("refused"); refused != nil {
				if err := refusedWith(fmt.Sprintf("step %d finish", n), err, refused.str()); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return fmt.Errorf("step %d: %v", n, err)
			}
			if record, null, found := memberOf(answer, "record"); found && !null {
				records[storeKey] = record
			} else {
				delete(records, storeKey)
				forget(storeKey)
			}
			finished, _, _ = memberOf(answer, "finished")
		}
		if refused := step.get("refused"); refused != nil {
			return fmt.Errorf("step %d: finish gave %q, want the refusal %q", n, finished, refused.str())
		}
		if err := same(fmt.Sprintf("step %d finish", n), finished, step.get("finished").str()); err != nil {
			return err
		}
	}
	return nil
}
