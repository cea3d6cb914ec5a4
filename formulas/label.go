package formulas

import (
	"strings"
	"sync"
)

// LabelOf is what a reader calls the formula: its own label; else, for a
// formula named like a built-in one (a workbook's Formulas sheet without
// labels), the built-in's; else its name made readable (Readable).
func LabelOf(f Formula) string {
	if f.Label != "" {
		return f.Label
	}
	if l := libraryLabels()[f.Name]; l != "" {
		return l
	}
	return Readable(f.Name)
}

var libraryLabels = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	for _, f := range Library() {
		out[f.Name] = f.Label
	}
	return out
})

// Readable makes a name into words, the same way every time: underscores
// become spaces, the first letter is capitalised, abbreviations are written
// as people write them, and a GPU's hour or month is a GPU-hour or a
// GPU-month: rent_per_gpu_hour reads "Rent per GPU-hour", node_kw "Node kW".
func Readable(name string) string {
	var words []string
	for _, w := range strings.Split(name, "_") {
		if w == "" {
			continue
		}
		if spelt, ok := spelling[strings.ToLower(w)]; ok {
			w = spelt
		}
		if n := len(words); n > 0 && (words[n-1] == "GPU" || words[n-1] == "node") && (w == "hour" || w == "month") {
			words[n-1] += "-" + w
			continue
		}
		words = append(words, w)
	}
	if len(words) == 0 {
		return name
	}
	first := words[0]
	words[0] = strings.ToUpper(first[:1]) + first[1:]
	return strings.Join(words, " ")
}

// spelling is how a reader writes the abbreviations and words that names
// spell in lower case.
var spelling = map[string]string{
	"gpu": "GPU", "gpus": "GPUs", "cpu": "CPU", "cpus": "CPUs", "kv": "KV", "tp": "TP", "pue": "PUE",
	"kw": "kW", "kwh": "kWh", "mw": "MW", "gb": "GB", "tb": "TB", "usd": "USD", "eur": "EUR",
	"tco": "TCO", "roi": "ROI", "npv": "NPV", "irr": "IRR", "capex": "capex", "opex": "opex",
	"breakeven": "break-even", "id": "ID", "api": "API", "llm": "LLM",
}
