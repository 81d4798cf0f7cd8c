package io.mcpenvelope;

import java.util.List;

/**
 * Every function the component's two core modules export, with its WIT interface and the WIT types its
 * canonical-ABI call is made from: the one table of exports, interface by interface (wit/envelope.wit, server.wit,
 * agent.wit, contract.wit) in each file's order, held to those files by a test. The envelope module has the
 * functions of interface {@code envelope}; the full module has every one.
 */
public enum Export {
    CANONICAL_CODES("envelope", "canonical-codes", "list<string>"),
    CODE_DEFAULTS("envelope", "code-defaults", "result<string, string>", "request: string"),
    LIMITS("envelope", "limits", "result<string, string>", "request: string"),
    RENDER("envelope", "render", "result<string, string>", "spec: string", "format: format"),
    CALL_TOOL_RESULT("envelope", "call-tool-result", "result<string, string>", "spec: string", "format: format"),
    PROTOCOL_ERROR("envelope", "protocol-error", "result<string, string>",
            "kind: protocol-error-kind", "message: string", "data: option<string>"),
    RENDER_PARTIAL("envelope", "render-partial", "result<string, string>", "spec: string"),
    PARTIAL_RESULT("envelope", "partial-result", "result<string, string>", "spec: string"),
    PARTIAL_LIMITS("envelope", "partial-limits", "result<string, string>", "request: string"),
    RENDER_VALIDATION("envelope", "render-validation", "result<string, string>", "spec: string"),
    VALIDATION_RESULT("envelope", "validation-result", "result<string, string>", "spec: string"),
    READ_ENVELOPE("envelope", "read-envelope", "result<string, string>", "text: string"),
    ERROR_OF_RESULT("envelope", "error-of-result", "result<option<string>, string>", "tool-result: string"),
    AFTER_TRAP("envelope", "after-trap", "result<string, string>", "request: string"),
    EXCEPTION_RESULT("server", "exception-result", "result<string, string>", "spec: string"),
    UPSTREAM_ERROR("server", "upstream-error", "result<string, string>", "spec: string"),
    ACCESS_ERROR("server", "access-error", "result<string, string>", "spec: string"),
    EMPTY_RESULT("server", "empty-result", "result<string, string>", "spec: string"),
    UNKNOWN_TOOL("server", "unknown-tool", "result<string, string>", "request: string"),
    USER_ERROR("server", "user-error", "result<string, string>", "request: string"),
    HANDLER_RESULT("server", "handler-result", "result<string, string>", "request: string"),
    IDEMPOTENCY_KEY_ARGUMENT("server", "idempotency-key-argument", "string"),
    ANSWER_FOR_REVISION("server", "answer-for-revision", "result<string, string>", "request: string"),
    BACKOFF("server", "backoff", "result<string, string>", "request: string"),
    LEDGER_KEY("server", "ledger-key", "result<string, string>", "request: string"),
    LEDGER_FAILURE("server", "ledger-failure", "result<string, string>", "request: string"),
    LEDGER_OBSERVE("server", "ledger-observe", "result<string, string>", "request: string"),
    COMPARE_AND_SET_SCRIPT("server", "compare-and-set-script", "string"),
    IDEMPOTENCY_KEY("server", "idempotency-key", "result<string, string>", "request: string"),
    IDEMPOTENCY_BEGIN("server", "idempotency-begin", "result<string, string>", "request: string"),
    IDEMPOTENCY_FINISH("server", "idempotency-finish", "result<string, string>", "request: string"),
    DECIDE("agent", "decide", "result<string, string>", "request: string"),
    HOST_STEP("agent", "host-step", "result<string, string>", "request: string"),
    SPAN_ATTRIBUTES("agent", "span-attributes", "result<string, string>", "tool-result: string"),
    CONTRACT_LOCK("contract", "contract-lock", "result<string, string>", "tools: string"),
    CONTRACT_DIFF("contract", "contract-diff", "result<string, string>", "request: string");

    /** The WIT package the core modules export, as their export names spell it. */
    public static final String PACKAGE = "mcp:envelope";
    /** The WIT package's version. */
    public static final String VERSION = "1.0.0";

    /** The WIT interface the function is in: {@code envelope}, {@code server}, {@code agent} or {@code contract}. */
    public final String witInterface;

    /** The WIT name. */
    public final String wit;
    /** The WIT result type. */
    public final String result;
    /** The WIT parameters, {@code name: type} each. */
    public final List<String> params;

    Export(String witInterface, String wit, String result, String... params) {
        this.witInterface = witInterface;
        this.wit = wit;
        this.result = result;
        this.params = List.of(params);
    }

    /** The signature as its WIT file writes it: {@code func(a: string) -> result<string, string>}. */
    public String signature() {
        return "func(" + String.join(", ", params) + ") -> " + result;
    }

    /** The core modules' export for the call: {@code mcp:envelope/envelope@1.0.0#render}. */
    String coreName() {
        return PACKAGE + "/" + witInterface + "@" + VERSION + "#" + wit;
    }

    /** Whether the envelope module has the function (the full module has every one). */
    boolean onEnvelope() {
        return witInterface.equals("envelope");
    }

    /** The export a host calls after reading the answer, to free it. */
    String postReturnName() {
        return "cabi_post_" + coreName();
    }

    /** The export named {@code wit}, or null. */
    public static Export byWitName(String wit) {
        for (Export e : values()) if (e.wit.equals(wit)) return e;
        return null;
    }
}
