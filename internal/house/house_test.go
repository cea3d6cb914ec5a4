package house

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "planner"

// root is the module's folder, two up from this one.
const root = "../.."

// rule is one row of the floor plan's table.
type rule struct {
	pkg     string
	allowed []string // planner packages it may import
	refused []string // packages it must not import
}

// readRules reads the table whose header is "| package | owns | imports | must not import |".
func readRules(t *testing.T) map[string]rule {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]rule{}
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		cells := tableCells(line)
		switch {
		case len(cells) == 4 && cells[0] == "package" && cells[2] == "imports":
			in = true
		case in && len(cells) == 4 && strings.Trim(cells[0], "-: ") == "":
		case in && len(cells) == 4:
			r := rule{pkg: unquote(cells[0]), allowed: names(cells[2]), refused: names(cells[3])}
			rules[r.pkg] = r
		default:
			in = false
		}
	}
	if len(rules) == 0 {
		t.Fatal("docs/ARCHITECTURE.md has no table | package | owns | imports | must not import |")
	}
	return rules
}

func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	if len(line) < 2 || !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") {
		return nil
	}
	var cells []string
	for _, c := range strings.Split(line[1:len(line)-1], "|") {
		cells = append(cells, strings.TrimSpace(c))
	}
	return cells
}

func unquote(s string) string { return strings.Trim(s, "` ") }

// names reads a cell such as "`diag`, `units`" or "—".
func names(cell string) []string {
	var out []string
	for _, n := range strings.Split(cell, ",") {
		if n = unquote(n); n != "" && n != "—" {
			out = append(out, n)
		}
	}
	return out
}

// packages are the module's package folders, as import paths under the
// module, with the imports of their non-test files.
func packages(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if _, seen := out[pkg]; !seen {
			out[pkg] = nil
		}
		for _, imp := range f.Imports {
			v, _ := strconv.Unquote(imp.Path.Value)
			out[pkg] = append(out[pkg], v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// refuses is whether the name in a "must not import" cell, such as os,
// excelize or montecarlo, covers the import path imp.
func refuses(name, imp string) bool {
	return imp == name || strings.HasPrefix(imp, name+"/") || strings.HasSuffix(imp, "/"+name) || strings.Contains(imp, "/"+name+"/")
}

func TestFloorPlan(t *testing.T) {
	rules := readRules(t)
	found := packages(t)
	names := make([]string, 0, len(found))
	for pkg := range found {
		names = append(names, pkg)
	}
	slices.Sort(names)
	for name := range rules {
		if _, ok := found[name]; !ok {
			t.Errorf("%s: has a row in docs/ARCHITECTURE.md but is no package: remove the row, or fix its name", name)
		}
	}
	for _, pkg := range names {
		imports := found[pkg]
		r, ok := rules[pkg]
		if !ok {
			t.Errorf("%s: has no row in docs/ARCHITECTURE.md: add one that says what it owns and imports", pkg)
			continue
		}
		if _, err := os.Stat(filepath.Join(root, pkg, "doc.go")); err != nil {
			t.Errorf("%s: has no doc.go saying what it owns and what it must not import", pkg)
		}
		var used []string
		for _, imp := range imports {
			within, ok := strings.CutPrefix(imp, module+"/")
			if ok && !slices.Contains(r.allowed, within) {
				t.Errorf("%s imports %s, which its row in docs/ARCHITECTURE.md does not allow", pkg, within)
			}
			if ok {
				used = append(used, within)
			}
			for _, no := range r.refused {
				if refuses(no, imp) {
					t.Errorf("%s imports %s, which it must not import (%s)", pkg, imp, no)
				}
			}
		}
		for _, allowed := range r.allowed {
			if !slices.Contains(used, allowed) {
				t.Errorf("%s: its row allows %s, which it does not import: the row says what the code does, so drop it", pkg, allowed)
			}
			for _, no := range r.refused {
				if refuses(no, module+"/"+allowed) {
					t.Errorf("%s: its row both allows %s and refuses %s", pkg, allowed, no)
				}
			}
		}
	}
}
