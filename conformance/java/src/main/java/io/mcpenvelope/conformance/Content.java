package io.mcpenvelope.conformance;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the official suite's server scenarios (@modelcontextprotocol/conformance 0.1.16) ask each named tool,
 * resource and prompt to hold, the same values as conformance/lib/content.mjs for the TypeScript servers.
 */
final class Content {
    private Content() {}

    /** A 1×1 blue pixel as a PNG, for image tool content, the image prompt and the binary resource. */
    static final String PNG_PIXEL =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGOQz38NAAIqAXp4ksuCAAAAAElFTkSuQmCC";

    /** Four samples of silence as a WAV file (PCM, mono, 16-bit, 8 kHz), base64. */
    static final String WAV_SILENCE = wavSilence(4);

    private static String wavSilence(int samples) {
        int dataBytes = samples * 2;
        ByteBuffer wav = ByteBuffer.allocate(44 + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        wav.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(36 + dataBytes);
        wav.put("WAVE".getBytes(StandardCharsets.US_ASCII));
        wav.put("fmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16); // fmt chunk size
        wav.putShort((short) 1); // PCM
        wav.putShort((short) 1); // mono
        wav.putInt(8000); // sample rate
        wav.putInt(8000 * 2); // byte rate
        wav.putShort((short) 2); // block align
        wav.putShort((short) 16); // bits per sample
        wav.put("data".getBytes(StandardCharsets.US_ASCII)).putInt(dataBytes);
        return Base64.getEncoder().encodeToString(wav.array());
    }

    /** The input schema of a tool that takes no arguments. */
    static final String NO_ARGUMENTS = """
            {"type": "object", "properties": {}}""";

    /**
     * The input schema {@code json_schema_2020_12_tool} lists, exactly as written: the scenario checks that
     * {@code $schema}, {@code $defs} and {@code additionalProperties} survive into tools/list.
     */
    static final String ADDRESS_BOOK_ENTRY_SCHEMA = """
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "type": "object",
              "$defs": {
                "address": {
                  "type": "object",
                  "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                }
              },
              "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
              "additionalProperties": false
            }""";

    /** The form {@code test_elicitation} asks the user to fill in. */
    static final Map<String, Object> CONTACT_FORM = object("""
            {
              "type": "object",
              "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"}
              },
              "required": ["username", "email"]
            }""");

    /** SEP-1034: a default for every primitive type a form field may have. */
    static final Map<String, Object> PROFILE_FORM_WITH_DEFAULTS = object("""
            {
              "type": "object",
              "properties": {
                "name": {"type": "string", "description": "Full name", "default": "John Doe"},
                "age": {"type": "integer", "description": "Age in years", "default": 30},
                "score": {"type": "number", "description": "Last score", "default": 95.5},
                "status": {
                  "type": "string",
                  "description": "Account status",
                  "enum": ["active", "inactive", "pending"],
                  "default": "active"
                },
                "verified": {"type": "boolean", "description": "Whether the account is verified", "default": true}
              },
              "required": []
            }""");

    /** SEP-1330: the five ways a form field may offer a choice. */
    static final Map<String, Object> CHOICES_FORM = object("""
            {
              "type": "object",
              "properties": {
                "untitledSingle": {
                  "type": "string",
                  "description": "Pick one",
                  "enum": ["option1", "option2", "option3"]
                },
                "titledSingle": {
                  "type": "string",
                  "description": "Pick one (titled)",
                  "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"}
                  ]
                },
                "legacyEnum": {
                  "type": "string",
                  "description": "Pick one (titled the pre-2025-11-25 way)",
                  "enum": ["opt1", "opt2", "opt3"],
                  "enumNames": ["Option One", "Option Two", "Option Three"]
                },
                "untitledMulti": {
                  "type": "array",
                  "description": "Pick one to three",
                  "minItems": 1,
                  "maxItems": 3,
                  "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
                },
                "titledMulti": {
                  "type": "array",
                  "description": "Pick one to three (titled)",
                  "minItems": 1,
                  "maxItems": 3,
                  "items": {
                    "anyOf": [
                      {"const": "value1", "title": "First Choice"},
                      {"const": "value2", "title": "Second Choice"},
                      {"const": "value3", "title": "Third Choice"}
                    ]
                  }
                }
              },
              "required": []
            }""");

    /** Words {@code completion/complete} offers for a prompt argument, by prefix. */
    static final List<String> CITY_WORDS = List.of("paris", "park", "party", "perth", "porto", "prague");

    static List<String> completeWord(String prefix) {
        String lower = prefix == null ? "" : prefix.toLowerCase(Locale.ROOT);
        return CITY_WORDS.stream().filter(word -> word.startsWith(lower)).toList();
    }

    /** A JSON object read by the SDK's own mapper, its members in the order written. */
    static Map<String, Object> object(String json) {
        try {
            return McpJsonDefaults.getMapper().readValue(json, new TypeRef<Map<String, Object>>() {});
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String json(Object value) {
        try {
            return McpJsonDefaults.getMapper().writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting", e);
        }
    }
}
