package sheets

import (
	"fmt"

	"planner/deploy"
	"planner/domain"
	"planner/view"
	"planner/workbooks/internal/grid"
)

// billedRent links a row's rent for an offer that bills other than by its
// used hours, as deploy prices it: its price terms per card, per used hour
// for the deployment's hours, per calendar hour for the month of the
// scenario deploy.Result.Month names, and per month. Where Results or Cloud
// lack a cell the terms need, the rent stands as planner's value.
func billedRent(links map[string]string, out Output, lay *resultsLayout, d deploy.Result, cell func(string) string, hours string) {
	m := out.Plan.Model()
	t, ok := priceTerms(&m, d.Offer, cell(domain.OfferPrice))
	month := monthHours(out, lay, d.Month)
	if !ok || month == "" {
		delete(links, view.RentPerReplicaHour)
		delete(links, view.RentPerMonth)
		return
	}
	cards, replicas := cell(view.CardsPerReplica), cell(view.Replicas)
	fixed := t.fixed(month)
	if fixed == "" {
		links[view.RentPerReplicaHour] = fmt.Sprintf("%s*(%s)", cards, t.perUsedHour)
		return
	}
	perCard := fixed
	if t.perUsedHour != "" {
		perCard = fmt.Sprintf("(%s)*%s+%s", t.perUsedHour, hours, fixed)
	}
	rent := cell(view.RentPerMonth)
	links[view.RentPerMonth] = fmt.Sprintf("%s*%s*(%s)", cards, replicas, perCard)
	links[view.RentPerReplicaHour] = fmt.Sprintf("IF(%s>0,%s/(%s*%s),0)", hours, rent, hours, replicas)
}

// monthHours refers to the hours_per_month cell on Results of the named
// scenario; "" when Results has none.
func monthHours(out Output, lay *resultsLayout, scenario string) string {
	row, ok := lay.inputRow[domain.HoursPerMonth]
	for i, r := range out.Results {
		if ok && scenario != "" && r.Scenario == scenario {
			return grid.Absolute(Results, firstValue+i, row)
		}
	}
	return ""
}
