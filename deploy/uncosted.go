package deploy

import (
	"strings"

	"planner/diag"
)

// Uncosted warns, at each deployment's row, of the deployments planner
// could not cost: the fleet and its cheapest mix leave them out, and a
// deployment left out without a word would make the fleet's months look
// complete.
func Uncosted(rs []Result) diag.Diagnostics {
	var out diag.Diagnostics
	for _, r := range rs {
		if r.Costed() {
			continue
		}
		msg := "not costed, so the fleet and its cheapest mix leave it out: " + strings.TrimPrefix(r.Words, "not costed: ")
		if r.Cards == 0 { // sizing found no cards; the rent's words say their own fix
			msg += "; type its cards per replica, or choose a GPU with more memory"
		}
		out = append(out, diag.Warningf(r.Origin, r.Name, "%s", msg))
	}
	return out
}

// Costed reports whether planner priced the deployment: its cards, its
// rent and, with a scenario owning its GPU, its verdict.
func (r Result) Costed() bool { return r.Phrase != nil }
