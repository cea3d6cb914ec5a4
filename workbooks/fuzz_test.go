package workbooks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/deploy"
	"planner/engine"
	"planner/montecarlo"
	"planner/units"
	"planner/whatif"
	"planner/workbooks/internal/ooxml"
)

// FuzzRead feeds the reader and init any bytes, seeded with planner's own
// workbook and, where the corpus is beside the project, small real-world and
// hostile ones: neither panics (nor reaches a panic of excelize's that
// planner would only catch), every refusal names the file, and whatever is
// read builds or is refused with a message, and is written back (in memory)
// without panic.
func FuzzRead(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "plan.xlsx")
	in, err := Init(path, units.USD)
	data := in.Data
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	seeds, _ := filepath.Glob(filepath.Join(corpusDir, "*.xlsx"))
	for _, other := range []string{"hostile", "wild"} {
		more, _ := filepath.Glob(filepath.Join(corpusDir, "..", other, "*"))
		seeds = append(seeds, more...)
	}
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil && len(b) <= 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		named := func(what string, err error) {
			var p *panicked
			switch {
			case err == nil:
			case !strings.HasPrefix(err.Error(), "fuzz.xlsx"):
				t.Fatalf("%s: an error that does not name the file: %v", what, err)
			case errors.As(err, &p):
				t.Fatalf("%s: excelize panicked: %v", what, err)
			}
		}
		if ooxml.Sniff("fuzz.xlsx", data) == nil {
			_, err := initInto("fuzz.xlsx", data, units.USD)
			named("init", err)
		}
		b, err := ReadBytes("fuzz.xlsx", data)
		if err != nil {
			named("read", err)
			return
		}
		p, err := engine.Build(b.Model, deploy.Check, montecarlo.Check, whatif.Check)
		if err != nil {
			return
		}
		results, err := p.EvalAll(nil)
		if err != nil {
			return
		}
		// Writing planner's sheets into whatever was read: charts, style
		// counts and the calculation chain all edit the package.
		_, err = b.Write(Output{Version: "fuzz", Plan: p, Results: results}, WriteOptions{})
		named("write", err)
	})
}
