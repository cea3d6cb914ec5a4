package enginetest

// The hand-written baseline: the default model's node-level formulas as
// plain Go, which every benchmark measures planner against in the same run.

// NodeInputs are the default model's inputs the node-level formulas read.
type NodeInputs struct{ Capex, GPUs, Months, Residual, Watts, PUE, Price, Rack, Hours, Util float64 }

// NodeOutputs are the default model's node-level formulas.
type NodeOutputs struct {
	PerGPU, AmortHours, Capital, KW, PowerMonth, Power, Rack, Cost, Used, NodeMonth float64
}

// HandWritten computes out from in as the default model's formulas do.
func HandWritten(in *NodeInputs, out *NodeOutputs) {
	out.PerGPU = in.Capex / in.GPUs
	out.AmortHours = in.Months * in.Hours
	out.Capital = out.PerGPU * (1 - in.Residual) / out.AmortHours
	out.KW = in.Watts * in.GPUs * in.PUE / 1000
	out.PowerMonth = out.KW * in.Hours * in.Price
	out.Power = out.PowerMonth / in.GPUs / in.Hours
	out.Rack = in.Rack / in.GPUs / in.Hours
	out.Cost = out.Capital + out.Power + out.Rack
	out.Used = out.Cost / in.Util
	out.NodeMonth = out.Cost * in.GPUs * in.Hours
}

// DefaultInputs are SpecModel's values of the inputs HandWritten reads.
func DefaultInputs() NodeInputs {
	return NodeInputs{Capex: 285000, GPUs: 8, Months: 36, Residual: 0, Watts: 700, PUE: 1.3, Price: 0.12, Rack: 1000, Hours: 730, Util: 0.5}
}
