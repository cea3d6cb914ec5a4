package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The public figures the worked examples type in, as docs/prices.md gives
// them with their sources and dates.
const (
	commitmentPrice = 8.84    // Google Cloud, H100 80GB GPU SKU, 1-year commitment, europe-west4
	commitmentTerm  = 12.0    // months
	preemptiblePerH = 1.25    // Nebius, HGX H100, preemptible
	preemptibleLost = 0.10    // the top of the Spot Instance Advisor's 5-10 % band: an assumption
	fallbackPrice   = 2.69    // RunPod H100 SXM, Community: the default workbook's row
	scalewayNode    = 25.3308 // euros an hour for Scaleway's H100-SXM-8-80G, 8 GPUs
	scalewayPerGPU  = 3.16635 // euros a GPU-hour: scalewayNode ÷ 8
	ecbRate         = 1.1403  // US dollars a euro, the ECB's reference rate of 2026-09-25
	germanTax       = 0.30    // Berlin's combined rate on a company's profit
	lambdaPrice     = 3.99    // Lambda H100, 8-GPU plan: the default workbook's row
	workdayHours    = 12 * 22.0
	exampleToday    = "2026-12-02"
)

// termAndSpotExample is docs/billing.md's worked example: a workbook init
// wrote, with the commitment and the preemptible offer typed into rows 11
// and 12 of Cloud and two deployments renting them into rows 13 and 14 of
// Deployments, cell by cell as a user types them.
func termAndSpotExample(t *testing.T) string {
	t.Helper()
	_, plan := freshPlan(t)
	setCells(t, plan, map[string]any{
		"Cloud!A11": "Google Cloud", "Cloud!B11": "H100 80GB, 1-year commitment, europe-west4", "Cloud!C11": "H100 SXM",
		"Cloud!D11": commitmentPrice, "Cloud!E11": "2026-09-26",
		"Cloud!F11": "Google Cloud SKU explorer, H100 80GB GPU in Netherlands, 1-year commitment",
		"Cloud!H11": "all hours", "Cloud!I11": commitmentTerm,
		"Cloud!A12": "Nebius", "Cloud!B12": "HGX H100, preemptible", "Cloud!C12": "H100 SXM",
		"Cloud!D12": preemptiblePerH, "Cloud!E12": "2026-05-18", "Cloud!F12": "nebius.com/prices, preemptible",
		"Cloud!H12": "spot", "Cloud!K12": preemptibleLost, "Cloud!L12": "H100 SXM, Community",
		"Deployments!A13": "70B FP8 on the commitment, workdays", "Deployments!B13": "Llama 3.1 70B", "Deployments!D13": "H100 SXM",
		"Deployments!F13": 1.0, "Deployments!G13": 12.0, "Deployments!H13": 22.0,
		"Deployments!J13": "Google Cloud H100 80GB, 1-year commitment, europe-west4",
		"Deployments!A14": "70B FP8 on preemptible, workdays", "Deployments!B14": "Llama 3.1 70B", "Deployments!D14": "H100 SXM",
		"Deployments!F14": 1.0, "Deployments!G14": 12.0, "Deployments!H14": 22.0,
		"Deployments!J14": "Nebius HGX H100, preemptible",
	})
	return plan
}

// euroExample is docs/currency.md's: Scaleway's H100 SXM in euros typed
// into row 11 of Cloud, the ECB's rate into the first row of FX.
func euroExample(t *testing.T) string {
	t.Helper()
	_, plan := freshPlan(t)
	setCells(t, plan, map[string]any{
		"Cloud!A11": "Scaleway", "Cloud!B11": "H100-SXM-8-80G, PAR-2", "Cloud!C11": "H100 SXM",
		"Cloud!D11": scalewayPerGPU, "Cloud!E11": "2026-09-26",
		"Cloud!F11": "Scaleway GPU pricing page: €25.3308 an hour for 8 GPUs, before tax", "Cloud!N11": "EUR",
		"FX!A2": "EUR", "FX!B2": ecbRate, "FX!C2": "2026-09-25", "FX!D2": "ECB euro reference rate",
	})
	return plan
}

// exampleEval is eval's JSON of plan on the examples' day, with args, and
// the workbook it wrote.
func exampleEval(t *testing.T, plan string, args ...string) (evalDoc, string) {
	t.Helper()
	book := filepath.Join(t.TempDir(), "out.xlsx")
	all := append([]string{"eval", plan, "--samples", "200", "--today", exampleToday, "--format", "json", "-o", book}, args...)
	var out, errs bytes.Buffer
	if code := run(all, &out, &errs); code != 0 {
		t.Fatalf("eval: %s", errs.String())
	}
	var doc struct {
		evalDoc
		Scenarios []struct {
			evalScenario
			Offers []struct {
				evalOffer
				Breakeven     *float64 `json:"breakeven_utilization"`
				PaybackMonths *float64 `json:"payback_months"`
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	d := doc.evalDoc
	for _, s := range doc.Scenarios {
		sc := s.evalScenario
		sc.Offers = nil
		for _, o := range s.Offers {
			o.evalOffer.Values = withNumbers(o.Values, map[string]*float64{"breakeven": o.Breakeven, "payback_months": o.PaybackMonths})
			sc.Offers = append(sc.Offers, o.evalOffer)
		}
		d.Scenarios = append(d.Scenarios, sc)
	}
	return d, book
}

// withNumbers adds the numbers that are not nil to values.
func withNumbers(values map[string]float64, more map[string]*float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range values {
		out[k] = v
	}
	for k, v := range more {
		if v != nil {
			out[k] = *v
		}
	}
	return out
}

// exampleOffer is the base scenario's offer by its label.
func exampleOffer(t *testing.T, d evalDoc, label string) evalOffer {
	t.Helper()
	for _, o := range d.Scenarios[0].Offers {
		if o.label() == label {
			return o
		}
	}
	t.Fatalf("no offer %q", label)
	return evalOffer{}
}

// exampleRent is a deployment's rent a month.
func exampleRent(t *testing.T, d evalDoc, name string) float64 {
	t.Helper()
	for _, dep := range d.Deployments {
		if dep.Name == name {
			return dep.RentPerMonth
		}
	}
	t.Fatalf("no deployment %q", name)
	return 0
}

// page is a page of the repository, its lines joined into one, so that a
// figure the text wraps is still found.
func page(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(data)), " ")
}

// quotes fails for each figure the text does not quote.
func quotes(t *testing.T, where, text string, figures ...string) {
	t.Helper()
	for _, f := range figures {
		if !strings.Contains(text, f) {
			t.Errorf("%s does not quote %q", where, f)
		}
	}
}

// money is v in dollars as the docs write it: a thousands comma and the
// decimals given, a minus sign before the dollar.
func money(v float64, decimals int) string {
	s := fmt.Sprintf("%.*f", decimals, math.Abs(v))
	whole, frac, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if frac != "" {
		whole += "." + frac
	}
	if v < 0 {
		return "−$" + whole
	}
	return "$" + whole
}

// bold is s as the docs stress it.
func bold(s string) string { return "**" + s + "**" }

// percent is a share as the docs write it, one decimal and a space.
func percent(v float64) string { return fmt.Sprintf("%.1f %%", 100*v) }

// ordinal is the month a payback comes in, as the docs write it.
func ordinal(m float64) string {
	n := int(math.Ceil(m))
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// The worked term and spot example: a commitment costs its price every
// calendar hour, against owning's cost per calendar hour, so owning is
// cheaper at every utilisation when that is less; preemptible capacity
// costs (1 − i) × its price + i × the fallback's a used hour. planner's
// figures are those, and docs/billing.md and the README quote them.
func TestWorkedTermAndSpotExample(t *testing.T) {
	d, _ := exampleEval(t, termAndSpotExample(t))
	n := articleNode()
	l, gpus, hours, u := n.lines(), n["gpus"], n["hours_per_month"], n["utilization"]
	own := l["cost_per_gpu_hour"]

	term := exampleOffer(t, d, "Google Cloud H100 80GB, 1-year commitment, europe-west4")
	perCalendarHour := commitmentPrice // no upfront and no extras: every calendar hour at the list price
	termRent := gpus * perCalendarHour * hours
	termSaving := termRent - l["node_cost_per_month"]
	termPayback := math.Ceil(n["capex"] / (termRent - l["running_cost_per_month"]))
	if term.Verdict != "buy" || own >= perCalendarHour {
		t.Errorf("the commitment: verdict %q at $%g a calendar hour against owning's $%g", term.Verdict, perCalendarHour, own)
	}
	if _, ok := term.Values["breakeven"]; ok {
		t.Errorf("the commitment has a break-even: %v", term.Values["breakeven"])
	}
	for name, want := range map[string]float64{"own_saving_per_month": termSaving, "rent_used_per_month": termRent, "payback_months": termPayback} {
		if !near(term.Values[name], want) {
			t.Errorf("the commitment's %s is %v, want %v", name, term.Values[name], want)
		}
	}

	spot := exampleOffer(t, d, "Nebius HGX H100, preemptible")
	spotUsedHour := (1-preemptibleLost)*preemptiblePerH + preemptibleLost*fallbackPrice
	spotRent := gpus * hours * u * spotUsedHour
	if !near(spot.Values["breakeven"], own/spotUsedHour) || own/spotUsedHour <= 1 || spot.Verdict != "rent" {
		t.Errorf("preemptible: break-even %v verdict %q, want %v above 100 %% and rent", spot.Values["breakeven"], spot.Verdict, own/spotUsedHour)
	}
	if !near(spot.Values["own_saving_per_month"], spotRent-l["node_cost_per_month"]) {
		t.Errorf("preemptible: owning saves %v, want %v", spot.Values["own_saving_per_month"], spotRent-l["node_cost_per_month"])
	}
	// The share of hours lost above which preemptible costs more than
	// owning at full use: (1 − i) × price + i × fallback = own.
	lostAtPar := (own - preemptiblePerH) / (fallbackPrice - preemptiblePerH)

	const cards = 2.0 // Llama 3.1 70B at FP8 on H100s, from sizing
	deployTerm, deploySpot := cards*commitmentPrice*hours, cards*workdayHours*spotUsedHour
	for name, want := range map[string]float64{"70B FP8 on the commitment, workdays": deployTerm, "70B FP8 on preemptible, workdays": deploySpot} {
		if got := exampleRent(t, d, name); !near(got, want) {
			t.Errorf("%s rents at $%v a month, want $%v", name, got, want)
		}
	}

	quotes(t, "docs/billing.md", page(t, "docs/billing.md"),
		"= "+bold(money(commitmentPrice/u, 2)), strings.TrimPrefix(money(termRent, 2), "$")+" −", "= "+bold(money(termSaving, 2)),
		bold(ordinal(termPayback))+" month", fmt.Sprintf("= %.1f)", n["capex"]/(termRent-l["running_cost_per_month"])),
		"= "+bold(money(spotUsedHour, 3)), percent(own/spotUsedHour)+" of the hours", money(spotRent, 2)+", so",
		bold(money(spotRent-l["node_cost_per_month"], 2)), "= "+percent(lostAtPar)+" of its hours", bold(money(deployTerm, 2)),
		money(cards*commitmentPrice*workdayHours, 2)+" for the used hours", bold(money(deploySpot, 2))+" a month",
		fmt.Sprintf("$%.3f a GPU-hour", own), money(l["node_cost_per_month"], 2)+" a month of owning")
	quotes(t, "README.md", page(t, "README.md"),
		money(commitmentPrice, 2)+" a GPU-hour", money(termSaving, 2), money(spotUsedHour, 3), percent(own/spotUsedHour),
		fmt.Sprintf("owning costs %s", money(own, 2)), money(fallbackPrice, 2)+" a GPU-hour", percent(own/fallbackPrice)+" busy")
}

// The worked euro example: the offer is compared at its price in euros
// times the ECB's rate, the break-even is owning's cost over that, and the
// verdict at the article's 50 % turns at the rate that makes the price
// owning's cost ÷ 50 %. planner's figures are those, Results' price cell
// the live product the docs quote, and docs/currency.md and the README
// quote them.
func TestWorkedEuroExample(t *testing.T) {
	d, book := exampleEval(t, euroExample(t))
	n := articleNode()
	l, gpus, hours, u := n.lines(), n["gpus"], n["hours_per_month"], n["utilization"]
	own := l["cost_per_gpu_hour"]
	price := scalewayPerGPU * ecbRate
	o := exampleOffer(t, d, "Scaleway H100-SXM-8-80G, PAR-2")
	if !near(o.Price, price) || !near(o.Values["breakeven"], own/price) || o.Verdict != "buy" {
		t.Errorf("the offer in euros: $%v, break-even %v, %q; want $%v, %v, buy", o.Price, o.Values["breakeven"], o.Verdict, price, own/price)
	}
	rent := gpus * hours * u * price
	if !near(o.Values["own_saving_per_month"], rent-l["node_cost_per_month"]) {
		t.Errorf("owning saves %v, want %v", o.Values["own_saving_per_month"], rent-l["node_cost_per_month"])
	}
	flip := own / u / scalewayPerGPU
	if math.Abs(scalewayNode/8-scalewayPerGPU) > 1e-12 {
		t.Errorf("€%g an hour for 8 GPUs is not €%g a GPU-hour", scalewayNode, scalewayPerGPU)
	}

	f, err := excelize.OpenFile(book)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const live = "=(Cloud!$D$11*FX!$B$2)"
	found := false
	rows, _ := f.GetRows("Results")
	for r := range rows {
		for c := range rows[r] {
			cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
			if formula, _ := f.GetCellFormula("Results", cell); "="+formula == live {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no cell of Results is %s", live)
	}

	quotes(t, "docs/currency.md", page(t, "docs/currency.md"),
		"= "+bold(money(price, 4)), money(price, 6)+" = "+money(rent, 2), "= "+bold(percent(own/price)),
		bold(money(rent-l["node_cost_per_month"], 2))+" a month", "= "+bold(fmt.Sprintf("%.4f", flip)), "`"+live+"`",
		fmt.Sprintf("€%g × %g", scalewayPerGPU, ecbRate), fmt.Sprintf("€%g an hour for 8 GPUs", scalewayNode))
	quotes(t, "README.md", page(t, "README.md"),
		fmt.Sprintf("€%g", scalewayPerGPU), fmt.Sprintf("%g dollars a euro", ecbRate), money(price, 4), percent(own/price))
}

// The worked example after tax: each month owning keeps (1 − t) of its
// cash saving against the rent and saves t × the straight-line
// depreciation, (price − residual) ÷ months, in tax; the NPV discounts
// that at the cost of capital, the payback counts it undiscounted.
// planner's NPV is that, and docs/finance.md and the README quote it.
func TestWorkedAfterTaxExample(t *testing.T) {
	_, plan := freshPlan(t)
	const costOfCapital = 0.08
	d, _ := exampleEval(t, plan, "--set", fmt.Sprintf("tax_rate=%g", germanTax), "--set", fmt.Sprintf("cost_of_capital=%g", costOfCapital))
	n := articleNode()
	n["cost_of_capital"] = costOfCapital
	l, gpus, hours, u, capex, months := n.lines(), n["gpus"], n["hours_per_month"], n["utilization"], n["capex"], n["amortization_months"]
	shield := germanTax * capex * (1 - n["residual"]) / months
	after := func(price float64) (month, npv, payback float64) {
		cash := gpus*hours*u*price - l["running_cost_per_month"]
		month = (1-germanTax)*cash + shield
		return month, -capex + month*l["annuity_factor"] + n["residual"]*capex*l["discount_factor"], math.Ceil(capex / month)
	}
	lambdaMonth, lambdaNPV, lambdaPayback := after(lambdaPrice)
	secureMonth, secureNPV, securePayback := after(3.29)
	for label, want := range map[string][2]float64{"Lambda H100, 8-GPU plan": {lambdaNPV, lambdaPayback}, "RunPod H100 SXM, Secure": {secureNPV, securePayback}} {
		o := exampleOffer(t, d, label)
		if !near(o.Values["npv_saving"], want[0]) || o.Values["payback_months"] != want[1] {
			t.Errorf("%s after tax: NPV %v, payback %v; want %v, %v", label, o.Values["npv_saving"], o.Values["payback_months"], want[0], want[1])
		}
	}
	before := -capex + (gpus*hours*u*lambdaPrice-l["running_cost_per_month"])*l["annuity_factor"]
	if secureNPV >= 0 {
		t.Errorf("against RunPod Secure the NPV after tax is %v, the doc says below zero", secureNPV)
	}

	cash := gpus*hours*u*lambdaPrice - l["running_cost_per_month"]
	quotes(t, "docs/finance.md", page(t, "docs/finance.md"),
		"the rent, "+money(gpus*hours*u*lambdaPrice, 2), "saves "+money(cash, 2)+" in cash", "that is "+money((1-germanTax)*cash, 2),
		"36 = "+money(capex/months, 2), "saves "+money(shield, 2)+" of tax: "+money(lambdaMonth, 2),
		fmt.Sprintf("factor is %.4f", l["annuity_factor"]), "= "+bold(money(lambdaNPV, 0)), "(before tax, "+money(before, 0)+")",
		fmt.Sprintf("= %.1f months pays back in the %s (before tax, the %s)", capex/lambdaMonth, bold(ordinal(lambdaPayback)), ordinal(capex/cash)),
		"= "+money(secureMonth, 2)+" a month", "("+money(secureNPV, 0)+")", "in the "+ordinal(securePayback)+" month",
		fmt.Sprintf("With %.0f %% tax", 100*germanTax))
	quotes(t, "README.md", page(t, "README.md"),
		money(shield, 2)+" of tax a month", money(lambdaNPV, 0), "("+money(before, 0)+" before tax)")
}

// The sources table gives every public figure the examples type in, and
// the pages that use them link to it.
func TestWorkedExamplesCiteTheirSources(t *testing.T) {
	prices := page(t, "docs/prices.md")
	quotes(t, "docs/prices.md", prices,
		fmt.Sprintf("**$%.2f**", commitmentPrice), fmt.Sprintf("**$%.2f**", preemptiblePerH), fmt.Sprintf("**%.0f %%**", 100*preemptibleLost),
		fmt.Sprintf("**$%.2f**", fallbackPrice), fmt.Sprintf("**€%g**", scalewayNode), fmt.Sprintf("**€%g**", scalewayPerGPU),
		fmt.Sprintf("**%g**", ecbRate), fmt.Sprintf("**%.0f %%**", 100*germanTax), fmt.Sprintf("**$%.2f**", lambdaPrice),
		"2026-09-26", "2026-05-18", "2026-09-25", "2023-12-23", "**assumption**")
	for _, p := range []string{"docs/billing.md", "docs/currency.md", "docs/finance.md", "README.md"} {
		if !strings.Contains(page(t, p), "prices.md)") {
			t.Errorf("%s does not link to the prices' sources", p)
		}
	}
}

// The output the worked examples print is a real run's: every line of
// their printed blocks is a line planner prints for the workbook the page
// describes, eval's at its default samples.
func TestWorkedExamplesPrintAsQuoted(t *testing.T) {
	slow(t, "evaluates the worked examples at 10,000 samples")
	_, taxed := freshPlan(t)
	_, paths := freshPlan(t)
	euros := euroExample(t)
	for _, c := range []struct {
		page, after string
		plan        string
		args        []string
	}{
		{"docs/billing.md", "## A worked example", termAndSpotExample(t), []string{"eval", "--today", exampleToday}},
		{"docs/currency.md", "An example from public figures", euros, []string{"eval", "--today", exampleToday}},
		{"docs/currency.md", "`show` and `diff` tell", euros, []string{"show"}},
		{"docs/finance.md", "The run (Monte Carlo", taxed, []string{"eval", "--set", "tax_rate=30%", "--set", "cost_of_capital=8%", "-o", filepath.Join(t.TempDir(), "after-tax.xlsx")}},
		{"docs/finance.md", "## Paths over the term", paths, []string{"eval", "--set", "rent_price_change_per_year=-30%", "-o", filepath.Join(t.TempDir(), "paths.xlsx")}},
	} {
		var out, errs bytes.Buffer
		if code := run(append([]string{c.args[0], c.plan}, c.args[1:]...), &out, &errs); code != 0 {
			t.Fatalf("%s: %s: %s", c.page, c.args[0], errs.String())
		}
		printed := "\n" + strings.ReplaceAll(out.String()+errs.String(), c.plan, "plan.xlsx") + "\n"
		lines := printedBlock(t, c.page, c.after)
		if len(lines) < 2 {
			t.Fatalf("%s: no printed block after %q", c.page, c.after)
		}
		for _, line := range lines {
			if !strings.Contains(printed, "\n"+line+"\n") {
				t.Errorf("%s prints a line planner does not:\n%s", c.page, line)
			}
		}
	}
}

// printedBlock is the first fenced block of a page after the text after:
// its lines but the command, the elisions and the empty ones.
func printedBlock(t *testing.T, name, after string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), name))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, after)
	if i < 0 {
		t.Fatalf("%s has no %q", name, after)
	}
	_, block, ok := strings.Cut(text[i:], "```\n")
	if !ok {
		return nil
	}
	block, _, _ = strings.Cut(block, "```")
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		if l != "" && l != "…" && !strings.HasPrefix(l, "$ planner") {
			lines = append(lines, l)
		}
	}
	return lines
}
