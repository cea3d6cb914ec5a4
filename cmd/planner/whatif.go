package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"planner/engine"
	"planner/montecarlo"
	"planner/units"
	"planner/whatif"
)

// The what-ifs in JSON: numbers a program can use; null where the model
// gives no number.
type jsonTornado struct {
	Target string    `json:"target"`
	Offer  string    `json:"offer,omitempty"`
	Unit   string    `json:"unit"`
	Base   float64   `json:"base"`
	Bars   []jsonBar `json:"bars"`
	Held   []string  `json:"held,omitempty"` // inputs outside their range: not swung
}

type jsonBar struct {
	Input  string   `json:"input"`
	Low    float64  `json:"low"`
	High   float64  `json:"high"`
	AtLow  *float64 `json:"at_low"`
	AtHigh *float64 `json:"at_high"`
	Swing  *float64 `json:"swing"`
	Why    string   `json:"why,omitempty"`
}

type jsonTable struct {
	Name      string       `json:"name"`
	Output    string       `json:"output"`
	Unit      string       `json:"unit"`
	RowInput  string       `json:"row_input"`
	RowValues []float64    `json:"row_values"`
	ColInput  string       `json:"column_input,omitempty"`
	ColValues []float64    `json:"column_values,omitempty"`
	Offers    []string     `json:"column_offers,omitempty"`
	Cells     [][]*float64 `json:"cells"`
}

type jsonCrossing struct {
	Scenario    string   `json:"scenario"`
	Offer       string   `json:"offer"`
	Price       float64  `json:"price_per_gpu_hour"`
	Utilization *float64 `json:"breakeven_utilization"` // null: above 100 %
}

// heldNames names the held inputs, in model order.
func heldNames(held []montecarlo.Held) []string {
	var out []string
	for _, h := range held {
		out = append(out, h.Input.Name)
	}
	return out
}

func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func whatIfsJSON(doc *jsonFile, w *whatif.Report) {
	if w == nil {
		return
	}
	for _, t := range w.Tornadoes {
		jt := jsonTornado{Target: t.Target.Name, Unit: t.Unit, Base: t.Base, Bars: []jsonBar{}, Held: heldNames(t.Held)}
		if t.Target.Offer != nil {
			jt.Offer = t.Target.Offer.Label()
		}
		for _, b := range t.Bars {
			bar := jsonBar{Input: b.Input.Name, Low: b.Input.Low, High: b.Input.High, Why: b.Why,
				AtLow: finiteOrNil(b.AtLow), AtHigh: finiteOrNil(b.AtHigh)}
			if b.Why == "" {
				bar.Swing = finiteOrNil(b.Swing)
			}
			jt.Bars = append(jt.Bars, bar)
		}
		doc.Sensitivity = append(doc.Sensitivity, jt)
	}
	for _, t := range w.Tables {
		jt := jsonTable{Name: t.Spec.Name, Output: t.Spec.Output, Unit: t.Unit, RowInput: t.Spec.Row.Input,
			RowValues: t.RowValues, ColValues: t.ColValues, Offers: t.ColLabels}
		if t.Spec.Col != nil && !t.Spec.Col.Offers {
			jt.ColInput = t.Spec.Col.Input
		}
		for _, row := range t.Cells {
			cells := make([]*float64, len(row))
			for i, v := range row {
				cells[i] = finiteOrNil(v)
			}
			jt.Cells = append(jt.Cells, cells)
		}
		doc.DataTables = append(doc.DataTables, jt)
	}
	if w.Curve != nil {
		for _, c := range w.Curve.Crossings {
			doc.Breakeven = append(doc.Breakeven, jsonCrossing{Scenario: c.Scenario, Offer: c.Offer.Label(),
				Price: c.Offer.Price, Utilization: finiteOrNil(c.Utilization)})
		}
	}
	for _, s := range w.Solutions {
		j := solutionJSON(s)
		j.Name = s.Name
		doc.Goals = append(doc.Goals, j)
	}
}

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
		for _, tor := range wi.Tornadoes {
			var swings []string
			for _, b := range tor.Bars[:min(3, len(tor.Bars))] {
				if b.Why == "" {
					swings = append(swings, b.Input.Name+" "+units.Format(b.Swing, tor.Unit))
				}
			}
			t.add(tor.Target.Label(), units.Format(tor.Base, tor.Unit), strings.Join(swings, ", "))
		}
		t.write(w)
		if held := heldNames(wi.Tornadoes[0].Held); len(held) > 0 {
			fmt.Fprintf(w, "\nNot swung, held at values outside their ranges: %s\n", strings.Join(held, ", "))
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
				answer = s.For + " = " + units.Format(s.X, in.Unit)
			}
			t.add(s.Name, answer)
		}
		t.write(w)
	}
}
