package workbooks

import (
	"strings"

	"planner/domain"
	"planner/whatif"
	"planner/workbooks/internal/schema"
)

// targets reads the formulas the tornado follows, one per row.
func (r *reader) targets() []domain.TargetSpec {
	t := r.table(schema.Targets)
	if t == nil {
		return nil
	}
	var out []domain.TargetSpec
	t.each(func(row int) {
		name, at := t.get(row, "name")
		if name != "" {
			notes, _ := t.get(row, "notes")
			out = append(out, domain.TargetSpec{Name: name, Notes: notes, Origin: at})
		}
	})
	return out
}

// tables reads the data tables: an output over a row axis and an optional
// column axis, each an input stepped from one value to another, or the
// column axis "offer" for the offers of the node's GPU.
func (r *reader) tables(inputs []domain.Input) []domain.TableSpec {
	t := r.table(schema.Tables)
	if t == nil {
		return nil
	}
	var out []domain.TableSpec
	t.each(func(row int) {
		spec := domain.TableSpec{Where: t.where(row)}
		spec.Name, spec.Origin = t.get(row, "name")
		spec.Output, _ = t.get(row, "output")
		spec.Notes, _ = t.get(row, "notes")
		shade, at := t.get(row, "shade")
		var ok bool
		if spec.Shade, ok = parseShade(shade); !ok {
			r.fail(at, spec.Name, "green when %q: write < 0 or > 2.69 (green below or above a value, red on the other side), low or high (a colour scale, green at that end), or leave it empty", shade)
			return
		}
		rowAxis, ok := r.axis(t, row, "row", spec.Name, inputs)
		if !ok {
			return
		}
		spec.Row = *rowAxis
		if colInput, _ := t.get(row, "colinput"); colInput != "" {
			if spec.Col, ok = r.axis(t, row, "col", spec.Name, inputs); !ok {
				return
			}
		}
		out = append(out, spec)
	})
	return out
}

// parseShade reads a table's "green when": "< 0", "> 2.69", "low", "high".
func parseShade(s string) (domain.Shade, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "":
		return domain.Shade{}, true
	case "low", "lowest", "lower":
		return domain.Shade{Low: true}, true
	case "high", "highest", "higher":
		return domain.Shade{High: true}, true
	}
	for _, op := range []struct {
		prefix string
		below  bool
	}{{"<", true}, {"below", true}, {">", false}, {"above", false}} {
		if rest, ok := strings.CutPrefix(s, op.prefix); ok {
			v, isNum := parseNumber(strings.TrimLeft(rest, " $"))
			return domain.Shade{Below: op.below, Above: !op.below, Threshold: v}, isNum
		}
	}
	return domain.Shade{}, false
}

// axis reads one axis; from and to default to the input's low and high.
func (r *reader) axis(t *table, row int, side, name string, inputs []domain.Input) (*domain.Axis, bool) {
	input, at := t.get(row, side+"input")
	if strings.EqualFold(input, "offer") || strings.EqualFold(input, "offers") {
		return &domain.Axis{Offers: true}, true
	}
	a := &domain.Axis{Input: input, Steps: 10}
	steps, okSteps := r.whole(t, row, side+"steps", name, whatif.MaxSteps, "steps of an axis")
	if steps > 0 {
		a.Steps = steps
	}
	from, okFrom := t.number(row, side+"from", name, false)
	to, okTo := t.number(row, side+"to", name, false)
	if raw, _ := t.get(row, side+"from"); raw == "" {
		okFrom = r.fromRange(inputs, input, &from, true)
	}
	if raw, _ := t.get(row, side+"to"); raw == "" {
		okTo = r.fromRange(inputs, input, &to, false)
	}
	if !okSteps || !okFrom || !okTo {
		if !okFrom || !okTo {
			r.fail(at, name, "give %s from and to, or a range (low and high) to %s in Assumptions", side, input)
		}
		return nil, false
	}
	for _, end := range []struct {
		key string
		v   float64
	}{{side + "from", from}, {side + "to", to}} {
		// A table may look past what is plausible, but not past what is
		// possible: a PUE below 1 computes a cost no facility has.
		if in, ok := inputNamed(inputs, input); ok && !in.Value.IsText {
			if f := domain.Plausibility(r.cur, in.Name, in.Unit, end.v); f != nil && f.Impossible {
				_, at := t.get(row, end.key)
				r.fail(at, name, "%s %s", in.Name, f.Advice("type ", ""))
				return nil, false
			}
		}
	}
	a.From, a.To = from, to
	return a, true
}

func inputNamed(inputs []domain.Input, name string) (domain.Input, bool) {
	for _, in := range inputs {
		if in.Name == name {
			return in, true
		}
	}
	return domain.Input{}, false
}

func (r *reader) fromRange(inputs []domain.Input, name string, v *float64, low bool) bool {
	for _, in := range inputs {
		if in.Name == name && in.HasRange {
			*v = in.High
			if low {
				*v = in.Low
			}
			return true
		}
	}
	return false
}

// goals reads one goal per row: solve for an input so that a formula
// reaches a value, with other inputs set as "with" says.
func (r *reader) goals(inputs []domain.Input) []domain.Goal {
	t := r.table(schema.Goals)
	if t == nil {
		return nil
	}
	var out []domain.Goal
	t.each(func(row int) {
		g := domain.Goal{Where: t.where(row), With: map[string]domain.Value{}}
		g.Name, g.Origin = t.get(row, "name")
		g.For, _ = t.get(row, "for")
		g.Target, _ = t.get(row, "target")
		g.Offer, _ = t.get(row, "offer")
		g.Notes, _ = t.get(row, "notes")
		value, ok := t.number(row, "value", g.Name, true)
		if !ok || !r.with(t, row, &g, inputs) {
			return
		}
		g.Value = value
		low, okLow := t.number(row, "low", g.Name, false)
		high, okHigh := t.number(row, "high", g.Name, false)
		if okLow && okHigh {
			g.Low, g.High, g.HasRange = low, high, true
		}
		out = append(out, g)
	})
	return out
}

// with reads "utilization=0.4; capex=300000": inputs set while solving.
func (r *reader) with(t *table, row int, g *domain.Goal, inputs []domain.Input) bool {
	raw, at := t.get(row, "with")
	set, bad := parseSettings(raw)
	if bad != "" {
		r.fail(at, g.Name, "%q: write the inputs to set as name=number, separated by semicolons, e.g. utilization=0.4; capex=300000", bad)
		return false
	}
	for _, in := range inputs {
		if v, ok := set[in.Name]; ok {
			if msg := domain.CheckInput(r.cur, in.Name, v.Num, in.Unit); msg != "" {
				r.fail(at, g.Name, "%s %s", in.Name, msg)
				return false
			}
			if !r.finding(at, g.Name, in.Name+" ", "type "+in.Name+"=", domain.Plausibility(r.cur, in.Name, in.Unit, v.Num)) {
				return false
			}
		}
	}
	g.With = set
	return true
}

// parseSettings reads "name=number; name=number"; bad is the first part
// that is not of that form.
func parseSettings(raw string) (set map[string]domain.Value, bad string) {
	set = map[string]domain.Value{}
	for _, part := range strings.FieldsFunc(raw, func(c rune) bool { return c == ';' || c == ',' }) {
		name, val, ok := strings.Cut(part, "=")
		v, isNum := parseNumber(strings.TrimSpace(val))
		if !ok || !isNum || strings.TrimSpace(name) == "" {
			return nil, strings.TrimSpace(part)
		}
		set[strings.TrimSpace(name)] = domain.Num(v)
	}
	return set, ""
}
