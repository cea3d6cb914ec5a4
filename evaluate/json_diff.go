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
	Decisions []DecisionJSON     `json:"decisions"`
	Facts     []FactChangeJSON   `json:"facts"`
	Results   []ResultChangeJSON `json:"results"`
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

// DiffJSON is d as diff --format json prints it.
func DiffJSON(d review.Diff) *DiffDoc {
	doc := &DiffDoc{Old: d.Old, New: d.New, Same: d.Same(), Unrelated: d.Unrelated,
		Decisions: []DecisionJSON{}, Facts: []FactChangeJSON{}, Results: []ResultChangeJSON{}}
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
