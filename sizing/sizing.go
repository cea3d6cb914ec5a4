package sizing

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"planner/diag"
)

// GPUSpec is one row of the GPU catalog.
type GPUSpec struct {
	Name     string
	MemoryGB float64
	Watts    float64     // board power; 0 when the catalog does not say
	WattsAt  diag.Origin // the watts cell, when read from a sheet with a watts column
	// IdleWatts is one card's draw while it serves nothing; 0 when the
	// catalog does not say, and the card then draws Watts all month.
	IdleWatts    float64
	IdleWattsAt  diag.Origin // the idle watts cell, when read from a sheet with the column
	BandwidthTBs float64     // memory bandwidth, TB/s; 0 when the catalog does not say
	AsOf         string      // the date of the source
	Interconnect string      // SXM/NVLink, PCIe, ...
	Source       string
	Origin       diag.Origin
}

// ModelSpec is one row of the model catalog. A MoE model occupies memory by
// its total parameters; active parameters change compute, not fit.
type ModelSpec struct {
	Name          string
	TotalParamsB  float64 // billions
	ActiveParamsB float64 // billions; 0 for a dense model
	Precision     string
	BytesPerParam float64 // 0: from the precision
	Arch          *Architecture
	Source        string
	Origin        diag.Origin
}

// Architecture holds what the KV cache of one replica depends on.
type Architecture struct {
	Layers    float64
	KVHeads   float64
	HeadDim   float64
	Context   float64 // tokens per sequence
	Sequences float64 // sequences held at once
	KVBytes   float64 // bytes per KV value
	// Attention is the layout of the cache (Attentions); "" is the plain
	// formula, which grouped-query attention follows through its KV heads.
	Attention string
	// LatentDim and RopeDim are multi-head latent attention's compressed
	// KV width (kv_lora_rank) and its decoupled rotary key width.
	LatentDim, RopeDim float64
	// Window is a sliding window's tokens; WindowedLayers how many layers
	// attend within it (0: every layer).
	Window, WindowedLayers float64
}

// The attention layouts the Models sheet names, as a workbook spells them.
const (
	GroupedQuery  = "grouped-query"
	LatentMLA     = "multi-head latent"
	SlidingWindow = "sliding window"
)

// Attentions are the attention layouts planner sizes the KV cache of, for
// the Models sheet's pick list.
func Attentions() []string { return []string{GroupedQuery, LatentMLA, SlidingWindow} }

// AttentionNamed is the layout a cell names ("" for an empty cell), matched
// without regard to case, spaces or hyphens, with the usual short names
// (GQA, MHA, MLA, SWA) besides.
func AttentionNamed(s string) (string, bool) {
	key := strings.NewReplacer(" ", "", "-", "", "_", "").Replace(strings.ToLower(strings.TrimSpace(s)))
	switch key {
	case "":
		return "", true
	case "groupedquery", "gqa", "mha", "multihead", "mqa":
		return GroupedQuery, true
	case "multiheadlatent", "mla", "latent":
		return LatentMLA, true
	case "slidingwindow", "swa", "window":
		return SlidingWindow, true
	}
	return "", false
}

// KVBytesPerReplica is the cache one replica holds: by default (and for
// grouped-query attention) 2 (K and V) × layers × KV heads × head dim × KV
// bytes × context × sequences. Multi-head latent attention caches one
// compressed vector of latent + rope dim elements per layer and token, K
// and V together. A sliding window caps the windowed layers' tokens at the
// window; the other layers hold the whole context.
func (a Architecture) KVBytesPerReplica() float64 {
	perToken := a.KVBytes * a.Sequences
	switch a.Attention {
	case LatentMLA:
		return a.Layers * (a.LatentDim + a.RopeDim) * a.Context * perToken
	case SlidingWindow:
		windowed := a.WindowedLayers
		if windowed == 0 || windowed > a.Layers {
			windowed = a.Layers
		}
		tokens := (a.Layers-windowed)*a.Context + windowed*math.Min(a.Window, a.Context)
		return 2 * a.KVHeads * a.HeadDim * tokens * perToken
	}
	return 2 * a.Layers * a.KVHeads * a.HeadDim * a.KVBytes * a.Context * a.Sequences
}

// precisions maps a precision to its bytes per parameter.
var precisions = map[string]float64{
	"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "fp4": 0.5, "int4": 0.5,
}

// PrecisionNames lists the known precisions, sorted, for messages.
func PrecisionNames() string { return diag.List(Precisions()) }

// Precisions are the known precisions, sorted, as a workbook spells them.
func Precisions() []string {
	var names []string
	for p := range precisions {
		names = append(names, strings.ToUpper(p))
	}
	sort.Strings(names)
	return names
}

// BytesPer returns the bytes per parameter of a precision.
func BytesPer(precision string) (float64, bool) {
	b, ok := precisions[strings.ToLower(strings.TrimSpace(precision))]
	return b, ok
}

// tensorParallelSizes are the card counts a replica is split across.
var tensorParallelSizes = [...]int{1, 2, 4, 8, 16}

// MaxCards is the most cards planner sizes one replica for.
const MaxCards = 16

// MaxParamsB bounds a model's size, in billions of parameters: a thousand
// times the largest served today.
const MaxParamsB = 1e6

// Rule holds the assumptions sizing uses.
type Rule struct {
	// KVHeadroom is the KV-cache reserve as a share of the weights, for
	// models without an architecture.
	KVHeadroom float64
	// NodeGPUs is how many cards one server holds.
	NodeGPUs int
}

// Result is how many cards of one GPU one replica of one model needs.
type Result struct {
	Model, GPU     string
	WeightsGB      float64 // parameters × bytes per parameter
	KVGB           float64 // the KV reserve one replica needs
	MinCards       int     // cards whose memory holds the weights
	MinCardsTP     int     // MinCards rounded up to a tensor-parallel size; 0 beyond MaxCards
	UsualCards     int     // with the KV reserve, rounded the same way; 0 beyond MaxCards
	KVGBPerReplica float64 // memory left for KV at UsualCards (at MinCardsTP when UsualCards is 0)
	PerGPUGB       float64 // weights and KV per card at UsualCards
	FitsNode       bool    // the weights fit on one node
	Note           string  // in words, for the sheet and the terminal
}

// Size sizes one replica of m on g.
func Size(m ModelSpec, g GPUSpec, rule Rule) (Result, error) {
	bytes := m.BytesPerParam
	if bytes == 0 {
		b, ok := BytesPer(m.Precision)
		if !ok {
			return Result{}, fmt.Errorf("%s: precision %q is not known; use one of %s, or give bytes per parameter", m.Name, m.Precision, PrecisionNames())
		}
		bytes = b
	}
	switch {
	case !(m.TotalParamsB > 0) || math.IsInf(m.TotalParamsB, 0):
		return Result{}, fmt.Errorf("%s: total parameters must be a number above zero, not %g", m.Name, m.TotalParamsB)
	case m.TotalParamsB > MaxParamsB:
		return Result{}, fmt.Errorf("%s: %g billion parameters is more than the %s billion planner sizes", m.Name, m.TotalParamsB, strconv.FormatFloat(MaxParamsB, 'f', -1, 64))
	case !(bytes > 0) || math.IsInf(bytes, 0):
		return Result{}, fmt.Errorf("%s: bytes per parameter must be above zero, not %g", m.Name, bytes)
	case !(g.MemoryGB > 0) || math.IsInf(g.MemoryGB, 0):
		return Result{}, fmt.Errorf("%s: memory must be above zero, not %g GB", g.Name, g.MemoryGB)
	case !(rule.KVHeadroom >= 0) || math.IsInf(rule.KVHeadroom, 0):
		return Result{}, fmt.Errorf("kv_headroom must be a share of zero or more, not %g", rule.KVHeadroom)
	}
	s := Result{Model: m.Name, GPU: g.Name, WeightsGB: m.TotalParamsB * bytes}
	if m.Arch != nil {
		s.KVGB = m.Arch.KVBytesPerReplica() / 1e9
	} else {
		s.KVGB = s.WeightsGB * rule.KVHeadroom
	}
	if math.IsInf(s.WeightsGB, 0) || math.IsInf(s.KVGB, 0) || math.IsNaN(s.KVGB) {
		return Result{}, fmt.Errorf("%s: its weights and KV cache (%g GB and %g GB) are too large to size", m.Name, s.WeightsGB, s.KVGB)
	}
	s.MinCards = cardsFor(s.WeightsGB, g.MemoryGB)
	s.MinCardsTP = tensorParallel(s.MinCards)
	s.UsualCards = tensorParallel(cardsFor(s.WeightsGB+s.KVGB, g.MemoryGB))
	cards := s.UsualCards
	if cards == 0 {
		cards = s.MinCardsTP
	}
	if cards > 0 {
		s.KVGBPerReplica = float64(cards)*g.MemoryGB - s.WeightsGB
		s.PerGPUGB = (s.WeightsGB + s.KVGB) / float64(cards)
	}
	s.FitsNode = s.MinCardsTP > 0 && s.MinCardsTP <= rule.NodeGPUs
	s.Note = s.describe(g, rule)
	return s, nil
}

// cardsFor is how many cards of mem GB hold gb GB, capped just above what
// any replica may use, so that no count overflows.
func cardsFor(gb, mem float64) int {
	n := math.Ceil(gb/mem - 1e-9)
	if n > 1e6 {
		return 1e6
	}
	return int(n)
}

// tensorParallel rounds n up to the next tensor-parallel size, or 0 when n
// exceeds MaxCards.
func tensorParallel(n int) int {
	for _, tp := range tensorParallelSizes {
		if n <= tp {
			return tp
		}
	}
	return 0
}

func (s Result) describe(g GPUSpec, rule Rule) string {
	switch {
	case s.MinCardsTP == 0:
		need := fmt.Sprint(s.MinCards)
		if s.MinCards >= 1e6 {
			need = "a million or more"
		}
		return fmt.Sprintf("does not fit: %.0f GB of weights need %s cards of %g GB, more than %d", s.WeightsGB, need, g.MemoryGB, MaxCards)
	case s.UsualCards == 0:
		return fmt.Sprintf("the weights fit %d×%s, but with the KV reserve a replica needs more than %d cards", s.MinCardsTP, g.Name, MaxCards)
	case !s.FitsNode:
		return fmt.Sprintf("does not fit one %d-card node: %d×%s minimum, %d usual", rule.NodeGPUs, s.MinCardsTP, g.Name, s.UsualCards)
	}
	return fmt.Sprintf("%d×%s minimum, %d usual, %.0f GB left for KV per replica", s.MinCardsTP, g.Name, s.UsualCards, s.KVGBPerReplica)
}

// Table sizes every model on every GPU with one rule (a scenario's KV
// headroom and node size), model by model. A model it cannot size is
// reported at its catalog row, every one at once.
func Table(models []ModelSpec, gpus []GPUSpec, rule Rule) ([]Result, error) {
	var out []Result
	var problems diag.Diagnostics
	for _, m := range models {
		for _, g := range gpus {
			s, err := Size(m, g, rule)
			if err != nil {
				problems = append(problems, &diag.Diagnostic{Origin: m.Origin, Name: m.Name, Msg: err.Error()})
				continue
			}
			out = append(out, s)
		}
	}
	return out, problems.Err()
}
