package main

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// sizeRow is one GPU of planner size's JSON.
type sizeRow struct {
	GPU         string  `json:"gpu"`
	MemoryGB    float64 `json:"gpu_memory_gb"`
	WeightsGB   float64 `json:"weights_gb"`
	KVReserveGB float64 `json:"kv_reserve_gb"`
	MinCards    int     `json:"min_cards"`
	MinCardsTP  int     `json:"min_cards_tp"`
	UsualCards  int     `json:"usual_cards"`
	KVLeftGB    float64 `json:"kv_gb_per_replica"`
	FitsNode    bool    `json:"fits_node"`
}

// tensorParallel is the smallest tensor-parallel size (1, 2, 4, 8, 16)
// of at least n cards.
func tensorParallel(n int) int {
	tp := 1
	for tp < n {
		tp *= 2
	}
	return tp
}

// SPEC.md §1 worked by hand for every size case: weights are parameters ×
// bytes per parameter, the KV reserve 40 % of them (or the architecture's
// 2 × layers × kv heads × head dim × context × sequences × bytes), the
// minimum the weights' cards rounded up to tensor parallelism, the usual
// count the cards of weights and reserve so rounded, and SPEC's own counts.
func TestSizeFollowsTheRule(t *testing.T) {
	arch := 2.0 * 80 * 8 * 128 * 32768 * 32 / 1e9
	for _, c := range []struct {
		args        []string
		weights     float64
		reserve     float64
		specUsual   map[string]int // SPEC.md §1's usual cards per GPU
		specMinimum map[string]int
	}{
		{[]string{"--params", "70", "--precision", "fp8", "--gpu", "H100 SXM"}, 70, 28, map[string]int{"H100 SXM": 2}, nil},
		{[]string{"--params", "70", "--precision", "bf16", "--gpu", "H100 SXM", "--gpu", "H200"}, 140, 56,
			map[string]int{"H100 SXM": 4, "H200": 2}, map[string]int{"H100 SXM": 2, "H200": 1}},
		{[]string{"--params", "8", "--precision", "bf16", "--gpu", "RTX 5090", "--gpu", "L40S"}, 16, 6.4,
			map[string]int{"RTX 5090": 1, "L40S": 1}, nil},
		{[]string{"--params", "32", "--precision", "bf16"}, 64, 25.6,
			map[string]int{"H100 SXM": 2, "H200": 1, "B200": 1}, map[string]int{"H100 SXM": 1, "RTX 5090": 2}},
		{[]string{"--params", "405", "--precision", "fp8", "--gpu", "H100 SXM"}, 405, 162, map[string]int{"H100 SXM": 8}, nil},
		{[]string{"--model", "DeepSeek-R1 (671B MoE)", "--gpu", "H100 SXM", "--gpu", "H200"}, 671, 0.4 * 671,
			map[string]int{"H100 SXM": 16, "H200": 8}, nil},
		{[]string{"--params", "70", "--precision", "fp8", "--gpu", "H100 SXM", "--layers", "80", "--kv-heads", "8", "--head-dim", "128",
			"--context", "32768", "--sequences", "32"}, 70, arch, map[string]int{"H100 SXM": 4}, nil},
	} {
		var out, errs bytes.Buffer
		if code := run(append([]string{"size", "--format", "json"}, c.args...), &out, &errs); code != 0 {
			t.Fatalf("size %v: %d %s", c.args, code, errs.String())
		}
		var doc struct{ Sizes []sizeRow }
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Sizes) == 0 {
			t.Fatalf("size %v: %v, %d sizes", c.args, err, len(doc.Sizes))
		}
		for _, s := range doc.Sizes {
			checkSize(t, c.args, s, c.weights, c.reserve)
			if want, ok := c.specUsual[s.GPU]; ok && s.UsualCards != want {
				t.Errorf("size %v on %s: %d usual cards, SPEC says %d", c.args, s.GPU, s.UsualCards, want)
			}
			if want, ok := c.specMinimum[s.GPU]; ok && s.MinCardsTP != want {
				t.Errorf("size %v on %s: %d cards minimum, SPEC says %d", c.args, s.GPU, s.MinCardsTP, want)
			}
		}
	}
}

func checkSize(t *testing.T, args []string, s sizeRow, weights, reserve float64) {
	t.Helper()
	minimum := int(math.Ceil(weights / s.MemoryGB))
	usual := tensorParallel(int(math.Ceil((weights + reserve) / s.MemoryGB)))
	want := sizeRow{GPU: s.GPU, MemoryGB: s.MemoryGB, WeightsGB: weights, KVReserveGB: reserve, MinCards: minimum,
		MinCardsTP: tensorParallel(minimum), UsualCards: usual, KVLeftGB: float64(usual)*s.MemoryGB - weights, FitsNode: usual <= 8}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	if s.MinCards != want.MinCards || s.MinCardsTP != want.MinCardsTP || s.UsualCards != want.UsualCards || s.FitsNode != want.FitsNode ||
		!near(s.WeightsGB, want.WeightsGB) || !near(s.KVReserveGB, want.KVReserveGB) || !near(s.KVLeftGB, want.KVLeftGB) {
		t.Errorf("size %v on %s:\n got %+v\nwant %+v", args, s.GPU, s, want)
	}
}
