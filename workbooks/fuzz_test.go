package workbooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/engine"
)

// FuzzRead feeds the reader any bytes, seeded with planner's own workbook
// and, where the corpus is beside the project, small real-world and hostile
// ones: reading never panics, every refusal names the file, and whatever is
// read builds or is refused with a message, and is written back (in
// memory) without panic.
func FuzzRead(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "plan.xlsx")
	data, err := Init(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	seeds, _ := filepath.Glob(filepath.Join(corpusDir, "*.xlsx"))
	hostile, _ := filepath.Glob(filepath.Join(corpusDir, "..", "hostile", "*"))
	for _, s := range append(seeds, hostile...) {
		if b, err := os.ReadFile(s); err == nil && len(b) <= 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadBytes("fuzz.xlsx", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.xlsx") {
				t.Fatalf("an error that does not name the file: %v", err)
			}
			return
		}
		p, err := engine.Build(b.Model)
		if err != nil {
			return
		}
		results, err := p.EvalAll(nil)
		if err != nil {
			return
		}
		// Writing planner's sheets into whatever was read: charts, style
		// counts and the calculation chain all edit the package.
		if _, err := b.Write(Output{Version: "fuzz", Plan: p, Results: results}, WriteOptions{}); err != nil && !strings.HasPrefix(err.Error(), "fuzz.xlsx") {
			t.Fatalf("an error that does not name the file: %v", err)
		}
	})
}
