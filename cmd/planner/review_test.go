package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// reviewEval is what the review tests read of planner eval --format json: per
// scenario and offer the verdict, owning's NPV and Monte Carlo's chance
// that owning is cheaper, the deployments' verdicts and the fleet's
// cheapest mix.
type reviewEval struct {
	Scenarios []struct {
		Name   string
		Offers []struct {
			Provider, Offer, Verdict string
			Values                   map[string]float64
		}
		MonteCarlo struct {
			POwnCheaper map[string]float64 `json:"p_own_cheaper"`
		} `json:"montecarlo"`
	}
	Deployments []struct {
		Name    string
		Verdict *string
	}
	Fleet struct {
		Best struct {
			PerMonth  float64 `json:"per_month"`
			Own, Rent []string
		}
	}
}

// The Monte Carlo the review tests run, in eval and in diff alike.
const reviewSamples, reviewSeed = "2000", "7"

// reviewEvalOf evaluates a copy of a workbook's bytes and reads its JSON.
func reviewEvalOf(t *testing.T, data []byte) reviewEval {
	t.Helper()
	path := filepath.Join(t.TempDir(), "copy.xlsx")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"eval", path, "--format", "json", "--samples", reviewSamples, "--seed", reviewSeed}, &out, &errs); code != 0 {
		t.Fatalf("eval: exit status %d\n%s", code, errs.String())
	}
	var doc reviewEval
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// reviewRepo is a git repository, the test's working folder, holding the
// default workbook evaluated and committed, then edited as a user does:
// capex typed up to $300,000 and utilisation down to 48 %, evaluated
// again. It returns both sides' evaluations, read separately.
func reviewRepo(t *testing.T) (base, changed reviewEval) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("config", "user.email", "analyst@example.com")
	git("config", "user.name", "analyst")
	var out, errs bytes.Buffer
	for _, args := range [][]string{{"init", "plan.xlsx"}, {"eval", "plan.xlsx", "--samples", "200"}} {
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("%q: %s", args, errs.String())
		}
	}
	git("add", "plan.xlsx")
	git("commit", "-q", "-m", "the plan")
	committed, err := os.ReadFile("plan.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	setInputs(t, "plan.xlsx", map[string]float64{"capex": 300000, "utilization": 0.48})
	if code := run([]string{"eval", "plan.xlsx", "--samples", "200"}, &out, &errs); code != 0 {
		t.Fatalf("eval: %s", errs.String())
	}
	edited, err := os.ReadFile("plan.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	return reviewEvalOf(t, committed), reviewEvalOf(t, edited)
}

// diffRun runs planner diff and returns its exit status and outputs.
func diffRun(args ...string) (int, string, string) {
	var out, errs bytes.Buffer
	code := run(append([]string{"diff"}, args...), &out, &errs)
	return code, out.String(), errs.String()
}

// dollars writes an amount as planner writes money: -$1,234.57, the docs'
// money with a hyphen for the minus.
func dollars(v float64, decimals int) string {
	return strings.Replace(money(v, decimals), "−$", "-$", 1)
}

// flips counts the decisions that are buy on one side and rent on the
// other: a scenario against an offer, a deployment, the fleet's mix.
func flips(base, changed reviewEval) int {
	n := 0
	verdicts := func(d reviewEval) map[string]string {
		m := map[string]string{}
		for _, s := range d.Scenarios {
			for _, o := range s.Offers {
				m[s.Name+" vs "+o.Provider+" "+o.Offer] = o.Verdict
			}
		}
		for _, dep := range d.Deployments {
			if dep.Verdict != nil {
				m["deployment "+dep.Name] = *dep.Verdict
			}
		}
		for _, name := range d.Fleet.Best.Own {
			m["fleet "+name] = "buy"
		}
		for _, name := range d.Fleet.Best.Rent {
			m["fleet "+name] = "rent"
		}
		return m
	}
	old := verdicts(base)
	for k, v := range verdicts(changed) {
		if was, ok := old[k]; ok && was != "" && v != "" && was != v {
			n++
		}
	}
	return n
}

// npvs are owning's NPV against each offer, by "scenario vs offer".
func npvs(d reviewEval) map[string]float64 {
	m := map[string]float64{}
	for _, s := range d.Scenarios {
		for _, o := range s.Offers {
			if v, ok := o.Values["npv_saving"]; ok {
				m[s.Name+" vs "+o.Provider+" "+o.Offer] = v
			}
		}
	}
	return m
}

// The headline opens diff's text and markdown: the fleet's cheapest month
// old → new with its change and percentage, the decisions that flipped
// and the largest NPV change, each computed here from the two sides'
// evaluations.
func TestDiffHeadline(t *testing.T) {
	base, changed := reviewRepo(t)
	oldMonth, newMonth := base.Fleet.Best.PerMonth, changed.Fleet.Best.PerMonth
	month := fmt.Sprintf("cheapest month (the fleet's cheapest mix) %s → %s, +%s (%+.1f %%)",
		dollars(oldMonth, 2), dollars(newMonth, 2), dollars(newMonth-oldMonth, 2), (newMonth-oldMonth)/oldMonth*100)
	before, after := npvs(base), npvs(changed)
	largest := 0.0
	for k, v := range after {
		if c := v - before[k]; math.Abs(c) > math.Abs(largest) {
			largest = c
		}
	}
	var at []string // every place that moved that much
	for k, v := range after {
		if v-before[k] == largest {
			at = append(at, k)
		}
	}
	n := flips(base, changed)
	if n != 3 { // base and H100 mid against RunPod Secure, the H200 node against RunPod H200: docs/review.md
		t.Errorf("the test's own count: %d decisions flipped, want the 3 the guide names", n)
	}
	prefix := fmt.Sprintf("plan.xlsx: %s; %d decisions flipped; largest NPV change %s, ", month, n, dollars(largest, 0))

	code, out, errs := diffRun("HEAD:plan.xlsx", "plan.xlsx")
	line, rest, _ := strings.Cut(out, "\n")
	if code != 1 || !strings.HasPrefix(line, prefix) || !slices.Contains(at, strings.TrimPrefix(line, prefix)) {
		t.Errorf("exit status %d, headline\n%s\nwant\n%s(one of %q)\n%s", code, line, prefix, at, errs)
	}
	if !strings.HasPrefix(rest, "\nHEAD:plan.xlsx → plan.xlsx: 2 facts changed, 3 decisions changed") {
		t.Errorf("the report does not follow the headline:\n%s", rest)
	}
	_, md, _ := diffRun("HEAD:plan.xlsx", "plan.xlsx", "--format", "markdown")
	if first, _, _ := strings.Cut(md, "\n"); first != line {
		t.Errorf("markdown opens with\n%s\nwant the text's headline\n%s", first, line)
	}
	// The JSON gives the same figures, and with a policy each rule's
	// outcome.
	_, js, _ := diffRun("HEAD:plan.xlsx", "plan.xlsx", "--format", "json", "--policy", policy(t, "rules:\n  - deny: flip\n"))
	var doc struct {
		Headline struct {
			Of       string   `json:"cheapest_month_of"`
			OldMonth *float64 `json:"old_cheapest_month"`
			NewMonth *float64 `json:"new_cheapest_month"`
			Flipped  int      `json:"decisions_flipped"`
			NPV      struct {
				Scenario, Offer string
				Change          float64
			} `json:"largest_npv_change"`
		}
		Policy []struct{ Rule, Outcome string }
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	h := doc.Headline
	if h.Of != "the fleet's cheapest mix" || !closeTo(h.OldMonth, oldMonth) || !closeTo(h.NewMonth, newMonth) || h.Flipped != n ||
		h.NPV.Change != largest || !slices.Contains(at, h.NPV.Scenario+" vs "+h.NPV.Offer) ||
		len(doc.Policy) != 1 || doc.Policy[0].Rule != "deny: flip" || doc.Policy[0].Outcome != "deny" {
		t.Errorf("the JSON's headline %+v and policy %+v", h, doc.Policy)
	}

	// --against HEAD compares the same two, and a workbook new since HEAD
	// is a row of its own: one table for both.
	if err := os.WriteFile("q3 plan.xlsx", mustRead(t, "plan.xlsx"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = diffRun("--against", "HEAD", "plan.xlsx", "q3 plan.xlsx")
	rows := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		rows[strings.Join(strings.Fields(l), " ")] = true
	}
	npv := dollars(largest, 0) + ", "
	want := []string{
		fmt.Sprintf("plan.xlsx %d %s → %s +%s (%+.1f %%) %s", n, dollars(oldMonth, 2), dollars(newMonth, 2), dollars(newMonth-oldMonth, 2), (newMonth-oldMonth)/oldMonth*100, npv),
		fmt.Sprintf("q3 plan.xlsx 0 — → %s", dollars(newMonth, 2)),
		"q3 plan.xlsx is a new workbook.",
	}
	for _, w := range want {
		found := false
		for r := range rows {
			found = found || strings.HasPrefix(r, w)
		}
		if !found {
			t.Errorf("--against HEAD: no line %q in\n%s", w, out)
		}
	}
	if code != 1 || !strings.HasPrefix(out, "2 workbooks compared\n\nThe workbooks\n") {
		t.Errorf("--against HEAD: exit status %d\n%s", code, out)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// policy writes a policy file and returns its path.
func policy(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "planner-policy.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// outcome is the outcome planner printed for the policy's one rule.
func outcome(t *testing.T, out string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && (f[0] == "pass" || f[0] == "warn" || f[0] == "deny") && strings.HasSuffix(f[1], ":") {
			return f[0]
		}
	}
	t.Fatalf("no outcome in\n%s", out)
	return ""
}

// Each rule passes and fails at thresholds the test computes from the two
// sides' evaluations, and the exit status is the policy's: 1 when a rule
// denies, 0 when it passes or only warns (the warning on stderr).
func TestDiffPolicyRules(t *testing.T) {
	base, changed := reviewRepo(t)
	rise := (changed.Fleet.Best.PerMonth - base.Fleet.Best.PerMonth) / base.Fleet.Best.PerMonth * 100
	npv := npvs(changed)["base vs Lambda H100, 8-GPU plan"]
	// The smallest chance that owning is cheaper where the verdict is buy.
	least := math.Inf(1)
	for _, s := range changed.Scenarios {
		for _, o := range s.Offers {
			if p, ok := s.MonteCarlo.POwnCheaper[o.Provider+" "+o.Offer]; ok && o.Verdict == "buy" {
				least = math.Min(least, p)
			}
		}
	}
	oldest := oldestPrice(t, "plan.xlsx", "2026-12-01")
	if rise <= 0 || math.IsInf(least, 0) || oldest < 1 {
		t.Fatalf("the edit's rise %v %%, least chance %v, oldest price %d days: the test needs a rise, a buy and a dated price", rise, least, oldest)
	}
	g := func(v float64) string { return fmt.Sprint(v) }
	for _, c := range []struct {
		rule, want string
	}{
		{"deny: flip", "deny"},
		{"deny: flip\n    scenario: H100 low", "pass"}, // the guide's three flips are elsewhere
		{"deny: flip\n    offer: RunPod H200", "deny"},
		{"deny: npv_below\n    scenario: base\n    offer: Lambda H100, 8-GPU plan\n    value: " + g(npv+1), "deny"},
		{"deny: npv_below\n    scenario: base\n    offer: Lambda H100, 8-GPU plan\n    value: " + g(npv-1), "pass"},
		{"deny: cheapest_month_rise\n    percent: " + g(rise/2), "deny"},
		{"deny: cheapest_month_rise\n    percent: " + g(rise*2), "pass"},
		{"deny: cheapest_month_rise\n    amount: " + g(changed.Fleet.Best.PerMonth-base.Fleet.Best.PerMonth-1), "deny"},
		{"deny: price_age\n    days: " + fmt.Sprint(oldest-1), "deny"},
		{"warn: price_age\n    days: " + fmt.Sprint(oldest-1), "warn"},
		{"deny: price_age\n    days: " + fmt.Sprint(oldest), "pass"},
		{"deny: p_own_cheaper_below\n    value: " + g(least+0.01), "deny"},
		{"deny: p_own_cheaper_below\n    value: " + g(least), "pass"},
	} {
		p := policy(t, "rules:\n  - "+c.rule+"\n")
		code, out, errs := diffRun("HEAD:plan.xlsx", "plan.xlsx", "--policy", p, "--today", "2026-12-01",
			"--samples", reviewSamples, "--seed", reviewSeed)
		wantCode := map[string]int{"deny": 1, "warn": 0, "pass": 0}[c.want]
		if got := outcome(t, out); got != c.want || code != wantCode {
			t.Errorf("%s: %s with exit status %d, want %s with %d\n%s%s", c.rule, got, code, c.want, wantCode, out, errs)
		}
		if warned := strings.Contains(errs, "warning: plan.xlsx: warn: price_age"); warned != (c.want == "warn") {
			t.Errorf("%s: stderr %q", c.rule, errs)
		}
	}
}

// oldestPrice is the age in days on today of the oldest as-of date of the
// Cloud and FX sheets, read from the cells.
func oldestPrice(t *testing.T, path, today string) int {
	t.Helper()
	day, _ := time.Parse("2006-01-02", today)
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	oldest := 0
	for _, sheet := range []string{"Cloud", "FX"} {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(rows[0], "as of")
		for _, r := range rows[1:] {
			if col < len(r) {
				if d, err := time.Parse("2006-01-02", r[col]); err == nil {
					oldest = max(oldest, int(day.Sub(d).Hours()/24))
				}
			}
		}
	}
	return oldest
}

// The exit statuses: without a policy 0 the same, 1 different or a side
// planner cannot read; with one 0 nothing denies, 1 a rule denies, 2
// planner cannot tell (a side it cannot read, a policy it cannot read, a
// rule naming what the workbook lacks), each with its message.
func TestDiffPolicyExitStatus(t *testing.T) {
	reviewRepo(t)
	pass := policy(t, "rules:\n  - deny: flip\n    scenario: H100 low\n")
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"HEAD:plan.xlsx", "HEAD:plan.xlsx"}, 0, ""},
		{[]string{"HEAD:plan.xlsx", "plan.xlsx"}, 1, ""},
		{[]string{"HEAD:plan.xlsx", "missing.xlsx"}, 1, "missing.xlsx: "},
		{[]string{"HEAD:plan.xlsx", "plan.xlsx", "--policy", pass}, 0, ""},
		{[]string{"HEAD:plan.xlsx", "plan.xlsx", "--policy", policy(t, "rules:\n  - deny: flip\n")}, 1, ""},
		{[]string{"HEAD:plan.xlsx", "missing.xlsx", "--policy", pass}, 2, "missing.xlsx: "},
		{[]string{"HEAD:plan.xlsx", "plan.xlsx", "--policy", "nowhere.yaml"}, 2,
			"--policy nowhere.yaml: no such file or directory\n"},
		{[]string{"HEAD:plan.xlsx", "plan.xlsx", "--policy", policy(t, "rules:\n  - deny: flip\n    ofer: RunPod H200\n")}, 2,
			"planner-policy.yaml:3: ofer is not a key of a rule, which reads deny or warn, scenario, offer, deployment, value, percent, amount and days\n"},
		{[]string{"HEAD:plan.xlsx", "plan.xlsx", "--policy", policy(t, "rules:\n  - deny: flip\n  - deny: npv_below\n    days: 3\n")}, 2,
			"planner-policy.yaml:3: npv_below does not read days; it reads value, scenario, offer\n"},
		{[]string{"HEAD:plan.xlsx", "plan.xlsx", "--policy", policy(t, "rules:\n  - deny: flips\n")}, 2,
			"planner-policy.yaml:2: flips: planner knows the rules flip, npv_below, cheapest_month_rise, price_age, p_own_cheaper_below\n"},
		{[]string{"HEAD:plan.xlsx", "plan.xlsx", "--policy", policy(t, "rules:\n  - deny: npv_below\n    offer: Lamda H100\n    value: 0\n")}, 2, ""},
	} {
		code, out, errs := diffRun(c.args...)
		if code != c.code || !strings.Contains(errs, c.stderr) || (strings.HasSuffix(c.stderr, "\n") && !strings.HasSuffix(errs, c.stderr)) {
			t.Errorf("diff %q: exit status %d, stderr\n%s\nwant %d and %q", c.args, code, errs, c.code, c.stderr)
		}
		if c.code == 2 && c.stderr == "" && !strings.Contains(out, "cannot tell") {
			t.Errorf("diff %q: the outcome does not say planner cannot tell:\n%s", c.args, out)
		}
	}
}

// A plan without deployments has no fleet: its cheapest month is owning
// the base scenario's node, SPEC's capex over 36 months, power and rack,
// and capex up to $300,000 moves it by a 36th of the $15,000.
func TestDiffHeadlineWithoutAFleet(t *testing.T) {
	dir := t.TempDir()
	old, edited := filepath.Join(dir, "old.xlsx"), filepath.Join(dir, "new.xlsx")
	var out, errs bytes.Buffer
	if code := run([]string{"init", old}, &out, &errs); code != 0 {
		t.Fatalf("init: %s", errs.String())
	}
	editBook(t, old, func(f *excelize.File) error {
		rows, err := f.GetRows("Deployments")
		if err != nil {
			return err
		}
		for i := len(rows); i > 1; i-- {
			if err := f.RemoveRow("Deployments", i); err != nil {
				return err
			}
		}
		return nil
	})
	if err := os.WriteFile(edited, mustRead(t, old), 0o644); err != nil {
		t.Fatal(err)
	}
	setInputs(t, edited, map[string]float64{"capex": 300000})
	code, text, stderr := diffRun(old, edited)
	before, after := nodeMonth(285000), nodeMonth(300000)
	want := fmt.Sprintf("%s: cheapest month (owning the base scenario's node) %s → %s, +%s (%+.1f %%); ", edited,
		dollars(before, 2), dollars(after, 2), dollars(after-before, 2), (after-before)/before*100)
	if line, _, _ := strings.Cut(text, "\n"); code != 1 || !strings.HasPrefix(line, want) {
		t.Errorf("exit status %d, headline\n%s\nwant it to begin\n%s\n%s", code, line, want, stderr)
	}
}
