package workbooks

import (
	"math"
	"slices"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/sizing"
	"planner/units"
	"planner/workbooks/internal/schema"
)

// gpus reads the GPU catalog: one GPU per row.
func (r *reader) gpus() []sizing.GPUSpec {
	t := r.table(schema.GPUs)
	if t == nil {
		return nil
	}
	var out []sizing.GPUSpec
	t.each(func(row int) {
		name, at := t.get(row, "name")
		if name == "" {
			r.fail(at, "", "the GPU has no name; name it or clear the row")
			return
		}
		g := sizing.GPUSpec{Name: name, Origin: at}
		g.Interconnect, _ = t.get(row, "interconnect")
		g.Source, _ = t.get(row, "source")
		mem, ok := r.positive(t, row, "memory", name, true)
		watts, okW := r.positive(t, row, "watts", name, false)
		for _, prev := range out {
			if domain.SameGPU(prev.Name, name) {
				r.fail(at, name, "the GPU is listed twice (also at %s); keep one row", prev.Origin.Where())
				return
			}
		}
		_, memAt := t.get(row, "memory")
		_, wattsAt := t.get(row, "watts")
		ok = ok && r.plausible(memAt, name, domain.GPUMemoryGB, "", mem)
		okW = okW && (watts == 0 || r.plausible(wattsAt, name, domain.GPUWatts, "", watts))
		idle, okI := r.idleWatts(t, row, name, watts)
		bandwidth, okB := r.positive(t, row, "bandwidth", name, false)
		if ok && okW && okI && okB {
			g.MemoryGB, g.Watts, g.IdleWatts, g.BandwidthTBs = mem, watts, idle, bandwidth
			g.AsOf, _ = t.get(row, "asof")
			if _, has := t.cols["watts"]; has {
				_, g.WattsAt = t.get(row, "watts")
			}
			if _, has := t.cols["idlewatts"]; has {
				_, g.IdleWattsAt = t.get(row, "idlewatts")
			}
			out = append(out, g)
		}
	})
	return out
}

// idleWatts reads a card's idle draw: none, or above zero and at most its
// board watts, which it needs beside it (idle hours are priced at idle
// watts, busy hours at board watts).
func (r *reader) idleWatts(t *table, row int, name string, watts float64) (float64, bool) {
	idle, ok := r.positive(t, row, "idlewatts", name, false)
	if !ok || idle == 0 {
		return 0, ok
	}
	_, at := t.get(row, "idlewatts")
	switch {
	case watts == 0:
		r.fail(at, name, "idle watts %s without board watts; type the board watts beside them, or clear the idle watts", units.Plain(idle))
		return 0, false
	case idle > watts:
		r.fail(at, name, "idle watts %s are more than the board watts %s; type the card's draw while it serves nothing, at most its board watts", units.Plain(idle), units.Plain(watts))
		return 0, false
	}
	return idle, true
}

// positive reads a number that must be above zero; ok is false after a
// problem was reported. An optional empty cell gives 0 and ok.
func (r *reader) positive(t *table, row int, key, name string, required bool) (float64, bool) {
	raw, at := t.get(row, key)
	raw, ref := r.followed(at, name, raw)
	if ref.refused {
		return 0, false
	}
	if raw == "" && !required {
		return 0, !r.formulaWithoutValue(at, name)
	}
	v, ok := t.number(row, key, name, required)
	if ok && v <= 0 {
		r.fail(at, name, "the %s is %g; it must be above zero", t.title(key), v)
		return 0, false
	}
	return v, ok
}

// models reads the model catalog: one model per row, with an optional
// architecture for the KV cache.
func (r *reader) models() []sizing.ModelSpec {
	t := r.table(schema.Models)
	if t == nil {
		return nil
	}
	var out []sizing.ModelSpec
	t.each(func(row int) {
		name, at := t.get(row, "name")
		if name == "" {
			r.fail(at, "", "the model has no name; name it or clear the row")
			return
		}
		for _, prev := range out {
			if strings.EqualFold(prev.Name, name) {
				r.fail(at, name, "the model is listed twice (also at %s); keep one row", prev.Origin.Where())
				return
			}
		}
		m := sizing.ModelSpec{Name: name, Origin: at}
		m.Precision, _ = t.get(row, "precision")
		m.Source, _ = t.get(row, "source")
		total, ok1 := r.positive(t, row, "total", name, true)
		active, ok2 := r.positive(t, row, "active", name, false)
		bytes, ok3 := r.positive(t, row, "bytes", name, false)
		if !ok1 || !ok2 || !ok3 {
			return
		}
		if total > sizing.MaxParamsB {
			_, tat := t.get(row, "total")
			r.fail(tat, name, "the %s is %s, more than the %s billion parameters planner sizes; type the parameters in billions, such as 70 for a 70B model",
				t.title("total"), units.Plain(total), units.Plain(sizing.MaxParamsB))
			return
		}
		m.TotalParamsB, m.ActiveParamsB, m.BytesPerParam = total, active, bytes
		if _, known := sizing.BytesPer(m.Precision); !known && bytes == 0 {
			_, pat := t.get(row, "precision")
			r.fail(pat, name, "the precision %q is not known; use one of %s, or fill bytes per param", m.Precision, sizing.PrecisionNames())
			return
		}
		arch, ok := r.architecture(t, row, name, m.Precision)
		if ok {
			m.Arch = arch
			out = append(out, m)
		}
	})
	return out
}

// archKeys are the columns every architecture gives; layoutKeys those an
// attention layout needs besides (or instead of KV heads and head dim), and
// layoutOnly the columns that count only under a layout.
var (
	archKeys   = []string{"layers", "kvheads", "headdim", "context", "sequences"}
	layoutKeys = map[string][]string{
		"":                   archKeys,
		sizing.GroupedQuery:  archKeys,
		sizing.LatentMLA:     {"layers", "latentdim", "ropedim", "context", "sequences"},
		sizing.SlidingWindow: append(slices.Clone(archKeys), "window"),
	}
	layoutOnly = map[string]string{"latentdim": sizing.LatentMLA, "ropedim": sizing.LatentMLA,
		"window": sizing.SlidingWindow, "windowedlayers": sizing.SlidingWindow}
)

// architecture reads the KV cache's architecture: the columns its attention
// layout needs, all or none. The KV precision defaults to the weights'.
func (r *reader) architecture(t *table, row int, name, precision string) (*sizing.Architecture, bool) {
	layout, ok := r.attention(t, row, name)
	if !ok {
		return nil, false
	}
	need := layoutKeys[layout]
	var given []string
	for _, k := range need {
		if raw, _ := t.get(row, k); raw != "" {
			given = append(given, k)
		}
	}
	if len(given) == 0 && layout == "" {
		return nil, r.noLayoutOnly(t, row, name, "")
	}
	if len(given) < len(need) {
		at := r.firstMissing(t, row, need)
		r.fail(at, name, "the architecture%s needs all of %s (or none of them%s)", layoutWords(layout), r.titles(t, need), noneAdvice(layout))
		return nil, false
	}
	if !r.noLayoutOnly(t, row, name, layout) {
		return nil, false
	}
	v := map[string]float64{}
	for _, k := range append(slices.Clone(need), "windowedlayers") {
		x, ok := r.positive(t, row, k, name, k != "windowedlayers")
		if !ok {
			return nil, false
		}
		v[k] = x
	}
	kvPrecision, kvAt := t.get(row, "kvprecision")
	if kvPrecision == "" {
		kvPrecision = precision
	}
	kv, ok := sizing.BytesPer(kvPrecision)
	if !ok {
		r.fail(kvAt, name, "the KV precision %q is not known; use one of %s", kvPrecision, sizing.PrecisionNames())
		return nil, false
	}
	return &sizing.Architecture{Layers: v["layers"], KVHeads: v["kvheads"], HeadDim: v["headdim"],
		Context: v["context"], Sequences: v["sequences"], KVBytes: kv, Attention: layout,
		LatentDim: v["latentdim"], RopeDim: v["ropedim"], Window: v["window"], WindowedLayers: v["windowedlayers"]}, true
}

// attention reads the row's attention layout, refusing one sizing does not know.
func (r *reader) attention(t *table, row int, name string) (string, bool) {
	raw, at := t.get(row, "attention")
	layout, ok := sizing.AttentionNamed(raw)
	if !ok {
		r.fail(at, name, "the attention %q is not known; pick one of %s, or leave it empty for the plain formula (KV heads × head dim per layer)",
			raw, diag.ListOr(sizing.Attentions()))
	}
	return layout, ok
}

// noLayoutOnly refuses a figure only another layout reads (a latent dim
// without multi-head latent attention, a window without a sliding window),
// which planner would otherwise leave out of the cache without a word.
func (r *reader) noLayoutOnly(t *table, row int, name, layout string) bool {
	for _, k := range []string{"latentdim", "ropedim", "window", "windowedlayers"} {
		raw, at := t.get(row, k)
		if raw == "" || layoutOnly[k] == layout {
			continue
		}
		r.fail(at, name, "the %s counts only with the attention %q; set the attention column to %q, or clear this cell",
			modelsHeader(t, k), layoutOnly[k], layoutOnly[k])
		return false
	}
	return true
}

// firstMissing is the cell of the first of the columns left empty.
func (r *reader) firstMissing(t *table, row int, keys []string) diag.Origin {
	for _, k := range keys {
		if raw, at := t.get(row, k); raw == "" {
			return at
		}
	}
	_, at := t.get(row, keys[0])
	return at
}

// titles lists the columns' headers as the sheet writes them.
func (r *reader) titles(t *table, keys []string) string {
	var out []string
	for _, k := range keys {
		out = append(out, modelsHeader(t, k))
	}
	return diag.ListAnd(out)
}

// modelsHeader is a Models column's header as the sheet writes it, or as
// init would where the sheet has no such column.
func modelsHeader(t *table, key string) string {
	if s := t.titles[key]; s != "" {
		return s
	}
	for _, c := range schema.Models.Columns {
		if c.Key == key {
			return c.Header
		}
	}
	return key
}

func layoutWords(layout string) string {
	if layout == "" {
		return ""
	}
	return " of " + layout + " attention"
}

func noneAdvice(layout string) string {
	if layout == "" {
		return ", to use kv_headroom"
	}
	return " and no attention, to use kv_headroom"
}

// deployments reads one deployment case per row.
func (r *reader) deployments(m *domain.Model) []domain.Deployment {
	t := r.table(schema.Deployments)
	if t == nil {
		return nil
	}
	var out []domain.Deployment
	t.each(func(row int) {
		d := domain.Deployment{Where: t.where(row)}
		var at diag.Origin
		d.Name, at = t.get(row, "name")
		d.Origin = at
		d.Model, _ = t.get(row, "model")
		d.Precision, _ = t.get(row, "precision")
		d.GPU, _ = t.get(row, "gpu")
		d.Offer, _ = t.get(row, "offer")
		d.Scenario, _ = t.get(row, "scenario")
		d.Notes, _ = t.get(row, "notes")
		if d.Name == "" || d.Model == "" || d.GPU == "" {
			r.fail(at, d.Name, "a deployment needs a name, a model and a GPU; fill them or clear the row")
			return
		}
		if r.deploymentNumbers(t, row, &d) && r.deploymentTokens(t, row, m, &d) {
			for _, key := range []string{"cards", "replicas", "hoursday", "days", "hoursmonth", "tokens", "peak"} {
				if raw, at := t.get(row, key); raw != "" && r.textCell(at, raw) {
					if d.Texts == nil {
						d.Texts = map[string]bool{}
					}
					d.Texts[key] = true
				}
			}
			out = append(out, d)
		}
	})
	return out
}

// deploymentNumbers reads cards, replicas and the usage pattern.
func (r *reader) deploymentNumbers(t *table, row int, d *domain.Deployment) bool {
	cards, ok1 := r.whole(t, row, "cards", d.Name, maxCards, "cards per replica")
	replicas, ok2 := r.whole(t, row, "replicas", d.Name, maxReplicas, "replicas of one deployment")
	perDay, ok3 := r.positive(t, row, "hoursday", d.Name, false)
	days, ok4 := r.positive(t, row, "days", d.Name, false)
	perMonth, ok5 := r.positive(t, row, "hoursmonth", d.Name, false)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return false
	}
	d.Cards, d.Replicas = cards, replicas
	_, dayAt := t.get(row, "hoursday")
	_, daysAt := t.get(row, "days")
	_, monthAt := t.get(row, "hoursmonth")
	switch {
	case perMonth > 0 && (perDay > 0 || days > 0):
		r.fail(monthAt, d.Name, "give the usage one way: hours per month, or hours per day and days per month, not both")
		return false
	case perMonth == 0 && (perDay == 0 || days == 0):
		r.fail(monthAt, d.Name, "give the usage: hours per month (730 is all month), or hours per day and days per month")
		return false
	case perDay > 24:
		r.fail(dayAt, d.Name, "%s hours a day is more than a day has; type at most 24", units.Plain(perDay))
		return false
	case days > 31:
		r.fail(daysAt, d.Name, "%s days a month is more than a month has; type at most 31", units.Plain(days))
		return false
	case perMonth > 744:
		r.fail(monthAt, d.Name, "%s hours a month is more than a month has; type at most 744 (31 × 24)", units.Plain(perMonth))
		return false
	}
	d.HoursPerMonth, d.Usage = usage(perDay, days, perMonth)
	return r.deploymentProfile(t, row, d, perDay, days)
}

// deploymentProfile reads the busy hours profile: 24 shares of the
// replicas busy, hour by hour of the day. Its sum is the busy hours of a
// day, which hours per day must say too: the Deployment costs sheet's live
// rent reads that cell.
func (r *reader) deploymentProfile(t *table, row int, d *domain.Deployment, perDay, days float64) bool {
	raw, at := t.get(row, "profile")
	if strings.TrimSpace(raw) == "" {
		return true
	}
	p, msg := domain.ParseProfile(raw)
	if msg != "" {
		r.fail(at, d.Name, "%s", msg)
		return false
	}
	sum := domain.ProfileHours(p)
	_, dayAt := t.get(row, "hoursday")
	switch {
	case days == 0:
		r.fail(at, d.Name, "a busy hours profile is hours of a day: give the usage as hours per day (%s, the profile's sum) and days per month", units.Plain(sum))
		return false
	case math.Abs(perDay-sum) > 1e-9*max(1, sum):
		r.fail(dayAt, d.Name, "the busy hours profile adds up to %s hours a day, but hours per day is %s; type %s, or change the profile", units.Plain(sum), units.Plain(perDay), units.Plain(sum))
		return false
	}
	d.Profile, d.ProfileText = p, strings.TrimSpace(raw)
	return true
}

// formulaWithoutValue reports a cell that looks empty because it holds a
// formula no spreadsheet application has computed yet.
func (r *reader) formulaWithoutValue(at diag.Origin, name string) bool {
	formula := r.formula(at)
	_, ref := r.followed(at, name, "")
	if ref.refused {
		return true // said already
	}
	if formula == "" || ref.last != "" {
		return false // none, or a reference to a cell that is empty: empty too
	}
	r.fail(at, name, "the formula =%s has no computed value saved with it; open the workbook in Excel or LibreOffice, save it, and run planner again, or type the number", formula)
	return true
}

// whole reads an optional whole number from 1 to most; empty gives 0.
// what names the limit, for the message: "replicas for one deployment".
func (r *reader) whole(t *table, row int, key, name string, most float64, what string) (int, bool) {
	v, ok := r.positive(t, row, key, name, false)
	if !ok {
		return 0, false
	}
	_, at := t.get(row, key)
	switch {
	case v != math.Trunc(v):
		r.fail(at, name, "the %s is %s, not a whole number; type a whole number, such as %s", t.title(key), units.Plain(v), units.Plain(math.Max(1, math.Round(v))))
		return 0, false
	case v > most:
		r.fail(at, name, "the %s is %s; planner takes at most %s %s: type a whole number from 1 to %s", t.title(key), units.Plain(v), units.Plain(most), what, units.Plain(most))
		return 0, false
	}
	return int(v), true
}

// scenarios reads the Scenarios sheet: a header row naming one scenario per
// column after the first, then one row per input the scenarios change (and
// an optional notes row). An empty cell keeps the Assumptions' value.
func (r *reader) scenarios(inputs []domain.Input) []domain.Scenario {
	sheet := r.in.Of(schema.Scenarios.Name)
	rows, ok := r.rows(sheet)
	if !ok {
		return nil
	}
	header := -1
	for i, row := range rows {
		if !blank(row) {
			header = i
			break
		}
	}
	if header < 0 {
		return nil
	}
	at := func(row, col int) diag.Origin {
		return diag.Origin{File: r.file, Sheet: sheet, Row: row + 1, Col: col + 1}
	}
	var out []domain.Scenario
	cols := map[int]int{} // sheet column -> scenario
	for c, name := range rows[header] {
		if name = strings.TrimSpace(name); c > 0 && name != "" {
			cols[c] = len(out)
			out = append(out, domain.Scenario{Name: name, Origin: at(header, c), Set: map[string]domain.Value{}, Where: map[string]diag.Origin{}})
		}
	}
	kinds := map[string]domain.Input{}
	for _, in := range inputs {
		kinds[in.Name] = in
	}
	rowOf := map[string]diag.Origin{}
	for i := header + 1; i < len(rows); i++ {
		if len(rows[i]) == 0 || blank(rows[i]) {
			continue
		}
		name := strings.TrimSpace(rows[i][0])
		if first, dup := rowOf[strings.ToLower(name)]; dup && name != "" {
			r.fail(at(i, 0), name, "is listed twice (also at %s); keep one row", first.Where())
			continue
		}
		rowOf[strings.ToLower(name)] = at(i, 0)
		r.scenarioRow(out, cols, rows[i], name, kinds, func(c int) diag.Origin { return at(i, c) })
	}
	return out
}

// scenarioRow reads one input's row of the Scenarios sheet.
func (r *reader) scenarioRow(out []domain.Scenario, cols map[int]int, cells []string, name string,
	kinds map[string]domain.Input, at func(int) diag.Origin) {
	width := len(cells)
	for c := range cols {
		width = max(width, c+1)
	}
	for c := range width {
		raw := ""
		if c < len(cells) {
			raw = strings.TrimSpace(cells[c])
		}
		s, isScenario := cols[c]
		var ref reference
		if isScenario && name != "" && !strings.EqualFold(name, "notes") {
			raw, ref = r.followed(at(c), name, raw)
		}
		switch {
		case c == 0, ref.refused:
		case raw != "" && !isScenario:
			r.fail(at(c), name, "holds a value in a column with no scenario name in its header; name the scenario in the header row or clear the cell")
		case raw != "" && name == "":
			r.fail(at(0), "", "the row has values but no input name in column A")
			return
		case raw == "" && ref.last != "":
			// A reference to an empty cell: a spreadsheet reads 0 there,
			// which no one means; the scenario keeps the Assumptions' value.
			r.warnings = append(r.warnings, diag.Warningf(at(c), out[s].Name,
				"%s refers to %s, which is empty, so the scenario keeps %s's value from Assumptions; type a number in %s, or in this cell",
				name, ref.last, name, ref.last))
		case raw != "":
			r.scenarioValue(&out[s], name, raw, kinds, at(c))
			if ref.first != "" {
				if out[s].Links == nil {
					out[s].Links = map[string]string{}
				}
				out[s].Links[name] = ref.first
			}
		case isScenario && name != "":
			r.formulaWithoutValue(at(c), name)
		}
	}
}

// scenarioValue reads one scenario cell by the kind and unit of its input.
func (r *reader) scenarioValue(s *domain.Scenario, name, raw string, inputs map[string]domain.Input, at diag.Origin) {
	if strings.EqualFold(name, "notes") {
		s.Notes = raw
		return
	}
	in, ok := inputs[name]
	s.Where[name] = at
	if name == domain.Currency {
		r.fail(at, s.Name, "sets the currency, which is the workbook's, one for every scenario; set it in %s and clear this cell", schema.Assumptions.Name)
		return
	}
	switch {
	case !ok || in.Value.IsText:
		// Unknown names are reported by the engine, with a suggestion.
		s.Set[name] = domain.Text(raw)
		if v, isNum := parseNumber(raw); isNum && !ok {
			// gpu_watts, which the GPUs sheet gives, has its band too.
			if r.plausible(at, name, name, "", v) {
				s.Set[name] = domain.Num(v)
			}
		}
	default:
		v, isNum := parseNumber(raw)
		if !isNum {
			r.fail(at, name, "%q is not a number; the scenario %s needs a number for %s here, or an empty cell to keep the Assumptions' value", raw, s.Name, name)
			return
		}
		if !r.checkNotDate(at, name, example("value", name)) {
			return
		}
		if msg := domain.CheckInput(r.cur, name, v, in.Unit); msg != "" {
			r.fail(at, name, "%s", msg)
			return
		}
		if r.plausible(at, name, name, in.Unit, v) {
			s.Set[name] = domain.Num(v)
		}
	}
}

// correlations reads the rank correlations between uncertain inputs.
func (r *reader) correlations() []domain.Correlation {
	t := r.table(schema.Correlations)
	if t == nil {
		return nil
	}
	var out []domain.Correlation
	t.each(func(row int) {
		a, at := t.get(row, "a")
		b, _ := t.get(row, "b")
		if a == "" || b == "" {
			r.fail(at, "", "a correlation needs two inputs; fill both or clear the row")
			return
		}
		rho, ok := t.number(row, "rho", a+" and "+b, true)
		if ok {
			_, rat := t.get(row, "rho")
			notes, _ := t.get(row, "notes")
			out = append(out, domain.Correlation{A: a, B: b, Rho: rho, Notes: notes, Origin: rat})
		}
	})
	return out
}
