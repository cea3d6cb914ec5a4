package formulas

import (
	"embed"
	"fmt"
	"io/fs"
	"planner/diag"
	"regexp"
	"strings"
)

//go:embed library/*.expr
var library embed.FS

// Library returns the built-in formulas in file and line order. The files are
// part of the binary, and a test proves that they parse.
func Library() []Formula {
	var all []Formula
	paths, _ := fs.Glob(library, "library/*.expr")
	for _, p := range paths {
		src, _ := library.ReadFile(p)
		fs, err := ParseLibrary("formulas/"+p, string(src))
		if err != nil {
			panic(err) // a broken built-in file is a bug caught by the tests
		}
		all = append(all, fs...)
	}
	return all
}

// Builtin is the built-in formula of that name.
func Builtin(name string) (Formula, bool) {
	for _, f := range Library() {
		if f.Name == name {
			return f, true
		}
	}
	return Formula{}, false
}

// definition is one formula line: name "label" [unit] = expression.
var definition = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*(?:"([^"]*)")?\s*(?:\[([^\]]*)\])?\s*=\s*(.*)$`)

// ParseLibrary reads formulas in the library text format: "# " comment lines
// describe the formula that follows them (a blank line ends a description),
// a definition reads `name "label" [unit] = expression` (the label and the
// unit may be left out), and an indented line continues the expression
// above it.
func ParseLibrary(file, src string) ([]Formula, error) {
	var out []Formula
	var doc []string
	var problems diag.Diagnostics
	for i, line := range strings.Split(src, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			doc = nil
		case strings.HasPrefix(trimmed, "#"):
			doc = append(doc, strings.TrimSpace(strings.TrimPrefix(trimmed, "#")))
		case line[0] == ' ' || line[0] == '\t':
			if len(out) == 0 {
				problems = append(problems, &diag.Diagnostic{Origin: diag.Origin{File: file, Line: i + 1}, Msg: "a continuation line with no formula above it"})
				continue
			}
			out[len(out)-1].Source += " " + trimmed
		default:
			m := definition.FindStringSubmatch(trimmed)
			if m == nil {
				problems = append(problems, &diag.Diagnostic{Origin: diag.Origin{File: file, Line: i + 1},
					Msg: fmt.Sprintf(`expected name "label" [unit] = expression, found %q`, trimmed)})
				continue
			}
			out = append(out, Formula{Name: m[1], Label: strings.TrimSpace(m[2]), Unit: strings.TrimSpace(m[3]), Source: strings.TrimSpace(m[4]),
				Doc: strings.Join(doc, " "), Origin: diag.Origin{File: file, Line: i + 1}})
			doc = nil
		}
	}
	return out, problems.Err()
}

// Merge returns own followed by every formula of base whose name own does not
// define: a workbook's Formulas sheet wins over the built-ins, name by name.
func Merge(base, own []Formula) []Formula {
	defined := make(map[string]bool, len(own))
	out := append([]Formula(nil), own...)
	for _, f := range own {
		defined[f.Name] = true
	}
	for _, f := range base {
		if !defined[f.Name] {
			out = append(out, f)
		}
	}
	return out
}
