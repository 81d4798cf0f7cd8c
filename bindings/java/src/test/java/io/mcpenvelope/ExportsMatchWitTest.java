package io.mcpenvelope;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The package's table of exports is wit/api.wit's list of functions, name for name and type for type. */
class ExportsMatchWitTest {
    private static final Pattern FUNC = Pattern.compile("^\\s*([a-z][a-z0-9-]*):\\s*(func\\(.*\\)(?:\\s*->\\s*.+)?);\\s*$");

    @Test
    void everyWitFunctionIsInTheTableWithItsSignature() throws IOException {
        Path wit = Path.of(System.getProperty("mcpenvelope.wit", "../../wit")).resolve("api.wit");
        Map<String, String> declared = new TreeMap<>();
        for (String line : Files.readAllLines(wit)) {
            Matcher m = FUNC.matcher(line);
            if (m.matches()) declared.put(m.group(1), m.group(2).replaceAll("\\s+", " "));
        }
        Map<String, String> table = new TreeMap<>();
        for (Export e : Export.values()) table.put(e.wit, e.signature());
        assertEquals(declared, table);
    }

    @Test
    void theComponentIsForThisInterface() throws IOException {
        String world = Files.readString(Path.of(System.getProperty("mcpenvelope.wit", "../../wit")).resolve("api.wit"));
        String version = Export.INTERFACE.substring(Export.INTERFACE.indexOf('@') + 1);
        assertEquals(true, world.contains("package mcp:envelope@" + version + ";"), "wit/api.wit is not " + version);
    }
}
