package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// A deployment planner cannot cost, a 405B model on RTX 5090s whose KV
// reserve takes more cards than sizing tries, is warned of at its row, the
// fleet lines say it is left out, and its JSON offer is null.
func TestAnUncostedDeploymentIsSaid(t *testing.T) {
	_, plan := freshPlan(t)
	editBook(t, plan, func(f *excelize.File) error {
		return f.SetSheetRow("Deployments", "A13", &[]any{"405B on RTX 5090", "Llama 3.1 405B", nil, "RTX 5090", nil, 1, nil, nil, 730})
	})
	warning := "warning: " + plan + ": Deployments!A13: 405B on RTX 5090: not costed, so the fleet and its cheapest mix leave it out: " +
		"the weights fit 16×RTX 5090, but with the KV reserve a replica needs more than 16 cards; type its cards per replica, or choose a GPU with more memory"
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200", "-o", filepath.Join(filepath.Dir(plan), "out.xlsx")}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	if !strings.Contains(errs.String(), warning+"\n") {
		t.Errorf("stderr lacks the warning %q:\n%s", warning, errs.String())
	}
	const leftOut = "\n  left out of the fleet, not costed (the warning at its row says why): \"405B on RTX 5090\"\n"
	if !strings.Contains(out.String(), leftOut) {
		t.Errorf("the fleet lines do not say %q:\n%s", leftOut, out.String())
	}
	out.Reset()
	if code := run([]string{"eval", plan, "--samples", "200", "--format", "json", "-o", filepath.Join(filepath.Dir(plan), "out.xlsx")}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	var doc struct {
		Deployments []map[string]json.RawMessage `json:"deployments"`
		Warnings    []struct {
			Text string `json:"text"`
		} `json:"warnings"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range doc.Deployments {
		offer, ok := d["offer"]
		if string(d["name"]) == `"405B on RTX 5090"` {
			found = true
			if !ok || string(offer) != "null" {
				t.Errorf("the uncosted deployment's offer is %s, want null", offer)
			}
		} else if !ok || string(offer) == "null" {
			t.Errorf("%s: offer %s, want its offer's name", d["name"], offer)
		}
	}
	if !found {
		t.Error("the uncosted deployment is not in the JSON")
	}
	said := false
	for _, w := range doc.Warnings {
		said = said || "warning: "+w.Text == warning
	}
	if !said {
		t.Errorf("the JSON's warnings lack %q: %+v", warning, doc.Warnings)
	}
	// The advice, followed: 16 cards per replica hold the weights.
	editBook(t, plan, func(f *excelize.File) error { return f.SetCellValue("Deployments", "E13", 16) })
	errs.Reset()
	if code := run([]string{"eval", plan, "--samples", "200", "-o", filepath.Join(filepath.Dir(plan), "out.xlsx")}, &out, &errs); code != 0 || strings.Contains(errs.String(), "not costed") {
		t.Errorf("with its cards typed, still not costed: %s", errs.String())
	}
}
