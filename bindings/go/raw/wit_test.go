package raw

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// witFiles are the files of the WIT package that hold the functions, in the table's order.
var witFiles = []string{"envelope.wit", "server.wit", "agent.wit", "contract.wit"}

// The table of exports is the WIT's func lines, interface for interface, name
// for name, type for type and in the files' order.
func TestExportsAreTheWITsFuncLines(t *testing.T) {
	iface := regexp.MustCompile(`^interface ([a-z0-9-]+) \{$`)
	line := regexp.MustCompile(`^\s*([a-z0-9-]+): func\((.*)\)(?: -> (.+))?;$`)
	var fromWIT []Export
	signatures := map[string]string{}
	for _, file := range witFiles {
		text, err := os.ReadFile("../../../wit/" + file)
		if err != nil {
			t.Fatal(err)
		}
		in := ""
		for _, l := range strings.Split(string(text), "\n") {
			if m := iface.FindStringSubmatch(l); m != nil {
				in = m[1]
			}
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
			fromWIT = append(fromWIT, Export{Interface: in, Name: m[1]})
			signatures[m[1]] = "func(" + strings.Join(params, ", ") + ") -> " + m[3]
		}
	}
	if len(fromWIT) < 30 {
		t.Fatalf("read only %d func lines from wit/", len(fromWIT))
	}
	for i := range max(len(fromWIT), len(Exports)) {
		if i >= len(fromWIT) || i >= len(Exports) || fromWIT[i].Interface != Exports[i].Interface || fromWIT[i].Name != Exports[i].Name {
			t.Fatalf("the table and wit/ part at function %d:\n  table: %v\n  wit/:  %v", i, Exports[min(i, len(Exports)-1):], fromWIT[min(i, len(fromWIT)-1):])
		}
		if got, want := Exports[i].Signature(), signatures[Exports[i].Name]; got != want {
			t.Errorf("%s: the table says %s, wit/ %s", Exports[i].Name, got, want)
		}
	}
}

func TestNeitherModuleImportsAnything(t *testing.T) {
	rt := testRuntime(t)
	full, err := rt.fullPool(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for which, p := range map[string]*pool{"envelope": rt.envelope, "full": full} {
		if n := len(p.module.ImportedFunctions()) + len(p.module.ImportedMemories()); n != 0 {
			t.Errorf("the %s module imports %d things", which, n)
		}
	}
}
