package sizing_test

import (
	"fmt"

	"planner/sizing"
)

// A 70-billion-parameter model at FP8 on 80 GB cards, keeping 40 % of the
// weights for the KV cache, in eight-card servers.
func ExampleSize() {
	m := sizing.ModelSpec{Name: "Llama 3.1 70B", TotalParamsB: 70, Precision: "FP8"}
	g := sizing.GPUSpec{Name: "H100 SXM", MemoryGB: 80}
	s, err := sizing.Size(m, g, sizing.Rule{KVHeadroom: 0.4, NodeGPUs: 8})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Note)
	// Output: 1×H100 SXM minimum, 2 usual, 90 GB left for KV per replica
}
