package evaluate

import (
	"fmt"

	"planner/diag"
	"planner/domain"
	"planner/sizing"
)

// SizeRequest is what to size, as the size command's flags give it: a
// catalog model by name, or a model by its parameters and precision, with
// an architecture for the KV cache if all of it is given.
type SizeRequest struct {
	Model       string   // a model of the catalog
	Params      float64  // total parameters, billions
	Active      float64  // active parameters of a MoE, billions
	Precision   string   // BF16, FP8, ...
	GPUs        []string // GPUs to size on; every catalog GPU when empty
	KVHeadroom  float64  // KV reserve as a share of the weights, when KVGiven
	KVGiven     bool
	Arch        sizing.Architecture
	KVPrecision string
}

// Sized is a model sized on each GPU asked for, by the rule used.
type Sized struct {
	Model sizing.ModelSpec
	GPUs  []sizing.GPUSpec
	Sizes []sizing.Result // as GPUs
	Rule  sizing.Rule
}

// Size sizes the request against the catalogs and kv_headroom of catalog
// (a workbook's model, or the default one).
func Size(req SizeRequest, catalog domain.Model) (*Sized, error) {
	m, err := modelToSize(req, &catalog)
	if err != nil {
		return nil, err
	}
	gpus, err := gpusToSize(req.GPUs, &catalog)
	if err != nil {
		return nil, err
	}
	rule, err := sizingRule(req, &catalog)
	if err != nil {
		return nil, err
	}
	out := &Sized{Model: m, GPUs: gpus, Rule: rule}
	for _, g := range gpus {
		s, err := sizing.Size(m, g, rule)
		if err != nil {
			return nil, err
		}
		out.Sizes = append(out.Sizes, s)
	}
	return out, nil
}

// modelToSize is the catalog model --model names, or the one the flags
// describe.
func modelToSize(req SizeRequest, catalog *domain.Model) (sizing.ModelSpec, error) {
	var m sizing.ModelSpec
	switch {
	case req.Model != "" && req.Params != 0:
		return m, fmt.Errorf("give either --model or --params, not both")
	case req.Model != "":
		var ok bool
		if m, ok = catalog.ModelSpec(req.Model); !ok {
			return m, fmt.Errorf("--model %s: not in the Models catalog; known models: %s", req.Model, catalogNames(catalog))
		}
	case req.Params < 0 || req.Active < 0 || req.Active > req.Params:
		return m, fmt.Errorf("--params %g --active %g: parameters must be above zero, and active ones at most the total", req.Params, req.Active)
	case req.Params == 0:
		return m, fmt.Errorf("say what to size: --params 70 --precision fp8, or --model NAME from the catalog (%s)", catalogNames(catalog))
	default:
		m = sizing.ModelSpec{Name: fmt.Sprintf("%gB", req.Params), TotalParamsB: req.Params, ActiveParamsB: req.Active, Precision: req.Precision}
		if req.Precision == "" {
			return m, fmt.Errorf("--params %g: give its --precision too (%s)", req.Params, sizing.PrecisionNames())
		}
	}
	if req.Precision != "" {
		if _, ok := sizing.BytesPer(req.Precision); !ok {
			return m, fmt.Errorf("--precision %s: not known; use one of %s", req.Precision, sizing.PrecisionNames())
		}
		m.Precision, m.BytesPerParam = req.Precision, 0
	}
	arch, err := architecture(req, m.Precision)
	if err != nil {
		return m, err
	}
	if arch != nil {
		m.Arch = arch
	}
	return m, nil
}

// architecture reads the architecture flags: all five or none.
func architecture(req SizeRequest, precision string) (*sizing.Architecture, error) {
	a := req.Arch
	set := 0
	for _, v := range []float64{a.Layers, a.KVHeads, a.HeadDim, a.Context, a.Sequences} {
		if v < 0 {
			return nil, fmt.Errorf("architecture values must be above zero")
		}
		if v > 0 {
			set++
		}
	}
	switch set {
	case 0:
		return nil, nil
	case 5:
	default:
		return nil, fmt.Errorf("an architecture needs all of --layers, --kv-heads, --head-dim, --context and --sequences")
	}
	kv := req.KVPrecision
	if kv == "" {
		kv = precision
	}
	b, ok := sizing.BytesPer(kv)
	if !ok {
		return nil, fmt.Errorf("--kv-precision %s: not known; use one of %s", kv, sizing.PrecisionNames())
	}
	a.KVBytes = b
	return &a, nil
}

func gpusToSize(names []string, catalog *domain.Model) ([]sizing.GPUSpec, error) {
	if len(names) == 0 {
		return catalog.GPUs, nil
	}
	var out []sizing.GPUSpec
	for _, n := range names {
		g, ok := catalog.GPUSpec(n)
		if !ok {
			var known []string
			for _, g := range catalog.GPUs {
				known = append(known, g.Name)
			}
			return nil, fmt.Errorf("--gpu %s: not in the GPUs catalog; known GPUs: %s", n, diag.List(known))
		}
		out = append(out, g)
	}
	return out, nil
}

func sizingRule(req SizeRequest, catalog *domain.Model) (sizing.Rule, error) {
	rule := sizing.Rule{KVHeadroom: req.KVHeadroom, NodeGPUs: 8}
	if in, ok := catalog.Input(domain.GPUs); ok && !in.Value.IsText {
		rule.NodeGPUs = int(in.Value.Num)
	}
	if req.KVGiven && (!(req.KVHeadroom >= 0) || req.KVHeadroom > 10) {
		return rule, fmt.Errorf("--kv-headroom %g: give a share of the weights between 0 and 10 (0.4 is 40 %%)", req.KVHeadroom)
	}
	if !req.KVGiven {
		in, ok := catalog.Input(domain.KVHeadroom)
		if !ok || in.Value.IsText {
			return rule, fmt.Errorf("the workbook has no number input kv_headroom; pass --kv-headroom 0.4")
		}
		rule.KVHeadroom = in.Value.Num
	}
	return rule, nil
}

func catalogNames(m *domain.Model) string {
	var names []string
	for _, s := range m.Catalog {
		names = append(names, s.Name)
	}
	return diag.List(names)
}
