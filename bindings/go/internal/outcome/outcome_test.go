package outcome

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
)

func TestEachKindOfFailure(t *testing.T) {
	quiet := Options{Log: func(string) {}}
	hidden := Options{Log: func(string) {}, ThrownMessages: "hidden"}
	cases := []struct {
		name    string
		failure any
		options Options
		code    string
	}{
		{"the author's words", errors.New("no such customer"), quiet, "TOOL_ERROR"},
		{"the author's words, hidden", fmt.Errorf("no such customer %d", 7), hidden, "INTERNAL_ERROR"},
		{"a wrapped error is a library's", fmt.Errorf("query: %w", errors.New("driver: bad connection")), quiet, "INTERNAL_ERROR"},
		{"a deadline", fmt.Errorf("fetch: %w", context.DeadlineExceeded), quiet, "TIMEOUT"},
		{"an unreachable host", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, quiet, "UPSTREAM_UNAVAILABLE"},
		{"a JSON-RPC invalid params", RPCError{Code: -32602, Message: "bad id"}, quiet, "VALIDATION_ERROR"},
		{"a panic", Recovered("boom"), quiet, "INTERNAL_ERROR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			result, err := Result("tool", []byte(`{}`), c.failure, c.options)
			if err != nil || !strings.Contains(string(result), `code=\"`+c.code+`\"`) {
				t.Fatalf("gave %s, %v; want %s", result, err, c.code)
			}
		})
	}
}
