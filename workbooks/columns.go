package workbooks

import (
	"strings"
	"unicode"

	"planner/diag"
)

// column describes a column of an input sheet: the key planner uses and the
// header texts it accepts, compared without case, spaces or punctuation.
type column struct {
	key      string
	headers  []string
	required bool
}

var assumptionColumns = []column{
	{key: "name", headers: []string{"name"}, required: true},
	{key: "value", headers: []string{"value"}, required: true},
	{key: "unit", headers: []string{"unit", "units"}},
	{key: "low", headers: []string{"low", "min"}},
	{key: "high", headers: []string{"high", "max"}},
	{key: "distribution", headers: []string{"distribution", "dist"}},
	{key: "notes", headers: []string{"sourcenotes", "source", "notes", "sources"}},
}

var correlationColumns = []column{
	{key: "a", headers: []string{"input"}, required: true},
	{key: "b", headers: []string{"with", "and", "otherinput"}, required: true},
	{key: "rho", headers: []string{"rankcorrelation", "correlation", "rho"}, required: true},
	{key: "notes", headers: []string{"notes", "source"}},
}

var cloudColumns = []column{
	{key: "provider", headers: []string{"provider"}, required: true},
	{key: "offer", headers: []string{"offer"}, required: true},
	{key: "gpu", headers: []string{"gpu"}, required: true},
	{key: "price", headers: []string{"gpuhour", "pergpuhour", "pricepergpuhour", "price"}, required: true},
	{key: "asof", headers: []string{"asof", "date"}},
	{key: "source", headers: []string{"source"}},
	{key: "notes", headers: []string{"notes"}},
}

var formulaColumns = []column{
	{key: "name", headers: []string{"name"}, required: true},
	{key: "expression", headers: []string{"expression", "formula"}, required: true},
	{key: "unit", headers: []string{"unit", "units"}},
	{key: "description", headers: []string{"description", "notes"}},
	{key: "label", headers: []string{"label"}},
}

// headerKey reduces a header text to letters and digits, lower case:
// "$/GPU-hour" -> "gpuhour", "source / notes" -> "sourcenotes".
func headerKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

var gpuColumns = []column{
	{key: "name", headers: []string{"name", "gpu"}, required: true},
	{key: "memory", headers: []string{"memorygb", "memory"}, required: true},
	{key: "watts", headers: []string{"boardwatts", "watts", "boardpower", "tdp"}},
	{key: "interconnect", headers: []string{"interconnect"}},
	{key: "source", headers: []string{"source", "notes"}},
}

var modelColumns = []column{
	{key: "name", headers: []string{"name", "model"}, required: true},
	{key: "total", headers: []string{"totalparamsb", "totalparams", "params", "parameters"}, required: true},
	{key: "active", headers: []string{"activeparamsb", "activeparams"}},
	{key: "precision", headers: []string{"precision"}, required: true},
	{key: "bytes", headers: []string{"bytesperparam", "bytesperparameter"}},
	{key: "layers", headers: []string{"layers"}},
	{key: "kvheads", headers: []string{"kvheads"}},
	{key: "headdim", headers: []string{"headdim"}},
	{key: "context", headers: []string{"maxcontext", "context"}},
	{key: "sequences", headers: []string{"sequences", "concurrentsequences"}},
	{key: "kvprecision", headers: []string{"kvprecision"}},
	{key: "source", headers: []string{"source", "notes"}},
}

var deploymentColumns = []column{
	{key: "name", headers: []string{"name", "deployment"}, required: true},
	{key: "model", headers: []string{"model"}, required: true},
	{key: "precision", headers: []string{"precision"}},
	{key: "gpu", headers: []string{"gpu"}, required: true},
	{key: "cards", headers: []string{"cardsperreplica", "cards"}},
	{key: "replicas", headers: []string{"replicas"}},
	{key: "hoursday", headers: []string{"hoursperday"}},
	{key: "days", headers: []string{"dayspermonth"}},
	{key: "hoursmonth", headers: []string{"hourspermonth"}},
	{key: "offer", headers: []string{"offer", "cloudoffer"}},
	{key: "scenario", headers: []string{"scenario", "ownscenario"}},
	{key: "tokens", headers: []string{"tokenspersecondperreplica", "tokenspersecond", "throughput"}},
	{key: "peak", headers: []string{"peaktokenspersecond", "peaktokens", "peak"}},
	{key: "mix", headers: []string{"inputoutputtokenmix", "inputoutputmix", "tokenmix", "mix"}},
	{key: "api", headers: []string{"api", "comparewithapi"}},
	{key: "notes", headers: []string{"notes", "source"}},
}

var apiColumns = []column{
	{key: "provider", headers: []string{"provider"}, required: true},
	{key: "model", headers: []string{"model"}, required: true},
	{key: "input", headers: []string{"permillioninputtokens", "inputpermillion", "input"}, required: true},
	{key: "output", headers: []string{"permillionoutputtokens", "outputpermillion", "output"}, required: true},
	{key: "cached", headers: []string{"permillioncachedinputtokens", "cachedinputpermillion", "cachedinput", "cached"}},
	{key: "asof", headers: []string{"asof", "date"}},
	{key: "source", headers: []string{"source", "notes"}},
}

var targetColumns = []column{
	{key: "name", headers: []string{"name", "target", "formula"}, required: true},
	{key: "notes", headers: []string{"notes"}},
}

var tableColumns = []column{
	{key: "name", headers: []string{"name", "table"}, required: true},
	{key: "output", headers: []string{"output", "formula"}, required: true},
	{key: "rowinput", headers: []string{"rowinput"}, required: true},
	{key: "rowfrom", headers: []string{"rowfrom"}},
	{key: "rowto", headers: []string{"rowto"}},
	{key: "rowsteps", headers: []string{"rowsteps"}},
	{key: "colinput", headers: []string{"columninput", "colinput"}},
	{key: "colfrom", headers: []string{"columnfrom", "colfrom"}},
	{key: "colto", headers: []string{"columnto", "colto"}},
	{key: "colsteps", headers: []string{"columnsteps", "colsteps"}},
	{key: "shade", headers: []string{"greenwhen", "green", "shade", "colour", "color"}},
	{key: "notes", headers: []string{"notes"}},
}

var goalColumns = []column{
	{key: "name", headers: []string{"name", "goal"}, required: true},
	{key: "for", headers: []string{"solvefor", "for"}, required: true},
	{key: "target", headers: []string{"target"}, required: true},
	{key: "value", headers: []string{"value"}, required: true},
	{key: "offer", headers: []string{"offer"}},
	{key: "with", headers: []string{"with"}},
	{key: "low", headers: []string{"low"}},
	{key: "high", headers: []string{"high"}},
	{key: "notes", headers: []string{"notes"}},
}

func headerNames(cols []column) string {
	var names []string
	for _, c := range cols {
		names = append(names, c.key)
	}
	return diag.List(names)
}
