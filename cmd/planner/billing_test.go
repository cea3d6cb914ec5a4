package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The offers addBilling puts in Cloud, with the prices the tests work from.
const (
	reservedPrice, reservedTerm, reservedUpfront, reservedExtras = 2.10, 12.0, 1200.0, 20.0
	spotPrice, spotInterruption, spotExtras                      = 1.60, 0.1, 5.0
	communityPrice                                               = 2.69 // the spot offer's fallback, billed by used hours
)

// addBilling appends a one-year term and a spot offer of the H100 SXM to
// Cloud, as a user would type them.
func addBilling(t *testing.T, path string) {
	t.Helper()
	editBook(t, path, func(f *excelize.File) error {
		rows := [][]any{
			{"Lambda", "H100 1-year reserved", "H100 SXM", reservedPrice, "2026-10-10", "test", "", "all hours", reservedTerm, reservedUpfront, nil, nil, reservedExtras},
			{"RunPod", "H100 SXM, Spot", "H100 SXM", spotPrice, "2026-10-10", "test", "", "spot", nil, nil, spotInterruption, "H100 SXM, Community", spotExtras},
		}
		for i, r := range rows {
			if err := f.SetSheetRow("Cloud", fmt.Sprintf("A%d", 11+i), &r); err != nil {
				return err
			}
		}
		return nil
	})
}

// addBilledDeployments appends two deployments to Deployments renting
// addBilling's term and spot offers: 2 cards × 3 replicas, 12 h × 22 days
// a month, 1,000 tokens a second per replica.
func addBilledDeployments(t *testing.T, path string) {
	t.Helper()
	editBook(t, path, func(f *excelize.File) error {
		rows := [][]any{
			{"70B on the term", "Llama 3.1 70B", nil, "H100 SXM", 2, 3, 12, 22, nil, "Lambda H100 1-year reserved", nil, nil, 1000},
			{"70B on spot", "Llama 3.1 70B", nil, "H100 SXM", 2, 3, 12, 22, nil, "RunPod H100 SXM, Spot", nil, nil, 1000},
		}
		for i, r := range rows {
			if err := f.SetSheetRow("Deployments", fmt.Sprintf("A%d", 13+i), &r); err != nil {
				return err
			}
		}
		return nil
	})
}

// A deployment renting a term pays every calendar hour of its cards, the
// upfront spread over the term's months and the extras; one renting spot
// pays spot's price for the hours not interrupted, the fallback's for the
// rest, and the extras. Both as planner's JSON tells them.
func TestDeploymentsRentAsTheirOffersBill(t *testing.T) {
	_, plan := freshPlan(t)
	addBilling(t, plan)
	addBilledDeployments(t, plan)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200", "--format", "json", "-o", filepath.Join(t.TempDir(), "out.xlsx")}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	var doc struct {
		Deployments []struct {
			Name         string  `json:"name"`
			RentPerMonth float64 `json:"rent_per_month"`
		} `json:"deployments"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	const cards, replicas, used, month = 2.0, 3.0, 12 * 22.0, 730.0
	want := map[string]float64{
		"70B on the term": cards * replicas * (reservedPrice*month + reservedUpfront/reservedTerm + reservedExtras), // $9,918
		"70B on spot":     cards * replicas * (((1-spotInterruption)*spotPrice+spotInterruption*communityPrice)*used + spotExtras),
	}
	for _, d := range doc.Deployments {
		if w, ok := want[d.Name]; ok {
			if !billingNear(d.RentPerMonth, w) {
				t.Errorf("%s: $%v a month, want $%v", d.Name, d.RentPerMonth, w)
			}
			delete(want, d.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("not in the JSON: %v", want)
	}
}

type billingOffer struct {
	Offer        string             `json:"offer"`
	Breakeven    json.RawMessage    `json:"breakeven_utilization"`
	BreakevenWhy string             `json:"breakeven"`
	Verdict      string             `json:"verdict"`
	Words        string             `json:"words"`
	Values       map[string]float64 `json:"values"`
	Figures      map[string]struct {
		Value *float64 `json:"value"`
		Words string   `json:"words"`
	} `json:"figures"`
}

// evalOffers evaluates path with --set and returns the base scenario's
// node values and offers by name.
func evalOffers(t *testing.T, path string, set ...string) (map[string]float64, map[string]billingOffer) {
	t.Helper()
	args := []string{"eval", path, "--samples", "200", "--format", "json", "-o", filepath.Join(t.TempDir(), "out.xlsx")}
	for _, s := range set {
		args = append(args, "--set", s)
	}
	var out, errs bytes.Buffer
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("eval: %s", errs.String())
	}
	var doc struct {
		Scenarios []struct {
			Values map[string]float64 `json:"values"`
			Offers []billingOffer     `json:"offers"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Scenarios) == 0 {
		t.Fatalf("eval's JSON: %v\n%s", err, out.String())
	}
	offers := map[string]billingOffer{}
	for _, o := range doc.Scenarios[0].Offers {
		offers[o.Offer] = o
	}
	return doc.Scenarios[0].Values, offers
}

func billingNear(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// A reserved term compared hour for hour: owning and the term both pay
// every calendar hour, so the verdict is the same at any utilisation, and
// the NPV counts the term's rent of every hour of every GPU.
func TestReservedOfferComparedHourForHour(t *testing.T) {
	_, plan := freshPlan(t)
	addBilling(t, plan)
	const h = 730.0
	perCalendarHour := reservedPrice + (reservedUpfront/reservedTerm+reservedExtras)/h
	var verdicts []string
	for _, u := range []float64{0.2, 0.9} {
		values, offers := evalOffers(t, plan, fmt.Sprintf("utilization=%g", u))
		o := offers["H100 1-year reserved"]
		if got := o.Figures["effective_price_per_gpu_hour"].Value; got == nil || !billingNear(*got, perCalendarHour/u) {
			t.Errorf("at %g: effective price %v, want %g", u, got, perCalendarHour/u)
		}
		if o.Figures["billing"].Words != "all hours" || o.Figures["term_months"].Value == nil || *o.Figures["term_months"].Value != reservedTerm {
			t.Errorf("at %g: billing %+v", u, o.Figures)
		}
		want := "rent"
		if values["cost_per_gpu_hour"] <= perCalendarHour {
			want = "buy"
		}
		if o.Verdict != want || !strings.Contains(o.Words, "utilisation does not move this verdict") {
			t.Errorf("at %g: verdict %q (%s), want %q", u, o.Verdict, o.Words, want)
		}
		verdicts = append(verdicts, o.Verdict)
		gpus, capex, months := values["gpus"], values["capex"], values["amortization_months"]
		rent := gpus * perCalendarHour * h
		npv := -capex + (rent-values["running_cost_per_month"])*values["annuity_factor"] + values["residual"]*capex*values["discount_factor"]
		if !billingNear(o.Values["npv_saving"], npv) || !billingNear(o.Values["rent_used_per_month"], rent) {
			t.Errorf("at %g: npv %g rent %g, want %g and %g (months %g)", u, o.Values["npv_saving"], o.Values["rent_used_per_month"], npv, rent, months)
		}
	}
	if verdicts[0] != verdicts[1] {
		t.Errorf("utilisation moved the verdict against a term: %v", verdicts)
	}
}

// Against a term no utilisation is a break-even: owning costs
// cost_per_gpu_hour every calendar hour and the term perCalendarHour, so
// the break-even formula, cost ÷ (perCalendarHour ÷ u), would only restate
// u × cost ÷ perCalendarHour. The JSON gives null and says why, the
// tornado and the break-even curve leave the term out, and Results writes
// the words where the number was, its verdict still comparing the prices
// per calendar hour live.
func TestTermHasNoBreakeven(t *testing.T) {
	dir, plan := freshPlan(t)
	addBilling(t, plan)
	const term = "Lambda H100 1-year reserved"
	var out, errs bytes.Buffer
	book := filepath.Join(dir, "out.xlsx")
	if code := run([]string{"eval", plan, "--samples", "200", "--format", "json", "-o", book}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	var doc struct {
		Scenarios []struct {
			Offers []billingOffer `json:"offers"`
		} `json:"scenarios"`
		Sensitivity []struct {
			Target, Offer string
		} `json:"sensitivity"`
		Breakeven []struct{ Offer string } `json:"breakeven"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, o := range doc.Scenarios[0].Offers {
		_, hasValue := o.Values["breakeven_utilization"]
		switch {
		case o.Offer == "H100 1-year reserved" && (string(o.Breakeven) != "null" || hasValue || !strings.Contains(o.BreakevenWhy, "both pay every hour")):
			t.Errorf("the term's break-even: %s, %q, in values %v", o.Breakeven, o.BreakevenWhy, hasValue)
		case o.Offer == "H100 SXM, Community" && (o.BreakevenWhy != "" || !hasValue):
			t.Errorf("Community's break-even: %s, %q", o.Breakeven, o.BreakevenWhy)
		}
	}
	for _, s := range doc.Sensitivity {
		if s.Target == "breakeven_utilization" && s.Offer == term {
			t.Error("the tornado swings the term's break-even")
		}
	}
	for _, c := range doc.Breakeven {
		if c.Offer == term {
			t.Error("the break-even curve crosses the term's price")
		}
	}
	f, err := excelize.OpenFile(book)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	be, verdict := termCells(t, f, term)
	if v, _ := f.GetCellValue("Results", be); v != "— both pay every hour" {
		t.Errorf("Results!%s, the term's break-even, holds %q", be, v)
	}
	if formula, _ := f.GetCellFormula("Results", verdict); !strings.Contains(formula, ">=(") {
		t.Errorf("Results!%s, the term's verdict, is %q, not the break-even's comparison", verdict, formula)
	}
}

// termCells are the Results cells of the offers section's break-even and
// verdict of the offer labelled label.
func termCells(t *testing.T, f *excelize.File, label string) (breakeven, verdict string) {
	t.Helper()
	rows, err := f.GetRows("Results")
	if err != nil {
		t.Fatal(err)
	}
	col := 0
	for r, row := range rows {
		for c, v := range row {
			if v == label && col == 0 && c >= 3 {
				col = c + 1
			}
		}
		if col == 0 || len(row) < 2 {
			continue
		}
		cell, _ := excelize.CoordinatesToCellName(col, r+1)
		switch {
		case row[1] == "breakeven_utilization" && breakeven == "":
			breakeven = cell
		case row[0] == "Verdict" && verdict == "":
			verdict = cell
		}
	}
	if breakeven == "" || verdict == "" {
		t.Fatalf("no break-even or verdict of %s in Results", label)
	}
	return breakeven, verdict
}

// Spot's effective price: its price for the hours not interrupted, the
// fallback's for the interrupted share, and its extras spread over the
// GPU's used hours in the month.
func TestSpotEffectivePriceWithFallback(t *testing.T) {
	_, plan := freshPlan(t)
	addBilling(t, plan)
	const u, h = 0.5, 730.0
	_, offers := evalOffers(t, plan, fmt.Sprintf("utilization=%g", u))
	want := (1-spotInterruption)*spotPrice + spotInterruption*communityPrice + spotExtras/(u*h)
	o := offers["H100 SXM, Spot"]
	if got := o.Figures["effective_price_per_gpu_hour"].Value; got == nil || !billingNear(*got, want) {
		t.Fatalf("spot's effective price %v, want %g", got, want)
	}
	if c := offers["H100 SXM, Community"].Figures["effective_price_per_gpu_hour"].Value; c == nil || *c != communityPrice {
		t.Errorf("a used-hours offer without extras: effective price %v, want its price", c)
	}
}

// The break-even of an offer with a fixed part is where owning's cost
// per used hour, cost ÷ u, equals renting's, a + fixed ÷ u: u* = (cost −
// fixed) ÷ a, the same at any utilisation. With extras on a used-hours
// offer fixed is extras ÷ 730; spot pays its extras and, for the
// interrupted share, the fallback's (Community: none).
func TestBreakevenWithExtrasIsWhereBothCostTheSame(t *testing.T) {
	_, plan := freshPlan(t)
	addBilling(t, plan)
	const price, extras, h = 2.0, 30.0, 730.0
	editBook(t, plan, func(f *excelize.File) error {
		row := []any{"Acme", "H100 with storage", "H100 SXM", price, "2026-10-10", "test", "", "", nil, nil, nil, nil, extras}
		return f.SetSheetRow("Cloud", "A13", &row)
	})
	spotPerUsed := (1-spotInterruption)*spotPrice + spotInterruption*communityPrice
	for _, c := range []struct {
		offer             string
		perUsed, perMonth float64
	}{{"H100 with storage", price, extras}, {"H100 SXM, Spot", spotPerUsed, spotExtras}} {
		var at []float64
		for _, u := range []float64{0.3, 0.7} {
			values, offers := evalOffers(t, plan, fmt.Sprintf("utilization=%g", u))
			cost := values["cost_per_gpu_hour"]
			want := (cost - c.perMonth/h) / c.perUsed
			got := offers[c.offer].Values["breakeven_utilization"]
			if !billingNear(got, want) {
				t.Errorf("%s at %g: break-even %.6f, want (%.4f − %g ÷ 730) ÷ %.4f = %.6f", c.offer, u, got, cost, c.perMonth, c.perUsed, want)
			}
			owning, renting := cost/got, c.perUsed+c.perMonth/h/got
			if !billingNear(owning, renting) {
				t.Errorf("%s: at its break-even %.4f owning costs $%.6f a used hour, renting $%.6f", c.offer, got, owning, renting)
			}
			at = append(at, got)
		}
		if !billingNear(at[0], at[1]) {
			t.Errorf("%s: the break-even moves with utilisation: %v", c.offer, at)
		}
	}
	// The Breakeven sheet's curve meets each offer's effective price, not
	// its list price, at the same utilisation (to the solver's tolerance).
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200", "--format", "json", "-o", filepath.Join(t.TempDir(), "out.xlsx")}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	var doc struct {
		Scenarios []struct {
			Name   string             `json:"name"`
			Values map[string]float64 `json:"values"`
		} `json:"scenarios"`
		Breakeven []struct {
			Scenario, Offer string
			Utilization     *float64 `json:"breakeven_utilization"`
		} `json:"breakeven"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	cost := doc.Scenarios[0].Values["cost_per_gpu_hour"]
	want := map[string]float64{"Acme H100 with storage": (cost - extras/h) / price, "RunPod H100 SXM, Spot": (cost - spotExtras/h) / spotPerUsed}
	for _, c := range doc.Breakeven {
		w, ok := want[c.Offer]
		if !ok || c.Scenario != doc.Scenarios[0].Name {
			continue
		}
		delete(want, c.Offer)
		if c.Utilization == nil || math.Abs(*c.Utilization-w) > 1e-6 {
			t.Errorf("the curve crosses %s at %v, want %.6f", c.Offer, c.Utilization, w)
		}
	}
	if len(want) > 0 {
		t.Errorf("the curve meets no price of %v", want)
	}
}

// Every bad combination of the billing columns is an error at its cell
// that says what to type.
func TestBillingMistakesAreErrorsAtTheirCells(t *testing.T) {
	cases := []struct {
		cell string
		v    any
		want string
	}{
		{"I2", 12, "Cloud!I2: RunPod H100 SXM, Community: term months is for an all hours term; clear it, or type all hours in billing\n"},
		{"K11", 0.2, "Cloud!K11: Lambda H100 1-year reserved: interruption is for a spot offer; clear it, or type spot in billing\n"},
		{"K12", 1.5, "Cloud!K12: RunPod H100 SXM, Spot: the interruption (150.0 %) is not a share between 0 % and 100 %; type the share of used hours lost, such as 10 %\n"},
		{"L12", "H100 SXM, Secure Cloud", `Cloud!L12: RunPod H100 SXM, Spot: no offer of the H100 SXM is named "H100 SXM, Secure Cloud"; pick one from the Cloud sheet's offer column` + "\n"},
		{"L12", "H100 SXM, Spot", `Cloud!L12: RunPod H100 SXM, Spot: the fallback "H100 SXM, Spot" is itself spot; pick an offer billed by used hours or all hours` + "\n"},
		{"I11", nil, "Cloud!I11: Lambda H100 1-year reserved: an all hours offer bills a term; type its months in term months, such as 12 or 36\n"},
		{"H12", "hourly", `Cloud!H12: RunPod H100 SXM, Spot: "hourly" is not a billing; type used hours, all hours or spot, or leave it empty for used hours` + "\n"},
		{"J2", 500, "Cloud!J2: RunPod H100 SXM, Community: upfront is what an all hours term asks at its start; clear it, or type all hours in billing\n"},
	}
	for _, c := range cases {
		_, plan := freshPlan(t)
		addBilling(t, plan)
		editBook(t, plan, func(f *excelize.File) error { return f.SetCellValue("Cloud", c.cell, c.v) })
		var out, errs bytes.Buffer
		if code := run([]string{"eval", plan, "--samples", "200", "-o", filepath.Join(t.TempDir(), "x.xlsx")}, &out, &errs); code == 0 || !strings.HasSuffix(errs.String(), ": "+c.want) || strings.Count(errs.String(), "\n") != 1 {
			t.Errorf("%s=%v: exit %d, stderr %q; want %q", c.cell, c.v, code, errs.String(), c.want)
		}
	}
}

// The effective prices, every per-offer row that reads them and the rent
// of deployments renting a term and spot are live: LibreOffice,
// recalculating the sheets after the billing's cells, the utilisation and
// the hours of a month change, agrees with planner cell by cell. The
// term's price falls so far that its verdict flips to rent, which Results
// holds without a break-even cell to compare with.
func TestLibreOfficeRecalculatesBilling(t *testing.T) {
	needLibreOffice(t)
	dir, plan := freshPlan(t)
	addBilling(t, plan)
	addBilledDeployments(t, plan)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	edited := filepath.Join(dir, "edited.xlsx")
	copyFile(t, plan, edited)
	const termPrice, upfront, extras, hours = 1.2, 3000.0, 45.0, 720.0
	setInputs(t, edited, map[string]float64{"utilization": 0.37, "hours_per_month": hours})
	for cell, v := range map[string]float64{"D11": termPrice, "J11": upfront, "M11": extras, "K12": 0.25, "M12": 12, "D12": 1.2} {
		setNumber(t, edited, "Cloud", cell, v)
	}
	fresh := filepath.Join(dir, "fresh.xlsx")
	if code := run([]string{"eval", edited, "--samples", "200", "-o", fresh}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	want := map[string]map[string]string{}
	for _, sheet := range liveSheets {
		want[sheet] = readSheet(t, fresh, sheet).formulas
	}
	lo := filepath.Join(dir, "lo")
	recalculate(t, []string{edited}, lo)
	for sheet, cells := range want {
		sameNumbers(t, "billing", sheet, cells, filepath.Join(lo, "edited.xlsx"))
	}
	values, _ := evalOffers(t, edited)
	verdict := "rent" // 1.2 + (3,000 ÷ 12 + 45) ÷ 720 = $1.61 a calendar hour, under owning's
	if values["cost_per_gpu_hour"] <= termPrice+(upfront/reservedTerm+extras)/hours {
		verdict = "buy"
	}
	f, err := excelize.OpenFile(filepath.Join(lo, "edited.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, at := termCells(t, f, "Lambda H100 1-year reserved")
	if got, _ := f.GetCellValue("Results", at); got != verdict {
		t.Errorf("LibreOffice's verdict against the term: %q, want %q (owning $%.4f a GPU-hour)", got, verdict, values["cost_per_gpu_hour"])
	}
}
