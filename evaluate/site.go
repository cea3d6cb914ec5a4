package evaluate

import (
	"math"

	"planner/deploy"
	"planner/diag"
	"planner/domain"
	"planner/fleet"
	"planner/units"
)

// siteWarnings say, at the site_kw cell, what the site's limit did to the
// fleet: the cheapest mix without it draws more than the site supplies
// (how many kW short, what the mix within it owns and costs, and the limit
// that owns the cheaper one), or nodes whose power planner does not know
// and so rents under the limit.
func siteWarnings(f fleet.Fleet, site deploy.Site) diag.Diagnostics {
	pw := f.Power
	var out diag.Diagnostics
	if pw.Binds {
		nodes := f.Best.Nodes
		proven := ""
		if !pw.Exact {
			proven = " (the split of the site among the GPUs is a mix that fits, not proven the cheapest: their nodes are too many to try each count)"
		}
		out = append(out, diag.Warningf(site.KWAt, domain.SiteKW,
			"the fleet's cheapest mix owns %s nodes drawing %s kW, %s kW more than the site's %s kW; within it the mix owns %s nodes (%s kW) and rents the rest, for %s a month instead of %s%s: to own the cheaper mix, raise site_kw to %s",
			units.Plain(float64(pw.UnlimitedNodes)), kw(pw.UnlimitedKW), kw(pw.ShortKW), kw(pw.LimitKW), units.Plain(float64(nodes)), kw(pw.KW),
			f.Currency.Format(f.Best.PerMonth, units.Money), f.Currency.Format(pw.UnlimitedMonth, units.Money), proven, kwUp(pw.UnlimitedKW)))
	}
	if len(pw.Unknown) > 0 && pw.LimitKW > 0 {
		out = append(out, diag.Warningf(site.KWAt, domain.SiteKW,
			"planner does not know the power of the nodes of %s (the scenario has no node_kw formula), so under the site's limit the fleet rents them: add the built-in node_kw to the Formulas sheet, or set site_kw to 0 for no limit",
			diag.ListAnd(pw.Unknown)))
	}
	return out
}

// kw writes a power in kW as the messages do: to two decimals at most.
func kw(v float64) string { return units.Plain(float64(int64(v*100+0.5)) / 100) }

// kwUp is kw rounded up, for a limit that must hold a draw.
func kwUp(v float64) string { return units.Plain(math.Ceil(v*100-1e-9) / 100) }
