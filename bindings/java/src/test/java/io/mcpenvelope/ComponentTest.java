package io.mcpenvelope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Loading, traps, threads and the front's shapes. */
class ComponentTest {
    @Test
    void aTrapThrowsAndTheNextCallWorks() {
        // A string pointer past the end of memory: the core traps reading it.
        TrapException trap = assertThrows(TrapException.class,
                () -> Component.envelope().callFlat(Export.RENDER, 0x7fff_fff0L, 64, 0));
        assertEquals("render", trap.export);
        assertTrue(Envelope.render(ToolError.of("NOT_FOUND", "x"), Format.TEXT).contains("NOT_FOUND"));
    }

    @Test
    void aRenderThatTrapsAnswersTheInternalErrorEnvelope() {
        Component.envelope().breakNextInstance();
        Reading reading = Envelope.read(Envelope.render(ToolError.of("NOT_FOUND", "x"), Format.JSON));
        assertEquals("INTERNAL_ERROR", reading.code());
        assertEquals("NOT_FOUND", Envelope.read(Envelope.render(ToolError.of("NOT_FOUND", "x"), Format.XML)).code());
    }

    @Test
    void aReaderThatTrapsOnceIsCalledAgain() {
        String result = ToolError.of("RATE_LIMITED", "slow down").result(Format.XML);
        Component.envelope().breakNextInstance();
        assertEquals("RATE_LIMITED", Envelope.read(result).code());
    }

    @Test
    void callsFromManyThreadsAgree() throws Exception {
        String want = Envelope.render(ToolError.of("TIMEOUT", "slow"), Format.XML);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> got = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                got.add(threads.submit(() -> Envelope.render(ToolError.of("TIMEOUT", "slow"), Format.XML)));
            }
            for (Future<String> f : got) assertEquals(want, f.get());
        } finally {
            threads.shutdown();
        }
        assertTrue(Component.envelope().idle() <= 4 + 1);
    }

    @Test
    void theBuilderRendersAndReadsBack() {
        ToolError error = ToolError.of("RATE_LIMITED", "Too many calls").retryAfter(30).actions("list_invoices")
                .detail("limit", 100).customerMessage("Please wait a moment.");
        Reading back = Envelope.read(error.result(Format.XML));
        assertEquals("tool_error", back.kind());
        assertEquals("RATE_LIMITED", back.code());
        assertEquals(Boolean.TRUE, back.retryable());
        assertEquals(Json.parse("30").toString(), String.valueOf(back.body().get("retryAfter")));
        assertEquals(List.of("list_invoices"), back.body().get("availableActions"));
    }

    @Test
    void aRefusalCarriesTheCoresWords() {
        SpecException e = assertThrows(SpecException.class, () -> Envelope.render(Map.of("code", ""), Format.XML));
        assertEquals("\"code\" must not be empty", e.getMessage());
        assertEquals("none", Envelope.read("plain text").kind());
    }

    @Test
    void neitherCoreModuleImportsAnything() {
        for (String resource : List.of(Component.ENVELOPE_RESOURCE, Component.FULL_RESOURCE)) {
            var module = com.dylibso.chicory.wasm.Parser.parse(Component.read(null, resource));
            assertEquals(0, module.importSection().importCount(), resource + ": a host would need to supply imports");
        }
    }

    @Test
    void theEnvelopeModuleLacksTheOtherInterfaces() {
        byte[] envelopeModule = Component.read(null, Component.ENVELOPE_RESOURCE);
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> new Component(envelopeModule, List.of(Export.values())));
        assertTrue(String.valueOf(e.getMessage()).contains("mcp:envelope/server@1.0.0#"), e.getMessage());
    }

    @Test
    void aTrapInTheFullModuleIsAnsweredByTheFullModule() {
        Component.full().breakNextInstance();
        String answer = Raw.call("handler-result", "{\"tool\":\"t\",\"outcome\":{\"error\":"
                + "{\"code\":\"NOT_FOUND\",\"message\":\"m\"}},\"format\":\"text\"}");
        assertTrue(answer.contains("INTERNAL_ERROR"), answer);
        assertTrue(Raw.call("handler-result", "{\"tool\":\"t\",\"outcome\":{\"error\":"
                + "{\"code\":\"NOT_FOUND\",\"message\":\"m\"}},\"format\":\"text\"}").contains("NOT_FOUND"));
    }
}
