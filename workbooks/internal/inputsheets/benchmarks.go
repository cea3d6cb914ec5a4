package inputsheets

import (
	"strconv"

	"planner/domain"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/schema"
)

// Benchmarks is the Benchmarks sheet holding rows, in order: what init
// writes (no rows) and what planner import bench writes (the rows read
// with the ones it adds), each measured figure a number.
func Benchmarks(n schema.Names, rows []domain.Benchmark) *grid.Grid {
	s := schema.Benchmarks
	g := newGrid(n, s)
	for i, b := range rows {
		it := item{g: g, s: s, row: i + 2}
		if serial, err := strconv.ParseFloat(b.Date, 64); err == nil {
			// A date the user typed as one: the serial it is stored as.
			it.set("asof", grid.Number(serial, grid.WithFormat(grid.StyleInput, "yyyy-mm-dd")))
		} else if b.Date != "" {
			it.set("asof", grid.Text(b.Date, grid.StyleInput))
		}
		for key, text := range map[string]string{"gpu": b.GPU, "model": b.Model, "precision": b.Precision, "source": b.Source} {
			if text != "" {
				it.set(key, grid.Text(text, grid.StyleInput))
			}
		}
		number := func(key string, v float64, format string) {
			if v > 0 {
				it.set(key, grid.Number(v, grid.WithFormat(grid.StyleInput, format)))
			}
		}
		number("cards", float64(b.Cards), "0")
		number("concurrency", b.Concurrency, "#,##0.##")
		number("rate", b.RequestRate, "#,##0.##")
		number("tokens", b.OutputTokens, "#,##0.0")
		number("total", b.TotalTokens, "#,##0.0")
		for p := range domain.Percentiles {
			number(latencyKey("ttft", p), b.TTFT[p], "#,##0.00")
			number(latencyKey("tpot", p), b.TPOT[p], "#,##0.00")
			number(latencyKey("itl", p), b.ITL[p], "#,##0.00")
		}
	}
	for _, key := range []string{"gpu", "model", "precision"} {
		if dv := declared(n, s, len(rows)+1+100, key); dv != nil {
			g.Validate(dv)
		}
	}
	return g
}

// latencyKey is the Benchmarks column of a latency ("ttft", "tpot", "itl")
// at the percentile domain.Percentiles[p]: "ttft99".
func latencyKey(latency string, p int) string { return latency + domain.Percentiles[p][1:] }
