// Command conformance-go-sdk is a conformance server on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): every tool, resource and prompt
// the official suite's server scenarios call for, written as Go SDK servers
// are (mcp.AddTool with typed input, Server.AddTool with a schema written
// out, declared capabilities), served over the SDK's Streamable HTTP handler.
// `wrapped` adds mcp-envelope with the one line bindings/go's README asks
// for: gosdk.Middleware as a receiving middleware.
//
// usage: conformance-go-sdk plain|wrapped PORT
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-envelope/mcp-envelope/bindings/go/gosdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) != 3 || (os.Args[1] != "plain" && os.Args[1] != "wrapped") {
		fmt.Fprintln(os.Stderr, "usage: conformance-go-sdk plain|wrapped PORT  (serves MCP Streamable HTTP at http://127.0.0.1:PORT/mcp)")
		os.Exit(2)
	}
	port, err := strconv.ParseUint(os.Args[2], 10, 16)
	if err != nil {
		fmt.Fprintf(os.Stderr, "conformance-go-sdk: %q is not a port\n", os.Args[2])
		os.Exit(2)
	}
	if err := serve(uint16(port), newServer(os.Args[1] == "wrapped")); err != nil {
		fmt.Fprintf(os.Stderr, "conformance-go-sdk: cannot serve on 127.0.0.1:%d: %v\n", port, err)
		os.Exit(1)
	}
}

// serve answers at http://127.0.0.1:PORT/mcp until killed and says
// `listening` once bound. The SDK's handler refuses a request that reaches
// the loopback address with another site's Host (DNS rebinding protection)
// unless told not to; the event store lets a client resume a stream the
// server closed (test_reconnection).
func serve(port uint16, server *mcp.Server) error {
	listener, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(port))))
	if err != nil {
		return err
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		EventStore: mcp.NewMemoryEventStore(nil),
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	fmt.Println("listening")
	return http.Serve(listener, mux)
}

// noArguments is the input of a tool that takes none.
type noArguments struct{}

type samplingRequest struct {
	Prompt string `json:"prompt" jsonschema:"The prompt to send to the LLM"`
}

type elicitationRequest struct {
	Message string `json:"message" jsonschema:"The message to show the user"`
}

// newServer is one server for every session: the SDK keeps each session's
// log level and which resources it subscribed to.
func newServer(wrapped bool) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "conformance-go-sdk", Version: "1.0.0"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{
			Tools:       &mcp.ToolCapabilities{ListChanged: true},
			Resources:   &mcp.ResourceCapabilities{Subscribe: true, ListChanged: true},
			Prompts:     &mcp.PromptCapabilities{ListChanged: true},
			Logging:     &mcp.LoggingCapabilities{},
			Completions: &mcp.CompletionCapabilities{},
		},
		CompletionHandler: complete,
		// The SDK records the subscription itself (Server.ResourceUpdated
		// notifies the session); these only accept it.
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	if wrapped {
		server.AddReceivingMiddleware(gosdk.Middleware(gosdk.Options{}))
	}
	addTools(server)
	addResources(server)
	addPrompts(server)
	return server
}

func text(message string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: message}}}
}

func addTools(server *mcp.Server) {
	mcp.AddTool(server, &mcp.Tool{Name: "test_simple_text", Description: "Returns one block of text"},
		func(context.Context, *mcp.CallToolRequest, noArguments) (*mcp.CallToolResult, any, error) {
			return text("This is a simple text response for testing."), nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_image_content", Description: "Returns a 1×1 PNG image"},
		func(context.Context, *mcp.CallToolRequest, noArguments) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: pngPixel, MIMEType: "image/png"}}}, nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_audio_content", Description: "Returns a short WAV clip of silence"},
		func(context.Context, *mcp.CallToolRequest, noArguments) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: wavSilence, MIMEType: "audio/wav"}}}, nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_embedded_resource", Description: "Returns a text resource embedded in the result"},
		func(context.Context, *mcp.CallToolRequest, noArguments) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content.",
			}}}}, nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_multiple_content_types", Description: "Returns text, an image and an embedded resource together"},
		func(context.Context, *mcp.CallToolRequest, noArguments) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "Multiple content types test:"},
				&mcp.ImageContent{Data: pngPixel, MIMEType: "image/png"},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
					URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`,
				}},
			}}, nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_tool_with_logging", Description: "Sends three info log messages while it runs"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArguments) (*mcp.CallToolResult, any, error) {
			for step, message := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
				if step > 0 {
					time.Sleep(50 * time.Millisecond)
				}
				// The session drops what is below the level logging/setLevel set.
				if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: message}); err != nil {
					return nil, nil, fmt.Errorf("could not reach the client: %w", err)
				}
			}
			return text("Logged three messages."), nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_tool_with_progress", Description: "Reports progress 0, 50 and 100 of 100 when the call asks for progress"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArguments) (*mcp.CallToolResult, any, error) {
			token := req.Params.GetProgressToken()
			for step, progress := range []float64{0, 50, 100} {
				if step > 0 {
					time.Sleep(50 * time.Millisecond)
				}
				if token == nil {
					continue
				}
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: progress, Total: 100}); err != nil {
					return nil, nil, fmt.Errorf("could not reach the client: %w", err)
				}
			}
			return text("Progress reported: 100 of 100."), nil, nil
		})

	// A handler's error is the Go SDK's way to say a tool failed: the SDK
	// sends its text in a result with isError.
	mcp.AddTool(server, &mcp.Tool{Name: "test_error_handling", Description: "Always fails"},
		func(context.Context, *mcp.CallToolRequest, noArguments) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("This tool intentionally returns an error for testing")
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_reconnection", Description: "Closes its SSE stream mid-call; the result arrives when the client resumes the stream"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArguments) (*mcp.CallToolResult, any, error) {
			if req.Extra != nil && req.Extra.CloseSSEStream != nil {
				req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 500 * time.Millisecond})
			}
			time.Sleep(100 * time.Millisecond)
			return text("Reconnection test completed: the result arrived on the resumed stream."), nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_sampling", Description: "Asks the client for an LLM completion of the prompt"},
		func(ctx context.Context, req *mcp.CallToolRequest, in samplingRequest) (*mcp.CallToolResult, any, error) {
			reply, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
				Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: in.Prompt}}},
				MaxTokens: 100,
			})
			if err != nil {
				return nil, nil, fmt.Errorf("could not reach the client: %w", err)
			}
			answer := "(a reply that is not text)"
			if content, ok := reply.Content.(*mcp.TextContent); ok {
				answer = content.Text
			}
			return text("LLM response: " + answer), nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_elicitation", Description: "Asks the user for a username and email address"},
		func(ctx context.Context, req *mcp.CallToolRequest, in elicitationRequest) (*mcp.CallToolResult, any, error) {
			answer, err := elicit(ctx, req, in.Message, contactForm)
			if err != nil {
				return nil, nil, err
			}
			return text("User response: " + answer), nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_elicitation_sep1034_defaults", Description: "Asks the user to review a form whose fields have defaults (SEP-1034)"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArguments) (*mcp.CallToolResult, any, error) {
			answer, err := elicit(ctx, req, "Please review your profile", profileFormWithDefaults)
			if err != nil {
				return nil, nil, err
			}
			return text("Elicitation completed: " + answer), nil, nil
		})

	mcp.AddTool(server, &mcp.Tool{Name: "test_elicitation_sep1330_enums", Description: "Asks the user to pick from each kind of choice field (SEP-1330)"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ noArguments) (*mcp.CallToolResult, any, error) {
			answer, err := elicit(ctx, req, "Please choose", choicesForm)
			if err != nil {
				return nil, nil, err
			}
			return text("Elicitation completed: " + answer), nil, nil
		})

	// Server.AddTool lists the schema as written: one mcp.AddTool would
	// derive from a Go type has no `$schema` of 2020-12 and no `$defs`, and
	// the scenario checks they are kept.
	server.AddTool(&mcp.Tool{
		Name:        "json_schema_2020_12_tool",
		Description: "Takes a name and an address; its input schema is JSON Schema 2020-12 (SEP-1613)",
		InputSchema: addressBookEntrySchema,
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("Address book entry: " + string(req.Params.Arguments)), nil
	})
}

// elicit asks the client to fill in form; the answer as `action=…, content=…`.
func elicit(ctx context.Context, req *mcp.CallToolRequest, message string, form json.RawMessage) (string, error) {
	answer, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: message, RequestedSchema: form})
	if err != nil {
		return "", fmt.Errorf("could not reach the client: %w", err)
	}
	content, err := json.Marshal(answer.Content)
	if err != nil || answer.Content == nil {
		content = []byte("{}")
	}
	return fmt.Sprintf("action=%s, content=%s", answer.Action, content), nil
}

func addResources(server *mcp.Server) {
	static := func(contents mcp.ResourceContents) mcp.ResourceHandler {
		return func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{&contents}}, nil
		}
	}
	server.AddResource(&mcp.Resource{
		URI: "test://static-text", Name: "static-text", Title: "Static text",
		Description: "A text resource that never changes", MIMEType: "text/plain",
	}, static(mcp.ResourceContents{URI: "test://static-text", MIMEType: "text/plain", Text: "This is the content of the static text resource."}))
	server.AddResource(&mcp.Resource{
		URI: "test://static-binary", Name: "static-binary", Title: "Static binary",
		Description: "A 1×1 PNG image", MIMEType: "image/png",
	}, static(mcp.ResourceContents{URI: "test://static-binary", MIMEType: "image/png", Blob: pngPixel}))
	server.AddResource(&mcp.Resource{
		URI: "test://watched-resource", Name: "watched-resource", Title: "Watched resource",
		Description: "A resource clients may subscribe to", MIMEType: "text/plain",
	}, static(mcp.ResourceContents{URI: "test://watched-resource", MIMEType: "text/plain", Text: "Watched resource content"}))

	server.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "test://template/{id}/data", Name: "template", Title: "Data by id",
		Description: "JSON data for the id in the URI", MIMEType: "application/json",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		id, ok := templateID(uri)
		if !ok {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		data, err := json.Marshal(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(data)}}}, nil
	})
}

// templateID is the id in `test://template/{id}/data`.
func templateID(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, "test://template/")
	if !ok {
		return "", false
	}
	id, ok := strings.CutSuffix(rest, "/data")
	return id, ok && id != "" && !strings.Contains(id, "/")
}

func addPrompts(server *mcp.Server) {
	user := func(content mcp.Content) *mcp.PromptMessage {
		return &mcp.PromptMessage{Role: "user", Content: content}
	}

	server.AddPrompt(&mcp.Prompt{Name: "test_simple_prompt", Description: "A prompt without arguments"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(&mcp.TextContent{Text: "This is a simple prompt for testing."})}}, nil
		})

	server.AddPrompt(&mcp.Prompt{
		Name:        "test_prompt_with_arguments",
		Description: "A prompt that repeats its two arguments",
		Arguments: []*mcp.PromptArgument{
			{Name: "arg1", Description: "First argument", Required: true},
			{Name: "arg2", Description: "Second argument", Required: true},
		},
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args := req.Params.Arguments
		message := fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args["arg1"], args["arg2"])
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(&mcp.TextContent{Text: message})}}, nil
	})

	server.AddPrompt(&mcp.Prompt{
		Name:        "test_prompt_with_embedded_resource",
		Description: "A prompt that embeds the resource it is given",
		Arguments:   []*mcp.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}},
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
			user(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: req.Params.Arguments["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing.",
			}}),
			user(&mcp.TextContent{Text: "Please process the embedded resource above."}),
		}}, nil
	})

	server.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_image", Description: "A prompt that shows an image"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				user(&mcp.ImageContent{Data: pngPixel, MIMEType: "image/png"}),
				user(&mcp.TextContent{Text: "Please analyze the image above."}),
			}}, nil
		})
}

// complete offers city names for test_prompt_with_arguments' arg1, nothing elsewhere.
func complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	values := []string{}
	ref, argument := req.Params.Ref, req.Params.Argument
	if ref != nil && ref.Type == "ref/prompt" && ref.Name == "test_prompt_with_arguments" && argument.Name == "arg1" {
		values = completeWord(argument.Value)
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}
