package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkEvalDefaultWorkbook is the whole of planner eval on the workbook
// planner init writes: read, evaluate every scenario, size, cost the
// deployments, 10,000 Monte Carlo samples per scenario, write and verify
// all four owned sheets, save.
func BenchmarkEvalDefaultWorkbook(b *testing.B) {
	dir := b.TempDir()
	fresh := filepath.Join(dir, "fresh.xlsx")
	if code := run([]string{"init", fresh}, io.Discard, io.Discard); code != 0 {
		b.Fatal("init failed")
	}
	data, err := os.ReadFile(fresh)
	if err != nil {
		b.Fatal(err)
	}
	plan := filepath.Join(dir, "plan.xlsx")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.WriteFile(plan, data, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if code := run([]string{"eval", plan}, io.Discard, io.Discard); code != 0 {
			b.Fatal("eval failed")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/eval")
}
