package io.mcpenvelope.conformance;

import io.mcpenvelope.mcp.EnvelopeTools;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.AudioContent;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult.CompleteCompletion;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.PromptReference;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.SamplingMessage;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A conformance server on the official MCP Java SDK: every tool, resource and prompt the official suite's server
 * scenarios call for, built as Java SDK servers are (declared capabilities, tool, resource, prompt and completion
 * specifications on {@code McpServer.sync}), served over Streamable HTTP by the SDK's servlet transport on an
 * embedded Jetty, with the SDK's own Host and Origin check against DNS rebinding. {@code wrapped} adds
 * mcp-envelope with the one line its README asks for.
 *
 * <p>usage: {@code java -jar conformance-java.jar plain|wrapped PORT}; prints only {@code listening} on stdout.
 */
public final class ConformanceServer {
    private ConformanceServer() {}

    public static void main(String[] args) throws Exception {
        // Before any logger exists: the SDK's and Jetty's logs go to stderr, warnings and worse only.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        if (args.length != 2 || !(args[0].equals("plain") || args[0].equals("wrapped"))) {
            System.err.println("usage: conformance-java plain|wrapped PORT");
            System.exit(2);
        }
        boolean wrapped = args[0].equals("wrapped");
        int port = Integer.parseInt(args[1]);

        // A loopback server accepts only its own Host and Origin (DNS rebinding protection).
        String self = "127.0.0.1:" + port;
        String localhost = "localhost:" + port;
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .mcpEndpoint("/mcp")
                .securityValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedHosts(List.of(self, localhost))
                        .allowedOrigins(List.of("http://" + self, "http://" + localhost))
                        .build())
                .build();

        List<SyncToolSpecification> tools = tools();
        if (wrapped) tools = EnvelopeTools.wrapAll(tools);

        McpServer.sync(transport)
                .serverInfo("conformance-java-sdk", "1.0.0")
                .capabilities(ServerCapabilities.builder()
                        .tools(true)
                        .resources(true, true)
                        .prompts(true)
                        .logging()
                        .completions()
                        .build())
                .tools(tools)
                .resources(resources())
                .resourceTemplates(resourceTemplates())
                .prompts(prompts())
                .completions(completions())
                .build();

        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder servlet = new ServletHolder(transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, "/mcp");
        jetty.setHandler(context);
        jetty.start();
        System.out.println("listening");
        System.out.flush();
        jetty.join();
    }

    private static SyncToolSpecification tool(
            String name,
            String description,
            String inputSchema,
            BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
        Tool tool = Tool.builder(name, McpJsonDefaults.getMapper(), inputSchema)
                .description(description)
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler(handler).build();
    }

    private static CallToolResult text(String text) {
        return CallToolResult.builder().addTextContent(text).build();
    }

    static List<SyncToolSpecification> tools() {
        return List.of(
                tool("test_simple_text", "Returns one block of text", Content.NO_ARGUMENTS, (exchange, request) ->
                        text("This is a simple text response for testing.")),
                tool("test_image_content", "Returns a 1×1 PNG image", Content.NO_ARGUMENTS, (exchange, request) ->
                        CallToolResult.builder()
                                .addContent(new ImageContent(null, Content.PNG_PIXEL, "image/png"))
                                .build()),
                tool("test_audio_content", "Returns a short WAV clip of silence", Content.NO_ARGUMENTS,
                        (exchange, request) -> CallToolResult.builder()
                                .addContent(new AudioContent(null, Content.WAV_SILENCE, "audio/wav"))
                                .build()),
                tool("test_embedded_resource", "Returns a text resource embedded in the result", Content.NO_ARGUMENTS,
                        (exchange, request) -> CallToolResult.builder()
                                .addContent(new EmbeddedResource(null, new TextResourceContents(
                                        "test://embedded-resource", "text/plain",
                                        "This is an embedded resource content.")))
                                .build()),
                tool("test_multiple_content_types", "Returns text, an image and an embedded resource together",
                        Content.NO_ARGUMENTS, (exchange, request) -> CallToolResult.builder()
                                .addTextContent("Multiple content types test:")
                                .addContent(new ImageContent(null, Content.PNG_PIXEL, "image/png"))
                                .addContent(new EmbeddedResource(null, new TextResourceContents(
                                        "test://mixed-content-resource", "application/json",
                                        Content.json(Map.of("test", "data", "value", 123)))))
                                .build()),
                // Log and progress notifications sent through the exchange travel on the call's own SSE stream.
                tool("test_tool_with_logging", "Sends three info log messages while it runs", Content.NO_ARGUMENTS,
                        (exchange, request) -> {
                            log(exchange, "Tool execution started");
                            Content.sleep(50);
                            log(exchange, "Tool processing data");
                            Content.sleep(50);
                            log(exchange, "Tool execution completed");
                            return text("Logged three messages.");
                        }),
                tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100 when the call asks for progress",
                        Content.NO_ARGUMENTS, (exchange, request) -> {
                            Object progressToken = request.meta() == null ? null : request.meta().get("progressToken");
                            for (int progress : new int[] {0, 50, 100}) {
                                if (progress > 0) Content.sleep(50);
                                if (progressToken != null) {
                                    exchange.progressNotification(
                                            new ProgressNotification(progressToken, progress, 100.0, null));
                                }
                            }
                            return text("Progress reported: 100 of 100.");
                        }),
                // The SDK answers what a handler throws with a JSON-RPC error; a tool's own failure is a result.
                tool("test_error_handling", "Always fails", Content.NO_ARGUMENTS, (exchange, request) ->
                        CallToolResult.builder()
                                .addTextContent("This tool intentionally returns an error for testing")
                                .isError(true)
                                .build()),
                tool("test_sampling", "Asks the client for an LLM completion of the prompt", """
                        {
                          "type": "object",
                          "properties": {"prompt": {"type": "string", "description": "The prompt to send to the LLM"}},
                          "required": ["prompt"]
                        }""", (exchange, request) -> {
                            String prompt = String.valueOf(request.arguments().get("prompt"));
                            CreateMessageResult reply = exchange.createMessage(CreateMessageRequest.builder()
                                    .messages(List.of(new SamplingMessage(Role.USER, new TextContent(prompt))))
                                    .maxTokens(100)
                                    .build());
                            String answer = reply.content() instanceof TextContent replyText
                                    ? replyText.text()
                                    : "(" + reply.content().type() + " content)";
                            return text("LLM response: " + answer);
                        }),
                tool("test_elicitation", "Asks the user for a username and email address", """
                        {
                          "type": "object",
                          "properties": {"message": {"type": "string", "description": "The message to show the user"}},
                          "required": ["message"]
                        }""", (exchange, request) -> {
                            String message = String.valueOf(request.arguments().get("message"));
                            ElicitResult answer = exchange.createElicitation(
                                    ElicitFormRequest.builder(message, Content.CONTACT_FORM).build());
                            return text("User response: " + describe(answer));
                        }),
                tool("test_elicitation_sep1034_defaults",
                        "Asks the user to review a form whose fields have defaults (SEP-1034)", Content.NO_ARGUMENTS,
                        (exchange, request) -> {
                            ElicitResult answer = exchange.createElicitation(ElicitFormRequest.builder(
                                    "Please review your profile", Content.PROFILE_FORM_WITH_DEFAULTS).build());
                            return text("Elicitation completed: " + describe(answer));
                        }),
                tool("test_elicitation_sep1330_enums",
                        "Asks the user to pick from each kind of choice field (SEP-1330)", Content.NO_ARGUMENTS,
                        (exchange, request) -> {
                            ElicitResult answer = exchange.createElicitation(
                                    ElicitFormRequest.builder("Please choose", Content.CHOICES_FORM).build());
                            return text("Elicitation completed: " + describe(answer));
                        }),
                tool("json_schema_2020_12_tool",
                        "Takes a name and an address; its input schema is JSON Schema 2020-12 (SEP-1613)",
                        Content.ADDRESS_BOOK_ENTRY_SCHEMA, (exchange, request) ->
                                text("Address book entry: " + Content.json(request.arguments()))));
    }

    private static void log(McpSyncServerExchange exchange, String data) {
        exchange.loggingNotification(LoggingMessageNotification.builder(LoggingLevel.INFO, data).build());
    }

    private static String describe(ElicitResult answer) {
        Map<String, Object> content = answer.content() == null ? Map.of() : answer.content();
        return "action=" + answer.action().name().toLowerCase(Locale.ROOT) + ", content=" + Content.json(content);
    }

    private static SyncResourceSpecification resource(
            String uri, String name, String title, String description, String mimeType, String text, String blob) {
        Resource resource = Resource.builder()
                .uri(uri)
                .name(name)
                .title(title)
                .description(description)
                .mimeType(mimeType)
                .build();
        return new SyncResourceSpecification(resource, (exchange, request) -> new ReadResourceResult(List.of(
                text != null
                        ? new TextResourceContents(request.uri(), mimeType, text)
                        : new BlobResourceContents(request.uri(), mimeType, blob))));
    }

    static List<SyncResourceSpecification> resources() {
        return List.of(
                resource("test://static-text", "static-text", "Static text", "A text resource that never changes",
                        "text/plain", "This is the content of the static text resource.", null),
                resource("test://static-binary", "static-binary", "Static binary", "A 1×1 PNG image", "image/png",
                        null, Content.PNG_PIXEL),
                resource("test://watched-resource", "watched-resource", "Watched resource",
                        "A resource clients may subscribe to", "text/plain", "Watched resource content", null));
    }

    private static final Pattern TEMPLATE_URI = Pattern.compile("test://template/([^/]+)/data");

    static List<SyncResourceTemplateSpecification> resourceTemplates() {
        ResourceTemplate template = ResourceTemplate.builder()
                .uriTemplate("test://template/{id}/data")
                .name("template")
                .title("Data by id")
                .description("JSON data for the id in the URI")
                .mimeType("application/json")
                .build();
        return List.of(new SyncResourceTemplateSpecification(template, (exchange, request) -> {
            Matcher match = TEMPLATE_URI.matcher(request.uri());
            String id = match.matches() ? match.group(1) : "";
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("id", id);
            data.put("templateTest", true);
            data.put("data", "Data for ID: " + id);
            return new ReadResourceResult(
                    List.of(new TextResourceContents(request.uri(), "application/json", Content.json(data))));
        }));
    }

    private static PromptArgument argument(String name, String description) {
        return PromptArgument.builder(name).description(description).required(true).build();
    }

    private static PromptMessage user(io.modelcontextprotocol.spec.McpSchema.Content content) {
        return new PromptMessage(Role.USER, content);
    }

    static List<SyncPromptSpecification> prompts() {
        return List.of(
                new SyncPromptSpecification(
                        Prompt.builder("test_simple_prompt")
                                .title("Simple prompt")
                                .description("A prompt without arguments")
                                .build(),
                        (exchange, request) -> new GetPromptResult(null,
                                List.of(user(new TextContent("This is a simple prompt for testing."))))),
                new SyncPromptSpecification(
                        Prompt.builder("test_prompt_with_arguments")
                                .title("Prompt with arguments")
                                .description("A prompt that repeats its two arguments")
                                .arguments(List.of(argument("arg1", "First argument"),
                                        argument("arg2", "Second argument")))
                                .build(),
                        (exchange, request) -> new GetPromptResult(null, List.of(user(new TextContent(
                                "Prompt with arguments: arg1='" + request.arguments().get("arg1") + "', arg2='"
                                        + request.arguments().get("arg2") + "'"))))),
                new SyncPromptSpecification(
                        Prompt.builder("test_prompt_with_embedded_resource")
                                .title("Prompt with an embedded resource")
                                .description("A prompt that embeds the resource it is given")
                                .arguments(List.of(argument("resourceUri", "URI of the resource to embed")))
                                .build(),
                        (exchange, request) -> new GetPromptResult(null, List.of(
                                user(new EmbeddedResource(null, new TextResourceContents(
                                        String.valueOf(request.arguments().get("resourceUri")), "text/plain",
                                        "Embedded resource content for testing."))),
                                user(new TextContent("Please process the embedded resource above."))))),
                new SyncPromptSpecification(
                        Prompt.builder("test_prompt_with_image")
                                .title("Prompt with an image")
                                .description("A prompt that shows an image")
                                .build(),
                        (exchange, request) -> new GetPromptResult(null, List.of(
                                user(new ImageContent(null, Content.PNG_PIXEL, "image/png")),
                                user(new TextContent("Please analyze the image above."))))));
    }

    static List<SyncCompletionSpecification> completions() {
        return List.of(new SyncCompletionSpecification(
                new PromptReference("test_prompt_with_arguments"), (exchange, request) -> {
                    List<String> values = request.argument().name().equals("arg1")
                            ? Content.completeWord(request.argument().value())
                            : List.of();
                    return new CompleteResult(new CompleteCompletion(values, values.size(), false));
                }));
    }
}
