// The Go SDK conformance server (conformance/servers/go-sdk runs it): a
// module of its own, so bindings/go's `go test ./...` never builds it; the
// package under test comes from this checkout, as a `replace`.
module github.com/mcp-envelope/mcp-envelope/conformance/go

go 1.26

require (
	github.com/mcp-envelope/mcp-envelope/bindings/go v0.0.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.44.0 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

replace github.com/mcp-envelope/mcp-envelope/bindings/go => ../../bindings/go
