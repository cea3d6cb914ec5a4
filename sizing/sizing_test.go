package sizing

import (
	"strings"
	"testing"
)

// The GPU catalog of SPEC.md §1 (B200 at NVIDIA's 192 GB, not Lambda's 180).
var catalogGPUs = []GPUSpec{
	{Name: "H100 SXM", MemoryGB: 80, Watts: 700}, {Name: "H100 PCIe", MemoryGB: 80},
	{Name: "H200", MemoryGB: 141, Watts: 700}, {Name: "B200", MemoryGB: 192, Watts: 1000},
	{Name: "RTX 5090", MemoryGB: 32}, {Name: "L40S", MemoryGB: 48},
}

func gpu(t *testing.T, name string) GPUSpec {
	for _, g := range catalogGPUs {
		if g.Name == name {
			return g
		}
	}
	t.Fatalf("no GPU %s", name)
	return GPUSpec{}
}

// kvHeadroom is the default workbook's KV reserve without an architecture.
var rule = Rule{KVHeadroom: 0.4, NodeGPUs: 8}

// Every worked sizing case of SPEC.md §1: minimum cards for the weights
// (rounded to a tensor-parallel size) and the usual count with KV reserve.
func TestSpecSizing(t *testing.T) {
	tests := []struct {
		params    float64
		precision string
		gpu       string
		weights   float64
		min, tp   int
		usual     int
		fits      bool
	}{
		{8, "BF16", "RTX 5090", 16, 1, 1, 1, true},      // one 32 GB card
		{8, "BF16", "L40S", 16, 1, 1, 1, true},          // or an L40S
		{32, "BF16", "H100 SXM", 64, 1, 1, 2, true},     // fits one H100, usually 2
		{32, "BF16", "H200", 64, 1, 1, 1, true},         // one H200 has room
		{32, "BF16", "B200", 64, 1, 1, 1, true},         // one B200 has room
		{32, "BF16", "RTX 5090", 64, 2, 2, 4, true},     // does not fit one 5090
		{70, "FP8", "H100 SXM", 70, 1, 1, 2, true},      // usually 2×H100
		{70, "BF16", "H100 SXM", 140, 2, 2, 4, true},    // 2 fit, a public service takes 4
		{70, "BF16", "H200", 140, 1, 1, 2, true},        // one H200 barely, usually 2
		{405, "FP8", "H100 SXM", 405, 6, 8, 8, true},    // fits 8×H100
		{671, "FP8", "H100 SXM", 671, 9, 16, 16, false}, // not 8×H100: 16
		{671, "FP8", "H200", 671, 5, 8, 8, true},        // 8×H200
	}
	for _, tt := range tests {
		s, err := Size(ModelSpec{Name: "m", TotalParamsB: tt.params, Precision: tt.precision}, gpu(t, tt.gpu), rule)
		if err != nil {
			t.Fatal(err)
		}
		got := []any{s.WeightsGB, s.MinCards, s.MinCardsTP, s.UsualCards, s.FitsNode}
		want := []any{tt.weights, tt.min, tt.tp, tt.usual, tt.fits}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%gB %s on %s: weights, min, min TP, usual, fits = %v, want %v", tt.params, tt.precision, tt.gpu, got, want)
				break
			}
		}
	}
}

func TestSizingKVLeftAndPerGPU(t *testing.T) {
	s, _ := Size(ModelSpec{Name: "70B", TotalParamsB: 70, Precision: "BF16"}, gpu(t, "H100 SXM"), rule)
	// At the usual 4 cards: 320 GB less 140 GB of weights.
	if s.KVGBPerReplica != 180 || s.KVGB != 56 || s.PerGPUGB != (140+56)/4.0 {
		t.Errorf("KV left %v, KV reserve %v, per GPU %v", s.KVGBPerReplica, s.KVGB, s.PerGPUGB)
	}
}

// A MoE model occupies memory by its total parameters.
func TestMoESizedByTotalParameters(t *testing.T) {
	s, _ := Size(ModelSpec{Name: "R1", TotalParamsB: 671, ActiveParamsB: 37, Precision: "FP8"}, gpu(t, "H200"), rule)
	if s.WeightsGB != 671 || s.UsualCards != 8 {
		t.Errorf("weights %v, usual %d", s.WeightsGB, s.UsualCards)
	}
}

// With an architecture the KV reserve is 2 × layers × KV heads × head dim ×
// KV bytes × context × sequences: a 70B FP8 at 32k context and 32
// sequences needs 4×H100, where its weights alone fit 1.
func TestSizingWithArchitecture(t *testing.T) {
	arch := &Architecture{Layers: 80, KVHeads: 8, HeadDim: 128, Context: 32768, Sequences: 32, KVBytes: 1}
	s, _ := Size(ModelSpec{Name: "70B long", TotalParamsB: 70, Precision: "FP8", Arch: arch}, gpu(t, "H100 SXM"), rule)
	wantKV := 2.0 * 80 * 8 * 128 * 1 * 32768 * 32 / 1e9
	if s.KVGB != wantKV || s.MinCardsTP != 1 || s.UsualCards != 4 {
		t.Errorf("KV %v (want %v), min %d, usual %d", s.KVGB, wantKV, s.MinCardsTP, s.UsualCards)
	}
}

func TestSizingBeyondSixteenCards(t *testing.T) {
	s, err := Size(ModelSpec{Name: "2T", TotalParamsB: 2000, Precision: "BF16"}, gpu(t, "RTX 5090"), rule)
	if err != nil {
		t.Fatal(err)
	}
	want := "does not fit: 4000 GB of weights need 125 cards of 32 GB, more than 16"
	if s.MinCardsTP != 0 || s.UsualCards != 0 || s.FitsNode || s.Note != want {
		t.Errorf("got %+v", s)
	}
}

func TestSizingRefusesImpossibleInputs(t *testing.T) {
	tests := []struct {
		m    ModelSpec
		g    GPUSpec
		want string
	}{
		{ModelSpec{Name: "m", TotalParamsB: 70, Precision: "FP9"}, gpu(t, "H200"), `m: precision "FP9" is not known; use one of BF16, FP16, FP32, FP4, FP8, INT4, INT8, or give bytes per parameter`},
		{ModelSpec{Name: "m", TotalParamsB: 0, Precision: "FP8"}, gpu(t, "H200"), "m: total parameters must be a number above zero, not 0"},
		{ModelSpec{Name: "m", TotalParamsB: -5, Precision: "FP8"}, gpu(t, "H200"), "m: total parameters must be a number above zero, not -5"},
		{ModelSpec{Name: "m", TotalParamsB: 70, BytesPerParam: -1}, gpu(t, "H200"), "m: bytes per parameter must be above zero, not -1"},
		{ModelSpec{Name: "m", TotalParamsB: 70, Precision: "FP8"}, GPUSpec{Name: "X", MemoryGB: 0}, "X: memory must be above zero, not 0 GB"},
	}
	for _, tt := range tests {
		_, err := Size(tt.m, tt.g, rule)
		if err == nil || err.Error() != tt.want {
			t.Errorf("got %v, want %s", err, tt.want)
		}
	}
	if !strings.Contains(PrecisionNames(), "FP8") {
		t.Error(PrecisionNames())
	}
}

// Each attention layout's KV cache, by hand: grouped-query attention is the
// plain formula; multi-head latent attention caches latent + rope dim
// elements per layer and token (DeepSeek-V3: 61 layers, kv_lora_rank 512,
// rope dim 64); a sliding window caps its layers' tokens at the window.
func TestKVBytesByAttentionLayout(t *testing.T) {
	plain := Architecture{Layers: 80, KVHeads: 8, HeadDim: 128, Context: 32768, Sequences: 32, KVBytes: 1}
	gqa := plain
	gqa.Attention = GroupedQuery
	mla := Architecture{Attention: LatentMLA, Layers: 61, LatentDim: 512, RopeDim: 64, Context: 32768, Sequences: 32, KVBytes: 1,
		KVHeads: 128, HeadDim: 128} // heads and head dim do not count under MLA
	swa := Architecture{Attention: SlidingWindow, Layers: 48, KVHeads: 8, HeadDim: 128, Context: 32768, Sequences: 16, KVBytes: 2,
		Window: 4096, WindowedLayers: 40}
	allWindowed := swa
	allWindowed.WindowedLayers = 0
	wide := swa
	wide.Window = 1 << 20 // wider than the context: the context caps it
	tests := []struct {
		name string
		a    Architecture
		want float64
	}{
		{"plain", plain, 2 * 80 * 8 * 128 * 1 * 32768 * 32},
		{"grouped-query", gqa, 2 * 80 * 8 * 128 * 1 * 32768 * 32},
		{"latent", mla, 61 * (512 + 64) * 1 * 32768 * 32},
		{"window on 40 of 48 layers", swa, 2 * 8 * 128 * 2 * 16 * (8*32768 + 40*4096)},
		{"window on every layer", allWindowed, 2 * 8 * 128 * 2 * 16 * 48 * 4096},
		{"window wider than the context", wide, 2 * 8 * 128 * 2 * 16 * 48 * 32768},
	}
	for _, tt := range tests {
		if got := tt.a.KVBytesPerReplica(); got != tt.want {
			t.Errorf("%s: %v bytes, want %v", tt.name, got, tt.want)
		}
	}
}

// The layouts a cell may name, and one it may not.
func TestAttentionNamed(t *testing.T) {
	for in, want := range map[string]string{"": "", "GQA": GroupedQuery, "Grouped-Query": GroupedQuery, "MLA": LatentMLA,
		"multi-head latent": LatentMLA, "sliding window": SlidingWindow, "SWA": SlidingWindow} {
		if got, ok := AttentionNamed(in); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := AttentionNamed("linear"); ok {
		t.Error("linear attention taken as a layout")
	}
}
