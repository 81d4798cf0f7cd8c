package io.mcpenvelope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/** Every shared vector (vectors/*.json) through the package, compared byte for byte (vectors/README.md). */
class VectorsTest {
    static Path vectorsDir() {
        return Path.of(System.getProperty("mcpenvelope.vectors", "../../vectors"));
    }

    /** One case: its test name and its expanded members. */
    record Case(String name, Map<String, Object> data) {}

    @SuppressWarnings("unchecked")
    static List<Case> loadAll() throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(vectorsDir())) {
            files = listing.filter(p -> p.toString().endsWith(".json") && !p.endsWith("schema.json")).sorted().toList();
        }
        List<Case> cases = new ArrayList<>();
        for (Path path : files) {
            String file = path.getFileName().toString().replaceFirst("\\.json$", "");
            for (Object g : (List<Object>) Json.parse(Files.readString(path))) {
                Map<String, Object> group = (Map<String, Object>) g;
                for (Object c : (List<Object>) group.get("cases")) {
                    Map<String, Object> data = (Map<String, Object>) expand(c);
                    cases.add(new Case(file + " / " + group.get("description") + " / " + data.get("description"), data));
                }
            }
        }
        return cases;
    }

    /** {@code {"$repeat": x, "count": n}} and {@code {"$concat": [...]}}, anywhere. */
    @SuppressWarnings("unchecked")
    static Object expand(Object value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> map = (Map<String, Object>) m;
            if (map.containsKey("$repeat")) {
                int count = ((Number) map.get("count")).intValue();
                Object item = expand(map.get("$repeat"));
                if (item instanceof String s) return s.repeat(count);
                List<Object> items = (List<Object>) item, out = new ArrayList<>(items.size() * count);
                for (int i = 0; i < count; i++) out.addAll(items);
                return out;
            }
            if (map.containsKey("$concat")) {
                StringBuilder out = new StringBuilder();
                for (Object part : (List<Object>) map.get("$concat")) out.append((String) expand(part));
                return out.toString();
            }
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(k, expand(v)));
            return out;
        }
        if (value instanceof List<?> list) return list.stream().map(VectorsTest::expand).toList();
        return value;
    }

    /** Every case: the functions of interface envelope on the envelope module, the rest on the full module. */
    @TestFactory
    Stream<DynamicTest> vectors() throws IOException {
        List<Case> cases = loadAll();
        assertTrue(cases.size() >= 190, "too few cases: " + cases.size());
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), runner(c.data())));
    }

    /** The full module standing in for the envelope module, made on first use. */
    private static Component fullAsEnvelope;

    /**
     * The cases of interface envelope again, with the full module standing in for the envelope module: both
     * components give the same bytes.
     */
    @TestFactory
    Stream<DynamicTest> envelopeVectorsOnTheFullModule() throws IOException {
        List<Case> cases = loadAll().stream().filter(c -> interfaceOf(c.data()).equals("envelope")).toList();
        assertTrue(cases.size() >= 190, "too few cases of interface envelope: " + cases.size());
        return cases.stream().map(c -> DynamicTest.dynamicTest("on the full module / " + c.name(), () -> {
            synchronized (VectorsTest.class) {
                if (fullAsEnvelope == null) {
                    fullAsEnvelope = new Component(Component.read(null, Component.FULL_RESOURCE),
                            Component.envelopeExports());
                }
            }
            Component before = Component.replaceEnvelope(fullAsEnvelope);
            try {
                runner(c.data()).execute();
            } finally {
                Component.replaceEnvelope(before);
            }
        }));
    }

    /** The WIT interface of the functions a case calls. */
    static String interfaceOf(Map<String, Object> c) {
        if (c.containsKey("call")) {
            Export e = Export.byWitName((String) c.get("call"));
            return e == null ? "unknown" : e.witInterface;
        }
        return switch ((String) c.get("kind")) {
            case "ledger", "idempotency" -> "server";
            default -> "envelope";
        };
    }

    static Executable runner(Map<String, Object> c) {
        if (c.containsKey("call")) return () -> runCall(c);
        String kind = (String) c.get("kind");
        return switch (kind) {
            case "render" -> () -> runRender(c);
            case "spec-error" -> () -> runSpecError(c);
            case "parse" -> () -> runParse(c, (String) c.get("input"), "tool_error");
            case "protocol-error" -> () -> runProtocolError(c);
            case "validation" -> () -> runValidation(c);
            case "validation-error" -> () -> runValidationError(c);
            case "validation-parse" -> () -> runParse(c, (String) c.get("parseValidation"), "validation_error");
            case "read" -> () -> runRead(c);
            case "error-of-result" -> () -> runErrorOfResult(c);
            case "ledger" -> () -> runLedger(c);
            case "idempotency" -> () -> runIdempotency(c);
            default -> () -> fail("a case of a kind this runner does not know: " + kind);
        };
    }

    /** Exact equality; on a mismatch, where the two part (some texts are a megabyte). */
    static void same(String what, String got, String want) {
        if (want.equals(got)) return;
        if (got == null) fail(what + ": got null, want " + clip(want, 0));
        int at = 0;
        while (at < got.length() && at < want.length() && got.charAt(at) == want.charAt(at)) at++;
        fail(what + ": they part at character " + at + " (lengths " + got.length() + " and " + want.length()
                + "): got …" + clip(got, at) + "…, want …" + clip(want, at) + "…");
    }

    private static String clip(String s, int at) {
        return Json.write(s.substring(Math.max(0, at - 40), Math.min(s.length(), at + 80)));
    }

    static String compact(Object value) {
        return Json.write(value);
    }

    /** Equal by meaning: their JSON forms are identical (vectors/README.md). */
    static void sameError(Object parsed, Object want) {
        same("parsed error (as its JSON form)", Envelope.render(parsed, Format.JSON), Envelope.render(want, Format.JSON));
    }

    static final List<String> RENDERING_KEYS = List.of("limits", "locale", "localizeSteering");

    @SuppressWarnings("unchecked")
    static void runRender(Map<String, Object> c) {
        Object spec = c.containsKey("specText") ? c.get("specText") : c.get("spec");
        Map<String, Object> parsed = (Map<String, Object>) c.getOrDefault("parsed", Map.of());
        for (Map.Entry<String, Object> e : ((Map<String, Object>) c.get("expected")).entrySet()) {
            Format f = Format.of(e.getKey());
            String want = (String) e.getValue();
            same(f.wire() + " rendering", Envelope.render(spec, f), want);
            Reading back = Envelope.read(want);
            assertEquals("tool_error", back.kind(), "reads back as " + back.json());
            sameError(back.body(), parsed.containsKey(e.getKey()) ? parsed.get(e.getKey()) : spec);
            // The reading holds the faithful spec: rendered again under the spec's limits and locale it gives the
            // same text, lossy or not (caps cut once).
            Map<String, Object> again = new LinkedHashMap<>(back.body());
            if (spec instanceof Map<?, ?> m) {
                for (String key : RENDERING_KEYS) if (m.containsKey(key)) again.put(key, m.get(key));
            }
            same(f.wire() + " rendering of the reading", Envelope.render(again, f), want);
        }
        for (Map.Entry<String, Object> e : ((Map<String, Object>) c.getOrDefault("result", Map.of())).entrySet()) {
            same(e.getKey() + " CallToolResult", Envelope.result(spec, Format.of(e.getKey())), (String) e.getValue());
        }
    }

    static void runSpecError(Map<String, Object> c) {
        String spec = c.containsKey("specText") ? (String) c.get("specText") : compact(c.get("spec"));
        String error = (String) c.get("error");
        same("xml refusal", assertThrows(SpecException.class, () -> Envelope.render(spec, Format.XML)).getMessage(), error);
        same("text refusal", assertThrows(SpecException.class, () -> Envelope.render(spec, Format.TEXT)).getMessage(), error);
        same("result refusal", assertThrows(SpecException.class, () -> Envelope.result(spec, Format.JSON)).getMessage(), error);
    }

    static void runParse(Map<String, Object> c, String input, String kind) {
        if (c.containsKey("malformed")) {
            var refused = assertThrows(MalformedEnvelopeException.class, () -> Envelope.read(input));
            same("malformed message", refused.getMessage(), (String) c.get("malformed"));
            return;
        }
        Reading got = Envelope.read(input);
        Object want = c.get("parsed");
        if (want == null) {
            assertTrue(!kind.equals(got.kind()), "found " + kind + " where there is none: " + got.json());
        } else {
            assertEquals(kind, got.kind(), "read as " + got.json());
            if (kind.equals("tool_error")) sameError(got.body(), want);
            else same("validation envelope", compact(got.body()), compact(want));
        }
    }

    static void runProtocolError(Map<String, Object> c) {
        @SuppressWarnings("unchecked")
        Map<String, Object> p = (Map<String, Object>) c.get("protocolError");
        String got = Envelope.protocolError(ProtocolErrorKind.of((String) p.get("kind")), (String) p.get("message"),
                p.get("data"));
        same("JSON-RPC error", got, (String) c.get("expected"));
    }

    static void runValidation(Map<String, Object> c) {
        Object spec = c.get("validation"); // a string is the spec's raw JSON text, passed as is
        String expected = (String) c.get("expected");
        same("validation envelope", Envelope.renderValidation(spec), expected);
        if (c.containsKey("result")) same("validation CallToolResult", Envelope.validationResult(spec), (String) c.get("result"));
        Reading back = Envelope.read(expected);
        assertEquals("validation_error", back.kind(), "reads back as " + back.json());
        if (c.containsKey("parsed")) same("parsed envelope", compact(back.body()), compact(c.get("parsed")));
    }

    static void runValidationError(Map<String, Object> c) {
        Object spec = c.get("validation");
        String error = (String) c.get("error");
        same("refusal", assertThrows(SpecException.class, () -> Envelope.renderValidation(spec)).getMessage(), error);
        same("refusal", assertThrows(SpecException.class, () -> Envelope.validationResult(spec)).getMessage(), error);
    }

    static void runRead(Map<String, Object> c) {
        Object input = c.get("read");
        String text = input instanceof String s ? s : compact(input);
        if (c.containsKey("malformed")) {
            var refused = assertThrows(MalformedEnvelopeException.class, () -> Envelope.read(text));
            same("malformed message", refused.getMessage(), (String) c.get("malformed"));
            return;
        }
        same("reading", Envelope.read(text).json(), compact(c.get("reading")));
    }

    static void runErrorOfResult(Map<String, Object> c) {
        String got = Raw.errorOfResult(compact(c.get("errorOfResult")));
        Object outcome = c.get("outcome");
        if (outcome == null) assertNull(got, "an outcome where there is none");
        else same("client outcome", got, compact(outcome));
    }

    static void runCall(Map<String, Object> c) {
        String name = (String) c.get("call");
        Executable call;
        String[] got = new String[1];
        switch (name) {
            case "idempotency-key-argument" -> call = () -> got[0] = Raw.idempotencyKeyArgument();
            case "compare-and-set-script" -> call = () -> got[0] = Raw.compareAndSetScript();
            case "canonical-codes" -> call = () -> got[0] = compact(Raw.canonicalCodes());
            default -> {
                assertNotNull(Export.byWitName(name), "no export named " + name);
                call = () -> got[0] = Raw.call(name, compact(c.get("input")));
            }
        }
        if (c.containsKey("refused")) {
            same(name + " refusal", assertThrows(SpecException.class, call).getMessage(), (String) c.get("refused"));
            return;
        }
        try {
            call.execute();
        } catch (Throwable t) {
            throw new AssertionError(name + " failed: " + t, t);
        }
        Object want = c.get("output");
        same(name + " output", got[0], want instanceof String s ? s : compact(want));
    }

    /** A member of an answer's JSON object: absent and null told apart by {@code containsKey}. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> members(String answer) {
        return (Map<String, Object>) Json.parse(answer);
    }

    /** The steps on one conversation's ledger, its streaks kept here as a host keeps them. */
    @SuppressWarnings("unchecked")
    static void runLedger(Map<String, Object> c) {
        Object stopAfter = ((Map<String, Object>) c.get("ledger")).getOrDefault("stopAfter", 2);
        Map<String, String> streaks = new HashMap<>();
        int n = 0;
        for (Object s : (List<Object>) c.get("steps")) {
            Map<String, Object> step = (Map<String, Object>) s;
            String tool = (String) step.get("tool");
            if (step.containsKey("success")) {
                streaks.remove(tool);
                n++;
                continue;
            }
            boolean observe = step.containsKey("observe");
            Map<String, Object> request = new LinkedHashMap<>();
            if (observe) request.put("result", step.get("observe"));
            else request.put("spec", step.get("failure"));
            request.put("arguments", step.get("arguments"));
            request.put("stopAfter", stopAfter);
            if (!observe) request.put("format", step.getOrDefault("format", "xml"));
            request.put("streak", streaks.get(tool));
            Map<String, Object> answer = members(Raw.call(observe ? "ledger-observe" : "ledger-failure", compact(request)));
            if (answer.containsKey("streak")) {
                if (answer.get("streak") == null) streaks.remove(tool);
                else streaks.put(tool, (String) answer.get("streak"));
            }
            Object sent = answer.get("result");
            if (observe) same("step " + n + " (observe)", compact(sent), compact(step.get("replaced")));
            else same("step " + n, compact(sent), compact(step.get("result")));
            n++;
        }
    }

    /** The steps on one idempotency store, its records kept here in memory (at most {@code capacity}, oldest out). */
    @SuppressWarnings("unchecked")
    static void runIdempotency(Map<String, Object> c) {
        Map<String, Object> options = (Map<String, Object>) c.get("idempotency");
        int capacity = ((Number) options.getOrDefault("capacity", 1000)).intValue();
        Object ttl = options.getOrDefault("ttlSeconds", 86400);
        Map<String, String> records = new HashMap<>();
        ArrayDeque<String> order = new ArrayDeque<>();
        int n = 0;
        for (Object s : (List<Object>) c.get("steps")) {
            Map<String, Object> step = (Map<String, Object>) s;
            Map<String, Object> keyRequest = new LinkedHashMap<>();
            keyRequest.put("tool", step.get("tool"));
            keyRequest.put("key", step.get("key"));
            String storeKey = Raw.call("idempotency-key", compact(keyRequest));
            if (step.containsKey("begin")) {
                Map<String, Object> request = new LinkedHashMap<>(keyRequest);
                request.put("arguments", step.get("begin"));
                request.put("nowMs", step.get("nowMs"));
                request.put("ttlSeconds", ttl);
                request.put("format", step.getOrDefault("format", "xml"));
                request.put("stored", records.get(storeKey));
                Map<String, Object> got = members(Raw.call("idempotency-begin", compact(request)));
                if (got.get("record") instanceof String claim) {
                    if (records.put(storeKey, claim) != null) order.remove(storeKey);
                    order.addLast(storeKey);
                    while (records.size() > Math.max(capacity, 1)) {
                        String oldest = order.pollFirst();
                        if (oldest != null) records.remove(oldest);
                    }
                }
                // What a store answers: the outcome, its ledger step and the result, without the claim.
                Map<String, Object> answered = new LinkedHashMap<>();
                answered.put("outcome", got.get("outcome"));
                if (got.get("ledger") != null) answered.put("ledger", got.get("ledger"));
                if (got.get("result") != null) answered.put("result", got.get("result"));
                same("step " + n + " (begin)", compact(answered), compact(step.get("answer")));
            } else {
                String record = records.get(storeKey);
                boolean running = record != null && !members(record).containsKey("result");
                String finished;
                String refusal = null;
                if (!running) {
                    finished = "absent";
                } else {
                    Map<String, Object> request = new LinkedHashMap<>(keyRequest);
                    request.put("claim", record);
                    request.put("result", step.get("finish"));
                    request.put("nowMs", step.get("nowMs"));
                    request.put("ttlSeconds", ttl);
                    try {
                        Map<String, Object> answer = members(Raw.call("idempotency-finish", compact(request)));
                        if (answer.get("record") instanceof String stored) {
                            records.put(storeKey, stored);
                        } else {
                            records.remove(storeKey);
                            order.remove(storeKey);
                        }
                        finished = (String) answer.get("finished");
                    } catch (SpecException e) {
                        finished = null;
                        refusal = e.getMessage();
                    }
                }
                if (step.containsKey("refused")) same("step " + n + " (finish refusal)", refusal, (String) step.get("refused"));
                else same("step " + n + " (finish)", finished, (String) step.get("finished"));
            }
            n++;
        }
    }
}
