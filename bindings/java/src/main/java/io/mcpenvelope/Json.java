package io.mcpenvelope;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text to plain Java values and back, compactly, as the component reads and writes it: objects are
 * {@link LinkedHashMap}s (key order kept), arrays {@link List}s, numbers {@link Number}s kept as written
 * ({@link JsonNumber}), strings with any UTF-16 content. Written here rather than taken from Jackson so that the
 * package has one dependency (Chicory) and a number crosses exactly as its text.
 */
public final class Json {
    private Json() {}

    /** A number as written in JSON text, so that it crosses back unchanged. */
    public static final class JsonNumber extends Number {
        private static final long serialVersionUID = 1L;
        private final String text;

        public JsonNumber(String text) {
            this.text = text;
        }

        @Override public int intValue() { return new BigDecimal(text).intValue(); }
        @Override public long longValue() { return new BigDecimal(text).longValue(); }
        @Override public float floatValue() { return Float.parseFloat(text); }
        @Override public double doubleValue() { return Double.parseDouble(text); }
        @Override public String toString() { return text; }
        @Override public boolean equals(Object o) { return o instanceof JsonNumber n && n.text.equals(text); }
        @Override public int hashCode() { return text.hashCode(); }
    }

    /** Compact JSON text of a value: null, Boolean, Number, CharSequence, Map, List, array of Object, or an enum's wire name. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /** The value of JSON text; {@link IllegalArgumentException} on text that is not JSON. */
    public static Object parse(String text) {
        Reader reader = new Reader(text);
        reader.space();
        Object value = reader.value();
        reader.space();
        if (reader.at != text.length()) throw reader.fail("trailing characters");
        return value;
    }

    @SuppressWarnings("unchecked")
    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean || value instanceof JsonNumber || value instanceof Integer
                || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof java.math.BigInteger) {
            out.append(value);
        } else if (value instanceof BigDecimal d) {
            out.append(d.toString());
        } else if (value instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) out.append("null");
            else if (d == Math.rint(d) && Math.abs(d) < 1e15) out.append((long) d);
            else out.append(d);
        } else if (value instanceof CharSequence s) {
            quote(s.toString(), out);
        } else if (value instanceof Wire w) {
            quote(w.wire(), out);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                quote(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof Iterable<?> items) {
            out.append('[');
            boolean first = true;
            for (Object item : items) {
                if (!first) out.append(',');
                first = false;
                write(item, out);
            }
            out.append(']');
        } else if (value instanceof Object[] items) {
            write(List.of(items), out);
        } else if (value instanceof Spec spec) {
            write(spec.toSpec(), out);
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    /** A value the package writes as its JSON form (a builder's spec). */
    interface Spec {
        Map<String, Object> toSpec();
    }

    /** An enum whose JSON form is its wire name. */
    interface Wire {
        String wire();
    }

    /** A JSON string as JSON.stringify writes it: non-ASCII as itself, a lone surrogate as its escape. */
    static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean lone = Character.isHighSurrogate(c)
                            ? !(i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
                            : Character.isLowSurrogate(c) && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
                    if (c < 0x20 || lone) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    private static final class Reader {
        final String s;
        int at;

        Reader(String s) {
            this.s = s;
        }

        IllegalArgumentException fail(String why) {
            return new IllegalArgumentException("not JSON: " + why + " at character " + at);
        }

        void space() {
            while (at < s.length() && " \t\r\n".indexOf(s.charAt(at)) >= 0) at++;
        }

        Object value() {
            if (at >= s.length()) throw fail("unexpected end");
            char c = s.charAt(at);
            switch (c) {
                case '{': {
                    at++;
                    Map<String, Object> map = new LinkedHashMap<>();
                    space();
                    if (peek('}')) return map;
                    while (true) {
                        space();
                        if (at >= s.length() || s.charAt(at) != '"') throw fail("expected a key");
                        String key = string();
                        space();
                        expect(':');
                        space();
                        map.put(key, value());
                        space();
                        if (peek('}')) return map;
                        expect(',');
                    }
                }
                case '[': {
                    at++;
                    List<Object> list = new ArrayList<>();
                    space();
                    if (peek(']')) return list;
                    while (true) {
                        space();
                        list.add(value());
                        space();
                        if (peek(']')) return list;
                        expect(',');
                    }
                }
                case '"':
                    return string();
                case 't':
                    word("true");
                    return Boolean.TRUE;
                case 'f':
                    word("false");
                    return Boolean.FALSE;
                case 'n':
                    word("null");
                    return null;
                default: {
                    int start = at;
                    while (at < s.length() && "+-0123456789.eE".indexOf(s.charAt(at)) >= 0) at++;
                    if (start == at) throw fail("unexpected character");
                    return new JsonNumber(s.substring(start, at));
                }
            }
        }

        boolean peek(char c) {
            if (at < s.length() && s.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        void expect(char c) {
            if (!peek(c)) throw fail("expected '" + c + "'");
        }

        void word(String w) {
            if (!s.startsWith(w, at)) throw fail("unexpected word");
            at += w.length();
        }

        String string() {
            at++;
            StringBuilder out = new StringBuilder();
            while (true) {
                if (at >= s.length()) throw fail("unterminated string");
                char c = s.charAt(at++);
                if (c == '"') return out.toString();
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = s.charAt(at++);
                switch (e) {
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> out.append(e);
                }
            }
        }
    }
}
