package sheets

import (
	"fmt"
	"strings"

	"planner/deploy"
	"planner/domain"
	"planner/view"
	"planner/workbooks/internal/grid"
)

// operatingLinks are the formulas of a row's operating point, over the
// Benchmarks cells of the two measured points it lies between and the
// deployment's targets in Deployments: the load where the binding latency
// reaches its target, linear between them, and the tokens per second and
// latencies at that load, linear between the same points. Which two points
// is planner's choice, made when eval ran: once the targets or the points
// change so that they no longer bracket the targets (the first meets them,
// the second does not), the load is #N/A and the points' cell says to run
// eval again, rather than a figure read off the wrong points.
func operatingLinks(links map[string]string, d deploy.Result, cell func(string) string) {
	op := d.Operating
	if words := targetsLink(d); words != "" {
		links[view.LatencyTargets] = words
	}
	ttftKey, tpotKey := "ttft"+op.Percentile[1:], op.TPOTFrom+op.Percentile[1:]
	loadKey := "concurrency"
	if op.Load == domain.LoadRequestRate {
		loadKey = "rate"
	}
	refs := func(key string) ([]string, bool) {
		var out []string
		for _, b := range op.Used {
			at, ok := b.Where[key]
			if !ok || at.Sheet == "" {
				return nil, false
			}
			out = append(out, cellRef(at))
		}
		return out, true
	}
	load, ok := refs(loadKey)
	if !ok {
		return
	}
	var meets, breaks, shares []string
	for _, t := range []struct {
		key, target string
		limit       float64
	}{{ttftKey, "ttfttarget", op.Targets.TTFT}, {tpotKey, "tpottarget", op.Targets.TPOT}} {
		if t.limit <= 0 {
			continue
		}
		x, ok := refs(t.key)
		at, typed := d.Where[t.target]
		if !ok || !typed || at.Sheet == "" {
			return
		}
		target := cellRef(at)
		meets = append(meets, x[0]+"<="+target)
		if !op.Capped {
			breaks = append(breaks, x[1]+">"+target)
			shares = append(shares, fmt.Sprintf("IF(%s>%s,(%s-%s)/(%s-%s),1)", x[1], target, target, x[0], x[1], x[0]))
		}
	}
	valid := "AND(" + strings.Join(meets, ",") + ")"
	at := load[0]
	if !op.Capped {
		valid = "AND(" + strings.Join(meets, ",") + ",OR(" + strings.Join(breaks, ",") + "))"
		at = fmt.Sprintf("%s+MIN(%s)*(%s-%s)", load[0], strings.Join(shares, ","), load[1], load[0])
	}
	links[view.OperatingLoad] = fmt.Sprintf("IF(%s,%s,NA())", valid, at)
	links[view.BenchmarkPoints] = fmt.Sprintf("IF(%s,%s,%s)", valid, excelString(op.Points()),
		excelString("the targets or these points changed: run planner eval to read the curve again ("+op.Points()+")"))
	along := func(key string) string {
		x, ok := refs(key)
		if !ok {
			return ""
		}
		if op.Capped {
			return fmt.Sprintf("IF(ISNUMBER(%s),%s,NA())", cell(view.OperatingLoad), x[0])
		}
		return fmt.Sprintf("%s+(%s-%s)/(%s-%s)*(%s-%s)", x[0], cell(view.OperatingLoad), load[0], load[1], load[0], x[1], x[0])
	}
	links[view.TokensPerSecond] = along("tokens")
	links[view.OperatingTTFT] = along(ttftKey)
	links[view.OperatingTPOT] = along(tpotKey)
}

// targetsLink is the targets in words as a live formula over the
// Deployments cells that give them (domain.Targets.Words); "" where a
// target has no cell.
func targetsLink(d deploy.Result) string {
	ref := func(key string) (string, bool) {
		at, ok := d.Where[key]
		return cellRef(at), ok && at.Sheet != ""
	}
	var parts []string
	for _, t := range []struct {
		key, name string
		limit     float64
	}{{"ttfttarget", "ttft", d.Targets.TTFT}, {"tpottarget", "tpot", d.Targets.TPOT}} {
		if t.limit <= 0 {
			continue
		}
		r, ok := ref(t.key)
		if !ok {
			return ""
		}
		parts = append(parts, fmt.Sprintf(`"%s ≤ "&%s&" ms"`, t.name, r))
	}
	pct := `"` + d.Targets.Percentile + `"`
	if r, ok := ref("percentile"); ok {
		pct = fmt.Sprintf(`IF(%s="","%s",IF(LEFT(LOWER(%s),1)="p",LOWER(%s),"p"&%s))`, r, domain.DefaultPercentile, r, r, r)
	}
	return strings.Join(parts, `&" and "&`) + `&" at "&` + pct
}

// operatingSection lists, on Results, the operating point of every
// deployment that reads its throughput from the Benchmarks sheet: its
// targets, the load, the tokens per second and latencies there, and the
// points read. The numbers are Deployment costs' cells, where they are
// live; nothing is written when no deployment gives latency targets.
func operatingSection(g *grid.Grid, out Output, notesCol int) {
	ds := view.DeploymentsOf(out.Deployments, out.currency())
	cols := costColumns(ds.Figures)
	var rows []int
	for i, d := range ds.All {
		if d.Operating != nil {
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		return
	}
	pointsCol := max(notesCol, firstValue+4)
	row := g.Next() + 1
	g.Line(row, grid.Text("Operating points: each deployment's tokens per second at its latency targets, from the Benchmarks sheet", grid.StyleSection))
	row++
	g.Line(row, grid.Headers("deployment", "latency targets", "load", "at", "tokens/s", "ttft ms", "tpot ms")...)
	g.Set(pointsCol, row, grid.Text("benchmark points read", grid.StyleHeader))
	for _, i := range rows {
		d := ds.All[i]
		op := d.Operating
		row++
		costs := func(name string) string { return grid.Absolute(DeploymentCosts, cols[name], HeaderRow+1+i) }
		targets := grid.Text(op.Targets.Words(), grid.StyleLabel)
		if d.Costed() {
			targets = grid.Linked(targets, costs(view.LatencyTargets))
		}
		g.Line(row, grid.Text(d.Name, grid.StyleLabel), targets, grid.Text(op.Load, grid.StyleLabel))
		for k, f := range []struct {
			name   string
			v      float64
			format string
		}{{view.OperatingLoad, op.At, "#,##0.0#"}, {view.TokensPerSecond, op.Tokens, "#,##0.0"}, {view.OperatingTTFT, op.TTFT, "#,##0.0"}, {view.OperatingTPOT, op.TPOT, "#,##0.0"}} {
			c := grid.Number(f.v, grid.WithFormat(grid.StyleResult, f.format))
			if d.Costed() {
				c = grid.Linked(c, costs(f.name))
			}
			g.Set(firstValue+k, row, c)
		}
		note := op.Points()
		if op.Capped {
			note += "; every measured load meets the targets: the highest stands, not extrapolated"
		}
		g.Note(pointsCol, row, note)
	}
}
