package engine

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"planner/diag"
	"planner/domain"
	"planner/formulas"
)

var update = flag.Bool("update", false, "rewrite the want section of testdata/*.txtar")

// TestCases runs every testdata/*.txtar: a model in sections
// "inputs" (name = number or "text"), "formulas" (the library format) and
// "offers" (provider | offer | gpu | price), and the whole printed outcome
// in "want": build errors, or the evaluation order and every value and
// error. go test ./engine -update rewrites "want" after a deliberate change.
func TestCases(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no cases in testdata")
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := runCase(t, a)
			i := section(a, "want")
			if *update {
				if i < 0 {
					a.Files = append(a.Files, txtar.File{Name: "want"})
					i = len(a.Files) - 1
				}
				a.Files[i].Data = []byte(got)
				if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if i < 0 {
				t.Fatal("no want section; run go test ./engine -update")
			}
			if want := string(a.Files[i].Data); got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func section(a *txtar.Archive, name string) int {
	for i, f := range a.Files {
		if f.Name == name {
			return i
		}
	}
	return -1
}

func data(a *txtar.Archive, name string) string {
	if i := section(a, name); i >= 0 {
		return string(a.Files[i].Data)
	}
	return ""
}

func runCase(t *testing.T, a *txtar.Archive) string {
	m := domain.Model{}
	for i, line := range strings.Split(strings.TrimSpace(data(a, "inputs")), "\n") {
		name, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		in := domain.Input{Name: strings.TrimSpace(name), Origin: diag.Origin{File: "case", Sheet: "Assumptions", Row: i + 2, Col: 2}}
		v = strings.TrimSpace(v)
		if s, err := strconv.Unquote(v); err == nil {
			in.Value = domain.Text(s)
		} else if x, err := strconv.ParseFloat(v, 64); err == nil {
			in.Value = domain.Num(x)
		} else {
			t.Fatalf("input %s: %q is neither a number nor quoted text", in.Name, v)
		}
		m.Inputs = append(m.Inputs, in)
	}
	fs, err := formulas.ParseLibrary("formulas", data(a, "formulas"))
	if err != nil {
		t.Fatal(err)
	}
	m.Formulas = fs
	for _, line := range strings.Split(strings.TrimSpace(data(a, "offers")), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 4 {
			continue
		}
		price, _ := strconv.ParseFloat(strings.TrimSpace(f[3]), 64)
		m.Offers = append(m.Offers, domain.Offer{Provider: strings.TrimSpace(f[0]), Name: strings.TrimSpace(f[1]), GPU: strings.TrimSpace(f[2]), Price: price})
	}
	p, err := Build(m)
	if err != nil {
		return "build error:\n" + err.Error() + "\n"
	}
	r, err := p.Eval(domain.Scenario{Name: "base"})
	if err != nil {
		return "scenario error:\n" + err.Error() + "\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "order: %s\n", strings.Join(p.Order(), " "))
	printValues(&b, "", r.Values, r.Errors)
	for _, o := range r.Offers {
		if !o.Compared {
			fmt.Fprintf(&b, "offer %s: not compared\n", o.Offer.Label())
			continue
		}
		fmt.Fprintf(&b, "offer %s: %s\n", o.Offer.Label(), o.Verdict)
		printValues(&b, "  ", o.Values, o.Errors)
	}
	return b.String()
}

func printValues(b *strings.Builder, indent string, values map[string]float64, errs map[string]*EvalError) {
	var names []string
	for n := range values {
		names = append(names, n)
	}
	for n := range errs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if v, ok := values[n]; ok {
			fmt.Fprintf(b, "%s%s = %s\n", indent, n, strconv.FormatFloat(v, 'g', 12, 64))
		} else {
			fmt.Fprintf(b, "%s%s: %s\n", indent, n, strings.ReplaceAll(errs[n].Error(), "\n", "\n"+indent+"    "))
		}
	}
}
