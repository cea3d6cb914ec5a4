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
// is planner's choice, made when eval ran; the sheet says which.
func operatingLinks(links map[string]string, d deploy.Result, cell func(string) string) {
	op := d.Operating
	ttftKey, tpotKey := "ttft"+op.Percentile[1:], op.TPOTFrom+op.Percentile[1:]
	ref := func(b domain.Benchmark, key string) (string, bool) {
		at, ok := b.Where[key]
		if !ok || at.Sheet == "" {
			return "", false
		}
		return cellRef(at), true
	}
	loadKey := "concurrency"
	if op.Load == domain.LoadRequestRate {
		loadKey = "rate"
	}
	lo := op.Used[0]
	if op.Capped {
		for name, key := range map[string]string{view.OperatingLoad: loadKey, view.TokensPerSecond: "output", view.OperatingTTFT: ttftKey, view.OperatingTPOT: tpotKey} {
			if r, ok := ref(lo, key); ok {
				links[name] = r
			}
		}
		return
	}
	hi := op.Used[1]
	pair := func(key string) (string, string, bool) {
		a, ok1 := ref(lo, key)
		b, ok2 := ref(hi, key)
		return a, b, ok1 && ok2
	}
	l0, l1, ok := pair(loadKey)
	if !ok {
		return
	}
	shares := []string{"1"}
	for _, t := range []struct {
		key, target string
		limit       float64
	}{{ttftKey, "ttfttarget", op.Targets.TTFT}, {tpotKey, "tpottarget", op.Targets.TPOT}} {
		if t.limit <= 0 {
			continue
		}
		x0, x1, ok := pair(t.key)
		at, typed := d.Where[t.target]
		if !ok || !typed || at.Sheet == "" {
			return
		}
		target := cellRef(at)
		shares = append(shares, fmt.Sprintf("IF(%s>%s,(%s-%s)/(%s-%s),1)", x1, target, target, x0, x1, x0))
	}
	links[view.OperatingLoad] = fmt.Sprintf("%s+MIN(%s)*(%s-%s)", l0, strings.Join(shares, ","), l1, l0)
	along := func(key string) string {
		a, b, ok := pair(key)
		if !ok {
			return ""
		}
		return fmt.Sprintf("%s+(%s-%s)/(%s-%s)*(%s-%s)", a, cell(view.OperatingLoad), l0, l1, l0, b, a)
	}
	links[view.TokensPerSecond] = along("output")
	links[view.OperatingTTFT] = along(ttftKey)
	links[view.OperatingTPOT] = along(tpotKey)
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
		g.Line(row, grid.Text(d.Name, grid.StyleLabel), grid.Text(op.Targets.Words(), grid.StyleLabel), grid.Text(op.Load, grid.StyleLabel))
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
