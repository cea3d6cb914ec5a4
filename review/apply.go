package review

import (
	"fmt"
	"math"
	"strings"
	"time"

	"planner/diag"
	"planner/domain"
	"planner/facts"
	"planner/units"
	"planner/wording"
)

// The outcomes of a rule.
const (
	Pass       = "pass"
	Warn       = "warn"
	Deny       = "deny"
	CannotTell = "cannot tell" // planner could not apply the rule: Why says why
)

// Outcome is what one rule said of one workbook's comparison.
type Outcome struct {
	Rule     Rule
	Workbook string
	Result   string // Pass, Warn, Deny or CannotTell
	Why      string
}

// Evidence is one workbook's comparison as a policy reads it.
type Evidence struct {
	Diff      Diff
	New       Side
	NewBook   bool      // the workbook is new: no old side to compare
	Today     time.Time // the day prices' age is measured on
	TodayFrom string    // where that day came from, as a warning says it: "--today", "today"
}

// Apply judges one workbook's comparison by every rule, in the file's
// order.
func (p Policy) Apply(e Evidence) []Outcome {
	var out []Outcome
	for _, r := range p.Rules {
		result, why := r.judge(e)
		if result == Deny && r.Action == actionWarn {
			result = Warn
		}
		out = append(out, Outcome{Rule: r, Workbook: e.Diff.New, Result: result, Why: why})
	}
	return out
}

// Status is the exit status outcomes call for: 1 when a rule denies, else
// 2 when planner could not tell, else 0 (warnings are printed only).
func Status(outcomes []Outcome) int {
	status := 0
	for _, o := range outcomes {
		switch o.Result {
		case Deny:
			return 1
		case CannotTell:
			status = 2
		}
	}
	return status
}

// judge applies one rule: Deny when the comparison breaks it.
func (r Rule) judge(e Evidence) (string, string) {
	if why := e.Diff.Broken[1]; why != "" {
		line, _, _ := strings.Cut(why, "\n")
		return CannotTell, e.Diff.New + " computes nothing: " + line
	}
	if why := e.Diff.Broken[0]; why != "" && (r.Kind == RuleFlip || r.Kind == RuleMonthRise) {
		line, _, _ := strings.Cut(why, "\n")
		return CannotTell, e.Diff.Old + " computes nothing: " + line
	}
	switch r.Kind {
	case RuleFlip:
		return r.flip(e)
	case RuleNPVBelow:
		return r.npvBelow(e)
	case RuleMonthRise:
		return r.monthRise(e)
	case RulePriceAge:
		return r.priceAge(e)
	case RuleOwnCheaper:
		return r.ownCheaper(e)
	}
	return CannotTell, "planner does not know the rule " + r.Kind
}

// matches reports whether a scenario, offer and deployment are among those
// the rule narrows itself to.
func (r Rule) matches(scenario, offer, deployment string) bool {
	return (r.Scenario == "" || r.Scenario == scenario) && (r.Offer == "" || r.Offer == offer) &&
		(r.Deployment == "" || r.Deployment == deployment)
}

// narrowed names what the rule is narrowed to, for its outcome's words:
// " of scenario base against RunPod H200", or "".
func (r Rule) narrowed() string {
	var s string
	if r.Scenario != "" {
		s += " of scenario " + r.Scenario
	}
	if r.Offer != "" {
		s += " against " + r.Offer
	}
	if r.Deployment != "" {
		s += " of deployment " + r.Deployment
	}
	return s
}

func (r Rule) flip(e Evidence) (string, string) {
	if e.NewBook {
		return Pass, "a new workbook: no decision to flip"
	}
	var flipped []string
	for _, d := range e.Diff.Flipped() {
		if r.matches(d.Verdict.Scenario, d.Verdict.Offer, d.Verdict.Deployment) {
			name := Name(d.Verdict.Scenario, d.Verdict.Offer, d.Verdict.Deployment, "")
			if d.Verdict.Fleet {
				name = "fleet's cheapest mix · " + name
			}
			flipped = append(flipped, name+": "+d.Old+" → "+d.New)
		}
	}
	if len(flipped) == 0 {
		return Pass, "no decision" + r.narrowed() + " flipped"
	}
	return Deny, fmt.Sprintf("%s flipped: %s", plural(len(flipped), "decision"), listSome(flipped))
}

// listSome lists the first few of many, saying how many more.
func listSome(items []string) string {
	const most = 3
	if len(items) <= most {
		return strings.Join(items, "; ")
	}
	return strings.Join(items[:most], "; ") + fmt.Sprintf("; and %d more", len(items)-most)
}

// npvBelow denies where owning's NPV against an offer, in any scenario the
// rule covers, is below the value.
func (r Rule) npvBelow(e Evidence) (string, string) {
	var below []string
	lowest, lowestAt, seen := math.Inf(1), "", 0
	var currency units.Currency
	for _, res := range e.New.Results {
		if res.Name != domain.NPVSaving || res.Offer == "" || !r.matches(res.Scenario, res.Offer, "") {
			continue
		}
		seen++
		where := Name(res.Scenario, res.Offer, "", "")
		if res.Err != "" {
			return CannotTell, fmt.Sprintf("owning's NPV, %s, is not computed: %s", where, res.Err)
		}
		currency = res.Currency
		if res.Value < *r.Value {
			below = append(below, where+" "+currency.Format(res.Value, res.Unit))
		}
		if res.Value < lowest {
			lowest, lowestAt = res.Value, where
		}
	}
	limit := currency.Format(*r.Value, "$")
	switch {
	case seen == 0:
		return CannotTell, fmt.Sprintf("%s compares no offer%s; name an offer of its Cloud sheet, as its label reads", e.Diff.New, r.narrowed())
	case len(below) > 0:
		return Deny, fmt.Sprintf("owning's NPV is below %s: %s", limit, listSome(below))
	}
	return Pass, fmt.Sprintf("owning's NPV is %s or more; the lowest: %s, %s", limit, lowestAt, currency.Format(lowest, "$"))
}

// monthRise denies where the cheapest month rose by more than the
// percentage or the amount.
func (r Rule) monthRise(e Evidence) (string, string) {
	old, new := e.Diff.Month[0], e.Diff.Month[1]
	switch {
	case e.NewBook:
		return Pass, "a new workbook: no month to rise from"
	case old == nil || new == nil:
		return CannotTell, "a side computes no cheapest month (no fleet, and no base scenario)"
	}
	h := Headline{Old: old, New: new}
	oldNew, change := h.MonthCells()
	rise := new.Value - old.Value
	var over []string
	if r.Percent != nil && old.Value != 0 && rise/math.Abs(old.Value)*100 > *r.Percent {
		over = append(over, fmt.Sprintf("more than %s %%", num(r.Percent)))
	}
	if r.Percent != nil && old.Value == 0 && rise > 0 {
		over = append(over, "from zero")
	}
	if r.Amount != nil && rise > *r.Amount {
		over = append(over, "more than "+new.Currency.Format(*r.Amount, perMonth))
	}
	what := fmt.Sprintf("the cheapest month (%s) went %s", new.Of, oldNew)
	if change != "" {
		what += ", " + change
	}
	if len(over) > 0 {
		return Deny, what + ": " + strings.Join(over, " and ")
	}
	var limits []string
	if r.Percent != nil {
		limits = append(limits, num(r.Percent)+" %")
	}
	if r.Amount != nil {
		limits = append(limits, new.Currency.Format(*r.Amount, perMonth))
	}
	return Pass, what + ", within " + strings.Join(limits, " and ")
}

// priceAge denies where a cloud price (or an FX rate) is older than the
// days, or has no date.
func (r Rule) priceAge(e Evidence) (string, string) {
	if e.New.Model == nil {
		return CannotTell, e.Diff.New + " could not be read"
	}
	stale := facts.StalePrices(*e.New.Model, e.Today, *r.Days, e.TodayFrom)
	if len(stale) == 0 {
		return Pass, fmt.Sprintf("every price is %d days old or less on %s (%s)", *r.Days, e.Today.Format("2006-01-02"), e.TodayFrom)
	}
	var items []string
	for _, err := range stale {
		if d, ok := err.(*diag.Diagnostic); ok {
			items = append(items, d.Origin.Where()+" "+d.Name)
		} else {
			items = append(items, err.Error())
		}
	}
	return Deny, fmt.Sprintf("%s older than %d days on %s (%s), or undated: %s; check each and update its price and as-of date",
		plural(len(stale), "price"), *r.Days, e.Today.Format("2006-01-02"), e.TodayFrom, listSome(items))
}

// ownCheaper denies where the verdict is buy and Monte Carlo's chance that
// owning is cheaper is below the value.
func (r Rule) ownCheaper(e Evidence) (string, string) {
	chance := map[[2]string]float64{}
	for _, c := range e.New.Chances {
		chance[[2]string{c.Scenario, c.Offer}] = c.Probability
	}
	var below []string
	buys, lowest, lowestAt := 0, math.Inf(1), ""
	for _, v := range e.New.Verdicts {
		if v.Verdict != wording.Buy || v.Deployment != "" || !r.matches(v.Scenario, v.Offer, "") {
			continue
		}
		buys++
		where := Name(v.Scenario, v.Offer, "", "")
		p, ok := chance[[2]string{v.Scenario, v.Offer}]
		if !ok || math.IsNaN(p) {
			return CannotTell, "Monte Carlo cannot tell how likely owning is cheaper, " + where
		}
		if p < *r.Value {
			below = append(below, fmt.Sprintf("%s %.1f %%", where, p*100))
		}
		if p < lowest {
			lowest, lowestAt = p, where
		}
	}
	switch {
	case buys == 0:
		return Pass, "no verdict" + r.narrowed() + " is buy"
	case len(below) > 0:
		return Deny, fmt.Sprintf("buy, but owning is cheaper in less than %s of Monte Carlo's samples: %s", percent(*r.Value), listSome(below))
	}
	return Pass, fmt.Sprintf("where the verdict is buy, owning is cheaper in %s or more of Monte Carlo's samples; the lowest: %s, %.1f %%",
		percent(*r.Value), lowestAt, lowest*100)
}

// percent writes a chance as a percentage, as short as it reads: 50 %.
func percent(v float64) string { return fmt.Sprint(math.Round(v*100000)/1000) + " %" }
