package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// changedResults are the results of scenario base that a diff of show's
// text removes (-) and adds (+), by name: result "base" NAME = VALUE UNIT.
func changedResults(t *testing.T, diff string) (old, new map[string]float64) {
	t.Helper()
	old, new = map[string]float64{}, map[string]float64{}
	for _, m := range regexp.MustCompile(`(?m)^([-+])result "base" ([a-z_]+) = (\S+) `).FindAllStringSubmatch(diff, -1) {
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("result %s: %v", m[2], err)
		}
		if m[1] == "-" {
			old[m[2]] = v
		} else {
			new[m[2]] = v
		}
	}
	return old, new
}

// The guide's two lines of git set-up, typed in a repository of
// workbooks with the installed planner on PATH, make git diff, git log -p
// and git show print the assumption typed into a value cell and the
// results it moved, and nothing that did not move.
func (u *user) testTextconv(t *testing.T) {
	u.t = t
	repo := filepath.Join(t.TempDir(), "plans")
	u.gitRepo(repo)
	setup := blockWith(t, codeBlocks(docSection(t, u.root, "Reviewing changes: show, diff, eval --check"), "sh"), "textconv")
	if lines := commands(setup); len(lines) != 2 {
		t.Fatalf("the guide's git set-up is %d lines, want the two it says: %q", len(lines), lines)
	}
	u.sh(repo, setup)
	plan := u.evaluatedPlan(repo, "plan.xlsx")
	u.must(repo, "git", "add", ".gitattributes", "plan.xlsx")
	u.must(repo, "git", "commit", "-q", "-m", "the article's plan")

	// Electricity from 0.12 to 0.16 $/kWh, typed into its value cell.
	setAssumption(t, plan, "electricity_price", 0.16)
	diff := u.must(repo, "git", "diff")
	checkElectricityDiff(t, "git diff", diff)
	if !regexp.MustCompile(`(?m)^\+results = computed by planner show from inputs [0-9a-f]{12}; the Results sheet is stale \(from inputs [0-9a-f]{12}\)$`).MatchString(diff) {
		t.Errorf("git diff does not say that Results is stale:\n%s", diff)
	}

	// Evaluated and committed: git log -p and git show print the same change.
	u.must(repo, "planner", "eval", "plan.xlsx")
	u.must(repo, "git", "commit", "-q", "-am", "electricity at 0.16")
	for _, args := range [][]string{{"log", "-p", "-1"}, {"show", "HEAD"}} {
		out := u.must(repo, "git", args...)
		checkElectricityDiff(t, "git "+strings.Join(args, " "), out)
		if !regexp.MustCompile(`(?m)^\+results = computed by planner show from inputs [0-9a-f]{12}, as in the Results sheet$`).MatchString(out) {
			t.Errorf("git %s: the committed Results is not the one show computes:\n%s", strings.Join(args, " "), out)
		}
	}

	// A typo in a value cell: git still converts the workbook, and the diff
	// holds the problem at its cell and the row planner could not read,
	// rather than git's fatal: unable to read files to diff.
	setCells(t, plan, map[string]any{"Assumptions!B11": "twelve cents"})
	code, typo, errs := u.runIn(repo, nil, "git", "diff")
	for _, want := range []string{
		"\n+problem Assumptions!B11: electricity_price: \"twelve cents\" is not a number; type a number in $/kWh such as 0.12, within the row's range, 0.08 to 0.2\n",
		"\n-assumption electricity_price = 0.16 $/kWh [0.08..0.2] triangular(0.08, 0.16, 0.2)\n",
		"\n+results = not computed: planner cannot read Assumptions!B11: electricity_price: \"twelve cents\" is not a number; type a number in $/kWh such as 0.12, within the row's range, 0.08 to 0.2\n",
	} {
		if code != 0 || !strings.Contains(typo, want) {
			t.Errorf("git diff of a typo: exit status %d, stderr %q, no line %q:\n%s", code, errs, strings.TrimSpace(want), typo)
		}
	}
	u.must(repo, "git", "checkout", "plan.xlsx")

	// Without planner on PATH git cannot convert, and says so as the guide
	// does.
	code, _, errs = u.runIn(repo, []string{"PATH=" + pathWithoutPlanner()}, "git", "show", "HEAD")
	if code == 0 || !strings.Contains(errs, "planner: not found") {
		t.Errorf("git show without planner on PATH: exit status %d, stderr %q; the guide says git says planner: not found", code, errs)
	}
}

// checkElectricityDiff checks a diff of show's text for the edit of
// electricity_price from 0.12 to 0.16: the assumption's two lines, power
// and the cost per GPU-hour moved by exactly what the price moved them, and
// capital and rack not at all.
func checkElectricityDiff(t *testing.T, what, diff string) {
	t.Helper()
	if strings.Contains(diff, "Binary files") {
		t.Fatalf("%s shows the workbook as binary:\n%s", what, diff)
	}
	for _, want := range []string{
		"\n-assumption electricity_price = 0.12 $/kWh [0.08..0.2] triangular(0.08, 0.12, 0.2)\n",
		"\n+assumption electricity_price = 0.16 $/kWh [0.08..0.2] triangular(0.08, 0.16, 0.2)\n",
	} {
		if !strings.Contains(diff, want) {
			t.Errorf("%s lacks the line %q:\n%s", what, strings.TrimSpace(want), diff)
		}
	}
	old, new := changedResults(t, diff)
	// Power is node_kw × hours_per_month × electricity_price: 4/3 of what
	// it was, a month and a GPU-hour alike.
	for _, name := range []string{"power_per_month", "power_per_gpu_hour"} {
		if !near(new[name], old[name]*0.16/0.12) || old[name] == 0 {
			t.Errorf("%s: %s %v → %v, want × 0.16/0.12", what, name, old[name], new[name])
		}
	}
	// The cost per GPU-hour moves by power's share of it, and nothing else.
	if got, want := new["cost_per_gpu_hour"]-old["cost_per_gpu_hour"], new["power_per_gpu_hour"]-old["power_per_gpu_hour"]; !near(got, want) || want == 0 {
		t.Errorf("%s: cost_per_gpu_hour moves by %v, want power_per_gpu_hour's %v", what, got, want)
	}
	for _, name := range []string{"per_gpu_capex", "capital_per_gpu_hour", "node_kw", "rack_per_gpu_hour"} {
		if _, moved := old[name]; moved || new[name] != 0 {
			t.Errorf("%s shows %s as changed; electricity does not move it", what, name)
		}
	}
}
