package enginetest

import "math"

// The hand-written baseline: the default model's node-level formulas as
// plain Go, which every benchmark measures planner against in the same run.

// NodeInputs are the default model's inputs the node-level formulas read.
type NodeInputs struct {
	Capex, GPUs, Months, Residual, Watts, PUE, Price, Rack, Hours, Util float64
	Rate, Maintenance, Staff, Network                                   float64
}

// NodeOutputs are the default model's node-level formulas.
type NodeOutputs struct {
	PerGPU, AmortHours, Monthly, Discount, Annuity, CapitalMonth, Capital, KW, PowerMonth, Power, Rack float64
	MaintenanceMonth, Maintenance, Staff, Network, Cost, Used, NodeMonth, Running                      float64
}

// HandWritten computes out from in as the default model's formulas do.
func HandWritten(in *NodeInputs, out *NodeOutputs) {
	out.PerGPU = in.Capex / in.GPUs
	out.AmortHours = in.Months * in.Hours
	out.Monthly = in.Rate / 12
	out.Discount = math.Pow(1+out.Monthly, -in.Months)
	if out.Monthly == 0 {
		out.Annuity = in.Months
		out.CapitalMonth = in.Capex * (1 - in.Residual) / in.Months
		out.Capital = out.PerGPU * (1 - in.Residual) / out.AmortHours
	} else {
		out.Annuity = (1 - out.Discount) / out.Monthly
		out.CapitalMonth = (in.Capex - in.Residual*in.Capex*out.Discount) / out.Annuity
		out.Capital = out.CapitalMonth / in.GPUs / in.Hours
	}
	out.KW = in.Watts * in.GPUs * in.PUE / 1000
	out.PowerMonth = out.KW * in.Hours * in.Price
	out.Power = out.PowerMonth / in.GPUs / in.Hours
	out.Rack = in.Rack / in.GPUs / in.Hours
	out.MaintenanceMonth = in.Capex * in.Maintenance / 12
	out.Maintenance = out.MaintenanceMonth / in.GPUs / in.Hours
	out.Staff = in.Staff / in.GPUs / in.Hours
	out.Network = in.Network / in.GPUs / in.Hours
	out.Cost = out.Capital + out.Power + out.Rack + out.Maintenance + out.Staff + out.Network
	out.Used = out.Cost / in.Util
	out.NodeMonth = out.Cost * in.GPUs * in.Hours
	out.Running = out.PowerMonth + in.Rack + out.MaintenanceMonth + in.Staff + in.Network
}

// DefaultInputs are SpecModel's values of the inputs HandWritten reads.
func DefaultInputs() NodeInputs {
	return NodeInputs{Capex: 285000, GPUs: 8, Months: 36, Residual: 0, Watts: 700, PUE: 1.3, Price: 0.12, Rack: 1000, Hours: 730, Util: 0.5}
}
