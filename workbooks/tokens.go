package workbooks

import (
	"math"
	"strconv"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/units"
	"planner/workbooks/internal/schema"
)

// maxReplicas is the most replicas planner costs for one deployment, and
// maxCards the most cards per replica.
const (
	maxReplicas = 1e6
	maxCards    = 1e6
)

// deploymentTokens reads a deployment's throughput, peak demand, token mix
// and API, and the replicas demand asks for when the replicas cell is
// empty; false after a problem was reported.
func (r *reader) deploymentTokens(t *table, row int, m *domain.Model, d *domain.Deployment) bool {
	per, ok1 := r.positive(t, row, "tokens", d.Name, false)
	peak, ok2 := r.positive(t, row, "peak", d.Name, false)
	mixOK := r.mix(t, row, d)
	if !ok1 || !ok2 || !mixOK {
		return false
	}
	if measured, ok := r.deploymentTargets(t, row, m, d); !ok {
		return false
	} else if d.Operating != nil {
		per = measured
	}
	d.API, _ = t.get(row, "api")
	d.TokensPerReplica, d.PeakTokens = per, peak
	_, peakAt := t.get(row, "peak")
	_, replicasAt := t.get(row, "replicas")
	switch {
	case peak > 0 && per == 0:
		_, perAt := t.get(row, "tokens")
		r.fail(peakAt, d.Name, "a peak of %s tokens a second needs the tokens per second one replica serves, to know the replicas; type them in %s, or clear the peak",
			plain(peak), cellOrColumn(t, "tokens", perAt))
		return false
	case peak > 0 && d.Replicas == 0:
		// As the Deployment costs sheet's ROUNDUP: 3008.4 ÷ 1002.8 is 3.
		n := units.CeilAsSpreadsheets(peak / per)
		if n > maxReplicas {
			r.fail(peakAt, d.Name, "a peak of %s tokens a second at %s a replica needs %s replicas, more than the %s planner costs; check the peak and the tokens per second",
				plain(peak), plain(per), plain(n), plain(maxReplicas))
			return false
		}
		d.Replicas, d.FromDemand = int(n), true
	case peak > 0 && float64(d.Replicas) < units.CeilAsSpreadsheets(peak/per):
		r.warnings = append(r.warnings, diag.Warningf(replicasAt, d.Name,
			"%d replicas serve %s tokens a second, less than the peak of %s; clear the replicas to have planner take %s from the peak, or type that many",
			d.Replicas, plain(units.AsSpreadsheets(float64(d.Replicas)*per)), plain(peak), plain(units.CeilAsSpreadsheets(peak/per))))
	}
	d.Replicas = max(d.Replicas, 1)
	return true
}

// cellOrColumn names where a value belongs: the column's header when the
// sheet has it, else the column to add.
func cellOrColumn(t *table, key string, at diag.Origin) string {
	if _, ok := t.cols[key]; ok {
		return at.Cell()
	}
	return "a column headed tokens per second per replica"
}

// mix reads the input:output token mix ("3:1"), or input:cached input:
// output ("2:1:1"); false after a problem was reported.
func (r *reader) mix(t *table, row int, d *domain.Deployment) bool {
	raw, at := t.get(row, "mix")
	if raw == "" {
		return true
	}
	bad := func(why string) bool {
		r.fail(at, d.Name, "the token mix %q %s; type it as input:output, such as 3:1, or as input:cached input:output, such as 2:1:1", raw, why)
		return false
	}
	if _, err := strconv.ParseFloat(raw, 64); err == nil {
		// A spreadsheet takes 3:1 typed in a cell for a time of day.
		r.fail(at, d.Name, "the token mix reads as the number %s, which is how a spreadsheet stores 3:1 typed as a time of day; format the cell as text and type the mix again, or type it as '3:1", raw)
		return false
	}
	parts := strings.Split(raw, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return bad("is not two or three numbers apart by colons")
	}
	var v []float64
	sum := 0.0
	for _, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return bad("has a part that is not a number of zero or more")
		}
		v = append(v, x)
		sum += x
	}
	if sum <= 0 {
		return bad("has no tokens")
	}
	d.Mix = strings.Join(strings.Fields(raw), "")
	if len(v) == 2 {
		d.MixIn, d.MixOut = v[0], v[1]
	} else {
		d.MixIn, d.MixCached, d.MixOut = v[0], v[1], v[2]
	}
	return true
}

// apis reads the APIs sheet: one hosted model's prices per row.
func (r *reader) apis(m *domain.Model) []domain.API {
	t := r.table(schema.APIs)
	if t == nil {
		return nil
	}
	date1904 := r.date1904()
	var out []domain.API
	t.each(func(row int) {
		a := domain.API{}
		a.Provider, a.Origin = t.get(row, "provider")
		a.Model, _ = t.get(row, "model")
		a.Source, _ = t.get(row, "source")
		if a.Provider == "" || a.Model == "" {
			r.fail(a.Origin, "", "an API needs a provider and a model; fill them or clear the row")
			return
		}
		for _, prev := range out {
			if strings.EqualFold(prev.Label(), a.Label()) {
				r.fail(a.Origin, a.Label(), "the API is listed twice (also at %s); keep one row", prev.Origin.Where())
				return
			}
		}
		in, ok1 := r.positive(t, row, "input", a.Label(), true)
		outP, ok2 := r.positive(t, row, "output", a.Label(), true)
		cached, ok3 := r.positive(t, row, "cached", a.Label(), false)
		if !ok1 || !ok2 || !ok3 {
			return
		}
		a.Input, a.Output, a.Cached = in, outP, cached
		if !r.convertAPI(t, row, m, &a) {
			return
		}
		_, a.InputAt = t.get(row, "input")
		_, a.OutputAt = t.get(row, "output")
		if _, ok := t.cols["cached"]; ok { // else the row's first cell
			_, a.CachedAt = t.get(row, "cached")
		}
		a.AsOf, _, _ = r.date(t, row, date1904)
		out = append(out, a)
	})
	return out
}

func plain(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
