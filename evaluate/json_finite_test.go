package evaluate

import (
	"encoding/json"
	"math"
	"testing"
)

// A number JSON cannot hold is named by its path in the document, for the
// message that replaces encoding/json's bare "unsupported value".
func TestNotFiniteNamesTheField(t *testing.T) {
	good := &FileJSON{File: "plan.xlsx", Scenarios: []ScenarioJSON{{Name: "base", Values: map[string]float64{"capex": 285000},
		MonteCarlo: &MonteCarloJSON{Outputs: map[string]QuantilesJSON{"capex": {{Key: "mean", Value: 285000}}, "gpus": {{Key: "mean", Value: 8}}}}}}}
	if _, err := json.Marshal(good); err != nil || NotFinite(good) != "" {
		t.Fatalf("a finite document: %v, %q", err, NotFinite(good))
	}
	bad := *good
	bad.Scenarios = []ScenarioJSON{good.Scenarios[0], good.Scenarios[0]}
	bad.Scenarios[1].MonteCarlo = &MonteCarloJSON{Outputs: map[string]QuantilesJSON{"capex": {{Key: "mean", Value: 285000}}, "gpus": {{Key: "mean", Value: 8}, {Key: "p95", Value: math.Inf(1)}}}}
	if _, err := json.Marshal(&bad); err == nil {
		t.Fatal("encoding/json took +Inf")
	}
	if got, want := NotFinite(&bad), `scenarios[1].montecarlo.outputs["gpus"].p95 is +Inf`; got != want {
		t.Errorf("NotFinite = %q, want %q", got, want)
	}
	tab := &FileJSON{DataTables: []TableJSON{{Name: "t", RowValues: []float64{1, math.NaN()}}}}
	if got, want := NotFinite(tab), `data_tables[0].row_values[1] is NaN`; got != want {
		t.Errorf("NotFinite = %q, want %q", got, want)
	}
}
