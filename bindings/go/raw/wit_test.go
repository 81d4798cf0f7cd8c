package raw

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The table of exports is the WIT's func lines, name for name and type for type.
func TestExportsAreTheWITsFuncLines(t *testing.T) {
	text, err := os.ReadFile("../../../wit/api.wit")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^\s*([a-z0-9-]+): func\((.*)\)(?: -> (.+))?;$`)
	fromWIT := map[string]string{}
	var order []string
	for _, l := range strings.Split(string(text), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var params []string
		for _, p := range strings.Split(m[2], ",") {
			if p = strings.TrimSpace(p); p != "" {
				_, ty, _ := strings.Cut(p, ":")
				params = append(params, strings.TrimSpace(ty))
			}
		}
		fromWIT[m[1]] = "func(" + strings.Join(params, ", ") + ") -> " + m[3]
		order = append(order, m[1])
	}
	if len(fromWIT) < 30 {
		t.Fatalf("read only %d func lines from wit/api.wit", len(fromWIT))
	}
	inTable := map[string]bool{}
	for _, e := range Exports {
		inTable[e.Name] = true
		want, ok := fromWIT[e.Name]
		if !ok {
			t.Errorf("%s is in the table but not in wit/api.wit", e.Name)
		} else if e.Signature() != want {
			t.Errorf("%s: the table says %s, wit/api.wit %s", e.Name, e.Signature(), want)
		}
	}
	for _, name := range order {
		if !inTable[name] {
			t.Errorf("%s (wit/api.wit) is missing from the table of exports", name)
		}
	}
}

func TestTheComponentImportsNothing(t *testing.T) {
	rt := testRuntime(t)
	if n := len(rt.module.ImportedFunctions()) + len(rt.module.ImportedMemories()); n != 0 {
		t.Fatalf("the core module imports %d things", n)
	}
}
