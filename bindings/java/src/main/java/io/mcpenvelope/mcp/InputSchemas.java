package io.mcpenvelope.mcp;

import com.networknt.schema.Error;
import com.networknt.schema.ExecutionConfig;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import io.mcpenvelope.Json;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A call's arguments checked against the tool's published input schema with networknt's json-schema-validator,
 * whose errors are handed to the core raw, in ajv's member names ({@code keyword}, {@code path}, {@code params},
 * {@code schema}, {@code parentSchema}, {@code data}, {@code message}). This is only the native extraction of a
 * validator's errors, as the other packages do for ajv, {@code jsonschema} and Rust's jsonschema: the words of
 * the {@code <validation_error>} are the core's (docs/component-api.md, "JSON Schema errors, raw").
 */
final class InputSchemas {
    private static final JsonMapper JACKSON = JsonMapper.builder().build();
    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    /**
     * A tool's {@code format} is part of the contract the model reads, so it is asserted (JSON Schema 2020-12 only
     * annotates it by default).
     */
    private static final Consumer<ExecutionConfig.Builder> ASSERT_FORMATS =
            config -> config.formatAssertionsEnabled(true).locale(Locale.ENGLISH);

    private final Tool tool;
    private final Map<String, Object> schemaMap;
    private final Schema schema;

    private InputSchemas(Tool tool, Map<String, Object> schemaMap, Schema schema) {
        this.tool = tool;
        this.schemaMap = schemaMap;
        this.schema = schema;
    }

    /** The tool's checker, or null when it publishes no schema to check against. */
    static InputSchemas of(Tool tool) {
        if (tool.inputSchema() == null || tool.inputSchema().isEmpty()) return null;
        @SuppressWarnings("unchecked")
        Map<String, Object> schemaMap = (Map<String, Object>) Json.parse(Json.write(tool.inputSchema()));
        Schema schema = REGISTRY.getSchema(JACKSON.readTree(Json.write(schemaMap)));
        return new InputSchemas(tool, schemaMap, schema);
    }

    /**
     * The validation spec for arguments that fail the schema, or null when they fit. Absent arguments are an
     * empty object, as the SDK hands them to a handler.
     */
    Map<String, Object> check(Map<String, Object> arguments) {
        Object sent = Json.parse(Json.write(arguments == null ? Map.of() : arguments));
        List<Error> failed = schema.validate(JACKSON.readTree(Json.write(sent)),
                context -> context.executionConfig(ASSERT_FORMATS));
        if (failed.isEmpty()) return null;
        List<Map<String, Object>> errors = new ArrayList<>();
        for (Error error : failed) errors.add(raw(error));
        inPropertyOrder(errors);
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("action", tool.name());
        spec.put("jsonSchemaErrors", errors);
        spec.put("arguments", sent);
        // The schema words each line's "Expected …".
        spec.put("inputSchema", schemaMap);
        return spec;
    }

    /** One error as ajv reports it with {@code allErrors} and {@code verbose}. */
    private Map<String, Object> raw(Error error) {
        String keyword = error.getKeyword();
        Map<String, Object> parent = parentSchema(error);
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("keyword", keyword);
        raw.put("path", elements(error.getInstanceLocation()));
        raw.put("params", params(keyword, error, parent));
        if (parent != null) {
            if (parent.containsKey(keyword)) raw.put("schema", parent.get(keyword));
            raw.put("parentSchema", parent);
        }
        JsonNode data = error.getInstanceNode();
        raw.put("data", data == null ? null : Json.parse(data.toString()));
        raw.put("message", error.getMessage());
        return raw;
    }

    /** ajv's {@code params} for the keywords whose params the core reads first; {@code {}} for the others. */
    private static Map<String, Object> params(String keyword, Error error, Map<String, Object> parent) {
        Object value = parent == null ? null : parent.get(keyword);
        return switch (keyword) {
            case "required" -> one("missingProperty", error.getProperty());
            case "additionalProperties" -> one("additionalProperty", error.getProperty());
            case "type" -> one("type", value);
            case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minimum",
                    "maximum", "exclusiveMinimum", "exclusiveMaximum" -> one("limit", value);
            case "multipleOf" -> one("multipleOf", value);
            case "pattern" -> one("pattern", value);
            case "format" -> one("format", value);
            case "enum" -> one("allowedValues", value);
            case "const" -> one("allowedValue", value);
            default -> Map.of();
        };
    }

    private static Map<String, Object> one(String key, Object value) {
        Map<String, Object> params = new LinkedHashMap<>();
        if (value != null) params.put(key, value);
        return params;
    }

    /** The path as keys and indices, which a JSON pointer cannot tell apart. */
    private static List<Object> elements(NodePath path) {
        List<Object> out = new ArrayList<>();
        if (path == null) return out;
        for (int i = 0; i < path.getNameCount(); i++) out.add(path.getElement(i));
        return out;
    }

    /** The schema object holding the failed keyword, found from the keyword's place in the root schema. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> parentSchema(Error error) {
        NodePath at = error.getSchemaLocation() == null ? null : error.getSchemaLocation().getFragment();
        if (at == null || at.getNameCount() == 0) return null;
        Object node = schemaMap;
        for (int i = 0; i < at.getNameCount() - 1; i++) {
            Object step = at.getElement(i);
            if (node instanceof Map<?, ?> map) node = map.get(String.valueOf(step));
            else if (node instanceof List<?> list && step instanceof Integer index && index < list.size()) {
                node = list.get(index);
            } else return null;
        }
        return node instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    /**
     * The errors in the order of the root schema's {@code properties}, as ajv and Python's {@code jsonschema}
     * report them; errors at the root first. The sort is stable, so one property's errors keep the validator's order.
     */
    private void inPropertyOrder(List<Map<String, Object>> errors) {
        if (!(schemaMap.get("properties") instanceof Map<?, ?> properties)) return;
        List<String> order = properties.keySet().stream().map(String::valueOf).toList();
        errors.sort(Comparator.comparingInt(error -> {
            List<?> path = (List<?>) error.get("path");
            if (path.isEmpty()) return 0;
            if (path.get(0) instanceof String key) {
                int at = order.indexOf(key);
                return 1 + (at < 0 ? order.size() : at);
            }
            return 1 + order.size();
        }));
    }
}
