package review

import (
	"fmt"
	"math"
	"strings"

	"planner/domain"
	"planner/facts"
	"planner/units"
)

// Month is a side's cheapest month: what the fleet's cheapest mix of
// owning and renting costs, or, in a plan without deployments, what
// owning the base scenario's node costs.
type Month struct {
	Value    float64
	Of       string // what it is the month of, in words
	Currency units.Currency
}

// The two things a cheapest month can be the month of.
const (
	monthOfFleet = "the fleet's cheapest mix"
	monthOfBase  = "owning the base scenario's node"
)

// cheapestMonth finds a side's cheapest month among its results; nil when
// it computes neither.
func cheapestMonth(results []facts.Result) *Month {
	var base *Month
	for _, r := range results {
		switch {
		case r.Err != "":
		case r.Fleet == facts.FleetAll && r.Name == facts.FleetBest:
			return &Month{Value: r.Value, Of: monthOfFleet, Currency: r.Currency}
		case base == nil && r.Scenario == domain.Base && r.Offer == "" && r.Name == domain.NodeCostPerMonth:
			base = &Month{Value: r.Value, Of: monthOfBase, Currency: r.Currency}
		}
	}
	return base
}

// Headline is a comparison in one line: the cheapest month old and new,
// the decisions that flipped, and the largest change of owning's NPV
// against an offer.
type Headline struct {
	Workbook string // the new side's name
	Old, New *Month // nil where a side does not compute one
	Flipped  int    // decisions buy on one side and rent on the other
	// NPV is the largest change of npv_saving, nil when none moved.
	NPV *ResultChange
	// Broken names the side that computes nothing, when one does: then
	// nothing was compared, and the headline says only that.
	Broken string
}

// Headline sums the comparison up.
func (d Diff) Headline() Headline {
	h := Headline{Workbook: d.New, Old: d.Month[0], New: d.Month[1], Flipped: len(d.Flipped())}
	for i, why := range d.Broken {
		if why != "" {
			h.Broken = []string{d.Old, d.New}[i]
			return h
		}
	}
	for i, r := range d.Results {
		if r.Name != domain.NPVSaving || !r.numbers || r.Deployment != "" || r.Fleet != "" {
			continue
		}
		if h.NPV == nil || math.Abs(r.Abs) > math.Abs(h.NPV.Abs) {
			h.NPV = &d.Results[i]
		}
	}
	return h
}

// Flipped are the decisions that went from buy to rent or back, on both
// sides a decision.
func (d Diff) Flipped() []Decision {
	var out []Decision
	for _, c := range d.Decisions {
		if c.Only == "" && c.Old != "" && c.New != "" {
			out = append(out, c)
		}
	}
	return out
}

// MonthCells are the cheapest month old → new and its change, in words:
// "$56,609.33 → $57,140.00", "+$530.67 (+0.9 %)".
func (h Headline) MonthCells() (oldNew, change string) {
	side := func(m *Month) string {
		if m == nil {
			return "—"
		}
		return m.Currency.Format(m.Value, perMonth)
	}
	oldNew = side(h.Old) + " → " + side(h.New)
	if h.Old == nil || h.New == nil {
		return oldNew, ""
	}
	abs := h.New.Value - h.Old.Value
	change = signed(abs, perMonth, h.New.Currency)
	if rel := relative(h.Old.Value, h.New.Value); rel != "" {
		change += " (" + rel + ")"
	}
	return oldNew, change
}

// relative is a change as a percentage of the old value, "" where that
// means nothing (from zero, or across it).
func relative(old, new float64) string {
	if old == 0 || crossesZero(old, new) {
		return ""
	}
	return fmt.Sprintf("%+.1f %%", (new-old)/math.Abs(old)*100)
}

// NPVCells are the largest NPV change and where: "-$28,834",
// "base vs RunPod H100 SXM, Secure"; "" when no NPV moved.
func (h Headline) NPVCells() (change, where string) {
	if h.NPV == nil {
		return "", ""
	}
	return signed(h.NPV.Abs, h.NPV.Unit, h.NPV.Currency), Name(h.NPV.Scenario, h.NPV.Offer, "", "")
}

// Line is the headline as one line of text.
func (h Headline) Line() string {
	if h.Broken != "" {
		return h.Workbook + ": not compared, " + h.Broken + " computes nothing"
	}
	var parts []string
	oldNew, change := h.MonthCells()
	switch {
	case h.Old == nil && h.New == nil:
		parts = append(parts, "no cheapest month computed")
	default:
		of := h.New
		if of == nil {
			of = h.Old
		}
		month := "cheapest month (" + of.Of + ") " + oldNew
		if change != "" {
			month += ", " + change
		}
		parts = append(parts, month)
	}
	parts = append(parts, flips(h.Flipped))
	if change, where := h.NPVCells(); change != "" {
		parts = append(parts, "largest NPV change "+change+", "+where)
	} else {
		parts = append(parts, "no NPV changed")
	}
	return h.Workbook + ": " + strings.Join(parts, "; ")
}

// flips says how many decisions flipped.
func flips(n int) string {
	switch n {
	case 0:
		return "no decision flipped"
	case 1:
		return "1 decision flipped"
	}
	return fmt.Sprintf("%d decisions flipped", n)
}

// HeadlineTable lays out the headlines of several workbooks as one table.
func HeadlineTable(hs []Headline) Table {
	t := Table{Title: "The workbooks", Header: []string{"workbook", "decisions flipped", "cheapest month old → new", "change", "largest NPV change"},
		Right: []bool{false, true, true, true, false}}
	for _, h := range hs {
		oldNew, change := h.MonthCells()
		npv, where := h.NPVCells()
		if npv != "" {
			npv += ", " + where
		}
		if h.Broken != "" {
			t.Rows = append(t.Rows, []string{h.Workbook, "—", "—", "", "not compared: " + h.Broken + " computes nothing"})
			continue
		}
		t.Rows = append(t.Rows, []string{h.Workbook, fmt.Sprint(h.Flipped), oldNew, change, npv})
	}
	return t
}
