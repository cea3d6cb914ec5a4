package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// sample is a command of the guide's and the output it shows, from a
// fenced block whose lines start "$ planner".
type sample struct {
	page, command string
	output        []string
}

// samples are the guide's `$ planner …` commands with the lines shown
// under each, up to the next command or the block's end.
func samples(t *testing.T, root string) []sample {
	t.Helper()
	var out []sample
	for _, page := range docPages(t, root) {
		data, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range plainBlocks(string(data)) {
			var cur *sample
			for _, line := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
				if cmd, ok := strings.CutPrefix(line, "$ "); ok {
					out = append(out, sample{page: page, command: cmd})
					cur = &out[len(out)-1]
					continue
				}
				if cur != nil {
					cur.output = append(cur.output, strings.TrimRight(line, " "))
				}
			}
		}
	}
	return out
}

// notRunHere are the samples this test cannot run on the default workbook
// in a folder, and why; TestWhereUsersWork runs the commit through the
// pre-commit framework and compares it with the page.
var notRunHere = map[string]string{
	"git commit -m 'capex at 300,000'":        "a stale workbook committed through the pre-commit framework",
	"docs/finance.md: planner eval plan.xlsx": "a throughput gain and a peak typed in",
}

// staged are the samples of a workbook the page has edited first, by page
// and command, each in the order the page shows them: each sets the
// folder up as the page says, after the eval that precedes every sample
// but an eval's.
var staged = map[string][]func(t *testing.T, dir string){
	"docs/review.md: git diff": {typoCommitted},
	"docs/review.md: planner diff HEAD:plan.xlsx plan.xlsx": {typoCommitted, func(t *testing.T, dir string) {
		committed(t, dir)
		setInputs(t, filepath.Join(dir, "plan.xlsx"), map[string]float64{"capex": 300000, "utilization": 0.48})
		plannerOK(t, dir, "eval", "plan.xlsx")
	}},
	"docs/review.md: planner eval plan.xlsx --check": {func(t *testing.T, dir string) {
		plannerOK(t, dir, "eval", "plan.xlsx")
		setInputs(t, filepath.Join(dir, "plan.xlsx"), map[string]float64{"electricity_price": 0.16})
	}},
	"docs/your-numbers.md: planner eval plan.xlsx": {func(t *testing.T, dir string) {
		setInputs(t, filepath.Join(dir, "plan.xlsx"), map[string]float64{"capex": 412000, "electricity_price": 0.165, "rack_per_month": 1800})
	}},
}

// typoCommitted commits the evaluated workbook to a repository whose diff
// of workbooks is planner show's, as docs/review.md sets it up, then types
// a price in words, as the page's typo.
func typoCommitted(t *testing.T, dir string) {
	committed(t, dir)
	plan := filepath.Join(dir, "plan.xlsx")
	setCells(t, plan, map[string]any{assumptionCell(t, plan, "electricity_price"): "twelve cents"})
}

// committed makes dir a git repository with the diff driver of
// docs/review.md and plan.xlsx committed.
func committed(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"}, {"config", "user.email", "analyst@example.com"}, {"config", "user.name", "analyst"},
		{"config", "diff.planner.textconv", "planner show"}, {"add", "plan.xlsx", ".gitattributes"}, {"commit", "-q", "-m", "the plan"},
	} {
		if args[0] == "add" {
			if err := os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.xlsx diff=planner\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// plannerOK runs planner in dir and stops the test if it fails.
func plannerOK(t *testing.T, dir string, args ...string) {
	t.Helper()
	if code, _, errs := plannerTimed(t, dir, args...); code != 0 {
		t.Fatalf("planner %s: %s", strings.Join(args, " "), errs)
	}
}

// Every sample the guide shows of a command run on the default workbook is
// what that command prints: each is run in a folder holding the default
// workbook, evaluated, and its output (standard output and error, in the
// order written) compared line by line, a line "…" standing for any lines.
func TestDocSamplesAreRuns(t *testing.T) {
	root := moduleRoot(t)
	ran := 0
	for _, s := range samples(t, root) {
		if why, ok := notRunHere[s.command]; ok || notRunHere[s.page+": "+s.command] != "" {
			t.Logf("%s: not run here (%s%s): %s", s.page, why, notRunHere[s.page+": "+s.command], s.command)
			continue
		}
		ran++
		dir := t.TempDir()
		initPlan(t, dir, "plan.xlsx")
		// An eval's sample is of the first eval; the others read an
		// evaluated workbook.
		if !strings.HasPrefix(s.command, "planner eval ") {
			plannerOK(t, dir, "eval", "plan.xlsx")
		}
		key := s.page + ": " + s.command
		if setups := staged[key]; len(setups) > 0 {
			setups[0](t, dir)
			staged[key] = setups[1:]
		}
		got := shellRun(t, dir, s.command)
		if !matchesSample(s.output, got) {
			t.Errorf("%s: $ %s prints\n%s\nwhere the page shows\n%s", s.page, s.command, strings.Join(got, "\n"), strings.Join(s.output, "\n"))
			if dump := os.Getenv("PLANNER_SAMPLES_DUMP"); dump != "" {
				_ = os.WriteFile(filepath.Join(dump, fmt.Sprintf("%d.got", ran)), []byte(strings.Join(got, "\n")+"\n"), 0o644)
				_ = os.WriteFile(filepath.Join(dump, fmt.Sprintf("%d.doc", ran)), []byte(s.page+": "+s.command+"\n"+strings.Join(s.output, "\n")+"\n"), 0o644)
			}
		}
	}
	if ran < 10 {
		t.Errorf("ran %d samples; the guide shows eval, show, formulas, size and solve", ran)
	}
}

// shellRun runs a sample's command line in dir as a shell would, and
// returns what it wrote, standard output and error together.
func shellRun(t *testing.T, dir, command string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run() // the exit status is the sample's; its output is compared
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish in 60 s", command)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return lines
}

// matchesSample says whether got reads as the sample shows it, a line "…"
// of the sample standing for any number of lines.
func matchesSample(sample, got []string) bool {
	if len(sample) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(sample[0]) == "…" {
		for i := 0; i <= len(got); i++ {
			if matchesSample(sample[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && sample[0] == got[0] && matchesSample(sample[1:], got[1:])
}

// plainBlocks are the fenced blocks of a page that name no language, the
// ones the guide shows output in, without their fences.
func plainBlocks(page string) []string {
	var out []string
	var block []string
	lang, fenced := "", false
	for _, line := range strings.Split(page, "\n") {
		if fence, ok := strings.CutPrefix(line, "```"); ok {
			if fenced && lang == "" {
				out = append(out, strings.Join(block, "\n"))
			}
			fenced, lang, block = !fenced, fence, nil
			continue
		}
		if fenced {
			block = append(block, line)
		}
	}
	return out
}

// Where the guide says which cell an input's name points at, init's
// workbook names that cell.
func TestDocumentedNamesAreTheWorkbooks(t *testing.T) {
	root := moduleRoot(t)
	path := initPlan(t, t.TempDir(), "plan.xlsx")
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		names[dn.Name] = dn.RefersTo
	}
	claims := 0
	for _, page := range docPages(t, root) {
		data, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(data)), " ")
		for _, m := range regexp.MustCompile("`(\\w+)` is `([A-Za-z]+![$A-Z0-9]+)`").FindAllStringSubmatch(text, -1) {
			claims++
			if names[m[1]] != m[2] {
				t.Errorf("%s says `%s` is `%s`; init's workbook names %q", page, m[1], m[2], names[m[1]])
			}
		}
	}
	if claims == 0 {
		t.Error("the guide says nowhere which cell an input's name points at; docs/workbook.md did")
	}
}
