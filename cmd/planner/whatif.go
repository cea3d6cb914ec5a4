package main

import (
	"fmt"
	"io"

	"planner/diag"
	"planner/engine"
	"planner/montecarlo"
	"planner/whatif"
)

// writeWhatIfs prints the three widest swings of every tornado and every
// goal's answer; the workbook has the rest.
func writeWhatIfs(w io.Writer, plan *engine.Plan, wi *whatif.Report) {
	if wi == nil {
		return
	}
	if len(wi.Tornadoes) > 0 {
		fmt.Fprintln(w, "\nSensitivity: how far each input's range moves the answer (the three widest swings)")
		fmt.Fprintln(w)
		t := &table{right: []bool{false, true, false}}
		cur := plan.Currency()
		for _, tor := range wi.Tornadoes {
			var swings []string
			for _, b := range tor.Bars[:min(3, len(tor.Bars))] {
				if b.Why == "" {
					swings = append(swings, b.Input.Name+" "+cur.Format(b.Swing, tor.Unit))
				}
			}
			t.add(tor.Target.Label(), cur.Format(tor.Base, tor.Unit), diag.List(swings))
		}
		t.write(w)
		if held := montecarlo.HeldNames(wi.Tornadoes[0].Held); len(held) > 0 {
			fmt.Fprintf(w, "\nNot swung, held at values outside their ranges: %s\n", diag.List(held))
		}
	}
	if len(wi.Solutions) > 0 {
		fmt.Fprintln(w, "\nGoal seek")
		fmt.Fprintln(w)
		t := &table{right: []bool{false, false}}
		m := plan.Model()
		for _, s := range wi.Solutions {
			answer := "no answer: " + s.Why
			if s.Found {
				in, _ := m.Input(s.For)
				answer = s.For + " = " + m.Currency.Format(s.X, in.Unit)
			}
			t.add(s.Name, answer)
		}
		t.write(w)
	}
}
