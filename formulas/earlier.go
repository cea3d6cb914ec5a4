package formulas

import (
	"embed"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed earlier/*.expr
var earlier embed.FS

// release is one file of earlier built-ins: the built-ins of a version of
// planner whose expression a later version changed.
type release struct {
	version  []int
	formulas []Formula
}

// releases are the files of earlier built-ins, oldest version first.
func releases() []release {
	var out []release
	paths, _ := fs.Glob(earlier, "earlier/*.expr")
	for _, p := range paths {
		src, _ := earlier.ReadFile(p)
		fs, err := ParseLibrary("formulas/"+p, string(src))
		if err != nil {
			panic(err) // a broken file of earlier built-ins is a bug caught by the tests
		}
		out = append(out, release{version: versionOf(p), formulas: fs})
	}
	slices.SortFunc(out, func(a, b release) int { return slices.Compare(a.version, b.version) })
	return out
}

// versionOf reads the version a file of earlier built-ins is named after:
// "earlier/0.10.expr" is [0 10], which comes after [0 9].
func versionOf(p string) []int {
	var out []int
	for _, part := range strings.Split(strings.TrimSuffix(path.Base(p), ".expr"), ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			panic("formulas: " + p + " is not named after a version") // caught by the tests
		}
		out = append(out, n)
	}
	return out
}

// earlierBuiltins maps a formula's name to the expressions, without
// spaces, that earlier versions of planner's library gave it.
func earlierBuiltins() map[string][]string {
	out := map[string][]string{}
	for _, r := range releases() {
		for _, f := range r.formulas {
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

// AddedInputs are the names the built-in formula name reads, itself or
// through other built-ins, that no built-in defines and that the same
// formula of some earlier planner did not read: the inputs a workbook of
// that planner may have no row for. They come in the order the library's
// formulas first read them.
func AddedInputs(name string) []string { return addedInputs(name, Library(), releases()) }

// addedInputs is AddedInputs of the library lib and the earlier built-ins
// rs, oldest first.
func addedInputs(name string, lib []Formula, rs []release) []string {
	now := leaves(name, sources(lib))
	var before []map[string]bool
	for i := range rs {
		before = append(before, leaves(name, asOf(lib, rs[i:])))
	}
	var out []string
	for _, f := range lib {
		for _, n := range mustNames(f.Source) {
			if now[n] && !slices.Contains(out, n) && slices.ContainsFunc(before, func(b map[string]bool) bool { return !b[n] }) {
				out = append(out, n)
			}
		}
	}
	return out
}

// asOf is the built-ins' expressions as of the first of rs: a formula is
// what the first file that lists it says, since each file lists its
// version's built-ins that changed after it, else what the library says.
func asOf(lib []Formula, rs []release) map[string]string {
	defs := sources(lib)
	for _, r := range slices.Backward(rs) {
		for _, f := range r.formulas {
			defs[f.Name] = f.Source
		}
	}
	return defs
}

// sources maps each formula's name to its expression.
func sources(fs []Formula) map[string]string {
	out := make(map[string]string, len(fs))
	for _, f := range fs {
		out[f.Name] = f.Source
	}
	return out
}

// leaves are the names the formula name reads, itself or through the
// formulas of defs, that defs does not define.
func leaves(name string, defs map[string]string) map[string]bool {
	out, seen := map[string]bool{}, map[string]bool{}
	var visit func(string)
	visit = func(n string) {
		src, ok := defs[n]
		switch {
		case !ok:
			out[n] = true
		case !seen[n]:
			seen[n] = true
			for _, m := range mustNames(src) {
				visit(m)
			}
		}
	}
	visit(name)
	return out
}

// mustNames are the names a built-in reads; a built-in that does not
// parse is a bug caught by the tests. Each source is parsed once: finding
// the inputs added since each release walks the same built-ins once per
// release, and parsing them again each time was a tenth of an eval of the
// default workbook.
func mustNames(src string) []string {
	if names, ok := builtinNames.Load(src); ok {
		return names.([]string)
	}
	names, err := Names(src)
	if err != nil {
		panic(err)
	}
	builtinNames.Store(src, names)
	return names
}

// builtinNames are the names each built-in's source reads, by source.
var builtinNames sync.Map
