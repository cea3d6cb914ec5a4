package workbooks

import (
	"fmt"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/workbooks/internal/schema"
)

// latencyKeys are the Benchmarks columns of each latency, at each of
// domain.Percentiles in turn.
var latencyKeys = map[string][3]string{
	"ttft": {"ttft50", "ttft90", "ttft99"},
	"tpot": {"tpot50", "tpot90", "tpot99"},
	"itl":  {"itl50", "itl90", "itl99"},
}

// benchmarks reads the Benchmarks sheet: one measured point a row.
func (r *reader) benchmarks() []domain.Benchmark {
	t := r.table(schema.Benchmarks)
	if t == nil {
		return nil
	}
	var out []domain.Benchmark
	t.each(func(row int) {
		if b, ok := r.benchmark(t, row); ok {
			out = append(out, b)
		}
	})
	return out
}

// benchmark reads one row of Benchmarks; false after a problem was
// reported.
func (r *reader) benchmark(t *table, row int) (domain.Benchmark, bool) {
	b := domain.Benchmark{Where: t.where(row)}
	b.GPU, b.Origin = t.get(row, "gpu")
	b.Model, _ = t.get(row, "model")
	b.Precision, _ = t.get(row, "precision")
	b.Source, _ = t.get(row, "source")
	b.Date, _ = t.get(row, "asof")
	if b.GPU == "" || b.Model == "" || b.Precision == "" {
		r.fail(b.Origin, "", "a benchmark needs a GPU, a model and a precision; fill them or clear the row")
		return b, false
	}
	name := b.Model + " on " + b.GPU
	cards, ok := r.whole(t, row, "cards", name, maxCards, "cards per replica")
	if ok && cards == 0 {
		_, at := t.get(row, "cards")
		r.fail(at, name, "a benchmark needs the cards per replica it was measured on; type them")
		ok = false
	}
	b.Cards = cards
	all := ok
	read := func(key string, required bool) float64 {
		v, ok := r.positive(t, row, key, name, required)
		all = all && ok
		return v
	}
	b.Concurrency, b.RequestRate = read("concurrency", false), read("rate", false)
	b.OutputTokens, b.TotalTokens = read("tokens", true), read("total", false)
	for i := range domain.Percentiles {
		b.TTFT[i], b.TPOT[i], b.ITL[i] = read(latencyKeys["ttft"][i], false), read(latencyKeys["tpot"][i], false), read(latencyKeys["itl"][i], false)
	}
	if all && b.Concurrency == 0 && b.RequestRate == 0 {
		_, at := t.get(row, "concurrency")
		r.fail(at, name, "a benchmark needs its load: type the concurrency, or the request rate per second where it gives none")
		return b, false
	}
	return b, all
}

// deploymentTargets reads a deployment's latency targets and, when it
// gives any, the tokens per second one replica serves at them from the
// matching Benchmarks curve (see domain.Curve.At), or 0 when it gives
// none; false after a problem was reported.
func (r *reader) deploymentTargets(t *table, row int, m *domain.Model, d *domain.Deployment) (float64, bool) {
	ttft, ok1 := r.positive(t, row, "ttfttarget", d.Name, false)
	tpot, ok2 := r.positive(t, row, "tpottarget", d.Name, false)
	if !ok1 || !ok2 {
		return 0, false
	}
	raw, pctAt := t.get(row, "percentile")
	pct := domain.DefaultPercentile
	if raw != "" {
		i, ok := domain.PercentileAt(raw)
		if !ok {
			r.fail(pctAt, d.Name, "the latency percentile %q is not one planner reads; type %s, or leave it empty for p99", raw, diag.ListOr(domain.Percentiles))
			return 0, false
		}
		pct = domain.Percentiles[i]
	}
	d.Targets = domain.Targets{TTFT: ttft, TPOT: tpot, Percentile: pct}
	if !d.Targets.Given() {
		return 0, true
	}
	at := targetCell(t, row, d.Targets)
	if per, perAt := t.get(row, "tokens"); per != "" {
		r.fail(perAt, d.Name, "the deployment gives both its tokens per second per replica and latency targets; clear the tokens per second to read them from the Benchmarks sheet at the targets, or clear the targets")
		return 0, false
	}
	curve, err := r.curveOf(m, d)
	if err != nil {
		r.fail(at, d.Name, "%s", err)
		return 0, false
	}
	op, err := curve.At(d.Targets)
	if err != nil {
		r.fail(at, d.Name, "%s", err)
		return 0, false
	}
	if op.Capped {
		r.warnings = append(r.warnings, diag.Warningf(at, d.Name,
			"every measured %s from %s to %s meets the targets (%s), so planner takes the highest, %s, at %s tokens a second a replica, and does not extrapolate beyond it; measure higher loads to find where the targets bind",
			op.Load, plain(op.From), plain(op.To), op.Targets.Words(), plain(op.At), plain(op.Tokens)))
	}
	d.Operating = &op
	if d.Cards == 0 {
		d.Cards = op.Used[0].Cards
	}
	return op.Tokens, true
}

// targetCell is where a message about a deployment's targets belongs: its
// TTFT target's cell, else its TPOT target's.
func targetCell(t *table, row int, tg domain.Targets) diag.Origin {
	if tg.TTFT > 0 {
		_, at := t.get(row, "ttfttarget")
		return at
	}
	_, at := t.get(row, "tpottarget")
	return at
}

// curveOf is the Benchmarks curve of the deployment's model on its GPU, at
// its precision (the model's own when it names none) and cards per replica
// (any one the curve has when it types none).
func (r *reader) curveOf(m *domain.Model, d *domain.Deployment) (domain.Curve, error) {
	precision := d.Precision
	if precision == "" {
		if spec, ok := m.ModelSpec(d.Model); ok {
			precision = spec.Precision
		}
	}
	var points []domain.Benchmark
	cards := map[int]bool{}
	for _, b := range m.Benchmarks {
		if domain.SameGPU(b.GPU, d.GPU) && strings.EqualFold(strings.TrimSpace(b.Model), strings.TrimSpace(d.Model)) &&
			(precision == "" || strings.EqualFold(b.Precision, precision)) && (d.Cards == 0 || b.Cards == d.Cards) {
			points = append(points, b)
			cards[b.Cards] = true
		}
	}
	what := d.Model + " on " + d.GPU
	if precision != "" {
		what += " at " + precision
	}
	if d.Cards > 0 {
		what += " with " + plain(float64(d.Cards)) + " cards per replica"
	}
	if len(points) == 0 {
		return domain.Curve{}, fmt.Errorf("the Benchmarks sheet has no measured point of %s; import a sweep with %s, or type the tokens per second per replica instead of the targets",
			what, Command("import", "bench", "FILE", "--into", r.file))
	}
	if len(cards) > 1 {
		var list []string
		for _, b := range points {
			if cards[b.Cards] {
				list, cards[b.Cards] = append(list, plain(float64(b.Cards))), false
			}
		}
		return domain.Curve{}, fmt.Errorf("the Benchmarks sheet measures %s at %s cards per replica; type the cards per replica of the deployment to choose one curve",
			what, diag.ListAnd(list))
	}
	return domain.CurveOf(points)
}
