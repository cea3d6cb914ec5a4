package formulas

import (
	"embed"
	"io/fs"
	"slices"
	"strings"
)

//go:embed earlier/*.expr
var earlier embed.FS

// earlierBuiltins maps a formula's name to the expressions, without
// spaces, that earlier versions of planner's library gave it.
func earlierBuiltins() map[string][]string {
	out := map[string][]string{}
	paths, _ := fs.Glob(earlier, "earlier/*.expr")
	for _, p := range paths {
		src, _ := earlier.ReadFile(p)
		fs, err := ParseLibrary("formulas/"+p, string(src))
		if err != nil {
			panic(err) // a broken file of earlier built-ins is a bug caught by the tests
		}
		for _, f := range fs {
			out[f.Name] = append(out[f.Name], compact(f.Source))
		}
	}
	return out
}

func compact(src string) string { return strings.Join(strings.Fields(src), "") }

// Superseded splits a workbook's own formulas into those it keeps and
// those that are, word for word, an earlier planner's built-in whose
// expression the library has since changed: init copied them into the
// sheet, and today's built-in (Merge) takes their place, so that a
// workbook made by an earlier planner computes what a new one does.
func Superseded(own []Formula) (kept, replaced []Formula) {
	before := earlierBuiltins()
	current := map[string]string{}
	for _, f := range Library() {
		current[f.Name] = compact(f.Source)
	}
	for _, f := range own {
		src := compact(f.Source)
		if now, ok := current[f.Name]; ok && src != now && slices.Contains(before[f.Name], src) {
			replaced = append(replaced, f)
			continue
		}
		kept = append(kept, f)
	}
	return kept, replaced
}
