// Package arguments checks a tool call's arguments against the tool's
// published input schema with santhosh-tekuri/jsonschema, for every Go MCP
// integration, and hands the validator's errors to the core raw, in ajv's
// member names (keyword, path, params, data, message). This is only the
// native extraction of a validator's errors, as the other packages do for
// ajv, Python's jsonschema and Rust's jsonschema: the words of the
// <validation_error> are the core's (validation-result).
package arguments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"sync"

	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// english words a raw error's message, which the core quotes only for a keyword it has no line for.
var english = message.NewPrinter(language.English)

// Schemas checks arguments against input schemas, each compiled once and
// kept by its JSON text, so a tool registered again with another schema is
// checked against the new one. The zero value is ready; it is safe for
// concurrent use.
type Schemas struct {
	mu       sync.Mutex
	compiled map[string]compiled
}

type compiled struct {
	schema *jsonschema.Schema
	err    error
}

func (s *Schemas) validator(schema json.RawMessage) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if known, ok := s.compiled[string(schema)]; ok {
		return known.schema, known.err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	var sch *jsonschema.Schema
	if err == nil {
		compiler := jsonschema.NewCompiler()
		// A tool's format is part of the contract the model reads, so it is
		// asserted (JSON Schema 2020-12 only annotates it by default).
		compiler.AssertFormat()
		compiler.DefaultDraft(jsonschema.Draft2020)
		if err = compiler.AddResource("mcp-envelope:input-schema", doc); err == nil {
			sch, err = compiler.Compile("mcp-envelope:input-schema")
		}
	}
	if s.compiled == nil {
		s.compiled = map[string]compiled{}
	}
	s.compiled[string(schema)] = compiled{sch, err}
	return sch, err
}

// Check is the core's <validation_error> result (a CallToolResult's JSON) for
// arguments that fail schema, or nil when they fit it or cannot be checked (a
// schema that does not compile, arguments that are not JSON): the handler
// decides then. tool is the name the envelope gives the action.
func (s *Schemas) Check(tool string, schema json.RawMessage, arguments json.RawMessage) (json.RawMessage, error) {
	validator, err := s.validator(schema)
	if err != nil {
		return nil, nil
	}
	if len(arguments) == 0 || string(arguments) == "null" {
		arguments = json.RawMessage("{}")
	}
	instance, err := jsonschema.UnmarshalJSON(bytes.NewReader(arguments))
	if err != nil {
		return nil, nil
	}
	failed := validator.Validate(instance)
	verr, ok := failed.(*jsonschema.ValidationError)
	if failed == nil || !ok {
		return nil, nil
	}
	var errors []map[string]any
	collect(&errors, verr)
	inPropertyOrder(errors, schema)
	spec, err := json.Marshal(map[string]any{
		"action": tool, "jsonSchemaErrors": errors, "arguments": arguments, "inputSchema": schema,
	})
	if err != nil {
		return nil, err
	}
	text, err := raw.ValidationResult(string(spec))
	if err != nil {
		return nil, err
	}
	return json.RawMessage(text), nil
}

// collect appends each failed keyword as ajv reports it with allErrors: one
// raw error per missing property and per unexpected key, an anyOf/oneOf
// failure followed by its branches' errors.
func collect(errors *[]map[string]any, e *jsonschema.ValidationError) {
	switch k := e.ErrorKind.(type) {
	case *kind.Group, *kind.Schema, *kind.Reference, *kind.AllOf:
	case *kind.Required:
		for _, missing := range k.Missing {
			*errors = append(*errors, rawError(e, "required", map[string]any{"missingProperty": missing}))
		}
	case *kind.AdditionalProperties:
		for _, key := range k.Properties {
			*errors = append(*errors, rawError(e, "additionalProperties", map[string]any{"additionalProperty": key}))
		}
	default:
		path := e.ErrorKind.KeywordPath()
		if len(path) > 0 {
			*errors = append(*errors, rawError(e, path[0], params(e.ErrorKind)))
		}
	}
	for _, cause := range e.Causes {
		collect(errors, cause)
	}
}

func rawError(e *jsonschema.ValidationError, keyword string, params map[string]any) map[string]any {
	path := make([]any, len(e.InstanceLocation))
	for i, segment := range e.InstanceLocation {
		path[i] = segment
	}
	return map[string]any{
		"keyword": keyword, "path": path, "params": params,
		"message": e.ErrorKind.LocalizedString(english),
	}
}

// params is ajv's params for each keyword the core reads; {} for the
// others, which the core words from the message.
func params(k jsonschema.ErrorKind) map[string]any {
	switch k := k.(type) {
	case *kind.Type:
		if len(k.Want) == 1 {
			return map[string]any{"type": k.Want[0]}
		}
		return map[string]any{"type": k.Want}
	case *kind.MinLength:
		return map[string]any{"limit": k.Want}
	case *kind.MaxLength:
		return map[string]any{"limit": k.Want}
	case *kind.MinItems:
		return map[string]any{"limit": k.Want}
	case *kind.MaxItems:
		return map[string]any{"limit": k.Want}
	case *kind.MinProperties:
		return map[string]any{"limit": k.Want}
	case *kind.MaxProperties:
		return map[string]any{"limit": k.Want}
	case *kind.Minimum:
		return map[string]any{"limit": number(k.Want)}
	case *kind.Maximum:
		return map[string]any{"limit": number(k.Want)}
	case *kind.ExclusiveMinimum:
		return map[string]any{"limit": number(k.Want)}
	case *kind.ExclusiveMaximum:
		return map[string]any{"limit": number(k.Want)}
	case *kind.MultipleOf:
		return map[string]any{"multipleOf": number(k.Want)}
	case *kind.Pattern:
		return map[string]any{"pattern": k.Want}
	case *kind.Format:
		return map[string]any{"format": k.Want}
	case *kind.Enum:
		return map[string]any{"allowedValues": k.Want}
	case *kind.Const:
		return map[string]any{"allowedValue": k.Want}
	}
	return map[string]any{}
}

// number is a bound as JSON writes it: a whole number without a fraction.
func number(r *big.Rat) json.Number {
	if r.IsInt() {
		return json.Number(r.Num().String())
	}
	f, _ := r.Float64()
	return json.Number(fmt.Sprint(f))
}

// inPropertyOrder sorts the errors by the root schema's properties as the
// schema lists them, as ajv and Python's jsonschema report them; errors at
// the root first, each property's errors in the validator's order.
func inPropertyOrder(errors []map[string]any, schema json.RawMessage) {
	order := propertyOrder(schema)
	position := func(e map[string]any) int {
		path := e["path"].([]any)
		if len(path) == 0 {
			return 0
		}
		for i, name := range order {
			if name == path[0] {
				return 1 + i
			}
		}
		return 1 + len(order)
	}
	sort.SliceStable(errors, func(i, j int) bool { return position(errors[i]) < position(errors[j]) })
}

// propertyOrder is the keys of the schema's "properties" in the order its JSON writes them.
func propertyOrder(schema json.RawMessage) []string {
	var root map[string]json.RawMessage
	if json.Unmarshal(schema, &root) != nil {
		return nil
	}
	decoder := json.NewDecoder(bytes.NewReader(root["properties"]))
	if token, err := decoder.Token(); err != nil || token != json.Delim('{') {
		return nil
	}
	var order []string
	for decoder.More() {
		token, err := decoder.Token()
		if err != nil {
			return order
		}
		order = append(order, token.(string))
		var skip json.RawMessage
		if decoder.Decode(&skip) != nil {
			return order
		}
	}
	return order
}
