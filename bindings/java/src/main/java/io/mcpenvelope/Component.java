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
 * The one class that talks to the WebAssembly runtime: it takes the core module out of the component, instantiates
 * it in Chicory, and calls the exports through the canonical ABI (strings in through {@code cabi_realloc}, answers
 * out through the return area, then {@code cabi_post_*}).
 *
 * <p>An instance is not thread-safe (its memory and stack are one call's), so instances live in a pool: a call
 * takes one, or builds one when all are busy, and gives it back. A pool rather than a lock because a call runs
 * for microseconds to seconds, and a lock would make every server thread wait for the slowest one; an instance
 * holds nothing between calls, so any instance serves any call. A trap discards the instance it happened in, and
 * a fresh instance's {@code after-trap} says what the call answers.
 */
final class Component {
    /** Where the build puts the component inside the jar. */
    static final String RESOURCE = "mcp-envelope.wasm";
    /** A system property naming another component file. */
    static final String PATH_PROPERTY = "mcpenvelope.component";

    private static final int SECTION_CORE_MODULE = 1;
    private static final byte[] COMPONENT_PREAMBLE = {0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00};

    /** Random bytes of a fresh correlation id, the same in every host (the core's CORRELATION_ID_RANDOM_BYTES). */
    private static final int ID_RANDOM_BYTES = 6;
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    private static final System.Logger LOG = System.getLogger("io.mcpenvelope");

    private static volatile Component loaded;

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

        Bound(WasmModule module, java.util.function.Function<Instance, com.dylibso.chicory.runtime.Machine> machines) {
            // A byte[] memory rather than Chicory's default of ByteBuffer pages: the compiled module reads and
            // writes memory on nearly every instruction, and a render takes 15% less time (RenderBenchmark).
            instance = Instance.builder(module)
                    .withMachineFactory(machines)
                    .withMemoryFactory(ByteArrayMemory::new)
                    .build();
            memory = instance.memory();
            realloc = instance.export("cabi_realloc");
            for (Export e : Export.values()) {
                calls.put(e, instance.export(e.coreName()));
                posts.put(e, instance.export(e.postReturnName()));
            }
        }
    }

    /** A {@code result}'s case and its text ({@code null} for {@code ok(none)}). */
    record Answer(boolean ok, String text) {}

    private Component(byte[] component) {
        module = Parser.parse(coreModule(component));
        // Chicory's compiler turns the module into JVM bytecode once, at load; every instance shares it. It runs the
        // vectors 18 times faster than the interpreter (7 s against 131 s), for about a second at load. Where a
        // render's time goes in a JVM started by default: half of it in HotSpot's interpreter, running the spec
        // reader, whose generated method is past HotSpot's 8000 bytes of bytecode and so never JIT-compiled. No option
        // of Chicory's splits a method, and running that function in Chicory's interpreter instead is slower still
        // (60 against 34 µs); -XX:-DontCompileHugeMethods, which only the JVM's command line sets, lifts the limit.
        machines = com.dylibso.chicory.compiler.MachineFactoryCompiler.compile(module);
        pool.push(new Bound(module, machines)); // fails here, at load, if an export is missing
    }

    /** The process's component, loaded on first use. */
    static Component get() {
        Component c = loaded;
        if (c == null) {
            synchronized (Component.class) {
                c = loaded;
                if (c == null) loaded = c = new Component(readComponent());
            }
        }
        return c;
    }

    private static byte[] readComponent() {
        String path = System.getProperty(PATH_PROPERTY);
        try {
            if (path != null) return Files.readAllBytes(Path.of(path));
            try (InputStream in = Component.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the component " + RESOURCE + " is missing from the jar: build it "
                            + "with scripts/build-component, then build this package");
                }
                return in.readAllBytes();
            }
        } catch (IOException e) {
            throw new IllegalStateException("the component could not be read: " + e.getMessage(), e);
        }
    }

    /**
     * The component's core module: the component-model binary is a preamble, then sections (an id byte, a LEB128
     * size, the contents); a core-module section's contents are a whole core module. The world imports nothing,
     * so this one module is all a host needs.
     */
    static byte[] coreModule(byte[] component) {
        for (int i = 0; i < COMPONENT_PREAMBLE.length; i++) {
            if (component.length <= i || component[i] != COMPONENT_PREAMBLE[i]) {
                throw new IllegalArgumentException("not a WebAssembly component (its preamble differs)");
            }
        }
        List<byte[]> modules = new ArrayList<>();
        int at = COMPONENT_PREAMBLE.length;
        while (at < component.length) {
            int id = component[at++] & 0xff;
            long size = 0;
            int shift = 0;
            int b;
            do {
                b = component[at++] & 0xff;
                size |= (long) (b & 0x7f) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            if (id == SECTION_CORE_MODULE) {
                modules.add(java.util.Arrays.copyOfRange(component, at, at + (int) size));
            }
            at += (int) size;
        }
        if (modules.size() != 1) {
            throw new IllegalArgumentException("the component holds " + modules.size() + " core modules, not one");
        }
        return modules.get(0);
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
        if (bound == null) bound = new Bound(module, machines);
        bound.instance.global(0).setValue(0); // the shadow stack pointer: the next call's frame falls off memory
        pool.push(bound);
    }

    /** How many idle instances the pool holds. */
    int idle() {
        return pool.size();
    }

    private <T> T withInstance(Export export, java.util.function.Function<Bound, T> work) {
        Bound bound = pool.poll();
        if (bound == null) bound = new Bound(module, machines);
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
