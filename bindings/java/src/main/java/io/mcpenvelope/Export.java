package io.mcpenvelope;

import java.util.List;

/**
 * Every function of the component's {@code mcp:envelope/api@0.8.0}, with the WIT types its canonical-ABI call is
 * made from: the one table of exports, held to wit/api.wit by a test.
 */
public enum Export {
    CANONICAL_CODES("canonical-codes", "list<string>"),
    CODE_DEFAULTS("code-defaults", "result<string, string>", "request: string"),
    LIMITS("limits", "result<string, string>", "request: string"),
    RENDER("render", "result<string, string>", "spec: string", "format: format"),
    CALL_TOOL_RESULT("call-tool-result", "result<string, string>", "spec: string", "format: format"),
    PROTOCOL_ERROR("protocol-error", "result<string, string>",
            "kind: protocol-error-kind", "message: string", "data: option<string>"),
    EXCEPTION_RESULT("exception-result", "result<string, string>", "spec: string"),
    UPSTREAM_ERROR("upstream-error", "result<string, string>", "spec: string"),
    ACCESS_ERROR("access-error", "result<string, string>", "spec: string"),
    EMPTY_RESULT("empty-result", "result<string, string>", "spec: string"),
    UNKNOWN_TOOL("unknown-tool", "result<string, string>", "request: string"),
    USER_ERROR("user-error", "result<string, string>", "request: string"),
    HANDLER_RESULT("handler-result", "result<string, string>", "request: string"),
    IDEMPOTENCY_KEY_ARGUMENT("idempotency-key-argument", "string"),
    RENDER_PARTIAL("render-partial", "result<string, string>", "spec: string"),
    PARTIAL_RESULT("partial-result", "result<string, string>", "spec: string"),
    PARTIAL_LIMITS("partial-limits", "result<string, string>", "request: string"),
    RENDER_VALIDATION("render-validation", "result<string, string>", "spec: string"),
    VALIDATION_RESULT("validation-result", "result<string, string>", "spec: string"),
    READ_ENVELOPE("read-envelope", "result<string, string>", "text: string"),
    CONTRACT_LOCK("contract-lock", "result<string, string>", "tools: string"),
    CONTRACT_DIFF("contract-diff", "result<string, string>", "request: string"),
    DECIDE("decide", "result<string, string>", "request: string"),
    ANSWER_FOR_REVISION("answer-for-revision", "result<string, string>", "request: string"),
    HOST_STEP("host-step", "result<string, string>", "request: string"),
    SPAN_ATTRIBUTES("span-attributes", "result<string, string>", "tool-result: string"),
    ERROR_OF_RESULT("error-of-result", "result<option<string>, string>", "tool-result: string"),
    BACKOFF("backoff", "result<string, string>", "request: string"),
    LEDGER_KEY("ledger-key", "result<string, string>", "request: string"),
    LEDGER_FAILURE("ledger-failure", "result<string, string>", "request: string"),
    LEDGER_OBSERVE("ledger-observe", "result<string, string>", "request: string"),
    COMPARE_AND_SET_SCRIPT("compare-and-set-script", "string"),
    IDEMPOTENCY_KEY("idempotency-key", "result<string, string>", "request: string"),
    IDEMPOTENCY_BEGIN("idempotency-begin", "result<string, string>", "request: string"),
    IDEMPOTENCY_FINISH("idempotency-finish", "result<string, string>", "request: string"),
    AFTER_TRAP("after-trap", "result<string, string>", "request: string");

    /** The interface every export belongs to, as the core module's export names spell it. */
    public static final String INTERFACE = "mcp:envelope/api@0.8.0";

    /** The WIT name. */
    public final String wit;
    /** The WIT result type. */
    public final String result;
    /** The WIT parameters, {@code name: type} each. */
    public final List<String> params;

    Export(String wit, String result, String... params) {
        this.wit = wit;
        this.result = result;
        this.params = List.of(params);
    }

    /** The signature as wit/api.wit writes it: {@code func(a: string) -> result<string, string>}. */
    public String signature() {
        return "func(" + String.join(", ", params) + ") -> " + result;
    }

    /** The core module's export for the call. */
    String coreName() {
        return INTERFACE + "#" + wit;
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
