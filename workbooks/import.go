package workbooks

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/internal/safefile"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/inputsheets"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/schema"
)

// Imported is what ImportBenchmarks made: the workbook's bytes to save
// (nil when every point was there already), the sheet it wrote, how many
// points it added and how many it found there already, and what is worth
// telling the user.
type Imported struct {
	Data     []byte
	Sheet    string
	Added    int
	Present  int
	Warnings diag.Diagnostics
	// Original is the file as read, which Save checks is still there
	// before it replaces it.
	Original safefile.Original
}

// ImportBenchmarks returns the workbook at path with points added to its
// Benchmarks sheet (created when it has none), after the rows it holds;
// a point the sheet holds already, figure for figure, is not added again.
// Only the Benchmarks sheet changes: every other part of the workbook is
// kept as eval keeps it. The sheet's rows are written back as values, so
// a row planner cannot read is refused rather than lost.
func ImportBenchmarks(path string, points []domain.Benchmark) (Imported, error) {
	b, err := ReadAsIs(path)
	if err != nil {
		return Imported{}, err
	}
	in := Imported{Sheet: b.inputs.Of(schema.Benchmarks.Name), Original: b.file}
	if !b.has(schema.Assumptions.Name) {
		return in, fmt.Errorf("%s: has no sheet %s, so it is not a plan planner keeps; %s", path, schema.Assumptions.Name, b.initAdvice())
	}
	if err := b.benchmarksWritable(in.Sheet); err != nil {
		return in, err
	}
	rows := b.Model.Benchmarks
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Key()] = true
	}
	for _, p := range inOrder(points) {
		p = asWritten(p)
		if seen[p.Key()] {
			in.Present++
			continue
		}
		seen[p.Key()] = true
		rows = append(rows, p)
		in.Added++
	}
	if in.Added == 0 {
		return in, nil
	}
	g := inputsheets.Benchmarks(b.inputs, rows)
	adding := 0
	if !b.hasFold(in.Sheet) {
		adding = 1
		if ooxml.StructureLocked(b.data) {
			return in, fmt.Errorf("%s: the workbook's structure is protected, which forbids adding sheets, and planner import adds the sheet %s; %s, run the import again, then protect it again",
				path, in.Sheet, unprotect)
		}
	}
	if in.Data, in.Warnings, err = build(path, b.data, []string{g.Sheet()}, slices.Values([]*grid.Grid{g}), adding, nil); err != nil {
		return in, err
	}
	return in, nil
}

// benchmarksWritable refuses to rewrite a Benchmarks sheet that holds a
// row planner cannot read, or that is a sheet of the user's of that name.
func (b *Book) benchmarksWritable(sheet string) error {
	var problems diag.Diagnostics
	for _, p := range b.Problems {
		if at, ok := p.(interface{ Place() diag.Origin }); ok && at.Place().Sheet == sheet {
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: the %s sheet has rows planner cannot read, which importing would lose; fix them first:\n%w", b.Path, sheet, problems.Err())
	}
	if !b.has(schema.Benchmarks.Name) {
		return nil
	}
	for _, w := range b.Warnings {
		if at, ok := w.(interface{ Place() diag.Origin }); ok && at.Place().Sheet == sheet && at.Place().Row == 0 {
			return fmt.Errorf("%s: has a sheet %s of its own, without planner's columns (%s); rename it, and planner import adds its own", b.Path, sheet, schema.Benchmarks.Keys())
		}
	}
	return nil
}

// asWritten is the point as the sheet holds it once written: every
// figure to the digits a cell keeps (grid.Number), so that a point read
// back compares equal to the one imported.
func asWritten(p domain.Benchmark) domain.Benchmark {
	r := func(v float64) float64 {
		if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return v
		}
		out, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
		return out
	}
	p.Concurrency, p.RequestRate, p.OutputTokens, p.TotalTokens = r(p.Concurrency), r(p.RequestRate), r(p.OutputTokens), r(p.TotalTokens)
	for i := range p.TTFT {
		p.TTFT[i], p.TPOT[i], p.ITL[i] = r(p.TTFT[i]), r(p.TPOT[i]), r(p.ITL[i])
	}
	return p
}

// inOrder are the points as the sheet lists the ones it adds: curve by
// curve, each along its load, whatever order the files came in.
func inOrder(points []domain.Benchmark) []domain.Benchmark {
	out := slices.Clone(points)
	slices.SortStableFunc(out, func(a, b domain.Benchmark) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.GPU), strings.ToLower(b.GPU)), cmp.Compare(strings.ToLower(a.Model), strings.ToLower(b.Model)),
			cmp.Compare(strings.ToLower(a.Precision), strings.ToLower(b.Precision)), cmp.Compare(a.Cards, b.Cards),
			cmp.Compare(a.Concurrency, b.Concurrency), cmp.Compare(a.RequestRate, b.RequestRate))
	})
	return out
}
