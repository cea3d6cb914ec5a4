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
// as it stands, and why: each shows a workbook changed first, and a test of
// its own checks it.
var notRunHere = map[string]string{
	"git diff":                                     "a typo committed in git",
	"planner diff HEAD:plan.xlsx plan.xlsx":        "a workbook changed since its commit",
	"planner eval plan.xlsx --check":               "a workbook changed without eval",
	"git commit -m 'capex at 300,000'":             "a stale workbook committed",
	"docs/your-numbers.md: planner eval plan.xlsx": "capex, electricity and rack typed in",
	"docs/finance.md: planner eval plan.xlsx":      "a throughput gain and a peak typed in",
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
			if code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx"); code != 0 {
				t.Fatalf("eval: %s", errs)
			}
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
