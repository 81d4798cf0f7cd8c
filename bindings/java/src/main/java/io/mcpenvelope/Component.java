package io.mcpenvelope;

import com.dylibso.chicory.runtime.ByteArrayMemory;
import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The one class that talks to the WebAssembly runtime: it instantiates the components' core modules in Chicory and
 * calls their exports through the canonical ABI (strings in through {@code cabi_realloc}, answers out through the
 * return area, then {@code cabi_post_*}). The envelope module (world {@code envelope-only}) runs the functions of
 * interface {@code envelope}, all the front needs; the full module (world {@code full}) runs {@code server},
 * {@code agent} and {@code contract}, and is loaded on the first call of one of those, so a program that only
 * renders and reads envelopes never loads it.
 *
 * <p>An instance is not thread-safe (its memory and stack are one call's), so instances live in a pool, one per
 * module: a call takes one, or builds one when all are busy, and gives it back. A pool rather than a lock because
 * a call runs for microseconds to seconds, and a lock would make every server thread wait for the slowest one; an
 * instance holds nothing between calls, so any instance serves any call. A trap discards the instance it happened
 * in, and a fresh instance of the same module (both have {@code after-trap}) says what the call answers.
 */
final class Component {
    /** Where the build puts the envelope module inside the jar. */
    static final String ENVELOPE_RESOURCE = "envelope.core.wasm";
    /** Where the build puts the full module inside the jar. */
    static final String FULL_RESOURCE = "full.core.wasm";
    /** A system property naming another envelope module file. */
    static final String ENVELOPE_PATH_PROPERTY = "mcpenvelope.envelopeModule";
    /** A system property naming another full module file. */
    static final String FULL_PATH_PROPERTY = "mcpenvelope.fullModule";

    /** Random bytes of a fresh correlation id, the same in every host (the core's CORRELATION_ID_RANDOM_BYTES). */
    private static final int ID_RANDOM_BYTES = 6;
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    private static final System.Logger LOG = System.getLogger("io.mcpenvelope");

    private static volatile Component envelope;
    private static volatile Component full;

    /** The functions this module is called for. */
    private final List<Export> exports;
    private final WasmModule module;
    private final java.util.function.Function<Instance, com.dylibso.chicory.runtime.Machine> machines;
    private final ConcurrentLinkedDeque<Bound> pool = new ConcurrentLinkedDeque<>();

    /** One instance and its exports, used by one thread at a time. */
    private static final class Bound {
        final Instance instance;
        final Memory memory;
        final ExportFunction realloc;
        final Map<Export, ExportFunction> calls = new EnumMap<>(Export.class);
        final Map<Export, ExportFunction> posts = new EnumMap<>(Export.class);

        Bound(WasmModule module, java.util.function.Function<Instance, com.dylibso.chicory.runtime.Machine> machines,
                List<Export> exports) {
            // A byte[] memory rather than Chicory's default of ByteBuffer pages: the compiled module reads and
            // writes memory on nearly every instruction, and a render takes 15% less time (RenderBenchmark).
            instance = Instance.builder(module)
                    .withMachineFactory(machines)
                    .withMemoryFactory(ByteArrayMemory::new)
                    .build();
            memory = instance.memory();
            realloc = instance.export("cabi_realloc");
            for (Export e : exports) {
                calls.put(e, instance.export(e.coreName()));
                posts.put(e, instance.export(e.postReturnName()));
            }
        }
    }

    /** A {@code result}'s case and its text ({@code null} for {@code ok(none)}). */
    record Answer(boolean ok, String text) {}

    /**
     * A core module, called for {@code exports}: the envelope module's functions, or every one. The full module
     * serves for the envelope's functions as well (the tests run them on both).
     */
    Component(byte[] coreModule, List<Export> exports) {
        this.exports = exports;
        module = Parser.parse(coreModule);
        // Chicory's compiler turns the module into JVM bytecode once, at load; every instance shares it. It runs the
        // vectors 18 times faster than the interpreter (7 s against 131 s), for about a second at load. Where a
        // render's time goes in a JVM started by default: half of it in HotSpot's interpreter, running the spec
        // reader, whose generated method is past HotSpot's 8000 bytes of bytecode and so never JIT-compiled. No option
        // of Chicory's splits a method, and running that function in Chicory's interpreter instead is slower still
        // (60 against 34 µs); -XX:-DontCompileHugeMethods, which only the JVM's command line sets, lifts the limit.
        machines = com.dylibso.chicory.compiler.MachineFactoryCompiler.compile(module);
        pool.push(new Bound(module, machines, exports)); // fails here, at load, if an export is missing
    }

    /** The functions of interface {@code envelope}. */
    static List<Export> envelopeExports() {
        return java.util.Arrays.stream(Export.values()).filter(Export::onEnvelope).toList();
    }

    /** The process's envelope module, loaded on first use. */
    static Component envelope() {
        Component c = envelope;
        if (c == null) {
            synchronized (Component.class) {
                c = envelope;
                if (c == null) {
                    envelope = c = new Component(read(ENVELOPE_PATH_PROPERTY, ENVELOPE_RESOURCE), envelopeExports());
                }
            }
        }
        return c;
    }

    /** The process's full module, loaded on the first call of a function of server, agent or contract. */
    static Component full() {
        Component c = full;
        if (c == null) {
            synchronized (Component.class) {
                c = full;
                if (c == null) {
                    full = c = new Component(read(FULL_PATH_PROPERTY, FULL_RESOURCE), List.of(Export.values()));
                }
            }
        }
        return c;
    }

    /** The module that runs an export. */
    static Component of(Export export) {
        return export.onEnvelope() ? envelope() : full();
    }

    /** Whether the full module has been loaded in this process. */
    static boolean fullLoaded() {
        return full != null;
    }

    /** Makes {@code c} the process's envelope module and gives back the one before (null if none): tests only. */
    static synchronized Component replaceEnvelope(Component c) {
        Component old = envelope;
        envelope = c;
        return old;
    }

    /** A core module's bytes: the file a system property names (when one is given), else the jar's resource. */
    static byte[] read(String property, String resource) {
        String path = property == null ? null : System.getProperty(property);
        try {
            if (path != null) return Files.readAllBytes(Path.of(path));
            try (InputStream in = Component.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the core module " + resource + " is missing from the jar: build "
                            + "it with scripts/build-component, then build this package");
                }
                return in.readAllBytes();
            }
        } catch (IOException e) {
            throw new IllegalStateException("the core module " + resource + " could not be read: " + e.getMessage(), e);
        }
    }

    /** Calls an export whose result is a {@code result<…, string>} or a plain value (then always ok). */
    Answer call(Export export, Object... args) {
        return withInstance(export, bound -> invoke(bound, export, args));
    }

    /** {@code list<string>} exports. */
    List<String> callList(Export export) {
        return withInstance(export, bound -> {
            int ret = (int) bound.calls.get(export).apply()[0];
            int base = bound.memory.readInt(ret);
            int count = bound.memory.readInt(ret + 4);
            List<String> items = new ArrayList<>();
            for (int i = 0; i < count; i++) items.add(string(bound, base + 8 * i));
            bound.posts.get(export).apply(ret);
            return items;
        });
    }

    /** The core export called with these flat arguments as they are: tests make a trap this way. */
    long[] callFlat(Export export, long... flat) {
        return withInstance(export, bound -> bound.calls.get(export).apply(flat));
    }

    /**
     * What a call that trapped answers, asked of a fresh instance (docs/state.md, "After a trap"): an answer in the
     * call's own shape, or the call made once more. The core's log line goes to {@code System.Logger}
     * {@code io.mcpenvelope}.
     */
    Answer afterTrap(Export export, Object[] args, TrapException trap) {
        Map<String, Object> request = new java.util.LinkedHashMap<>();
        request.put("call", export.wit);
        request.put("trap", trap.trap());
        byte[] random = new byte[ID_RANDOM_BYTES];
        RANDOM.nextBytes(random);
        request.put("random", java.util.HexFormat.of().formatHex(random));
        request.putAll(trapContext(export, args));
        Answer asked;
        try {
            asked = call(Export.AFTER_TRAP, Json.write(request));
        } catch (TrapException again) {
            throw new TrapException(export.wit, "mcp-envelope: " + export.wit + " trapped (" + trap.trap()
                    + ") and no answer could be made for it: " + again.trap(), again);
        }
        if (!asked.ok()) {
            throw new TrapException(export.wit, "mcp-envelope: " + export.wit + " trapped (" + trap.trap()
                    + ") and no answer could be made for it: " + asked.text(), trap);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) Json.parse(asked.text());
        LOG.log(System.Logger.Level.ERROR, String.valueOf(answer.get("log")));
        if ("answer".equals(answer.get("then"))) {
            Object value = answer.get("answer");
            return new Answer(true, value == null || value instanceof String ? (String) value : Json.write(value));
        }
        try {
            return call(export, args);
        } catch (TrapException again) {
            throw new TrapException(export.wit, String.valueOf(answer.get("again")), again);
        }
    }

    /**
     * The members of a call's request that {@code after-trap} reads: the call's own {@code format} argument, else
     * the request's top-level {@code format}, {@code locale}, {@code tool} and {@code key} when they are strings of
     * at most 256 characters (a longer one may be what trapped). The same rule in every host.
     */
    private static Map<String, Object> trapContext(Export export, Object[] args) {
        Map<String, Object> context = new java.util.LinkedHashMap<>();
        if (args.length > 0 && args[0] instanceof String text && text.startsWith("{")) {
            try {
                if (Json.parse(text) instanceof Map<?, ?> members) {
                    for (String m : List.of("format", "locale", "tool", "key")) {
                        if (members.get(m) instanceof String v && v.length() <= 256) context.put(m, v);
                    }
                }
            } catch (IllegalArgumentException notJson) {
                // a request that is not JSON states nothing
            }
        }
        int at = export.params.indexOf("format: format");
        if (at >= 0 && args.length > at) context.put("format", Format.values()[(Integer) args[at]].wire());
        return context;
    }

    /** Breaks the next instance a call takes, so that the call traps for real: tests of the trap path only. */
    void breakNextInstance() {
        Bound bound = pool.poll();
        if (bound == null) bound = new Bound(module, machines, exports);
        bound.instance.global(0).setValue(0); // the shadow stack pointer: the next call's frame falls off memory
        pool.push(bound);
    }

    /** How many idle instances the pool holds. */
    int idle() {
        return pool.size();
    }

    private <T> T withInstance(Export export, java.util.function.Function<Bound, T> work) {
        Bound bound = pool.poll();
        if (bound == null) bound = new Bound(module, machines, exports);
        T value;
        try {
            value = work.apply(bound);
        } catch (IllegalArgumentException e) {
            pool.push(bound); // refused before the call reached the instance
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // The instance's memory may be anything now: it is dropped, and the next call gets a fresh one.
            throw new TrapException(export.wit, e);
        }
        pool.push(bound);
        return value;
    }

    private static Answer invoke(Bound bound, Export export, Object[] args) {
        if (args.length != export.params.size()) {
            throw new IllegalArgumentException(export.wit + " takes " + export.params.size() + " arguments");
        }
        long[] flat = new long[3 * args.length];
        int n = 0;
        for (int i = 0; i < args.length; i++) {
            String type = export.params.get(i).substring(export.params.get(i).indexOf(": ") + 2);
            switch (type) {
                case "string" -> {
                    int[] s = write(bound, (String) args[i]);
                    flat[n++] = s[0];
                    flat[n++] = s[1];
                }
                case "option<string>" -> {
                    if (args[i] == null) {
                        flat[n++] = 0;
                        flat[n++] = 0;
                        flat[n++] = 0;
                    } else {
                        int[] s = write(bound, (String) args[i]);
                        flat[n++] = 1;
                        flat[n++] = s[0];
                        flat[n++] = s[1];
                    }
                }
                default -> flat[n++] = (Integer) args[i]; // an enum: its case's index
            }
        }
        int ret = (int) bound.calls.get(export).apply(java.util.Arrays.copyOf(flat, n))[0];
        Memory m = bound.memory;
        Answer answer = switch (export.result) {
            case "string" -> new Answer(true, string(bound, ret));
            case "result<string, string>" -> new Answer(m.read(ret) == 0, string(bound, ret + 4));
            case "result<option<string>, string>" -> m.read(ret) != 0
                    ? new Answer(false, string(bound, ret + 4))
                    : new Answer(true, m.read(ret + 4) == 0 ? null : string(bound, ret + 8));
            default -> throw new IllegalStateException("no canonical-ABI reading for " + export.result);
        };
        bound.posts.get(export).apply(ret);
        return answer;
    }

    /** The string whose pointer and length are at {@code at}. */
    private static String string(Bound bound, int at) {
        int ptr = bound.memory.readInt(at);
        int len = bound.memory.readInt(at + 4);
        return new String(bound.memory.readBytes(ptr, len), StandardCharsets.UTF_8);
    }

    /** Writes a string as UTF-8 into memory the core allocates: its pointer and length. */
    private static int[] write(Bound bound, String text) {
        byte[] bytes = utf8(text);
        int ptr = (int) bound.realloc.apply(0, 0, 1, bytes.length)[0];
        bound.memory.write(ptr, bytes);
        return new int[] {ptr, bytes.length};
    }

    /** UTF-8, each lone surrogate as U+FFFD (as the core reads an escaped one); Java's own encoder writes '?'. */
    static byte[] utf8(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                StringBuilder fixed = new StringBuilder(text.length());
                for (int j = 0; j < text.length(); j++) {
                    char d = text.charAt(j);
                    if (Character.isHighSurrogate(d) && j + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(j + 1))) {
                        fixed.append(d).append(text.charAt(++j));
                    } else {
                        fixed.append(Character.isSurrogate(d) ? '\uFFFD' : d);
                    }
                }
                return fixed.toString().getBytes(StandardCharsets.UTF_8);
            }
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
