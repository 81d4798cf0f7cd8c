package io.mcpenvelope;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The Java package's per-call cost: {@link Envelope#render} of the seed spec every host's benchmark times
 * ({@code benches/inputs.json}) against a hand-written pure-Java renderer giving the same bytes, checked first.
 * The renderer handles only that input (with escaping as a correct port must do it for any string) and is no part
 * of the package. Its name keeps it out of {@code mvn verify} (surefire runs {@code *Test} classes); {@code
 * scripts/bench} runs it alone, with {@code MCP_ENVELOPE_BENCH_OUT} naming the file it writes {@code {"host":
 * "java", "rows": [...]}} to for {@code tools/write-benchmarks.mjs}: the medians of interleaved rounds.
 *
 * <pre>MCP_ENVELOPE_BENCH_OUT=out.json mvn -q test -Dtest=RenderBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class RenderBenchmark {
    private static final int ROUNDS = 9;
    private static final long SAMPLE_NANOS = 200_000_000L;

    @Test
    void writesTheRows() throws IOException {
        String outPath = System.getenv("MCP_ENVELOPE_BENCH_OUT");
        Assumptions.assumeTrue(outPath != null && !outPath.isEmpty(), "MCP_ENVELOPE_BENCH_OUT is not set");
        Path out = Path.of(outPath);
        Path inputs = Path.of(System.getProperty("mcpenvelope.vectors"), "..", "benches", "inputs.json");
        @SuppressWarnings("unchecked")
        Map<String, Object> all = (Map<String, Object>) Json.parse(Files.readString(inputs, StandardCharsets.UTF_8));
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) all.get("render");
        String specText = Json.write(spec);

        String ours = Envelope.render(specText, Format.XML);
        String reference = renderByHand(spec);
        if (!ours.equals(reference)) {
            throw new AssertionError("Envelope.render gave\n" + ours + "\nthe pure-Java renderer\n" + reference);
        }
        Runnable render = () -> Envelope.render(specText, Format.XML);
        Runnable byHand = () -> renderByHand(spec);
        warmUp(render);
        warmUp(byHand);
        long renderCalls = callsPerSample(render);
        long byHandCalls = callsPerSample(byHand);
        double[] renderTimes = new double[ROUNDS];
        double[] byHandTimes = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            renderTimes[round] = microsPerCall(render, renderCalls);
            byHandTimes[round] = microsPerCall(byHand, byHandCalls);
        }
        double value = round(median(renderTimes));
        double referenceValue = round(median(byHandTimes));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("table", "per-call");
        row.put("case", compilesHugeMethods() ? "render (JVM with -XX:-DontCompileHugeMethods)" : "render");
        row.put("value", new BigDecimal(Double.toString(value)));
        row.put("unit", "µs");
        row.put("reference", new BigDecimal(Double.toString(referenceValue)));
        row.put("referenceName", "pure-Java renderer");
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("host", "java");
        report.put("rows", List.of(row));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, Json.write(report) + "\n", StandardCharsets.UTF_8);
        System.out.printf("render %.2f µs, pure-Java renderer %.2f µs%n", value, referenceValue);
    }

    /** XML content escapes {@code & < CR} and the {@code >} of {@code ]]>}; characters XML 1.0 forbids become U+FFFD. */
    static String text(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '\r' -> out.append("&#13;");
                case '>' -> out.append(i >= 2 && s.charAt(i - 1) == ']' && s.charAt(i - 2) == ']' ? "&gt;" : ">");
                default -> out.append(forbidden(c) ? '\uFFFD' : c);
            }
        }
        return out.toString();
    }

    /** An attribute also escapes {@code "}, tab and LF. */
    static String attr(String s) {
        return text(s).replace("\"", "&quot;").replace("\t", "&#9;").replace("\n", "&#10;");
    }

    private static boolean forbidden(char c) {
        return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == '\uFFFE' || c == '\uFFFF';
    }

    /** The {@code <tool_error>} of a spec holding every member the seed has. */
    @SuppressWarnings("unchecked")
    static String renderByHand(Map<String, Object> spec) {
        StringBuilder xml = new StringBuilder(512);
        Object severity = spec.getOrDefault("severity", "error");
        xml.append("<tool_error code=\"").append(attr((String) spec.get("code"))).append("\" severity=\"")
                .append(severity).append("\">\n");
        xml.append("  <message>").append(text((String) spec.get("message"))).append("</message>\n");
        xml.append("  <recovery>").append(text((String) spec.get("suggestion"))).append("</recovery>\n");
        xml.append("  <available_actions>\n");
        for (Object action : (List<Object>) spec.get("availableActions")) {
            xml.append("    <action>").append(text((String) action)).append("</action>\n");
        }
        xml.append("  </available_actions>\n  <details>\n");
        for (Map.Entry<String, Object> detail : ((Map<String, Object>) spec.get("details")).entrySet()) {
            xml.append("    <detail key=\"").append(attr(detail.getKey())).append("\">")
                    .append(text(String.valueOf(detail.getValue()))).append("</detail>\n");
        }
        xml.append("  </details>\n  <retry_after>").append(spec.get("retryAfter")).append(" seconds</retry_after>\n");
        return xml.append("</tool_error>").toString();
    }

    private static long callsPerSample(Runnable call) {
        long calls = 100;
        while (true) {
            long start = System.nanoTime();
            for (long i = 0; i < calls; i++) call.run();
            long elapsed = System.nanoTime() - start;
            if (elapsed >= SAMPLE_NANOS / 4) return Math.max(100, calls * SAMPLE_NANOS / Math.max(1, elapsed));
            calls *= 4;
        }
    }

    /**
     * Whether this JVM compiles methods past 8000 bytes of bytecode. By default HotSpot leaves them interpreted, and
     * a few functions of the compiled core are that large, the spec reader every render runs among them: it runs in
     * HotSpot's interpreter for the life of the process, half of a render's time. {@code scripts/bench} times the
     * render both ways.
     */
    private static boolean compilesHugeMethods() {
        return "false".equals(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("DontCompileHugeMethods").getValue());
    }

    /**
     * Runs samples until ten in a row bring no new best (at most a minute). HotSpot compiles Chicory's generated
     * classes in tiers, and its optimizing compiler takes seconds over the module's large functions: a render timed
     * in its first two seconds costs 5 to 7 times what it costs once the compilation is done, and a running server
     * pays the latter.
     */
    private static void warmUp(Runnable call) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        double best = Double.MAX_VALUE;
        for (int still = 0; still < 10 && System.nanoTime() < deadline; ) {
            long start = System.nanoTime();
            long calls = 0;
            long elapsed;
            do {
                call.run();
                calls++;
            } while ((elapsed = System.nanoTime() - start) < SAMPLE_NANOS);
            double time = (double) elapsed / calls;
            if (time < best * 0.98) {
                best = time;
                still = 0;
            } else {
                still++;
            }
        }
    }

    private static double microsPerCall(Runnable call, long calls) {
        long start = System.nanoTime();
        for (long i = 0; i < calls; i++) call.run();
        return (System.nanoTime() - start) / 1e3 / calls;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
