package io.mcpenvelope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The package's table of exports is the functions of wit/envelope.wit, server.wit, agent.wit and contract.wit,
 * interface for interface, name for name, type for type and in the files' order.
 */
class ExportsMatchWitTest {
    private static final List<String> FILES = List.of("envelope.wit", "server.wit", "agent.wit", "contract.wit");
    private static final Pattern INTERFACE = Pattern.compile("^interface ([a-z][a-z0-9-]*) \\{$");
    private static final Pattern FUNC = Pattern.compile("^\\s*([a-z][a-z0-9-]*):\\s*(func\\(.*\\)(?:\\s*->\\s*.+)?);\\s*$");

    private static Path wit() {
        return Path.of(System.getProperty("mcpenvelope.wit", "../../wit"));
    }

    @Test
    void everyWitFunctionIsInTheTableWithItsInterfaceAndSignature() throws IOException {
        List<String> declared = new ArrayList<>();
        for (String file : FILES) {
            String in = "";
            for (String line : Files.readAllLines(wit().resolve(file))) {
                Matcher i = INTERFACE.matcher(line);
                if (i.matches()) in = i.group(1);
                Matcher m = FUNC.matcher(line);
                if (m.matches()) declared.add(in + " " + m.group(1) + " " + m.group(2).replaceAll("\\s+", " "));
            }
        }
        assertTrue(declared.size() >= 30, "read only " + declared.size() + " functions from wit/");
        List<String> table = new ArrayList<>();
        for (Export e : Export.values()) table.add(e.witInterface + " " + e.wit + " " + e.signature());
        assertEquals(declared, table);
    }

    @Test
    void theModulesAreForThisPackage() throws IOException {
        for (String file : FILES) {
            String text = Files.readString(wit().resolve(file));
            assertTrue(text.contains("package " + Export.PACKAGE + "@" + Export.VERSION + ";"),
                    "wit/" + file + " is not " + Export.PACKAGE + "@" + Export.VERSION);
        }
    }
}
