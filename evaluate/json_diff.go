package evaluate

import (
	"planner/review"
	"planner/units"
)

// DiffDoc is diff's document: the decisions that changed, the facts and
// the results, as diff --format json prints them.
type DiffDoc struct {
	Old       string             `json:"old"`
	New       string             `json:"new"`
	Same      bool               `json:"same"`
	Unrelated bool               `json:"unrelated,omitempty"`
	Broken    map[string]string  `json:"broken,omitempty"`
	Headline  HeadlineJSON       `json:"headline"`
	Policy    []OutcomeJSON      `json:"policy,omitempty"` // with --policy: each rule's outcome
	Decisions []DecisionJSON     `json:"decisions"`
	Facts     []FactChangeJSON   `json:"facts"`
	Results   []ResultChangeJSON `json:"results"`
}

// HeadlineJSON is the comparison in a few figures: the cheapest month on
// each side (null where a side computes none), the decisions that flipped
// between buy and rent, and the largest change of owning's NPV.
type HeadlineJSON struct {
	CheapestMonthOf string         `json:"cheapest_month_of,omitempty"` // the fleet's cheapest mix, or owning the base scenario's node
	OldMonth        *float64       `json:"old_cheapest_month"`
	NewMonth        *float64       `json:"new_cheapest_month"`
	Flipped         int            `json:"decisions_flipped"`
	NPV             *NPVChangeJSON `json:"largest_npv_change,omitempty"`
}

// NPVChangeJSON is owning's NPV against an offer, where it moved most.
type NPVChangeJSON struct {
	Scenario string  `json:"scenario"`
	Offer    string  `json:"offer"`
	Old      float64 `json:"old"`
	New      float64 `json:"new"`
	Change   float64 `json:"change"`
}

// OutcomeJSON is what one rule of the policy said: pass, warn, deny or
// cannot tell, and why.
type OutcomeJSON struct {
	Rule    string `json:"rule"` // as the file states it
	Line    int    `json:"line"`
	Outcome string `json:"outcome"`
	Why     string `json:"why"`
}

// DecisionJSON is a verdict that changed; per_month and old_per_month are
// what owning saves over renting a month on each side.
type DecisionJSON struct {
	Scenario    string   `json:"scenario,omitempty"`
	Offer       string   `json:"offer,omitempty"`
	Deployment  string   `json:"deployment,omitempty"`
	Fleet       bool     `json:"fleet,omitempty"` // the deployment's part in the fleet's cheapest mix: buy is own
	Old         string   `json:"old"`
	New         string   `json:"new"`
	OldPerMonth *float64 `json:"old_per_month"`
	PerMonth    *float64 `json:"per_month"`
	Change      *float64 `json:"change,omitempty"`
	Words       string   `json:"words,omitempty"`
}

// FactChangeJSON is a fact that changed, was added or went.
type FactChangeJSON struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

// ResultChangeJSON is a result that moved: its value on either side, or
// the error that stands for it.
type ResultChangeJSON struct {
	Scenario   string   `json:"scenario,omitempty"`
	Offer      string   `json:"offer,omitempty"`
	Deployment string   `json:"deployment,omitempty"`
	Fleet      string   `json:"fleet,omitempty"` // the fleet's GPU, or "every GPU"
	Name       string   `json:"name"`
	Unit       string   `json:"unit"`
	Headline   bool     `json:"headline,omitempty"`
	Old        *float64 `json:"old"`
	New        *float64 `json:"new"`
	OldError   string   `json:"old_error,omitempty"`
	NewError   string   `json:"new_error,omitempty"`
	Change     *float64 `json:"change,omitempty"`
	// Points is a share's change in percentage points (change × 100):
	// a break-even from 0.41 to 0.426 moves 1.6 points.
	Points *float64 `json:"points,omitempty"`
	// Relative is (new − old) / |old|, left out where it means nothing:
	// from zero, or for a value that crosses zero.
	Relative *float64 `json:"relative,omitempty"`
}

// DiffJSON is d as diff --format json prints it, with the policy's
// outcomes when there is a policy.
func DiffJSON(d review.Diff, outcomes []review.Outcome) *DiffDoc {
	doc := &DiffDoc{Old: d.Old, New: d.New, Same: d.Same(), Unrelated: d.Unrelated, Headline: headlineJSON(d.Headline()),
		Decisions: []DecisionJSON{}, Facts: []FactChangeJSON{}, Results: []ResultChangeJSON{}}
	for _, o := range outcomes {
		doc.Policy = append(doc.Policy, OutcomeJSON{Rule: o.Rule.String(), Line: o.Rule.Line, Outcome: o.Result, Why: o.Why})
	}
	for i, why := range d.Broken {
		if why != "" {
			if doc.Broken == nil {
				doc.Broken = map[string]string{}
			}
			doc.Broken[[]string{"old", "new"}[i]] = why
		}
	}
	for _, c := range d.Decisions {
		j := DecisionJSON{Scenario: c.Scenario, Offer: c.Offer, Deployment: c.Deployment, Fleet: c.Verdict.Fleet, Old: c.Old, New: c.New,
			OldPerMonth: c.OldSaving, PerMonth: c.NewSaving, Words: c.Words}
		if v, ok := c.Change(); ok {
			j.Change = OrNull(v)
		}
		doc.Decisions = append(doc.Decisions, j)
	}
	for _, f := range d.Facts {
		doc.Facts = append(doc.Facts, FactChangeJSON{Kind: f.Kind, Key: f.Key, Old: f.Old, New: f.New})
	}
	for _, r := range d.Results {
		j := ResultChangeJSON{Scenario: r.Scenario, Offer: r.Offer, Deployment: r.Deployment, Fleet: r.Fleet, Name: r.Name, Unit: r.Unit,
			Headline: r.Headline, Old: r.Old, New: r.New, OldError: r.OldErr, NewError: r.NewErr}
		if r.Old != nil && r.New != nil {
			j.Change = OrNull(r.Abs) // null beyond the largest float64
			j.Relative = OrNull(r.Rel)
			if r.Unit == units.Share {
				j.Points = OrNull(r.Abs * 100)
			}
		}
		doc.Results = append(doc.Results, j)
	}
	return doc
}

func headlineJSON(h review.Headline) HeadlineJSON {
	j := HeadlineJSON{Flipped: h.Flipped}
	for _, m := range []*review.Month{h.Old, h.New} {
		if m != nil {
			j.CheapestMonthOf = m.Of
		}
	}
	if h.Old != nil {
		j.OldMonth = OrNull(h.Old.Value)
	}
	if h.New != nil {
		j.NewMonth = OrNull(h.New.Value)
	}
	if n := h.NPV; n != nil {
		j.NPV = &NPVChangeJSON{Scenario: n.Scenario, Offer: n.Offer, Old: *n.Old, New: *n.New, Change: n.Abs}
	}
	return j
}
