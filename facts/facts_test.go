package facts

import (
	"testing"

	"planner/engine"
)

// An input held because its value left the range is shown so by show.
func TestHeldInputFact(t *testing.T) {
	in := engine.Input{Name: "capex", Unit: "$", Value: engine.Num(412000), Low: 250000, High: 320000, HasRange: true}
	if got := inputFact(in); got != "412000 $ [250000..320000] held: the value lies outside its range" {
		t.Errorf("fact %q", got)
	}
}
