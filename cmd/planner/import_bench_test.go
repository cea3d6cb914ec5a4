package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// sweepPoint is one measured load of a sweep: tokens a second, and TTFT
// and TPOT (or inter-token latency) in ms at the percentile the test reads.
type sweepPoint struct {
	load, tokens, ttft, tpot float64
}

// The vllm sweep of Llama 3.1 70B on 2×H100 SXM at FP8, at p99.
var h100Sweep = []sweepPoint{{1, 90, 45, 11}, {8, 640, 120, 13}, {16, 1100, 210, 15.5}, {32, 1800, 480, 21}}

// The sweep of Llama 3.1 70B on one H200 at FP8 from GenAI-Perf and
// AIPerf exports, at p90, latency between tokens as inter-token latency.
var h200Sweep = []sweepPoint{{8, 700, 100, 12}, {16, 1250, 180, 14}, {32, 2000, 350, 19}, {64, 2600, 900, 30}}

// vllmFile is a result of vllm bench serve --save-result at one
// concurrency: p99 and the median (half the p99 here).
func vllmFile(p sweepPoint) string {
	return fmt.Sprintf(`{"date": "20261115-101500", "backend": "vllm", "model_id": "meta-llama/Llama-3.1-70B-Instruct", "num_prompts": 500,
 "request_rate": "inf", "burstiness": 1.0, "max_concurrency": %g, "duration": 100.0, "completed": 500,
 "request_throughput": 5.0, "output_throughput": %g, "total_token_throughput": %g,
 "mean_ttft_ms": %g, "median_ttft_ms": %g, "std_ttft_ms": 1.0, "p99_ttft_ms": %g,
 "mean_tpot_ms": %g, "median_tpot_ms": %g, "std_tpot_ms": 1.0, "p99_tpot_ms": %g,
 "mean_itl_ms": %g, "median_itl_ms": %g, "std_itl_ms": 1.0, "p99_itl_ms": %g}`,
		p.load, p.tokens, 3*p.tokens, p.ttft/2, p.ttft/2, p.ttft, p.tpot/2, p.tpot/2, p.tpot, p.tpot/2, p.tpot/2, 2*p.tpot)
}

// genaiPerfCSV is GenAI-Perf's profile_export_genai_perf.csv of a run:
// the p90 is the point's, the other percentiles around it.
func genaiPerfCSV(p sweepPoint) string {
	stats := func(name string, v float64) string {
		return fmt.Sprintf("%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n", name, 0.8*v, 0.5*v, 1.5*v, 1.3*v, 1.2*v, v, 0.9*v, 0.7*v, 0.6*v)
	}
	return "Metric,avg,min,max,p99,p95,p90,p75,p50,p25\n" + stats("Time To First Token (ms)", p.ttft) + stats("Inter Token Latency (ms)", p.tpot) +
		"Output Sequence Length,200.00,190.00,210.00,210.00,209.00,208.00,205.00,200.00,195.00\n\nMetric,Value\n" +
		fmt.Sprintf("Output Token Throughput (per sec),\"%s\"\nRequest Throughput (per sec),5.00\n", withThousands(p.tokens))
}

// withThousands writes v as GenAI-Perf does: 1,250.00.
func withThousands(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	if len(s) > 6 {
		s = s[:len(s)-6] + "," + s[len(s)-6:]
	}
	return s
}

// genaiPerfJSON is GenAI-Perf's profile_export_genai_perf.json of a run.
func genaiPerfJSON(p sweepPoint) string {
	return fmt.Sprintf(`{"time_to_first_token": {"unit": "ms", "avg": %g, "p99": %g, "p90": %g, "p50": %g},
 "inter_token_latency": {"unit": "ms", "avg": %g, "p99": %g, "p90": %g, "p50": %g},
 "output_token_throughput": {"unit": "tokens/sec", "avg": %g},
 "input_config": {"model": ["llama-3.1-70b"], "concurrency": %g, "streaming": true}}`,
		p.ttft, 1.3*p.ttft, p.ttft, 0.7*p.ttft, p.tpot, 1.3*p.tpot, p.tpot, 0.7*p.tpot, p.tokens, p.load)
}

// aiperfCSV is AIPerf's profile_export_aiperf.csv of a run.
func aiperfCSV(p sweepPoint) string {
	stats := func(name string, v float64) string {
		return fmt.Sprintf("%s,%g,%g,%g,%g,%g,%g,%g,%g,%g,%g,%g,%g,1.0\n", name, 0.8*v, 0.5*v, 1.5*v, 0.5*v, 0.55*v, 0.6*v, 0.65*v, 0.7*v, 0.9*v, v, 1.2*v, 1.3*v)
	}
	return "Metric,avg,min,max,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\n" + stats("Time to First Token (ms)", p.ttft) + stats("Inter Token Latency (ms)", p.tpot) +
		fmt.Sprintf("\nMetric,Value\nRequest Throughput (requests/sec),5.00\nOutput Token Throughput (tokens/sec),%g\n", p.tokens)
}

// aiperfJSON is AIPerf's profile_export_aiperf.json of a run.
func aiperfJSON(p sweepPoint) string {
	return fmt.Sprintf(`{"time_to_first_token": {"unit": "ms", "avg": %g, "p50": %g, "p90": %g, "p99": %g},
 "inter_token_latency": {"unit": "ms", "avg": %g, "p50": %g, "p90": %g, "p99": %g},
 "output_token_throughput": {"unit": "tokens/sec", "avg": %g},
 "start_time": "2026-11-20T09:00:00.000000",
 "input_config": {"endpoint": {"model_names": ["llama-3.1-70b"]}, "loadgen": {"concurrency": %g}}}`,
		p.ttft, 0.7*p.ttft, p.ttft, 1.3*p.ttft, p.tpot, 0.7*p.tpot, p.tpot, 1.3*p.tpot, p.tokens, p.load)
}

// atTargets is the operating point by hand: the last load meeting every
// target and the next, the load where the first latency to reach its
// target does, linear between them, and the tokens linear at that load.
// A zero target is none.
func atTargets(sweep []sweepPoint, ttft, tpot float64) (load, tokens float64) {
	last := -1
	for i, p := range sweep {
		if (ttft == 0 || p.ttft <= ttft) && (tpot == 0 || p.tpot <= tpot) {
			last = i
		}
	}
	lo, hi := sweep[last], sweep[last+1]
	share := 1.0
	if ttft > 0 && hi.ttft > ttft {
		share = math.Min(share, (ttft-lo.ttft)/(hi.ttft-lo.ttft))
	}
	if tpot > 0 && hi.tpot > tpot {
		share = math.Min(share, (tpot-lo.tpot)/(hi.tpot-lo.tpot))
	}
	load = lo.load + share*(hi.load-lo.load)
	return load, lo.tokens + (load-lo.load)/(hi.load-lo.load)*(hi.tokens-lo.tokens)
}

// benchFiles writes the two sweeps' files into dir: vllm's for the H100,
// one of each export for the H200, and returns the import commands.
func benchFiles(t *testing.T, dir, plan string) [][]string {
	t.Helper()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	vllm := []string{"import", "bench"}
	for _, p := range h100Sweep {
		vllm = append(vllm, write(fmt.Sprintf("vllm-c%g.json", p.load), vllmFile(p)))
	}
	vllm = append(vllm, "--gpu", "H100 SXM", "--model", "Llama 3.1 70B", "--precision", "FP8", "--cards", "2", "--into", plan)
	h200 := []string{"--gpu", "H200", "--model", "Llama 3.1 70B", "--precision", "FP8", "--cards", "1", "--into", plan}
	cmds := [][]string{vllm,
		append([]string{"import", "bench", write("profile_export_genai_perf.csv", genaiPerfCSV(h200Sweep[0])), "--concurrency", "8"}, h200...),
		append([]string{"import", "bench", write("profile_export_genai_perf.json", genaiPerfJSON(h200Sweep[1]))}, h200...),
		append([]string{"import", "bench", write("profile_export_aiperf.csv", aiperfCSV(h200Sweep[2])), "--concurrency", "32"}, h200...),
		append([]string{"import", "bench", write("profile_export_aiperf.json", aiperfJSON(h200Sweep[3]))}, h200...),
	}
	return cmds
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("planner %s: exit %d\n%s", strings.Join(args, " "), code, errs.String())
	}
	return out.String() + errs.String()
}

// unzipped is every part of a workbook by name.
func unzipped(t *testing.T, path string) map[string][]byte {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	parts := map[string][]byte{}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		parts[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	return parts
}

// Importing every format changes the Benchmarks sheet alone (and the
// styles its number formats add), and importing the files again adds
// nothing: the file is the same, byte for byte.
func TestImportBenchKeepsTheRest(t *testing.T) {
	dir, plan := freshPlan(t)
	before := unzipped(t, plan)
	for _, cmd := range benchFiles(t, dir, plan) {
		mustRun(t, cmd...)
	}
	after := unzipped(t, plan)
	benchPart := "xl/worksheets/sheet9.xml" // Benchmarks, the ninth sheet init writes
	for name, data := range before {
		if name != benchPart && name != "xl/styles.xml" && !bytes.Equal(data, after[name]) {
			t.Errorf("%s changed on import", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d parts, were %d", len(after), len(before))
	}
	f, err := excelize.OpenFile(plan, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows("Benchmarks")
	f.Close()
	if len(rows) != 1+len(h100Sweep)+len(h200Sweep) {
		t.Fatalf("Benchmarks has %d rows: %q", len(rows), rows)
	}
	// The H100 curve along its concurrency, its third point in row 4: gpu,
	// model, precision, cards, concurrency, rate, output tokens, total
	// tokens, then ttft p50 (vllm's median).
	p := h100Sweep[2]
	if got, want := strings.Join(rows[3][:9], "|"), fmt.Sprintf("H100 SXM|Llama 3.1 70B|FP8|2|%g||%g|%g|%g", p.load, p.tokens, 3*p.tokens, p.ttft/2); got != want {
		t.Errorf("Benchmarks row 4: %s, want %s", got, want)
	}
	// show lists each point as a fact, for review and diff.
	fact := fmt.Sprintf(`benchmark "H100 SXM" "Llama 3.1 70B" FP8 ×2 concurrency %g = %g output tokens/s, %g total, ttft %g/-/%g ms, tpot %g/-/%g ms, itl %g/-/%g ms`,
		p.load, p.tokens, 3*p.tokens, p.ttft/2, p.ttft, p.tpot/2, p.tpot, p.tpot/2, 2*p.tpot)
	if out := mustRun(t, "show", plan); !strings.Contains(out, fact) {
		t.Errorf("show does not say %s", fact)
	}
	was, _ := os.ReadFile(plan)
	for _, cmd := range benchFiles(t, dir, plan) {
		if out := mustRun(t, cmd...); !strings.Contains(out, "holds every point of these files already; nothing written") {
			t.Errorf("imported again: %s", out)
		}
	}
	if now, _ := os.ReadFile(plan); !bytes.Equal(was, now) {
		t.Error("importing the same files again changed the workbook")
	}
}

// deploymentsAt adds deployments with latency targets below the
// Deployments sheet's rows: name, GPU, peak tokens a second, TTFT and TPOT
// targets (0 for none) and percentile.
func deploymentsAt(t *testing.T, path string, rows ...[]any) {
	t.Helper()
	editBook(t, path, func(f *excelize.File) error {
		have, err := f.GetRows("Deployments")
		if err != nil {
			return err
		}
		for i, r := range rows {
			row := len(have) + 1 + i
			cells := map[string]any{"A": r[0], "B": "Llama 3.1 70B", "D": r[1], "I": 730, "N": r[2], "R": r[3], "S": r[4], "T": r[5]}
			for col, v := range cells {
				if v == 0 || v == "" {
					continue
				}
				if err := f.SetCellValue("Deployments", fmt.Sprintf("%s%d", col, row), v); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// The operating point of each deployment with targets, its tokens per
// second and its replicas are the hand interpolation's; every measured
// load meeting the targets is warned of, with the range.
func TestDeploymentsAtLatencyTargets(t *testing.T) {
	dir, plan := freshPlan(t)
	for _, cmd := range benchFiles(t, dir, plan) {
		mustRun(t, cmd...)
	}
	deploymentsAt(t, plan,
		[]any{"70B chat at 300 ms", "H100 SXM", 6000, 300, 20, ""},
		[]any{"70B on H200 at 25 ms a token", "H200", 9000, 0, 25, "p90"},
		[]any{"70B batch, loose targets", "H100 SXM", 0, 5000, 100, "p99"})
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "500", "--format", "json"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	var doc struct {
		Deployments []struct {
			Name           string
			Replicas       int
			Cards          int `json:"cards_per_replica"`
			OperatingPoint *struct {
				Percentile string
				Load       string
				At         float64
				Tokens     float64 `json:"tokens_per_second"`
				TTFT       float64 `json:"ttft_ms"`
				TPOT       float64 `json:"tpot_ms"`
				TPOTFrom   string  `json:"tpot_from"`
				Binding    string
				Capped     bool
				Points     []struct{ Cell string }
			} `json:"operating_point"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, d := range doc.Deployments {
		op := d.OperatingPoint
		switch d.Name {
		case "70B chat at 300 ms":
			load, tokens := atTargets(h100Sweep, 300, 20)
			if op == nil || !near(op.At, load) || !near(op.Tokens, tokens) || op.Binding != "ttft" || op.Percentile != "p99" || op.TTFT > 300+1e-9 || op.TPOT > 20 {
				t.Errorf("%s: %+v, want concurrency %v at %v tokens/s", d.Name, op, load, tokens)
			}
			if want := int(math.Ceil(6000 / tokens)); d.Replicas != want || d.Cards != 2 {
				t.Errorf("%s: %d×%d, want %d replicas of the curve's 2 cards", d.Name, d.Replicas, d.Cards, want)
			}
			if op != nil && (len(op.Points) != 2 || op.Points[0].Cell != "Benchmarks!A4" || op.Points[1].Cell != "Benchmarks!A5") {
				t.Errorf("%s: read %+v", d.Name, op.Points)
			}
		case "70B on H200 at 25 ms a token":
			load, tokens := atTargets(h200Sweep, 0, 25)
			if op == nil || !near(op.At, load) || !near(op.Tokens, tokens) || op.TPOTFrom != "itl" || op.Binding != "tpot" || op.Percentile != "p90" {
				t.Errorf("%s: %+v, want concurrency %v at %v tokens/s", d.Name, op, load, tokens)
			}
			if want := int(math.Ceil(9000 / tokens)); d.Replicas != want || d.Cards != 1 {
				t.Errorf("%s: %d×%d, want %d", d.Name, d.Replicas, d.Cards, want)
			}
		case "70B batch, loose targets":
			if op == nil || !op.Capped || op.At != 32 || op.Tokens != 1800 {
				t.Errorf("%s: %+v, want the highest measured load, 32", d.Name, op)
			}
		default:
			continue
		}
		found[d.Name] = true
	}
	if len(found) != 3 {
		t.Errorf("found %v", found)
	}
	warning := "every measured concurrency from 1 to 32 meets the targets (ttft ≤ 5000 ms and tpot ≤ 100 ms at p99), so planner takes the highest, 32, at 1800 tokens a second a replica, and does not extrapolate beyond it"
	if !strings.Contains(errs.String(), warning) {
		t.Errorf("no warning of the range:\n%s", errs.String())
	}
}

// Targets no measured load meets are an error at the target's cell,
// giving the range measured.
func TestLatencyTargetsBelowTheRange(t *testing.T) {
	dir, plan := freshPlan(t)
	mustRun(t, benchFiles(t, dir, plan)[0]...)
	deploymentsAt(t, plan, []any{"70B at 30 ms", "H100 SXM", 0, 30, 0, ""})
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "500"}, &out, &errs); code == 0 {
		t.Fatal("evaluated")
	}
	row := len(readSheet(t, plan, "Deployments").rows)
	want := fmt.Sprintf("Deployments!R%d: 70B at 30 ms: no measured", row) + " concurrency from 1 to 32 meets the targets (ttft ≤ 30 ms at p99): the lowest gives a ttft of 45 ms and a tpot of 11 ms; relax the targets, or measure lower loads"
	if !strings.Contains(errs.String(), want) {
		t.Errorf("got %s\nwant %s", errs.String(), want)
	}
}

// LibreOffice recalculates the operating point from the Benchmarks cells
// as planner computes it, before and after a measured figure changes.
func TestLibreOfficeReadsTheOperatingPoint(t *testing.T) {
	needLibreOffice(t)
	dir, plan := freshPlan(t)
	for _, cmd := range benchFiles(t, dir, plan) {
		mustRun(t, cmd...)
	}
	deploymentsAt(t, plan,
		[]any{"70B chat at 300 ms", "H100 SXM", 6000, 300, 20, ""},
		[]any{"70B on H200 at 25 ms a token", "H200", 9000, 0, 25, "p90"})
	mustRun(t, "eval", plan, "--samples", "1000")
	// A target the points planner read no longer bracket: the sheet says
	// so rather than read the wrong points.
	chat := len(readSheet(t, plan, "Deployments").rows) - 1
	moved := filepath.Join(dir, "moved.xlsx")
	copyFile(t, plan, moved)
	setNumber(t, moved, "Deployments", fmt.Sprintf("R%d", chat), 100)
	_, lo := recalculatedAsPlanner(t, dir, plan, map[string]func(string){
		// More tokens at concurrency 32, and a tighter TTFT target.
		"faster.xlsx": func(path string) { setNumber(t, path, "Benchmarks", "G5", 1900) },
		"tighter.xlsx": func(path string) {
			rows := readSheet(t, path, "Deployments").rows
			setNumber(t, path, "Deployments", fmt.Sprintf("R%d", len(rows)-1), 250)
		},
	}, moved)
	costs := readSheet(t, filepath.Join(lo, "moved.xlsx"), "Deployment costs")
	head, checked := costs.rows[3], 0
	for _, r := range costs.rows {
		if len(r) == 0 || r[0] != "70B chat at 300 ms" {
			continue
		}
		for c, h := range head {
			if h == "tokens per second per replica" || h == "benchmark points read" {
				checked++
			}
			switch h {
			case "tokens per second per replica":
				if r[c] != "#N/A" {
					t.Errorf("tokens per second %q once the target moved, want #N/A", r[c])
				}
			case "benchmark points read":
				if !strings.HasPrefix(r[c], "the targets or these points changed: run planner eval") {
					t.Errorf("points read: %q", r[c])
				}
			}
		}
	}
	if checked != 2 {
		t.Errorf("Deployment costs of moved.xlsx: checked %d cells of the deployment, want 2", checked)
	}
}

// The README's worked example is a run: the sweep imported, the deployment
// with latency targets, the operating point's table as eval prints it, and
// the figures its words work out by hand.
func TestWorkedBenchmarkExample(t *testing.T) {
	dir, plan := freshPlan(t)
	mustRun(t, benchFiles(t, dir, plan)[0]...)
	deploymentsAt(t, plan, []any{"70B chat at 300 ms", "H100 SXM", 6000, 300, 20, ""})
	out := mustRun(t, "eval", plan, "--samples", "500")
	lines := strings.Split(out, "\n")
	var table []string
	for i, l := range lines {
		if strings.HasPrefix(l, "Operating points") && i+3 < len(lines) {
			table = lines[i : i+4]
		}
	}
	readme := page(t, "README.md")
	if table == nil {
		t.Fatalf("eval printed no operating points:\n%s", out)
	}
	quotes(t, "README.md", readme, strings.Join(strings.Fields(strings.Join(table, " ")), " "))
	load, tokens := atTargets(h100Sweep, 300, 20)
	replicas := math.Ceil(6000 / tokens)
	const price = 2.69 // RunPod's H100 SXM, Community, a GPU-hour
	quotes(t, "README.md", readme,
		fmt.Sprintf("concurrency 16 + 16/3 = %.2f", load),
		fmt.Sprintf("1,100 + 700/3 = 1,%03.1f tokens", tokens-1000),
		fmt.Sprintf("= %g replicas of 2 cards", replicas),
		money(replicas*2*price*730, 2)+" a month rented from RunPod at $2.69",
		"17,520,000,000 tokens")
	if want := math.Round(tokens * 3600 * 730 * replicas); want != 17_520_000_000 {
		t.Errorf("tokens a month by hand: %v", want)
	}
}
