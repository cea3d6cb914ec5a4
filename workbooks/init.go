package workbooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/domain"
	"planner/internal/safefile"
	"planner/units"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/inputsheets"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/schema"
	"planner/workbooks/internal/sheets"
)

// Initialized is what Init made: the workbook's bytes, the sheets it
// added, in order, and what is worth telling the user (a sheet of the
// user's that planner adopted, or named its own beside; a Strict workbook
// written back as Transitional).
type Initialized struct {
	Data     []byte
	Sheets   []string
	Warnings diag.Diagnostics
	// Original is the file as read (none for a new workbook), which Save
	// checks is still there before it replaces it.
	Original safefile.Original
}

// Init returns the workbook at path with planner's input sheets added, in
// the currency cur (its input currency, its money cells' formats and its
// units): a new workbook when there is no file, or the user's own workbook
// plus planner's sheets when there is one. It never replaces a sheet or a
// defined name that exists.
func Init(path string, cur units.Currency) (Initialized, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		m := defaultModelIn(cur)
		grids := inputsheets.Input(m, nil, defaultCells)
		data, err := initNew(path, grids, pricesDated(m))
		return Initialized{Data: data, Sheets: sheetNames(grids), Warnings: dollarFigures(path, cur)}, err
	}
	data, was, err := load(path)
	if err != nil {
		return Initialized{Original: was}, err
	}
	in, err := initInto(path, data, cur)
	in.Original = was
	if err == nil {
		in.Warnings = append(in.Warnings, dollarFigures(path, cur)...)
	}
	return in, err
}

// initInto adds planner's input sheets to the workbook data, read from path.
func initInto(path string, data []byte, cur units.Currency) (in Initialized, err error) {
	// excelize panics on some damaged packages; that is an error here, and
	// nothing is written.
	defer func() {
		if r := recover(); r != nil {
			in, err = Initialized{}, &panicked{fmt.Sprintf("%s: cannot be given planner's sheets without risk to it (%v); nothing was written: open it in Excel or LibreOffice, save it again, and run planner init again", path, r)}
		}
	}()
	if ooxml.StructureLocked(data) {
		return Initialized{}, refuseLockedStructure(path, "init", nil)
	}
	plan, err := initPlan(path, data)
	if err != nil {
		return Initialized{}, err
	}
	grids := plan.grids(cur)
	check := func(f *excelize.File) error { return clashes(path, f, grids) }
	out, warnings, err := build(path, data, sheetNames(grids), slices.Values(grids), len(grids), check)
	if err != nil {
		return Initialized{}, err
	}
	return Initialized{Data: out, Sheets: sheetNames(grids), Warnings: append(inputNotes(path, plan.notes), warnings...)}, nil
}

// initPlan decides how init lays out the input sheets in the workbook data,
// read from path (see planInputs), and refuses a workbook that has
// planner's input sheets already.
func initPlan(path string, data []byte) (inputPlan, error) {
	h, _, inputs, _, err := openInputs(path, data)
	if err != nil {
		// Building says what is wrong, as adding sheets is concerned.
		return inputPlan{names: schema.Names{}, adopted: map[string]bool{}}, nil
	}
	defer h.Close()
	if s, ok := inputs[schema.Assumptions.Name]; ok {
		if _, planners := plannersHeader(h.File, s, schema.Assumptions.Name); planners {
			return inputPlan{}, fmt.Errorf("%s: has planner's input sheets already (%s, with planner's header row); init adds them only to a workbook without them: run %s",
				path, s, Command("eval", path))
		}
	}
	return planInputs(h.File), nil
}

// grids are the input sheets the plan writes in the currency cur, in
// order: every one but those it adopts, each under its name, a renamed one
// carrying its name.
func (p inputPlan) grids(cur units.Currency) []*grid.Grid {
	var out []*grid.Grid
	for i, g := range inputsheets.Input(defaultModelIn(cur), p.names, defaultCells) {
		input := schema.InputNames()[i]
		switch {
		case p.adopted[input]:
			continue
		case g.Sheet() != input:
			g.Name(schema.CarriedName(input), 1, 1)
		}
		out = append(out, g)
	}
	return out
}

// defaultModelIn is the default model in the currency cur: its input
// currency names it. Its prices stay the defaults' figures, which are US
// dollars (see dollarFigures).
func defaultModelIn(cur units.Currency) domain.Model {
	m := DefaultModel()
	if cur.IsUSD() {
		return m
	}
	m.Currency = cur
	m.Inputs = slices.Clone(m.Inputs)
	for i, in := range m.Inputs {
		if in.Name == domain.Currency {
			m.Inputs[i].Value = domain.Text(cur.Code())
		}
	}
	return m
}

// dollarFigures warns that a workbook init writes in another currency than
// US dollars holds the article's figures, which are dollars: planner
// converts none of them, so each means as many of the workbook's currency
// until the user types their own.
func dollarFigures(path string, cur units.Currency) diag.Diagnostics {
	if cur.IsUSD() {
		return nil
	}
	code := cur.Code()
	return diag.Diagnostics{diag.Warningf(diag.Origin{File: path}, "",
		"the workbook is in %s, but its prices and amounts are the article's US dollar figures, not converted (capex, the electricity price and the rest of %s, every price of %s): "+
			"type your own in %s over them; an offer you keep at its dollar price needs USD in its %s cell on %s and a row of %s for USD, its rate in %s per US dollar",
		code, schema.Assumptions.Name, schema.Cloud.Name, code, schema.Cloud.Column("currency").Header, schema.Cloud.Name, schema.FX.Name, code)}
}

// sheetNames are the grids' sheets, in order.
func sheetNames(grids []*grid.Grid) []string {
	var out []string
	for _, g := range grids {
		out = append(out, g.Sheet())
	}
	return out
}

// panicked is an error excelize raised as a panic, which planner caught.
type panicked struct{ msg string }

func (p *panicked) Error() string { return p.msg }

// initNew writes a new workbook dated as of its prices, not of the clock:
// init gives the same bytes on any day, and the prices' age is measured
// from the day they were listed until someone saves the workbook.
func initNew(path string, grids []*grid.Grid, dated string) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", grids[0].Sheet()); err != nil {
		return nil, err
	}
	props := &excelize.DocProperties{Creator: "planner", Title: "planner: rent or own GPUs", Created: dated, Modified: dated}
	if err := f.SetDocProps(props); err != nil {
		return nil, err
	}
	written, _, _, err := grid.WriteForPacking(f, slices.Values(grids))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ooxml.Pack(path, f, sheetsOf(written))
}

// pricesDated is the newest as-of date of the offers, as a document date.
func pricesDated(m domain.Model) string {
	newest := ""
	for _, o := range m.Offers {
		newest = max(newest, o.AsOf)
	}
	if newest == "" {
		return ""
	}
	return newest + "T00:00:00Z"
}

// clashes refuses to add a sheet or a name the workbook already has: one
// of the sheets eval writes (the input sheets init names free of the
// user's, see planInputs), or a defined name of planner's. Excel compares
// sheet names without case.
func clashes(path string, f *excelize.File, grids []*grid.Grid) error {
	var problems []string
	for _, have := range f.GetSheetList() {
		for _, want := range sheets.OwnedNames() {
			if strings.EqualFold(have, want) {
				problems = append(problems, "a sheet called "+have)
			}
		}
	}
	names := map[string]bool{}
	for _, dn := range f.GetDefinedName() {
		names[strings.ToLower(dn.Name)] = true
	}
	for _, g := range grids {
		for _, n := range g.Names() {
			if names[strings.ToLower(n)] {
				problems = append(problems, "a defined name "+n)
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: already has %s, which planner writes itself, and planner init changes nothing of yours: rename yours, or init a new file",
			path, diag.ListAnd(problems))
	}
	return nil
}
