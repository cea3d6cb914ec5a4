package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/xuri/excelize/v2"

	"planner/engine"
	"planner/evaluate"
	"planner/view"
)

// notANumber is how Go prints a float64 that is not finite: what no
// figure planner prints may be.
var notANumber = regexp.MustCompile(`NaN|[+-]Inf\b`)

// evalIn runs eval in this process and returns its exit status, stdout
// and stderr.
func evalIn(args ...string) (int, string, string) {
	var out, errs bytes.Buffer
	code := run(append([]string{"eval"}, args...), &out, &errs)
	return code, out.String(), errs.String()
}

// capex at 1e308 is far beyond any quote, but every figure eval prints of
// it is a number: Monte Carlo's mean of capital_per_month, whose plain sum
// over 10,000 samples overflows, is capex's share of it at $285,000 times
// the ratio of the two capexes (the capital line is linear in capex, and
// both runs draw the same samples of the other inputs).
func TestHugeCapexPrintsNumbers(t *testing.T) {
	dir, plan := freshPlan(t)
	code, text, errs := evalIn(plan, "--set", "capex=1e308")
	if code != 0 || notANumber.MatchString(text) {
		t.Fatalf("eval --set capex=1e308 exited %d; a figure is not a number:\n%s\n%s", code, notANumber.FindString(text), errs)
	}
	means := map[string]float64{}
	for _, capex := range []string{"1e308", "285000"} {
		code, data, errs := evalIn(plan, "--set", "capex="+capex, "--format", "json")
		var doc evaluate.FileJSON
		if err := json.Unmarshal([]byte(data), &doc); err != nil || code != 0 {
			t.Fatalf("capex=%s: exit %d, %v\n%s", capex, code, err, errs)
		}
		means[capex] = doc.Scenarios[0].MonteCarlo.Outputs["capital_per_month"].Of(view.Mean)
	}
	want := means["285000"] * (1e308 / 285000)
	if got := means["1e308"]; math.Abs(got-want) > 1e-9*want {
		t.Errorf("mean capital_per_month at capex 1e308: %v, want %v", got, want)
	}
	// Read with an exponent, not as 300 digits: capex 1.7e308 over 8 GPUs
	// is $2.125e+307 each.
	code, text, errs = evalIn(plan, "--set", "capex=1.7e308")
	if code != 0 || !regexp.MustCompile(`(?m)^  per_gpu_capex +\$ +\$2\.125e\+307 `).MatchString(text) {
		t.Errorf("eval --set capex=1.7e308 exited %d:\n%s\n%s", code, text, errs)
	}
	// Its sheets are written too: a figure of 300 digits is wider than a
	// column can be, and shows as #### rather than stopping the Fleet sheet.
	if code, _, errs = evalIn(plan, "--set", "capex=1.7e308", "-o", filepath.Join(dir, "huge.xlsx")); code != 0 {
		t.Errorf("eval --set capex=1.7e308 -o huge.xlsx exited %d:\n%s", code, errs)
	}
}

// A deployment whose rent a month is beyond the largest float64 is not
// costed, and says so where its rent would be: in the table and in the
// Deployment costs sheet, not as $0.00.
func TestDeploymentTooDearToCostSaysWhy(t *testing.T) {
	dir, plan := freshPlan(t)
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows("Cloud")
	for i, r := range rows {
		if len(r) > 1 && r[1] == "RTX 5090, Community" {
			_ = f.SetCellFloat("Cloud", fmt.Sprintf("D%d", i+1), 1e308, -1, 64)
		}
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := dir + "/out.xlsx"
	code, text, errs := evalIn(plan, "-o", out, "--samples", "100")
	words := "not costed: the rent per month is too large to be a number; check the offer's price, the cards and the replicas"
	var row string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "  internal 8B assistant ") {
			row = line
		}
	}
	if code != 0 || !strings.HasSuffix(row, words) || strings.Contains(row, "$0.00") {
		t.Fatalf("exit %d; the deployment's row: %q\n%s", code, row, errs)
	}
	book, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer book.Close()
	costs, _ := book.GetRows("Deployment costs")
	var header []string
	for _, r := range costs {
		if len(r) > 0 && r[0] == "deployment" {
			header = r
		}
		if len(r) > 0 && r[0] == "internal 8B assistant" {
			at := headerAt(t, header, "in words")
			if len(r) != at+1 || r[at] != words || strings.TrimSpace(strings.Join(r[3:at], "")) != "" {
				t.Errorf("Deployment costs row %q", r)
			}
			return
		}
	}
	t.Errorf("no Deployment costs row for internal 8B assistant")
}

// A document JSON cannot hold is never left out in silence: with the
// evaluation's own error, stderr also says which field stopped it.
func TestJSONThatCannotBeWrittenSaysWhere(t *testing.T) {
	rep := &evaluate.Report{File: "plan.xlsx", Results: []*engine.Result{{Scenario: "base", Values: map[string]float64{"x": math.Inf(1)}}}}
	var out, errs bytes.Buffer
	cmd := &cobra.Command{}
	cmd.SetOut(&out)
	cmd.SetErr(&errs)
	err := printReport(cmd, printed{Report: rep, err: errors.New("plan.xlsx: formulas failed")}, "json")
	want := "plan.xlsx: the results cannot be written as JSON: scenarios[0].values[\"x\"] is +Inf, not a number; " +
		"this is a bug in planner, not a mistake of yours: please report it with the command you ran\nplan.xlsx: formulas failed\n"
	if err == nil || out.Len() > 0 || errs.String() != want {
		t.Errorf("error %v, stdout %q, stderr:\n%s\nwant:\n%s", err, out.String(), errs.String(), want)
	}
}
