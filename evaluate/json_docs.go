package evaluate

import (
	"fmt"
	"strings"

	"planner/engine"
	"planner/formulas"
	"planner/workbooks"
)

// ShownJSON is show's document: the same facts and results as its text,
// each with the line show prints for it.
type ShownJSON struct {
	File     string           `json:"file"`
	Warnings []DiagnosticJSON `json:"warnings,omitempty"`
	Problems []DiagnosticJSON `json:"problems,omitempty"` // the cells planner cannot read; the facts list them too
	Facts    []FactJSON       `json:"facts"`
	Inputs   string           `json:"inputs"`                  // the inputs' fingerprint
	Stored   string           `json:"results_sheet,omitempty"` // the inputs the Results sheet was computed from
	Broken   string           `json:"not_computed,omitempty"`  // why there are no results
	Results  []ResultJSON     `json:"results"`
}

// FactJSON is one fact of show.
type FactJSON struct {
	Kind  string `json:"kind"`
	Key   string `json:"key"`
	Value string `json:"value"`
	Text  string `json:"text"`
}

// ResultJSON is one result of show: null, and its error, when it failed.
type ResultJSON struct {
	Scenario string   `json:"scenario"`
	Offer    string   `json:"offer,omitempty"`
	Name     string   `json:"name"`
	Unit     string   `json:"unit"`
	Value    *float64 `json:"value"`
	Error    string   `json:"error,omitempty"`
	Text     string   `json:"text"`
}

// JSON is the workbook shown as show --format json prints it.
func (s *Shown) JSON() *ShownJSON {
	doc := &ShownJSON{File: s.File, Warnings: DiagnosticsJSON(s.Warnings), Problems: DiagnosticsJSON(s.Problems), Facts: []FactJSON{}, Inputs: s.Inputs, Stored: s.Stored,
		Broken: s.Broken, Results: []ResultJSON{}}
	for _, f := range s.Facts {
		doc.Facts = append(doc.Facts, FactJSON{Kind: f.Kind, Key: f.Key, Value: f.Value, Text: f.String()})
	}
	for _, r := range s.Results {
		j := ResultJSON{Scenario: r.Scenario, Offer: r.Offer, Name: r.Name, Unit: r.Currency.Unit(r.Unit), Error: r.Err, Text: r.Text()}
		if r.Err == "" {
			j.Value = &r.Value
		}
		doc.Results = append(doc.Results, j)
	}
	return doc
}

// SizesJSON is size's document: the model, the rule it was sized by, and
// its size on each GPU.
type SizesJSON struct {
	File  string     `json:"file,omitempty"`
	Model ModelJSON  `json:"model"`
	Rule  RuleJSON   `json:"rule"`
	Sizes []SizeJSON `json:"sizes"`
}

// ModelJSON is the model sized.
type ModelJSON struct {
	Name          string    `json:"name"`
	ParamsB       float64   `json:"params_b"`
	ActiveParamsB float64   `json:"active_params_b,omitempty"`
	Precision     string    `json:"precision"`
	Architecture  *ArchJSON `json:"architecture,omitempty"`
}

// ArchJSON is what the KV cache of one replica depends on.
type ArchJSON struct {
	Layers    float64 `json:"layers"`
	KVHeads   float64 `json:"kv_heads"`
	HeadDim   float64 `json:"head_dim"`
	Context   float64 `json:"context"`
	Sequences float64 `json:"sequences"`
	KVBytes   float64 `json:"kv_bytes"`
	// The attention layout and the figures it reads, when the Models sheet gives one.
	Attention      string  `json:"attention,omitempty"`
	LatentDim      float64 `json:"latent_dim,omitempty"`
	RopeDim        float64 `json:"rope_dim,omitempty"`
	Window         float64 `json:"window,omitempty"`
	WindowedLayers float64 `json:"windowed_layers,omitempty"`
}

// RuleJSON says where the KV reserve comes from: the architecture, or
// kv_headroom, a share of the weights.
type RuleJSON struct {
	KVReserve  string   `json:"kv_reserve"` // "architecture" or "kv_headroom"
	KVHeadroom *float64 `json:"kv_headroom,omitempty"`
	NodeGPUs   int      `json:"node_gpus"`
}

// SizeJSON is the model on one GPU.
type SizeJSON struct {
	GPU            string  `json:"gpu"`
	GPUMemoryGB    float64 `json:"gpu_memory_gb"`
	WeightsGB      float64 `json:"weights_gb"`
	KVReserveGB    float64 `json:"kv_reserve_gb"`
	MinCards       int     `json:"min_cards"`
	MinCardsTP     int     `json:"min_cards_tp"`
	UsualCards     int     `json:"usual_cards"`
	KVGBPerReplica float64 `json:"kv_gb_per_replica"`
	FitsNode       bool    `json:"fits_node"`
	Note           string  `json:"note"`
}

// JSON is the sizing as size --format json prints it; file is the
// workbook whose catalogs were used, "" for the built-in ones.
func (s *Sized) JSON(file string) *SizesJSON {
	m := s.Model
	doc := &SizesJSON{File: file, Model: ModelJSON{Name: m.Name, ParamsB: m.TotalParamsB, ActiveParamsB: m.ActiveParamsB,
		Precision: strings.ToUpper(m.Precision)}, Rule: RuleJSON{KVReserve: "kv_headroom", KVHeadroom: &s.Rule.KVHeadroom, NodeGPUs: s.Rule.NodeGPUs},
		Sizes: []SizeJSON{}}
	if a := m.Arch; a != nil {
		doc.Model.Architecture = &ArchJSON{a.Layers, a.KVHeads, a.HeadDim, a.Context, a.Sequences, a.KVBytes,
			a.Attention, a.LatentDim, a.RopeDim, a.Window, a.WindowedLayers}
		doc.Rule = RuleJSON{KVReserve: "architecture", NodeGPUs: s.Rule.NodeGPUs}
	}
	for i, r := range s.Sizes {
		doc.Sizes = append(doc.Sizes, SizeJSON{GPU: r.GPU, GPUMemoryGB: s.GPUs[i].MemoryGB, WeightsGB: r.WeightsGB,
			KVReserveGB: r.KVGB, MinCards: r.MinCards, MinCardsTP: r.MinCardsTP, UsualCards: r.UsualCards,
			KVGBPerReplica: r.KVGBPerReplica, FitsNode: r.FitsNode, Note: r.Note})
	}
	return doc
}

// FormulasDoc is formulas' document: every formula of file ("" for the
// built-in library), where it was written (a cell, or a line of the
// library), and with excel its translation.
type FormulasDoc struct {
	File     string        `json:"file,omitempty"`
	Formulas []FormulaJSON `json:"formulas"`
}

// FormulaJSON is one formula.
type FormulaJSON struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	Unit   string `json:"unit"`
	Doc    string `json:"doc"`
	Origin string `json:"origin"`
	Excel  string `json:"excel,omitempty"`
}

// FormulasJSON lists plan's formulas as formulas --format json prints them.
func FormulasJSON(file string, plan *engine.Plan, excel bool) *FormulasDoc {
	doc := &FormulasDoc{File: file, Formulas: []FormulaJSON{}}
	for _, c := range plan.Checked() {
		j := FormulaJSON{Name: c.Name, Source: c.Source, Unit: plan.Currency().Unit(c.Unit), Doc: c.Doc, Origin: c.Origin.Where()}
		if excel {
			j.Excel = Excel(plan, c)
		}
		doc.Formulas = append(doc.Formulas, j)
	}
	return doc
}

// Excel is the formula as planner writes it into the Results sheet's base
// column, over the defined names (a name Excel would misread stands for
// its cell), or why it stays a value there.
func Excel(plan *engine.Plan, c *formulas.Checked) string {
	s, err := c.Excel(plan.Env(), func(name string) (string, error) {
		if workbooks.ExcelNameProblem(name) != "" {
			return "<the cell of " + name + ">", nil
		}
		return name, nil
	})
	if err != nil {
		return fmt.Sprintf("(stays a value: %v)", err)
	}
	return "=" + s
}
