module github.com/mcp-envelope/mcp-envelope/demo/go

go 1.26

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/mcp-envelope/mcp-envelope/bindings/go v0.0.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
)

require (
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

// The package from this checkout, as the other demo servers use theirs.
replace github.com/mcp-envelope/mcp-envelope/bindings/go => ../../bindings/go
