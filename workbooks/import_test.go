package workbooks

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/domain"
	"planner/workbooks/internal/schema"
)

// measured is a point on one H200 at concurrency c.
func measured(c, tokens, ttft99 float64) domain.Benchmark {
	return domain.Benchmark{GPU: "H200", Model: "Llama 3.1 70B", Precision: "FP8", Cards: 1, Concurrency: c, OutputTokens: tokens,
		TTFT: domain.Latencies{0, 0, ttft99}, Source: "run.json", Date: "2026-11-15"}
}

func importInto(t *testing.T, path string, points ...domain.Benchmark) (Imported, error) {
	t.Helper()
	in, err := ImportBenchmarks(path, points)
	if err == nil && in.Data != nil {
		if err := Save(path, in.Data, in.Original); err != nil {
			t.Fatal(err)
		}
	}
	return in, err
}

// A workbook of an older planner, without a Benchmarks sheet, is given
// one; only the parts that list the sheets change besides it.
func TestImportAddsTheSheet(t *testing.T) {
	path := newPlan(t)
	editPlan(t, path, func(f *excelize.File) error { return f.DeleteSheet(schema.Benchmarks.Name) })
	before, _ := os.ReadFile(path)
	in, err := importInto(t, path, measured(16, 1250, 180), measured(8, 700, 100))
	if err != nil || in.Added != 2 || in.Sheet != "Benchmarks" {
		t.Fatalf("%+v %v", in, err)
	}
	after, _ := os.ReadFile(path)
	old, now := zipParts(t, before), zipParts(t, after)
	for name, data := range old {
		if !bytes.Equal(data, now[name]) && !strings.HasPrefix(name, "xl/workbook.xml") && name != "[Content_Types].xml" &&
			name != "xl/_rels/workbook.xml.rels" && name != "xl/styles.xml" && name != "docProps/app.xml" {
			t.Errorf("%s changed", name)
		}
	}
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// In the order of their load, whatever order they came in.
	if got := b.Model.Benchmarks; len(got) != 2 || got[0].Concurrency != 8 || got[1].Concurrency != 16 || got[1].Origin.Row != 3 {
		t.Errorf("read back %+v", got)
	}
}

// A Benchmarks sheet with a row planner cannot read, or a sheet of the
// user's of that name, is refused and the file left as it was.
func TestImportRefuses(t *testing.T) {
	path := newPlan(t)
	if _, err := importInto(t, path, measured(8, 700, 100)); err != nil {
		t.Fatal(err)
	}
	editPlan(t, path, func(f *excelize.File) error { return f.SetCellValue("Benchmarks", "G2", "fast") })
	before, _ := os.ReadFile(path)
	_, err := importInto(t, path, measured(16, 1250, 180))
	want := path + ": the Benchmarks sheet has rows planner cannot read, which importing would lose; fix them first:\n" +
		path + `: Benchmarks!G2: Llama 3.1 70B on H200: "fast" is not a number; type a number such as 3438`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	path2 := newPlan(t)
	editPlan(t, path2, func(f *excelize.File) error {
		if err := f.DeleteSheet("Benchmarks"); err != nil {
			return err
		}
		if _, err := f.NewSheet("Benchmarks"); err != nil {
			return err
		}
		return f.SetCellValue("Benchmarks", "A1", "our own timings")
	})
	_, err = importInto(t, path2, measured(16, 1250, 180))
	if err == nil || !strings.Contains(err.Error(), "has a sheet Benchmarks of its own, without planner's columns") {
		t.Errorf("got %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a refused import changed the file")
	}
}

// A deployment gives its tokens or its targets, not both; a percentile
// planner does not know is refused naming those it knows, one typed as a
// number or in capitals is read.
func TestTargetsRead(t *testing.T) {
	path := newPlan(t)
	if _, err := importInto(t, path, measured(8, 700, 100), measured(16, 1250, 180), measured(32, 2000, 350)); err != nil {
		t.Fatal(err)
	}
	row := 4 // 70B FP8 on one H200
	edit := func(cells map[string]any) {
		editPlan(t, path, func(f *excelize.File) error {
			for h, v := range cells {
				setDeployment(t, f, h, row, v)
			}
			return nil
		})
	}
	edit(map[string]any{"ttft target ms": 250, "latency percentile": "P99"})
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	d := b.Model.Deployments[row-2]
	// 250 ms lies (250 − 180) ÷ (350 − 180) of the way from 16 to 32.
	share := (250.0 - 180) / (350 - 180)
	if op := d.Operating; op == nil || op.Percentile != "p99" || !near(op.At, 16+share*16) || !near(d.TokensPerReplica, 1250+share*750) {
		t.Errorf("%+v", d.Operating)
	}
	edit(map[string]any{"latency percentile": "95"})
	_, err = Read(path)
	if want := `Deployments!T4: 70B FP8 on one H200: the latency percentile "95" is not one planner reads; type p50, p90 or p99, or leave it empty for p99`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v", err)
	}
	edit(map[string]any{"latency percentile": "", "tokens per second per replica": 1000})
	_, err = Read(path)
	if want := "Deployments!M4: 70B FP8 on one H200: the deployment gives both its tokens per second per replica and latency targets"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v", err)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }
