package review

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"planner/units"
)

// Report is a diff as a reviewer reads it, section by section, its cells
// written for people: the decisions that changed, the headline figures,
// the facts that changed, then the other results. The command prints it
// as text or as markdown.
type Report struct {
	Summary    string   // the first line
	Broken     []string // a side that computes nothing, and why
	NoDecision string   // said instead of Decisions when no decision changed
	Decisions  Table
	Headline   Table
	FactsTitle string
	Facts      []FactChange
	Rest       Table
}

// Table is one section: its title, a header and rows of cells; Right marks
// the columns of numbers.
type Table struct {
	Title  string
	Header []string
	Right  []bool
	Rows   [][]string
}

var resultHeader = []string{"result", "old", "new", "change", "relative"}

// Report lays the diff out for a reviewer.
func (d Diff) Report() Report {
	r := Report{Summary: summary(d), FactsTitle: "What changed in the workbook", Facts: d.Facts,
		Decisions: Table{Title: "Decisions that changed, most money a month first",
			Header: []string{"decision", "old", "new", "owning saves a month", "change"},
			Right:  []bool{false, false, false, true, true}},
		Headline: Table{Title: "Headline figures: cost per GPU-hour, per used hour, break-even",
			Header: resultHeader, Right: []bool{false, true, true, true, true}},
		Rest: Table{Title: "The other results, most money a month at stake first",
			Header: resultHeader, Right: []bool{false, true, true, true, true}},
	}
	for i, why := range d.Broken {
		if why != "" {
			line, _, _ := strings.Cut(why, "\n")
			r.Broken = append(r.Broken, fmt.Sprintf("%s computes nothing: %s", []string{d.Old, d.New}[i], line))
		}
	}
	if len(d.Decisions) == 0 && d.Verdicts > 0 && !d.Same() {
		r.NoDecision = fmt.Sprintf("No decision changed: %s, buy or rent, as before.", plural(d.Verdicts, "verdict"))
	}
	for _, c := range d.Decisions {
		r.Decisions.Rows = append(r.Decisions.Rows, decisionCells(c))
	}
	for _, c := range d.Results {
		if c.Headline {
			r.Headline.Rows = append(r.Headline.Rows, ResultCells(c))
		} else {
			r.Rest.Rows = append(r.Rest.Rows, ResultCells(c))
		}
	}
	return r
}

// summary is the report's first line.
func summary(d Diff) string {
	if d.Same() {
		return fmt.Sprintf("%s and %s: the same inputs and results", d.Old, d.New)
	}
	if d.Broken != [2]string{} {
		return fmt.Sprintf("%s → %s: %s changed; no results or decisions compared", d.Old, d.New, plural(len(d.Facts), "fact"))
	}
	return fmt.Sprintf("%s → %s: %s changed, %s changed, %s changed", d.Old, d.New,
		plural(len(d.Facts), "fact"), plural(len(d.Decisions), "decision"), plural(len(d.Results), "result"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// decisionCells are a changed decision's name, old and new verdict, what
// owning saves a month on each side, and how far that moved.
func decisionCells(d Decision) []string {
	verdict := func(v, only, side string) string {
		switch {
		case only != "" && only != side:
			return "—" // the decision is not on this side
		case v == "":
			return "none"
		}
		return v
	}
	money := func(v *float64) string {
		if v == nil {
			return "—"
		}
		return d.Currency.Format(*v, perMonth)
	}
	saves := money(d.NewSaving)
	switch {
	case d.Only == "old":
		saves = money(d.OldSaving) + " → —"
	case d.Only == "":
		saves = money(d.OldSaving) + " → " + saves
	}
	change := ""
	if c, ok := d.Change(); ok {
		change = signed(c, perMonth, d.Currency)
	}
	name := Name(d.Verdict.Scenario, d.Verdict.Offer, d.Verdict.Deployment, "")
	if d.Verdict.Fleet {
		name = "fleet's cheapest mix · " + name // buy is own
	}
	return []string{name, verdict(d.Old, d.Only, "old"), verdict(d.New, d.Only, "new"), saves, change}
}

// Name is how a report names a scenario's result (against an offer), a
// deployment's, or, without a result's name, a decision:
// "base · breakeven_utilization vs RunPod H100 SXM, Community",
// "deployment one H100, workdays · rent_per_month", "base vs RunPod H200".
func Name(scenario, offer, deployment, result string) string {
	if deployment != "" {
		return strings.TrimSuffix("deployment "+deployment+" · "+result, " · ")
	}
	name := strings.TrimSuffix(scenario+" · "+result, " · ")
	if offer != "" {
		name += " vs " + offer
	}
	return name
}

// ResultCells are a changed result's name, old, new, change and relative
// change, as people read them.
func ResultCells(r ResultChange) []string {
	side := func(v *float64, why string) string {
		switch {
		case v != nil:
			return r.Currency.Format(*v, r.Unit)
		case why != "":
			code, _, _ := strings.Cut(why, ":")
			return code
		}
		return "—"
	}
	name := Name(r.Scenario, r.Offer, r.Deployment, r.Name)
	if r.Fleet != "" {
		name = "fleet " + r.Fleet + " · " + r.Name
	}
	cells := []string{name, side(r.Old, r.OldErr), side(r.New, r.NewErr), "", ""}
	if r.numbers {
		cells[3] = signed(r.Abs, r.Unit, r.Currency)
		if r.Unit == units.Share {
			cells[3] = Points(r.Abs)
		}
		switch {
		case r.CrossesZero():
			// from a loss to a saving: no share of either
		case math.IsNaN(r.Rel):
			cells[4] = units.NoNumber
		case math.IsInf(r.Rel, 0):
			cells[4] = "from zero"
		default:
			cells[4] = fmt.Sprintf("%+.1f %%", r.Rel*100)
		}
	}
	return cells
}

// Points writes the change of a share in percentage points: a break-even
// from 41.0 % to 42.6 % moves +1.6 pp, which "+1.6 %" beside a relative
// change would leave unclear.
func Points(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return units.NoNumber
	}
	s := strings.TrimSuffix(units.Format(v, units.Share), " %") + " pp"
	if v > 0 {
		return "+" + s
	}
	return s
}

// signed writes a change with its sign, in currency c: +$0.33, -$972.22.
func signed(v float64, unit string, c units.Currency) string {
	if v > 0 && !math.IsInf(v, 0) {
		return "+" + c.Format(v, unit)
	}
	return c.Format(v, unit)
}

// PolicyTable lays out a policy's outcomes, one row a rule and workbook,
// titled with how many rules denied and warned.
func PolicyTable(file string, outcomes []Outcome) Table {
	count := map[string]int{}
	t := Table{Header: []string{"outcome", "rule", "workbook", "why"}, Right: []bool{false, false, false, false}}
	for _, o := range outcomes {
		count[o.Result]++
		t.Rows = append(t.Rows, []string{o.Result, fmt.Sprintf("%s (line %d)", o.Rule, o.Rule.Line), o.Workbook, o.Why})
	}
	var tally []string
	for _, r := range []string{Deny, Warn, CannotTell, Pass} {
		if count[r] > 0 {
			tally = append(tally, fmt.Sprintf("%d %s", count[r], r))
		}
	}
	t.Title = "Policy " + file + ": " + strings.Join(tally, ", ")
	return t
}
