package io.mcpenvelope;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The package's front (render, result, read, validation, partial results, codes) runs on the envelope module
 * alone: a program that uses only it never loads the full module. Checked in a JVM of its own, since the other
 * tests of this one load the full module.
 */
class FrontLoadsOnlyTheEnvelopeModuleTest {
    /** The program: uses the whole front, then says whether the full module was loaded, then uses the server's side. */
    public static void main(String[] args) {
        ToolError error = ToolError.of("NOT_FOUND", "No invoice inv_404");
        String xml = Envelope.render(error, Format.XML);
        String result = Envelope.result(error, Format.JSON);
        Envelope.read(xml);
        Envelope.read(result);
        Map<String, Object> validation = Map.of("action", "billing.get_invoice", "issues",
                List.of(Map.of("path", List.of("id"), "code", "invalid_format", "format", "email", "input", "x")));
        Envelope.renderValidation(validation);
        Envelope.validationResult(validation);
        Map<String, Object> partial = Map.of("task", "t", "obtained", List.of("a"),
                "failed", List.of(Map.of("item", "b", "code", "TIMEOUT", "message", "slow")));
        Envelope.renderPartial(partial);
        Envelope.partialResult(partial);
        Envelope.canonicalCodes();
        Envelope.protocolError(ProtocolErrorKind.INVALID_PARAMS, "bad", null);
        Raw.errorOfResult(result);
        System.out.println("front: full module loaded " + Component.fullLoaded());
        Raw.call("decide", "{\"result\":" + result + "}");
        System.out.println("decide: full module loaded " + Component.fullLoaded());
    }

    @Test
    void theFrontNeverLoadsTheFullModule() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                FrontLoadsOnlyTheEnvelopeModuleTest.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertEquals("front: full module loaded false\ndecide: full module loaded true\n", out);
    }
}
