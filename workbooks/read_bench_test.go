package workbooks

import (
	"path/filepath"
	"testing"

	"planner/units"
)

// BenchmarkRead reads the workbook planner init writes into a model, as
// every eval begins: every input sheet, every cell's references followed
// and checked for a date shown where a number is read.
func BenchmarkRead(b *testing.B) {
	in, err := Init(filepath.Join(b.TempDir(), "plan.xlsx"), units.USD)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadBytes("plan.xlsx", in.Data); err != nil {
			b.Fatal(err)
		}
	}
}
