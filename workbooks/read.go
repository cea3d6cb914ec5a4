package workbooks

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/domain"
	"planner/formulas"
	"planner/internal/safefile"
	"planner/montecarlo"
	"planner/units"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/schema"
	"planner/workbooks/internal/sheets"
)

// Book is a workbook as planner read it: the model, and what it needs to
// write the workbook back safely.
type Book struct {
	Path     string
	Model    domain.Model
	Sheets   []string         // every sheet, in workbook order
	Warnings diag.Diagnostics // things worth telling the user that do not stop a run
	// Problems are what stops the workbook being evaluated, each at its
	// cell; only ReadAsIs returns a book with any, its model holding what
	// could be read (a row with a problem left out).
	Problems diag.Diagnostics
	// Computed maps each of planner's sheets to the fingerprint of the
	// inputs it was computed from, as its provenance line says.
	Computed map[string]string
	// Names are the workbook-scoped defined names as read.
	Names   map[string]DefinedName
	data    []byte            // the file as read, byte for byte
	file    safefile.Original // the file as read, for a save to check against
	inputs  schema.Names      // where each input sheet the workbook has is
	owned   map[string]bool
	foreign map[string]bool // sheets with an owned name that planner did not make
}

// Read reads the workbook at path into a model. Every problem with the
// workbook's contents is reported at once, each naming its sheet and cell.
func Read(path string) (*Book, error) { return read(path, false) }

// ReadAsIs reads what the workbook at path says even where planner cannot
// evaluate it, for show and diff: git's diff stops at a text conversion
// that fails, and the reviewer would lose the diff on the very commit
// that holds a typo. A problem with the workbook's contents is in the
// book's Problems; only a file that is not a workbook is an error.
func ReadAsIs(path string) (*Book, error) { return read(path, true) }

func read(path string, asIs bool) (*Book, error) {
	data, was, err := load(path)
	if err != nil {
		return nil, err
	}
	b, err := readBytes(path, data, asIs)
	if b != nil {
		b.file = was
	}
	return b, err
}

// ReadBytes is Read for a workbook already in memory; path names it in
// messages.
func ReadBytes(path string, data []byte) (*Book, error) { return readBytes(path, data, false) }

// ReadBytesAsIs is ReadAsIs for a workbook already in memory.
func ReadBytesAsIs(path string, data []byte) (*Book, error) { return readBytes(path, data, true) }

func readBytes(path string, data []byte, asIs bool) (*Book, error) {
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("%s: is %d MB; planner reads workbooks up to %d MB", path, len(data)>>20, maxFileBytes>>20)
	}
	if err := ooxml.Sniff(path, data); err != nil {
		return nil, err
	}
	f, sizes, inputs, lost, err := openInputs(path, data)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := &Book{Path: path, data: data, Sheets: f.GetSheetList(), inputs: inputs, owned: map[string]bool{}, foreign: map[string]bool{},
		Computed: map[string]string{}, Warnings: lostInputs(path, lost)}
	r := reader{f: f.File, view: f.Data, file: path, in: inputs, bytes: sizes, inView: map[string]bool{},
		others: &otherSheets{path: path, data: data, sizes: sizes}}
	defer r.others.close()
	for _, s := range append(schema.InputNames(), renamedInputs(inputs)...) {
		r.inView[strings.ToLower(s)] = true
	}
	if !b.has(schema.Assumptions.Name) {
		msg := fmt.Sprintf("has no sheet %s (sheets: %s); %s", inputs.Of(schema.Assumptions.Name), diag.List(b.Sheets), b.initAdvice())
		if !asIs {
			return nil, fmt.Errorf("%s: %s", path, msg)
		}
		r.fail(diag.Origin{File: path}, "", "%s", msg)
	}
	b.Model.Where = diag.Origin{File: path, Sheet: inputs.Of(schema.Assumptions.Name)}
	for _, sr := range sheetReaders {
		if b.has(sr.sheet.Name) {
			sr.read(&r, &b.Model)
		}
	}
	if !b.has(schema.Cloud.Name) {
		b.Warnings = append(b.Warnings, diag.Warningf(diag.Origin{File: path}, "", "has no sheet %s, so no cloud offer is compared", schema.Cloud.Name))
	}
	b.Model.Read = r.census()
	own, replaced := formulas.Superseded(b.Model.Formulas)
	for _, f := range replaced {
		now, _ := formulas.Builtin(f.Name)
		r.warnings = append(r.warnings, diag.Warningf(f.Origin, f.Name,
			"is the built-in formula of an earlier planner; planner now computes %s as %s, with what planner added since (the lines of owning's cost: the cost of capital, maintenance, staff, network and software; the tax rate; the prices' paths over the term; the idle watts; each zero until Assumptions gives it), and uses that: replace the expression with it, or delete the row, so that the sheet says what planner computes",
			f.Name, now.Source))
	}
	b.Model.Formulas = formulas.Merge(formulas.Library(), own)
	problems, warnings := withLaterInputs(&b.Model)
	if len(r.problems) > 0 {
		// A row planner could not read is not a row the workbook lacks:
		// taking 0 for it is moot, as nothing is computed.
		warnings = nil
	}
	r.problems, r.warnings = append(r.problems, problems...), append(r.warnings, warnings...)
	if err := r.problems.Err(); err != nil && !asIs {
		return nil, err
	}
	b.Problems = r.problems
	b.Warnings = append(b.Warnings, r.warnings...)
	b.markOwned(f.File)
	b.Names = map[string]DefinedName{}
	for _, dn := range f.GetDefinedName() {
		if dn.Scope == "Workbook" {
			b.Names[strings.ToLower(dn.Name)] = DefinedName{Name: dn.Name, RefersTo: dn.RefersTo,
				Planners: dn.Comment == grid.NameComment || b.pointsIntoOwned(dn.RefersTo)}
		}
	}
	return b, nil
}

// openInputs opens the sheets planner reads of the workbook data, read
// from path (see ooxml.ReadView): its input sheets, where their carried
// names say (see inputSheets), and its own. It returns the handle, each
// sheet's part's size unpacked by the sheet's name in lower case, where
// each input sheet is, and the input sheets whose carried names point at
// no sheet.
func openInputs(path string, data []byte) (*ooxml.Handle, map[string]uint64, schema.Names, []string, error) {
	f, sizes, err := openView(path, data, schema.InputNames())
	if err != nil {
		return nil, nil, nil, nil, err
	}
	inputs, lost := inputSheets(f.GetSheetList(), f.GetDefinedName())
	if renamed := renamedInputs(inputs); len(renamed) > 0 {
		// An input sheet under another name: a view that holds it too.
		_ = f.Close()
		if f, sizes, err = openView(path, data, append(schema.InputNames(), renamed...)); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	return f, sizes, inputs, lost, nil
}

// ownedHeads are planner's own sheets as the read handle holds them: their
// provenance rows, which say whether planner wrote them and from what
// (markOwned), and nothing more. A cell that refers into one reads it
// whole, as it reads any other sheet (otherSheets).
func ownedHeads() []ooxml.Head {
	var heads []ooxml.Head
	for _, s := range sheets.OwnedNames() {
		heads = append(heads, ooxml.Head{Sheet: s, Rows: sheets.ProvenanceRow})
	}
	return heads
}

// openView opens the named sheets of the workbook data for reading, with
// each sheet's part's size (see ooxml.ReadView).
func openView(path string, data []byte, names []string) (*ooxml.Handle, map[string]uint64, error) {
	read, sizes, err := ooxml.ReadView(path, data, names, ownedHeads()...)
	if err != nil {
		return nil, nil, err
	}
	f, err := ooxml.Open(path, read, true)
	if err != nil {
		return nil, nil, err
	}
	return f, sizes, nil
}

// initAdvice says how to give a workbook without Assumptions planner's
// sheets: init adds them to a file on disk that has none of them, and
// refuses one that has some.
func (b *Book) initAdvice() string {
	for _, have := range b.Sheets {
		for _, s := range plannersSheets() {
			if strings.EqualFold(have, s) {
				return "planner reads its inputs from a sheet called " + schema.Assumptions.Name + ": name yours so"
			}
		}
	}
	if fi, err := os.Stat(b.Path); err != nil || !fi.Mode().IsRegular() {
		return "planner reads its inputs from a sheet called " + schema.Assumptions.Name
	}
	return Command("init", b.Path) + " adds every sheet planner needs"
}

// DefinedName is a workbook-scoped name: how it is spelled, what it refers
// to, and whether planner wrote it (and so may move it). Excel compares
// names without case, so Book.Names is keyed by the lower-case name.
type DefinedName = sheets.DefinedName

func (b *Book) pointsIntoOwned(ref string) bool {
	for sheet := range b.owned {
		if strings.HasPrefix(ref, grid.Quote(sheet)+"!") {
			return true
		}
	}
	return false
}

// hasFold reports whether the workbook has the sheet, compared as Excel
// compares sheet names, without case.
func (b *Book) hasFold(sheet string) bool {
	for _, s := range b.Sheets {
		if strings.EqualFold(s, sheet) {
			return true
		}
	}
	return false
}

// has reports whether the workbook has the input sheet called input,
// under its name or another (see inputSheets).
func (b *Book) has(input string) bool {
	_, ok := b.inputs[input]
	return ok
}

// markOwned tells planner's own sheets from sheets that merely share a
// name. Excel compares sheet names without case, so "results" is the sheet
// planner would write too.
func (b *Book) markOwned(f *excelize.File) {
	for _, s := range sheets.OwnedNames() {
		for _, have := range b.Sheets {
			if !strings.EqualFold(have, s) {
				continue
			}
			mark := provenanceOf(f, have)
			if inputs, ok := sheets.Computed(mark); have == s && ok {
				b.owned[s] = true
				b.Computed[s] = inputs
			} else {
				b.foreign[have] = true
			}
		}
	}
}

// reader reads the input sheets, collecting every problem.
type reader struct {
	cur       units.Currency // the workbook's currency, which messages write amounts in
	f         *excelize.File
	file      string
	in        schema.Names               // where each input sheet is
	size      map[string]int             // rows each sheet read holds, with the empty ones
	bytes     map[string]uint64          // each sheet's part, unpacked, by lower-case name
	inView    map[string]bool            // the sheets the read handle holds, by lower-case name
	others    *otherSheets               // the other sheets, opened when a cell refers to one
	view      []byte                     // the package the read handle holds: the sheets inView, whole
	heldParts sheetParts                 // its sheets' parts, opened when a sheet's XML is asked for
	fileParts sheetParts                 // the workbook's, likewise
	xml       map[string][]byte          // the sheets' XML asked for so far
	shared    map[string]map[string]bool // per sheet (lower case), its cells whose formula is shared
	facts     map[string]sheetFacts      // per sheet (lower case), what one scan of its XML found
	follows   map[string]followedCell    // per input cell (cellKey), where its references led
	banded    map[string]bool            // the cells (cellKey) whose value a band has found fault with
	dated     map[string]bool            // the cells (cellKey) found to show a date where a number is read
	formats   map[styleKey]numberFormat  // the number format of each style asked for so far
	read      map[string][][]string      // each sheet's rows as read, by name
	words     map[string]map[int]bool    // per sheet, the columns (1-based) of words, not figures
	problems  diag.Diagnostics
	warnings  diag.Diagnostics
}

func (r *reader) fail(at diag.Origin, name, format string, args ...any) {
	r.problems = append(r.problems, &diag.Diagnostic{Origin: at, Name: name, Msg: fmt.Sprintf(format, args...)})
}

// plausible checks a number read from a cell against the band of what it
// measures, the quantity planner knows it by (an input's name, or
// domain.OfferPrice for a Cloud price), else its unit's
// (domain.BandOf): an impossible value is an error at the cell, an
// implausible one a warning there. name is the row the cell belongs to.
// A value the cell refers to is told where it is, once: a scenario that
// refers to capex's cell is not warned of capex again. It reports false
// after an error.
func (r *reader) plausible(at diag.Origin, name, quantity, unit string, v float64) bool {
	return r.finding(at, name, "", "type ", domain.Plausibility(r.cur, quantity, unit, v))
}

// finding reports what a band found, if anything, beginning with subject
// and advising how to give the value instead; false after an error.
func (r *reader) finding(at diag.Origin, name, subject, how string, f *units.Finding) bool {
	if f == nil {
		return true
	}
	key, where := cellKey(at.Sheet, at.Cell()), ""
	if ref := r.follows[key].ref; ref.last != "" {
		sheet, cell := splitCell(ref.last)
		key, where = cellKey(sheet, cell), " in "+ref.last
		subject += "the value" + fromCell(ref) + ": "
	}
	if r.banded[key] {
		return !f.Impossible // said at the cell that holds it
	}
	if r.banded == nil {
		r.banded = map[string]bool{}
	}
	r.banded[key] = true
	if f.Impossible {
		r.fail(at, name, "%s%s", subject, f.Advice(how, where))
		return false
	}
	r.warnings = append(r.warnings, diag.Warningf(at, name, "%s%s", subject, f.Advice(how, where)))
	return true
}

// table is an input sheet: a header row naming the columns, then one row per
// item. Empty rows are skipped.
type table struct {
	r      *reader
	sheet  string
	header int               // 1-based row of the header
	cols   map[string]int    // column key -> 1-based column
	titles map[string]string // column key -> the header as the sheet spells it
	rows   [][]string
}

// title is how the sheet names the column of key, for messages.
func (t *table) title(key string) string {
	if s := t.titles[key]; s != "" {
		return s
	}
	return key
}

func (r *reader) table(s schema.Sheet) *table {
	sheet := r.in.Of(s.Name)
	rows, ok := r.rows(sheet)
	if !ok {
		return nil
	}
	t := &table{r: r, sheet: sheet, cols: map[string]int{}, titles: map[string]string{}}
	for i, row := range rows {
		if !blank(row) {
			t.header, t.rows = i+1, rows[i+1:]
			break
		}
	}
	if t.header == 0 {
		t.header = 1
	}
	var header []string
	if t.header <= len(rows) {
		header = rows[t.header-1]
	}
	for c, text := range header {
		for _, col := range s.Columns {
			if _, seen := t.cols[col.Key]; !seen && col.Accepts(text) {
				t.cols[col.Key], t.titles[col.Key] = c+1, strings.TrimSpace(text)
			}
		}
	}
	if len(t.cols) == 0 && s.Name != schema.Assumptions.Name && strings.EqualFold(sheet, s.Name) {
		// No column planner reads: a sheet of the user's that merely has
		// the name (planner's own would carry its name if init had
		// named it otherwise, see planInputs).
		r.warnings = append(r.warnings, diag.Warningf(diag.Origin{File: r.file, Sheet: sheet}, "",
			"has none of the columns planner reads there (%s), so planner takes it for a sheet of yours and reads nothing from it; if it is meant for planner, give it that header row", s.Keys()))
		return nil
	}
	r.noteWords(sheet, s, t.cols)
	for _, col := range s.Columns {
		if _, ok := t.cols[col.Key]; col.Required && !ok {
			r.fail(t.at(t.header, 1), "", "the header row has no %q column; %s needs a header row naming the columns %s",
				col.Key, sheet, s.Keys())
			return nil
		}
	}
	return t
}

func blank(row []string) bool {
	for _, c := range row {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// each calls fn for every non-empty row after the header, with its row number.
func (t *table) each(fn func(row int)) {
	for i, cells := range t.rows {
		if !blank(cells) {
			fn(t.header + 1 + i)
		}
	}
}

// get returns the raw text of column key in row, and where it is.
func (t *table) get(row int, key string) (string, diag.Origin) {
	c, ok := t.cols[key]
	if !ok {
		// The sheet has no such column: a message about it names the row.
		return "", t.at(row, 1)
	}
	at := t.at(row, c)
	i := row - t.header - 1
	if c-1 < len(t.rows[i]) {
		return strings.TrimSpace(t.rows[i][c-1]), at
	}
	return "", at
}

// where is the cell of every column the sheet has in row, by key.
func (t *table) where(row int) map[string]diag.Origin {
	out := map[string]diag.Origin{}
	for key := range t.cols {
		_, out[key] = t.get(row, key)
	}
	return out
}

func (t *table) at(row, col int) diag.Origin {
	return diag.Origin{File: t.r.file, Sheet: t.sheet, Row: row, Col: col}
}

// number reads a numeric cell. Workbooks store numbers raw whatever their
// format shows ($285,000, 50.0 %); a number typed as text is accepted too, as
// is "35%". An empty cell or other text is an error naming the cell.
func (t *table) number(row int, key, name string, required bool) (float64, bool) {
	raw, at := t.get(row, key)
	raw, ref := t.r.followed(at, name, raw)
	switch {
	case ref.refused:
		return 0, false
	case raw == "" && ref.last != "":
		// A reference to an empty cell: as empty as the cell it names.
		if required {
			t.r.fail(at, name, "the %s refers to %s, which is empty; type a number such as %s there, or here", t.title(key), ref.last, numberExample(key))
		}
		return 0, false
	case raw == "":
		if formula := t.r.formula(at); formula != "" {
			t.r.fail(at, name, "the formula =%s has no computed value saved with it; open the workbook in Excel or LibreOffice, save it, and run planner again, or type the number", formula)
			return 0, false
		}
		if required {
			t.r.fail(at, name, "the %s is empty; type a number", t.title(key))
		}
		return 0, false
	}
	if v, ok := parseNumber(raw); ok {
		return v, t.r.checkNotDate(at, name, example(key, name))
	}
	if isErrorValue(raw) {
		t.r.fail(at, name, "holds the error value %s%s; fix the formula there", raw, fromCell(ref))
	} else {
		t.r.fail(at, name, "%s", t.notANumber(row, key, name, raw, fromCell(ref)))
	}
	return 0, false
}

// numberExample is what a number of the column looks like, for a message
// about a cell that holds something else.
func numberExample(key string) string {
	switch key {
	case "watts":
		return "1000"
	case "memory":
		return "80"
	case "price":
		return "2.69"
	case "hoursday":
		return "12"
	case "days":
		return "22"
	case "hoursmonth":
		return "730"
	case "cards", "replicas":
		return "2"
	case "tokens", "peak":
		return "3438"
	case "input", "output", "cached":
		return "0.6"
	case "rho":
		return "0.5"
	case "total":
		return "4400"
	case "concurrency":
		return "16"
	case "rate":
		return "4"
	case "ttfttarget", "ttft50", "ttft90", "ttft99":
		return "250"
	case "tpottarget", "tpot50", "tpot90", "tpot99", "itl50", "itl90", "itl99":
		return "20"
	}
	return "285000 or 0.35 (or 35%)"
}

// parseNumber reads a cell's number; text such as "35%" or "$285,000"
// counts, as a person typed it.
func parseNumber(raw string) (float64, bool) { return units.Parse(raw) }

func isErrorValue(s string) bool {
	switch s {
	case "#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!", "#GETTING_DATA", "#SPILL!", "#CALC!":
		return true
	}
	return false
}

// assumptions reads one input per row: name, value, unit, low, high, notes.
func (r *reader) assumptions() []domain.Input {
	t := r.table(schema.Assumptions)
	if t == nil {
		return nil
	}
	r.cur = peekCurrency(t)
	var inputs []domain.Input
	t.each(func(row int) {
		name, at := t.get(row, "name")
		if name == "" {
			r.fail(at, "", "the name is empty, but the row has other cells filled; name the input or clear the row")
			return
		}
		unit, _ := t.get(row, "unit")
		unit = r.cur.Planners(unit) // "€/kWh" in a workbook in euros is planner's "$/kWh"
		notes, _ := t.get(row, "notes")
		in := domain.Input{Name: name, Unit: unit, Notes: notes}
		raw, at := t.get(row, "value")
		in.Origin = at
		if unit == units.Text {
			// An empty text may mean something (precision: the model's own);
			// the engine says when it does not.
			in.Value = domain.Text(raw)
			inputs = append(inputs, in)
			return
		}
		v, ok := t.number(row, "value", name, true)
		if !ok {
			return
		}
		if msg := domain.CheckInput(r.cur, name, v, unit); msg != "" {
			r.fail(at, name, "%s", withAdvice(msg, t.typeNumber(row, "value", name)))
			return
		}
		if !r.plausible(at, name, name, unit, v) {
			return
		}
		in.Value = domain.Num(v)
		in.TextCell = r.textCell(at, raw)
		if !r.readRange(t, row, &in) {
			return // said at the range's cells; its distribution would only repeat it
		}
		text, dat := t.get(row, "distribution")
		in.DistText, in.DistAt = text, dat
		dist, err := montecarlo.ParseDistribution(text, in)
		if err != nil {
			r.fail(dat, name, "%v", err)
			return
		}
		in.Dist = dist
		inputs = append(inputs, in)
	})
	return inputs
}

// peekCurrency is the currency the Assumptions table t names, for the
// messages about its own cells before it is read; r.currency reports a
// code that is none.
func peekCurrency(t *table) units.Currency {
	var c units.Currency
	t.each(func(row int) {
		if name, _ := t.get(row, "name"); name == domain.Currency {
			raw, _ := t.get(row, "value")
			c, _ = units.CurrencyOf(raw)
		}
	})
	return c
}

// readRange reads an input's low and high, which come together or not at
// all; false after a problem was reported.
func (r *reader) readRange(t *table, row int, in *domain.Input) bool {
	before := len(r.problems)
	low, hasLow := t.number(row, "low", in.Name, false)
	high, hasHigh := t.number(row, "high", in.Name, false)
	_, lowAt := t.get(row, "low")
	_, highAt := t.get(row, "high")
	switch {
	case len(r.problems) > before:
		return false // a cell that is not a number, said there
	case !hasLow && !hasHigh:
		return true
	case hasLow != hasHigh:
		r.fail(lowAt, in.Name, "has only one end of its range; fill both low and high, or neither")
		return false
	case low > high:
		r.crossedRange(in, low, high, lowAt, highAt)
		return false
	case !r.plausible(lowAt, in.Name, in.Name, in.Unit, low) || !r.plausible(highAt, in.Name, in.Name, in.Unit, high):
		return false
	}
	// A value outside the range is held by Monte Carlo and the tornado;
	// the engine says so at the value cell.
	in.Low, in.High, in.HasRange = low, high, true
	in.LowAt, in.HighAt = lowAt, highAt
	return true
}

// crossedRange reports a low above its high: swapping them mends it,
// unless an end lies outside what the input plausibly is, when the slip
// is what to mend (0.08..0.2 typed as 80 and 0.2).
func (r *reader) crossedRange(in *domain.Input, low, high float64, lowAt, highAt diag.Origin) {
	if f := domain.Plausibility(r.cur, in.Name, in.Unit, low); f != nil {
		r.fail(lowAt, in.Name, "low (%s) is above high (%s), and %s", units.Plain(low), units.Plain(high), f.Advice("type ", ""))
		return
	}
	if f := domain.Plausibility(r.cur, in.Name, in.Unit, high); f != nil {
		r.fail(highAt, in.Name, "high (%s) is below low (%s), and %s", units.Plain(high), units.Plain(low), f.Advice("type ", ""))
		return
	}
	r.fail(lowAt, in.Name, "low (%g) is above high (%g); swap them", low, high)
}

// date1904 reports whether the workbook counts its dates from 1904, as
// Excel for the Mac once did, rather than from 1900.
func (r *reader) date1904() bool {
	props, err := r.f.GetWorkbookProps()
	return err == nil && props.Date1904 != nil && *props.Date1904
}

// offers reads one cloud offer per row.
func (r *reader) offers(m *domain.Model) []domain.Offer {
	t := r.table(schema.Cloud)
	if t == nil {
		return nil
	}
	date1904 := r.date1904()
	var offers []domain.Offer
	t.each(func(row int) {
		o := domain.Offer{}
		var at diag.Origin
		o.Provider, at = t.get(row, "provider")
		o.Name, _ = t.get(row, "offer")
		o.GPU, o.GPUAt = t.get(row, "gpu")
		o.Source, _ = t.get(row, "source")
		o.Notes, _ = t.get(row, "notes")
		o.Origin = at
		if o.Provider == "" || o.Name == "" || o.GPU == "" {
			r.fail(at, "", "an offer needs a provider, an offer name and a GPU; fill them or clear the row")
			return
		}
		price, ok := t.number(row, "price", o.Label(), true)
		if !ok {
			return
		}
		_, pat := t.get(row, "price")
		if price <= 0 {
			r.fail(pat, o.Label(), "the price %g is not above zero", price)
			return
		}
		o.Price = price
		if !r.convertOffer(t, row, m, &o) {
			return
		}
		// Plausible in the workbook's currency: ¥450 an hour is $3, not a slip.
		if !r.plausible(pat, o.Label(), domain.OfferPrice, "", o.Price) {
			return
		}
		var rawPrice string
		rawPrice, o.PriceAt = t.get(row, "price")
		o.PriceText = r.textCell(o.PriceAt, rawPrice)
		o.AsOf, o.AsOfSerial, o.AsOfText = r.date(t, row, date1904)
		_, o.AsOfAt = t.get(row, "asof")
		o.Billing = r.billing(t, row, o.Label())
		offers = append(offers, o)
	})
	r.checkFallbacks(offers)
	return offers
}

// date reads an as-of date written as a date cell or as text YYYY-MM-DD:
// the day, its number in the workbook's date system, and whether the cell
// holds it as text.
func (r *reader) date(t *table, row int, date1904 bool) (day string, serial float64, isText bool) {
	raw, at := t.get(row, "asof")
	if raw == "" {
		return "", 0, false
	}
	if serial, err := strconv.ParseFloat(raw, 64); err == nil {
		if d, err := excelize.ExcelDateToTime(serial, date1904); err == nil {
			if r.textCell(at, raw) {
				serial = 0 // a number typed as text: DATEVALUE would not read it
			}
			return d.Format("2006-01-02"), serial, false
		}
	}
	if d, err := time.Parse("2006-01-02", raw); err == nil {
		return raw, dateSerial(d, date1904), true
	}
	if len(raw) == 10 && raw[4] == '-' && raw[7] == '-' {
		return raw, 0, false
	}
	r.fail(at, "", "%q is not a date; write it as a date cell or as YYYY-MM-DD", raw)
	return "", 0, false
}

// dateSerial is a day as a spreadsheet numbers it: days since 1899-12-30
// (which makes 1900-03-01 day 61, as Excel counts), or since 1904-01-01 in
// a workbook of the 1904 date system.
func dateSerial(d time.Time, date1904 bool) float64 {
	epoch := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	if date1904 {
		epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return math.Round(d.Sub(epoch).Hours() / 24)
}

// formulas reads the workbook's own formulas: name, expression, unit,
// description and label.
func (r *reader) formulas() []formulas.Formula {
	t := r.table(schema.Formulas)
	if t == nil {
		return nil
	}
	var out []formulas.Formula
	t.each(func(row int) {
		name, at := t.get(row, "name")
		src, srcAt := t.get(row, "expression")
		unit, _ := t.get(row, "unit")
		doc, _ := t.get(row, "description")
		label, _ := t.get(row, "label")
		excel := r.formula(srcAt)
		switch {
		case name == "":
			r.fail(at, "", "the name is empty, but the row has other cells filled; name the formula or clear the row")
		case excel != "":
			r.fail(srcAt, name, "holds the Excel formula =%s; planner reads the expression as text: type it without the leading = (in Excel, start it with an apostrophe)", excel)
		case src == "":
			r.fail(srcAt, name, "the expression is empty; write one, or delete the row to use planner's built-in %s", name)
		default:
			out = append(out, formulas.Formula{Name: name, Source: src, Unit: unit, Doc: doc, Label: label, Origin: srcAt})
		}
	})
	return out
}

// rawOpts reads cells as stored, not as their number format shows them.
var rawOpts = excelize.Options{RawCellValue: true}

// cellName is the A1 reference of a 1-based column and row.
func cellName(col, row int) string { return diag.ColumnName(col) + strconv.Itoa(row) }
