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
                () -> Component.get().callFlat(Export.RENDER, 0x7fff_fff0L, 64, 0));
        assertEquals("render", trap.export);
        assertTrue(Envelope.render(ToolError.of("NOT_FOUND", "x"), Format.TEXT).contains("NOT_FOUND"));
    }

    @Test
    void aRenderThatTrapsAnswersTheInternalErrorEnvelope() {
        Component.get().breakNextInstance();
        Reading reading = Envelope.read(Envelope.render(ToolError.of("NOT_FOUND", "x"), Format.JSON));
        assertEquals("INTERNAL_ERROR", reading.code());
        assertEquals("NOT_FOUND", Envelope.read(Envelope.render(ToolError.of("NOT_FOUND", "x"), Format.XML)).code());
    }

    @Test
    void aReaderThatTrapsOnceIsCalledAgain() {
        String result = ToolError.of("RATE_LIMITED", "slow down").result(Format.XML);
        Component.get().breakNextInstance();
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
        assertTrue(Component.get().idle() <= 4 + 1);
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
    void theCoreModuleImportsNothing() throws java.io.IOException {
        try (var in = Component.class.getResourceAsStream(Component.RESOURCE)) {
            var module = com.dylibso.chicory.wasm.Parser.parse(Component.coreModule(in.readAllBytes()));
            assertEquals(0, module.importSection().importCount(), "a host would need to supply imports");
        }
    }

    @Test
    void theCoreModuleIsTheComponentsOnlyOne() {
        byte[] notComponent = {0, 0x61, 0x73, 0x6d, 1, 0, 0, 0};
        assertThrows(IllegalArgumentException.class, () -> Component.coreModule(notComponent));
        assertEquals(17, Envelope.canonicalCodes().size());
    }
}
