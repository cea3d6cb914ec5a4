package sheets

import (
	"github.com/xuri/excelize/v2"

	"planner/engine"
	"planner/formulas"
	"planner/whatif"
)

// The charts' text is dark enough to read on screen and on paper (Excel's
// own axis labels are a light grey), and every title says what is plotted
// and in which unit.
var (
	chartText = "404040"
	axisFont  = excelize.Font{Family: "Calibri", Size: 9, Color: chartText}
)

func chartTitle(s string) excelize.ChartTitle {
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s, Font: &excelize.Font{Family: "Calibri", Size: 11, Bold: true, Color: "262626"}}}}
}

// axis gives an axis dark labels and, unless it is "", a title.
func axis(a excelize.ChartAxis, title string) excelize.ChartAxis {
	a.Font = axisFont
	if title != "" {
		a.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: title, Font: &excelize.Font{Family: "Calibri", Size: 9, Color: chartText}}}}
	}
	return a
}

func legend(position string) excelize.ChartLegend {
	return excelize.ChartLegend{Position: position, Font: &axisFont}
}

// inUnit is "label (unit)", or the label alone for a result without one.
func inUnit(label, unit string) string {
	if unit == "" {
		return label
	}
	return label + " (" + unit + ")"
}

// resultLabel is what a reader calls a result: its formula's label, or the
// name made readable.
func resultLabel(p *engine.Plan, name string) string {
	for _, f := range p.Formulas() {
		if f.Name == name {
			return formulas.LabelOf(f)
		}
	}
	return formulas.Readable(name)
}

// targetLabel is a tornado's target in words, with its unit: "Break-even
// utilisation (%) against RunPod H100 SXM, Community".
func targetLabel(p *engine.Plan, t whatif.Target, unit string) string {
	label := inUnit(resultLabel(p, t.Name), unit)
	if t.Offer != nil {
		label += " against " + t.Offer.Label()
	}
	return label
}
