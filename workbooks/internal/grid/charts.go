package grid

import "github.com/xuri/excelize/v2"

// The charts' text is dark enough to read on screen and on paper (Excel's
// own axis labels are a light grey); a layout's titles say what is plotted
// and in which unit.
var (
	chartText = "404040"
	axisFont  = excelize.Font{Family: "Calibri", Size: 9, Color: chartText}
)

// ChartTitle is a chart's title in bold dark text.
func ChartTitle(s string) excelize.ChartTitle {
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s, Font: &excelize.Font{Family: "Calibri", Size: 11, Bold: true, Color: "262626"}}}}
}

// Axis gives an axis dark labels and, unless it is "", a title.
func Axis(a excelize.ChartAxis, title string) excelize.ChartAxis {
	a.Font = axisFont
	if title != "" {
		a.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: title, Font: &excelize.Font{Family: "Calibri", Size: 9, Color: chartText}}}}
	}
	return a
}

// Legend is a chart's legend at position ("bottom", "right", ...), in the
// axes' dark text.
func Legend(position string) excelize.ChartLegend {
	return excelize.ChartLegend{Position: position, Font: &axisFont}
}
