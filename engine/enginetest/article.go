package enginetest

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"planner/domain"
)

// Figure is one of SPEC.md's figures, as the article's cases list them
// (testdata/article/figures.tsv): what a formula gives for the node or
// against an offer, with some inputs set, to the rounding SPEC shows.
type Figure struct {
	Section  string
	Set      []string // name=value, as planner's --set takes them
	Formula  string
	Offer    string // the offer's label; "" for a node-level formula
	Rounding float64
	Want     float64
}

// Figures reads the article's cases from the text of their file; the
// caller reads the file, so that this package stays free of files.
func Figures(text string) ([]Figure, error) {
	var out []Figure
	for i, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f, err := figure(strings.Split(line, "\t"))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		out = append(out, f)
	}
	return out, nil
}

func figure(cols []string) (Figure, error) {
	if len(cols) != 6 {
		return Figure{}, fmt.Errorf("%d columns, want 6", len(cols))
	}
	f := Figure{Section: cols[0], Formula: cols[2], Offer: strings.TrimPrefix(cols[3], "-")}
	if cols[1] != "-" {
		f.Set = strings.Split(cols[1], ";")
	}
	var err error
	if f.Rounding, err = strconv.ParseFloat(cols[4], 64); err != nil {
		return Figure{}, err
	}
	f.Want, err = strconv.ParseFloat(cols[5], 64)
	return f, err
}

// Values are the inputs the figure sets: a number, a ratio such as
// 264/730, or else text (a GPU's name).
func (f Figure) Values() map[string]domain.Value {
	set := map[string]domain.Value{}
	for _, s := range f.Set {
		name, v, _ := strings.Cut(s, "=")
		set[name] = value(v)
	}
	return set
}

func value(s string) domain.Value {
	num, den, ratio := strings.Cut(s, "/")
	n, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return domain.Text(s)
	}
	if ratio {
		d, err := strconv.ParseFloat(den, 64)
		if err != nil {
			return domain.Text(s)
		}
		n /= d
	}
	return domain.Num(n)
}

// Holds reports whether v rounds to the figure at SPEC's rounding.
func (f Figure) Holds(v float64) bool {
	return math.Abs(math.Round(v/f.Rounding)*f.Rounding-f.Want) <= f.Rounding/1000
}

// String names the figure as SPEC does: "§4 breakeven_utilization against
// RunPod H100 SXM, Community with capex=250000".
func (f Figure) String() string {
	s := f.Section + " " + f.Formula
	if f.Offer != "" {
		s += " against " + f.Offer
	}
	if len(f.Set) > 0 {
		s += " with " + strings.Join(f.Set, ", ")
	}
	return s
}
