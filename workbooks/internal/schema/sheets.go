package schema

// The input sheets, each declared once. A column's Aliases are compared
// after HeaderKey; its Header always counts.

var Assumptions = Sheet{Name: "Assumptions", NamesTo: 500, Columns: []Column{
	{Key: "name", Header: "name", Required: true, Width: 22},
	{Key: "value", Header: "value", Required: true, Width: 14},
	{Key: "unit", Header: "unit", Aliases: []string{"units"}, Width: 10},
	{Key: "low", Header: "low", Aliases: []string{"min"}, Width: 14},
	{Key: "high", Header: "high", Aliases: []string{"max"}, Width: 14},
	{Key: "distribution", Header: "distribution", Aliases: []string{"dist"}, Width: 14},
	{Key: "notes", Header: "source / notes", Aliases: []string{"source", "notes", "sources"}, Width: 80},
}}

// Scenarios is one column per scenario after the inputs' names; it is read
// as a grid, not a table.
var Scenarios = Sheet{Name: "Scenarios", Frozen: 1, Columns: []Column{
	{Key: "input", Header: "input", Required: true, Width: 22},
}}

var Cloud = Sheet{Name: "Cloud", Columns: []Column{
	{Key: "provider", Header: "provider", Required: true, Width: 12},
	{Key: "offer", Header: "offer", Required: true, Width: 46},
	{Key: "gpu", Header: "gpu", Required: true, Pick: GPUs.Name, Width: 12},
	{Key: "price", Header: "$/GPU-hour", Aliases: []string{"pergpuhour", "pricepergpuhour", "price"}, Required: true, Unit: "$/GPU-h", Width: 12},
	{Key: "asof", Header: "as of", Aliases: []string{"date"}, Width: 12},
	{Key: "source", Header: "source", Width: 36},
	{Key: "notes", Header: "notes", Width: 50},
	// How the offer bills, after the columns planner always read, so that
	// a workbook's price cells stay where they were.
	{Key: "billing", Header: "billing", Pick: Billings, Width: 12},
	{Key: "term", Header: "term months", Aliases: []string{"term"}, Unit: "months", Width: 10},
	{Key: "upfront", Header: "upfront", Aliases: []string{"upfrontpergpu"}, Unit: "$", Width: 11},
	{Key: "interruption", Header: "interruption", Unit: "%", Width: 12},
	{Key: "fallback", Header: "fallback", Pick: Offers, Width: 30},
	{Key: "extras", Header: "extras per GPU-month", Aliases: []string{"extras"}, Unit: "$/month", Width: 12},
	{Key: "currency", Header: "currency", Width: 9},
}}

var APIs = Sheet{Name: "APIs", Columns: []Column{
	{Key: "provider", Header: "provider", Required: true, Width: 14},
	{Key: "model", Header: "model", Required: true, Width: 30},
	{Key: "input", Header: "$ per million input tokens", Aliases: []string{"inputpermillion", "input"}, Required: true, Unit: "$/M tokens", Width: 14},
	{Key: "output", Header: "$ per million output tokens", Aliases: []string{"outputpermillion", "output"}, Required: true, Unit: "$/M tokens", Width: 14},
	{Key: "cached", Header: "$ per million cached input tokens", Aliases: []string{"cachedinputpermillion", "cachedinput", "cached"}, Unit: "$/M tokens", Width: 14},
	{Key: "asof", Header: "as of", Aliases: []string{"date"}, Width: 12},
	{Key: "source", Header: "source", Aliases: []string{"notes"}, Width: 40},
	{Key: "currency", Header: "currency", Width: 9},
}}

// FX gives the rate of each other currency an offer or an API is listed
// in: what one unit of it is worth in the workbook's currency (US dollars
// unless the input currency names another).
var FX = Sheet{Name: "FX", Columns: []Column{
	{Key: "currency", Header: "currency", Aliases: []string{"code"}, Required: true, Width: 10},
	{Key: "rate", Header: "rate", Aliases: []string{"fxrate", "exchangerate", "ratetotheworkbookscurrency"}, Required: true, Width: 12},
	{Key: "asof", Header: "as of", Aliases: []string{"date"}, Width: 12},
	{Key: "source", Header: "source", Aliases: []string{"notes"}, Width: 50},
}}

var GPUs = Sheet{Name: "GPUs", NamesTo: 200, Columns: []Column{
	{Key: "name", Header: "name", Aliases: []string{"gpu"}, Required: true, Width: 14},
	{Key: "memory", Header: "memory GB", Aliases: []string{"memory"}, Required: true, Width: 12},
	{Key: "watts", Header: "board watts", Aliases: []string{"watts", "boardpower", "tdp"}, Width: 12},
	{Key: "idlewatts", Header: "idle watts", Aliases: []string{"idlepower", "idle"}, Width: 10},
	{Key: "bandwidth", Header: "memory bandwidth TB/s", Aliases: []string{"bandwidth", "memorybandwidth", "bandwidthtbs"}, Width: 12},
	{Key: "interconnect", Header: "interconnect", Width: 16},
	{Key: "source", Header: "source", Aliases: []string{"notes"}, Width: 70},
	{Key: "asof", Header: "as of", Aliases: []string{"date", "sourcedate"}, Width: 12},
}}

var Models = Sheet{Name: "Models", Frozen: 1, NamesTo: 200, Columns: []Column{
	{Key: "name", Header: "name", Aliases: []string{"model"}, Required: true, Width: 40},
	{Key: "total", Header: "total params B", Aliases: []string{"totalparams", "params", "parameters"}, Required: true, Width: 12},
	{Key: "active", Header: "active params B", Aliases: []string{"activeparams"}, Width: 12},
	{Key: "precision", Header: "precision", Required: true, Width: 10},
	{Key: "bytes", Header: "bytes per param", Aliases: []string{"bytesperparameter"}, Width: 12},
	{Key: "layers", Header: "layers", Width: 8},
	{Key: "kvheads", Header: "kv heads", Width: 9},
	{Key: "headdim", Header: "head dim", Width: 9},
	{Key: "context", Header: "max context", Aliases: []string{"context"}, Width: 11},
	{Key: "sequences", Header: "sequences", Aliases: []string{"concurrentsequences"}, Width: 10},
	{Key: "kvprecision", Header: "kv precision", Width: 11},
	{Key: "attention", Header: "attention", Aliases: []string{"attentionlayout", "layout"}, Pick: Attentions, Width: 16},
	{Key: "latentdim", Header: "latent dim", Aliases: []string{"kvlorarank"}, Width: 9},
	{Key: "ropedim", Header: "rope dim", Aliases: []string{"qkropeheaddim"}, Width: 9},
	{Key: "window", Header: "window", Aliases: []string{"slidingwindow"}, Width: 9},
	{Key: "windowedlayers", Header: "windowed layers", Width: 10},
	{Key: "source", Header: "source", Aliases: []string{"notes"}, Width: 40},
}}

var Deployments = Sheet{Name: "Deployments", Frozen: 1, Columns: []Column{
	{Key: "name", Header: "name", Aliases: []string{"deployment"}, Required: true, Width: 36},
	{Key: "model", Header: "model", Required: true, Pick: Models.Name, Width: 36},
	{Key: "precision", Header: "precision", Pick: Precisions, Width: 10},
	{Key: "gpu", Header: "gpu", Required: true, Pick: GPUs.Name, Width: 11},
	{Key: "cards", Header: "cards per replica", Aliases: []string{"cards"}, Unit: "cards", Width: 10},
	{Key: "replicas", Header: "replicas", Unit: "replicas", Width: 9},
	{Key: "hoursday", Header: "hours per day", Width: 9},
	{Key: "days", Header: "days per month", Width: 9},
	{Key: "hoursmonth", Header: "hours per month", Width: 9},
	{Key: "offer", Header: "offer", Aliases: []string{"cloudoffer"}, Width: 44},
	{Key: "scenario", Header: "scenario", Aliases: []string{"ownscenario"}, Width: 14},
	{Key: "notes", Header: "notes", Aliases: []string{"source"}, Width: 40},
	{Key: "tokens", Header: "tokens per second per replica", Aliases: []string{"tokenspersecond", "throughput"}, Width: 12},
	{Key: "peak", Header: "peak tokens per second", Aliases: []string{"peaktokens", "peak"}, Width: 12},
	{Key: "mix", Header: "input:output token mix", Aliases: []string{"inputoutputmix", "tokenmix", "mix"}, Width: 12},
	{Key: "api", Header: "API", Aliases: []string{"comparewithapi"}, Width: 30},
	{Key: "profile", Header: "busy hours profile", Aliases: []string{"dailyprofile", "profile"}, Width: 30},
	// Latency targets, instead of a typed throughput: planner reads the
	// replica's tokens per second from the Benchmarks sheet's curve.
	{Key: "ttfttarget", Header: "ttft target ms", Aliases: []string{"ttfttarget", "ttft"}, Width: 10},
	{Key: "tpottarget", Header: "tpot target ms", Aliases: []string{"tpottarget", "tpot"}, Width: 10},
	{Key: "percentile", Header: "latency percentile", Aliases: []string{"percentile"}, Width: 10},
}}

// Benchmarks are measured points of a model served on a GPU, one load
// (concurrency, or request rate) a row: what planner import bench adds,
// or rows a user types. Latencies are in milliseconds, at the percentiles
// the measurement gives.
var Benchmarks = Sheet{Name: "Benchmarks", Frozen: 2, Columns: []Column{
	{Key: "gpu", Header: "gpu", Required: true, Pick: GPUs.Name, Width: 12},
	{Key: "model", Header: "model", Required: true, Pick: Models.Name, Width: 30},
	{Key: "precision", Header: "precision", Required: true, Pick: Precisions, Width: 10},
	{Key: "cards", Header: "cards per replica", Aliases: []string{"cards"}, Required: true, Width: 9},
	{Key: "concurrency", Header: "concurrency", Width: 11},
	{Key: "rate", Header: "request rate per second", Aliases: []string{"requestrate", "rate"}, Width: 11},
	{Key: "tokens", Header: "output tokens per second", Aliases: []string{"outputtokenspersecond", "outputthroughput"}, Required: true, Width: 12},
	{Key: "total", Header: "total tokens per second", Aliases: []string{"totaltokenspersecond", "totalthroughput"}, Width: 12},
	{Key: "ttft50", Header: "ttft p50 ms", Width: 9},
	{Key: "ttft90", Header: "ttft p90 ms", Width: 9},
	{Key: "ttft99", Header: "ttft p99 ms", Width: 9},
	{Key: "tpot50", Header: "tpot p50 ms", Width: 9},
	{Key: "tpot90", Header: "tpot p90 ms", Width: 9},
	{Key: "tpot99", Header: "tpot p99 ms", Width: 9},
	{Key: "itl50", Header: "itl p50 ms", Width: 9},
	{Key: "itl90", Header: "itl p90 ms", Width: 9},
	{Key: "itl99", Header: "itl p99 ms", Width: 9},
	{Key: "source", Header: "source", Aliases: []string{"file"}, Width: 40},
	{Key: "asof", Header: "date", Aliases: []string{"asof"}, Width: 11},
}}

var Correlations = Sheet{Name: "Correlations", Columns: []Column{
	{Key: "a", Header: "input", Required: true, Width: 22},
	{Key: "b", Header: "with", Aliases: []string{"and", "otherinput"}, Required: true, Width: 22},
	{Key: "rho", Header: "rank correlation", Aliases: []string{"correlation", "rho"}, Required: true, Width: 16},
	{Key: "notes", Header: "notes", Aliases: []string{"source"}, Width: 80},
}}

var Targets = Sheet{Name: "Targets", Columns: []Column{
	{Key: "name", Header: "name", Aliases: []string{"target", "formula"}, Required: true, Pick: Formulas.Name, Width: 30},
	{Key: "notes", Header: "notes", Width: 80},
}}

var Tables = Sheet{Name: "Tables", Frozen: 1, Columns: []Column{
	{Key: "name", Header: "name", Aliases: []string{"table"}, Required: true, Width: 44},
	{Key: "output", Header: "output", Aliases: []string{"formula"}, Required: true, Pick: Formulas.Name, Width: 30},
	{Key: "rowinput", Header: "row input", Required: true, Pick: Assumptions.Name, Width: 18},
	{Key: "rowfrom", Header: "row from", Width: 10},
	{Key: "rowto", Header: "row to", Width: 10},
	{Key: "rowsteps", Header: "row steps", Width: 8},
	{Key: "colinput", Header: "column input", Aliases: []string{"colinput"}, Pick: Assumptions.Name, Width: 18},
	{Key: "colfrom", Header: "column from", Aliases: []string{"colfrom"}, Width: 10},
	{Key: "colto", Header: "column to", Aliases: []string{"colto"}, Width: 10},
	{Key: "colsteps", Header: "column steps", Aliases: []string{"colsteps"}, Width: 8},
	{Key: "shade", Header: "green when", Aliases: []string{"green", "shade", "colour", "color"}, Width: 10},
	{Key: "notes", Header: "notes", Width: 90},
}}

var Goals = Sheet{Name: "Goals", Frozen: 1, Columns: []Column{
	{Key: "name", Header: "name", Aliases: []string{"goal"}, Required: true, Width: 50},
	{Key: "for", Header: "solve for", Aliases: []string{"for"}, Required: true, Pick: Assumptions.Name, Width: 18},
	{Key: "target", Header: "target", Required: true, Pick: Formulas.Name, Width: 26},
	{Key: "value", Header: "value", Required: true, Width: 12},
	{Key: "offer", Header: "offer", Width: 26},
	{Key: "with", Header: "with", Width: 24},
	{Key: "low", Header: "low", Width: 12},
	{Key: "high", Header: "high", Width: 12},
	{Key: "notes", Header: "notes", Width: 80},
}}

var Formulas = Sheet{Name: "Formulas", NamesTo: 500, Columns: []Column{
	{Key: "name", Header: "name", Required: true, Width: 30},
	{Key: "expression", Header: "expression", Aliases: []string{"formula"}, Required: true, Width: 84},
	{Key: "unit", Header: "unit", Aliases: []string{"units"}, Width: 10},
	{Key: "description", Header: "description", Aliases: []string{"notes"}, Width: 60},
	{Key: "label", Header: "label", Width: 36},
}}

// Inputs are the sheets init creates for the user to edit, in order.
func Inputs() []Sheet {
	return []Sheet{Assumptions, Scenarios, Cloud, APIs, FX, GPUs, Models, Deployments, Benchmarks, Correlations, Targets, Tables, Goals, Formulas}
}

// Names of the input sheets, in order.
func InputNames() []string {
	var out []string
	for _, s := range Inputs() {
		out = append(out, s.Name)
	}
	return out
}

// Named is the input sheet called name, and whether there is one.
func Named(name string) (Sheet, bool) {
	for _, s := range Inputs() {
		if s.Name == name {
			return s, true
		}
	}
	return Sheet{}, false
}
