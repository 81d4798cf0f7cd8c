package io.mcpenvelope.demo;

import io.mcpenvelope.Envelope;
import io.mcpenvelope.Format;
import io.mcpenvelope.Json;
import io.mcpenvelope.Raw;
import io.mcpenvelope.ToolError;
import io.mcpenvelope.mcp.EnvelopeTools;
import io.mcpenvelope.mcp.Idempotency;
import io.mcpenvelope.mcp.Ledger;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The demo billing server of demo/billing.md as a Java author writes it: the official MCP Java SDK's sync server
 * over stdio (or, with {@code --http PORT}, Streamable HTTP at http://127.0.0.1:PORT/mcp through the SDK's servlet
 * transport on an embedded Jetty), tool specifications with JSON Schema inputs, mcp-envelope's one line
 * ({@link EnvelopeTools} around the specifications, with a {@link Ledger}) and the core's helpers for every
 * failure, the backoff and the idempotency store, so no envelope is worded here. Its TypeScript, Python and Rust
 * twins answer every fault with the same bytes. The state is the process's: one ledger, one idempotency store and
 * one set of books for every client.
 */
public final class BillingServer {
    private static final String JO = "jo@example.com";
    /** The backoff's budget inside one call: under a client's usual timeout. */
    private static final int BACKOFF_DEADLINE_MS = 2_500;
    private static final McpJsonMapper MAPPER = McpJsonDefaults.getMapper();

    /** One invoice: amounts in cents; {@code refundableCents} as before any refund. */
    private record Invoice(String customer, long cents, String status, long refundableCents) {
        String line(String id) {
            return id + ": " + euros(cents) + " EUR, " + status;
        }
    }

    /** The one customer's invoices, in listing order. */
    private static final Map<String, Invoice> INVOICES = new LinkedHashMap<>();

    static {
        INVOICES.put("inv_1", new Invoice(JO, 12_000, "paid", 12_000));
        INVOICES.put("inv_2", new Invoice(JO, 7_550, "open", 0));
    }

    /** What a database driver throws (a JDBC wrapper's runtime exception): never the author's words for the model. */
    static final class DatabaseException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        DatabaseException(String message) {
            super(message);
        }
    }

    /** What a refund writes and later calls read, in this process. */
    private final Map<String, Long> refunded = new HashMap<>();
    private long refunds;
    /** A refund's key makes its retry safe: the first outcome is replayed, the write never runs twice. */
    private final Idempotency idempotency = new Idempotency();

    static String euros(long cents) {
        return String.format("%d.%02d", cents / 100, cents % 100);
    }

    static CallToolResult text(String body) {
        return CallToolResult.builder().addTextContent(body).isError(false).build();
    }

    /** A JSON text the core's export answers, for the requests this server builds. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> core(String export, Map<String, Object> request) {
        return (Map<String, Object>) Json.parse(Raw.call(export, Json.write(request)));
    }

    static Map<String, Object> map(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) map.put((String) pairs[i], pairs[i + 1]);
        return map;
    }

    /** Throws the access helper's FORBIDDEN for a blocked customer. */
    static void checkAccess(String customer) {
        if (!customer.equals("blocked@example.com")) return;
        Map<String, Object> spec = core("access-error",
                map("kind", "forbidden", "action", "read", "resource", "the invoices of " + customer));
        throw spec(spec);
    }

    /** A spec the core wrote, as the exception a handler throws. */
    @SuppressWarnings("unchecked")
    static ToolError spec(Map<String, Object> spec) {
        ToolError error = ToolError.of((String) spec.get("code"), (String) spec.get("message"));
        spec.forEach((member, value) -> {
            if (!member.equals("code") && !member.equals("message")) error.put(member, value);
        });
        return error;
    }

    /** The billing API this server fronts, simulated in-process: the upstream helper's error for its status. */
    static Map<String, Object> upstreamError(int status, String retryAfter) {
        Map<String, Object> failure = map("status", status, "headers",
                retryAfter == null ? Map.of() : map("Retry-After", retryAfter), "service", "billing-api");
        Map<String, Object> report = core("upstream-error", failure);
        System.err.println("upstream billing-api answered " + status);
        @SuppressWarnings("unchecked")
        Map<String, Object> error = (Map<String, Object>) report.get("error");
        return error;
    }

    static ToolError notFound(String invoiceId, String message) {
        ToolError error = ToolError.of("NOT_FOUND", message).actions("list_invoices");
        return invoiceId == null ? error : error.detail("invoiceId", invoiceId);
    }

    static Tool tool(String name, String description, String schema, ToolAnnotations annotations) {
        return Tool.builder().name(name).description(description).inputSchema(MAPPER, schema).annotations(annotations)
                .build();
    }

    static final ToolAnnotations READ_ONLY = ToolAnnotations.builder().readOnlyHint(true).build();
    static final ToolAnnotations IDEMPOTENT = ToolAnnotations.builder().idempotentHint(true).build();

    /** The three tools of demo/billing.md, in its order. */
    List<SyncToolSpecification> tools() {
        return List.of(
                new SyncToolSpecification(tool("get_invoice", "Get one invoice of a customer.", """
                        {"type":"object","properties":{"customer":{"type":"string","format":"email"},\
                        "invoice_id":{"type":"string","pattern":"^inv_[a-z0-9]+$"}},\
                        "required":["customer","invoice_id"]}""", READ_ONLY), this::getInvoice),
                new SyncToolSpecification(tool("list_invoices", "List a customer's invoices.", """
                        {"type":"object","properties":{"customer":{"type":"string","format":"email"},\
                        "status":{"type":"string","enum":["open","paid"]}},"required":["customer"]}""",
                        READ_ONLY), this::listInvoices),
                new SyncToolSpecification(tool("refund_order", "Refund part or all of an invoice.", """
                        {"type":"object","properties":{"invoice_id":{"type":"string","pattern":"^inv_[a-z0-9]+$"},\
                        "amount":{"type":"number","exclusiveMinimum":0,"maximum":10000},\
                        "idempotency_key":{"type":"string","minLength":8}},\
                        "required":["invoice_id","amount","idempotency_key"]}""", IDEMPOTENT),
                        Idempotency.idempotent(idempotency, "refund_order", this::refundOrder)));
    }

    CallToolResult getInvoice(McpSyncServerExchange exchange, CallToolRequest request) {
        String customer = (String) request.arguments().get("customer");
        String id = (String) request.arguments().get("invoice_id");
        checkAccess(customer);
        if (id.equals("inv_500")) throw new DatabaseException("db connect failed: password=hunter2");
        if (id.equals("inv_429") || id.equals("inv_430")) {
            // The waiting is done here, within 2.5 s, not left to the model.
            return retryWithin(exchange, request, attempt -> {
                boolean limited = id.equals("inv_430") || attempt == 1;
                if (!limited) return json(text(INVOICES.get("inv_1").line("inv_1")));
                return Envelope.result(upstreamError(429, "1"), Format.XML);
            });
        }
        if (id.equals("inv_504")) throw spec(upstreamError(504, null));
        if (id.equals("inv_old")) {
            return EnvelopeTools.result(Envelope.result(
                    ToolError.of("DEPRECATED", "inv_old is an archived invoice id; use inv_1 instead.")
                            .suggest("Use invoice_id inv_1 from now on.").severity("warning"), Format.XML));
        }
        Invoice invoice = INVOICES.get(id);
        if (invoice == null || !invoice.customer().equals(customer) || !customer.equals(JO)) {
            throw notFound(id, "No invoice " + id + " for " + customer + ".");
        }
        return text(invoice.line(id));
    }

    /** A result as the JSON text the core's steps take. */
    static String json(CallToolResult result) {
        try {
            return MAPPER.writeValueAsString(result);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The rate-limited upstream, retried inside the call as the core's backoff says: each attempt's result (JSON)
     * goes to the core, which answers a wait (with the progress to report) or the result to send.
     */
    static CallToolResult retryWithin(McpSyncServerExchange exchange, CallToolRequest request,
            IntFunction<String> attempt) {
        long started = System.currentTimeMillis();
        Object token = request.meta() == null ? null : request.meta().get("progressToken");
        for (int n = 1; ; n++) {
            Map<String, Object> step = core("backoff", map("attempt", n, "elapsedMs",
                    System.currentTimeMillis() - started, "deadlineMs", BACKOFF_DEADLINE_MS,
                    "failure", Json.parse(attempt.apply(n))));
            if (step.containsKey("result")) return EnvelopeTools.result(Json.write(step.get("result")));
            @SuppressWarnings("unchecked")
            Map<String, Object> progress = (Map<String, Object>) step.get("progress");
            if (token != null) {
                exchange.progressNotification(new ProgressNotification(token,
                        ((Number) progress.get("progress")).doubleValue(),
                        ((Number) progress.get("total")).doubleValue(),
                        (String) progress.get("message")));
            }
            try {
                Thread.sleep(((Number) step.get("waitMs")).longValue());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return EnvelopeTools.result(attempt.apply(n));
            }
        }
    }

    CallToolResult listInvoices(McpSyncServerExchange exchange, CallToolRequest request) {
        String customer = (String) request.arguments().get("customer");
        Object status = request.arguments().get("status");
        checkAccess(customer);
        if (customer.equals("partial@example.com")) {
            return EnvelopeTools.result(Envelope.partialResult(map(
                    "task", "invoices for " + customer,
                    "obtained", List.of("inv_7: 10.00 EUR, open"),
                    "failed", List.of(map("item", "the 2025 archive", "code", "TIMEOUT",
                            "message", "The archive did not answer in time.")))));
        }
        if (customer.equals("flaky@example.com")) throw spec(upstreamError(503, null));
        if (!customer.equals(JO)) {
            String empty = Raw.call("empty-result", Json.write(map("what", "invoices", "query", "for " + customer)));
            return EnvelopeTools.result(empty);
        }
        StringBuilder lines = new StringBuilder();
        INVOICES.forEach((id, invoice) -> {
            if (!invoice.customer().equals(customer) || (status != null && !status.equals(invoice.status()))) return;
            if (lines.length() > 0) lines.append('\n');
            lines.append(invoice.line(id));
        });
        return text(lines.toString());
    }

    /** The write itself: at most once per idempotency key ({@link Idempotency}, around it in {@link #tools}). */
    CallToolResult refundOrder(McpSyncServerExchange exchange, CallToolRequest request) {
        String id = (String) request.arguments().get("invoice_id");
        double amount = ((Number) request.arguments().get("amount")).doubleValue();
        Invoice invoice = INVOICES.get(id);
        if (invoice == null) throw notFound(null, "No invoice " + id + ".");
        // To whole cents, half away from zero (amount is positive), as every twin rounds.
        long cents = Math.round(amount * 100);
        long number;
        synchronized (refunded) {
            long left = invoice.refundableCents() - refunded.getOrDefault(id, 0L);
            if (cents > left) {
                String refundable = euros(left);
                String message = "Refund of " + euros(cents) + " exceeds the refundable " + refundable + " on " + id + ".";
                throw ToolError.of("REFUND_LIMIT_EXCEEDED", message)
                        .category("business").retryable(false)
                        .suggest("Tell the user the most that can be refunded; do not retry with a larger amount.")
                        .customerMessage("We can refund at most " + refundable + " EUR on this invoice.");
            }
            refunded.merge(id, cents, Long::sum);
            number = ++refunds;
        }
        return text("Refunded " + euros(cents) + " EUR on " + id + " (refund rf_" + number + ").");
    }

    /**
     * The server on a transport. {@code BILLING_ENVELOPE=off} serves the same tools without the integration (the
     * conformance suite's plain run): their failures then reach the client as the SDK alone answers them.
     */
    static void serve(McpServerTransportProviderBase transport, boolean enveloped, List<SyncToolSpecification> tools,
            EnvelopeTools envelope) {
        McpServer.SyncSpecification<?> server = transport instanceof StdioServerTransportProvider stdio
                ? McpServer.sync(stdio)
                : McpServer.sync((HttpServletStreamableServerTransportProvider) transport);
        server.serverInfo("billing", "1.0.0").capabilities(ServerCapabilities.builder().tools(true).build());
        // The integration checks the arguments against each tool's schema and words the failure; the SDK's own
        // check would answer first, in its words.
        if (enveloped) server.validateToolInputs(false).tools(envelope.tools(tools));
        else server.tools(tools);
        server.build();
    }

    public static void main(String[] args) throws Exception {
        // Before any logger exists: the SDK's and Jetty's logs go to stderr, warnings and worse only.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        if (System.getenv("BILLING_REDIS_URL") != null) {
            System.err.println("billing: BILLING_REDIS_URL is not supported by the Java server: "
                    + "its state is the process's");
            System.exit(1);
        }
        // An unknown tool gets the JSON-RPC -32602 the MCP specification asks for (protocol-error, the default),
        // or SEP-2145's isError result with BILLING_UNKNOWN_TOOL=tool-result.
        String option = System.getenv().getOrDefault("BILLING_UNKNOWN_TOOL", "protocol-error");
        EnvelopeTools.UnknownTool unknownTool = EnvelopeTools.UnknownTool.of(option);
        if (unknownTool == null) {
            System.err.println("BILLING_UNKNOWN_TOOL is \"" + option + "\": expected protocol-error or tool-result");
            System.exit(1);
        }
        boolean enveloped = !"off".equals(System.getenv("BILLING_ENVELOPE"));
        // One repeat ledger for the process: its one stdio client, or every HTTP session.
        EnvelopeTools envelope = EnvelopeTools.builder().ledger(new Ledger(2)).unknownTool(unknownTool).build();
        McpJsonMapper mapper = enveloped ? envelope.jsonMapper(MAPPER) : MAPPER;
        List<SyncToolSpecification> tools = new BillingServer().tools();

        if (args.length == 0) {
            serve(new StdioServerTransportProvider(mapper), enveloped, tools, envelope);
            return;
        }
        if (args.length != 2 || !args[0].equals("--http") || !args[1].matches("[0-9]{1,5}")
                || Integer.parseInt(args[1]) > 65535) {
            System.err.println("usage: demo-billing-java [--http PORT]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[1]);
        // A loopback server accepts only its own Host and Origin (DNS rebinding protection).
        String self = "127.0.0.1:" + port;
        String localhost = "localhost:" + port;
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(mapper)
                .mcpEndpoint("/mcp")
                .securityValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedHosts(List.of(self, localhost))
                        .allowedOrigins(List.of("http://" + self, "http://" + localhost))
                        .build())
                .build();
        serve(transport, enveloped, tools, envelope);
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
        System.err.println("billing: serving MCP Streamable HTTP at http://127.0.0.1:" + port + "/mcp");
        jetty.join();
    }
}
