// Package envelope renders and reads the error envelopes MCP tools send to a
// model (<tool_error>, <validation_error>, <partial_result>), through the
// mcp-envelope WebAssembly component run by wazero: no cgo, the same bytes as
// every other host.
//
//	text, err := envelope.Render(envelope.ToolError{
//		Code:    "NOT_FOUND",
//		Message: "No invoice with that ID",
//	}, envelope.XML)
//
// Every other export of the component, JSON in and JSON out, is in package raw.
package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
)

// Format is one of an envelope's three renderings.
type Format string

const (
	XML  Format = "xml"
	JSON Format = "json"
	Text Format = "text"
)

// ToolError is one error as the core's spec JSON states it (docs/envelope.md);
// a zero field is unset, and the code's default applies.
type ToolError struct {
	// Code is a canonical code (NOT_FOUND, RATE_LIMITED, ...) or a custom one.
	Code string `json:"code"`
	// Message says what failed, for the model.
	Message string `json:"message"`
	// Suggestion is the next step (the envelope's recovery line); the code's default when empty.
	Suggestion string `json:"suggestion,omitempty"`
	// Severity is "error" (the default), "critical" or "warning" (rides on a success).
	Severity string `json:"severity,omitempty"`
	// Category is the recovery branch: transient, validation, business, permission, internal.
	Category  string `json:"category,omitempty"`
	Retryable *bool  `json:"retryable,omitempty"`
	// RetryAfter is in seconds; a fraction rounds up.
	RetryAfter *float64 `json:"retryAfter,omitempty"`
	// AvailableActions are the calls the model can make instead.
	AvailableActions []string `json:"availableActions,omitempty"`
	// Details are shown in their order.
	Details         Details `json:"details,omitempty"`
	CorrelationID   string  `json:"correlationId,omitempty"`
	CustomerMessage string  `json:"customerMessage,omitempty"`
	// Deltas are the tool's contract changes since the model learned it.
	Deltas []ContractDelta `json:"deltas,omitempty"`
	// Locale is "en" (the default) or "pt-BR".
	Locale           string  `json:"locale,omitempty"`
	LocalizeSteering *bool   `json:"localizeSteering,omitempty"`
	Limits           *Limits `json:"limits,omitempty"`
	// The Omitted counts are how many more an envelope read back counted than it listed.
	OmittedActions *int `json:"omittedActions,omitempty"`
	OmittedDetails *int `json:"omittedDetails,omitempty"`
	OmittedDeltas  *int `json:"omittedDeltas,omitempty"`
	// ToolFailure asks for the ToolFailure metadata: `true`, or `{"now": epoch ms}`.
	ToolFailure json.RawMessage `json:"toolFailure,omitempty"`
}

// Detail is one of an error's details; Value is any JSON value.
type Detail struct {
	Key   string
	Value any
}

// Details keep their order, which a Go map would lose: an envelope shows them in it.
type Details []Detail

// MarshalJSON writes the details as one object, in order.
func (d Details) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, detail := range d {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := compact(detail.Key)
		if err != nil {
			return nil, err
		}
		value, err := compact(detail.Value)
		if err != nil {
			return nil, err
		}
		b.WriteString(key + ":" + value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object's members in order, each value as its JSON text.
func (d *Details) UnmarshalJSON(text []byte) error {
	decoder := json.NewDecoder(bytes.NewReader(text))
	if open, err := decoder.Token(); err != nil || open != json.Delim('{') {
		return errors.New("details: not a JSON object")
	}
	*d = Details{}
	for decoder.More() {
		key, err := decoder.Token()
		if err != nil {
			return err
		}
		var value json.RawMessage
		if err := decoder.Decode(&value); err != nil {
			return err
		}
		*d = append(*d, Detail{Key: key.(string), Value: value})
	}
	return nil
}

// ContractDelta is one change of a tool's contract (docs/contract-diff.md).
type ContractDelta struct {
	Field       string `json:"field"`
	Severity    string `json:"severity"`
	Description string `json:"description"`
	Action      string `json:"action,omitempty"`
	Before      string `json:"before,omitempty"`
	After       string `json:"after,omitempty"`
}

// Limits are an envelope's size caps (docs/size-caps.md); nil fields keep the defaults.
type Limits struct {
	MessageChars  *int `json:"messageChars,omitempty"`
	EnvelopeChars *int `json:"envelopeChars,omitempty"`
	Actions       *int `json:"actions,omitempty"`
	Details       *int `json:"details,omitempty"`
}

// compact is a value's compact JSON with <, > and & as themselves: the
// core's error messages quote byte positions in the text it was given.
func compact(value any) (string, error) {
	var b bytes.Buffer
	encoder := json.NewEncoder(&b)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(value); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// specText is a spec as the component reads it: a string or raw JSON as
// given, any other value as its compact JSON.
func specText(spec any) (string, error) {
	switch s := spec.(type) {
	case string:
		return s, nil
	case []byte:
		return string(s), nil
	case json.RawMessage:
		return string(s), nil
	}
	return compact(spec)
}

// Render is the envelope of an error in a format.
func Render(e ToolError, format Format) (string, error) {
	spec, err := compact(e)
	if err != nil {
		return "", err
	}
	return raw.Render(spec, string(format))
}

// Result is the MCP CallToolResult (JSON) carrying an error's envelope:
// `isError: true` unless the severity is "warning".
func Result(e ToolError, format Format) (json.RawMessage, error) {
	spec, err := compact(e)
	if err != nil {
		return nil, err
	}
	text, err := raw.CallToolResult(spec, string(format))
	return json.RawMessage(text), err
}

// RenderValidation is the <validation_error> of a validation spec (docs/validation.md):
// a struct or map, or its JSON text.
func RenderValidation(spec any) (string, error) { return callSpec("render-validation", spec) }

// ValidationResult is the CallToolResult (JSON) carrying a validation spec's envelope.
func ValidationResult(spec any) (json.RawMessage, error) {
	text, err := callSpec("validation-result", spec)
	return json.RawMessage(text), err
}

// RenderPartial is the <partial_result> of a partial spec (docs/partial-results.md),
// in the spec's format.
func RenderPartial(spec any) (string, error) { return callSpec("render-partial", spec) }

// PartialResult is the CallToolResult (JSON) of a partial spec.
func PartialResult(spec any) (json.RawMessage, error) {
	text, err := callSpec("partial-result", spec)
	return json.RawMessage(text), err
}

func callSpec(export string, spec any) (string, error) {
	text, err := specText(spec)
	if err != nil {
		return "", err
	}
	return raw.Request(export, text)
}

// Reading is an envelope read back: a tool error, a validation error, with
// the effective values every kind states.
type Reading struct {
	// Kind is "tool_error" or "validation_error".
	Kind      string `json:"kind"`
	Code      string `json:"code"`
	Message   string `json:"message"`
	Severity  string `json:"severity"`
	Category  string `json:"category"`
	Retryable bool   `json:"retryable"`
	Recovery  string `json:"recovery"`
	// Error is the tool error's spec, for a tool_error.
	Error *ToolError `json:"error,omitempty"`
	// Validation is the validation envelope's JSON, for a validation_error.
	Validation json.RawMessage `json:"validation,omitempty"`
	// JSON is the whole reading as the core wrote it.
	JSON json.RawMessage `json:"-"`
}

// Read reads the earliest envelope in a text or a CallToolResult (JSON text,
// or any value that marshals to one): nil when there is none, a
// *MalformedError when there is a broken one.
func Read(textOrResult any) (*Reading, error) {
	text, err := specText(textOrResult)
	if err != nil {
		return nil, err
	}
	got, err := raw.ReadEnvelope(text)
	if refused := (*raw.SpecError)(nil); errors.As(err, &refused) {
		return nil, &MalformedError{Message: refused.Message}
	} else if err != nil {
		return nil, err
	}
	reading := &Reading{JSON: json.RawMessage(got)}
	if err := json.Unmarshal([]byte(got), reading); err != nil {
		return nil, fmt.Errorf("mcp-envelope: a reading that does not decode: %w", err)
	}
	if reading.Kind == "none" {
		return nil, nil
	}
	return reading, nil
}

// CheckResult is what a client does with a tool's CallToolResult (JSON text,
// or any value that marshals to one): nil unless `isError` is true, else an
// *EnvelopeError saying what the envelope in it says.
func CheckResult(result any) error {
	text, err := specText(result)
	if err != nil {
		return err
	}
	outcome, isError, err := raw.ErrorOfResult(text)
	if err != nil || !isError {
		return err
	}
	e := &EnvelopeError{}
	if err := json.Unmarshal([]byte(outcome), e); err != nil {
		return fmt.Errorf("mcp-envelope: an outcome that does not decode: %w", err)
	}
	if len(e.Reading) > 0 && string(e.Reading) != "null" {
		e.reading = &Reading{JSON: e.Reading}
		if err := json.Unmarshal(e.Reading, e.reading); err != nil {
			return fmt.Errorf("mcp-envelope: a reading that does not decode: %w", err)
		}
	}
	return e
}

// SpecError is the core refusing a spec: Message holds its exact words, the same in every host.
type SpecError = raw.SpecError

// TrapError is a call that trapped and could not be answered (docs/state.md, "After a trap").
type TrapError = raw.TrapError

// LoadError is a component that could not be loaded (missing, not a component, not this package's).
type LoadError = raw.LoadError

// MalformedError is a text holding a broken envelope: Message holds the core's exact words.
type MalformedError struct{ Message string }

func (e *MalformedError) Error() string { return e.Message }

// EnvelopeError is a CallToolResult with `isError: true`, as CheckResult gives it.
type EnvelopeError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Reading is the envelope's reading as JSON; null when the result held none.
	Reading json.RawMessage `json:"reading"`
	// Malformed is the core's words for a broken envelope, when there was one.
	Malformed string `json:"malformed,omitempty"`
	reading   *Reading
}

func (e *EnvelopeError) Error() string { return e.Code + ": " + e.Message }

// Envelope is the error's reading, nil when the result held no envelope.
func (e *EnvelopeError) Envelope() *Reading { return e.reading }

// Error makes a ToolError an error a tool handler returns: the MCP
// integrations (packages gosdk, mcpgo) send its envelope.
func (e *ToolError) Error() string { return e.Code + ": " + e.Message }
