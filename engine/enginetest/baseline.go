package enginetest

import "math"

// The hand-written baseline: the default model's node-level formulas, and
// owning's NPV against one offer, as plain Go, which every benchmark
// measures planner against in the same run. It evaluates only the branch
// of each choice it takes, as a program written by hand would.

// NodeInputs are the default model's inputs the node-level formulas read.
type NodeInputs struct {
	Capex, GPUs, Months, Residual, Watts, PUE, Price, Rack, Hours, Util float64
	Rate, Maintenance, Staff, Network, Software                         float64
	PriceChange, Depreciation, TaxRate                                  float64
}

// NodeOutputs are the default model's node-level formulas.
type NodeOutputs struct {
	PerGPU, AmortHours, Monthly, Discount, Annuity, CapitalMonth, Capital, KW, PowerMonth, Power, PathFactor float64
	Rack, MaintenanceMonth, Maintenance, Staff, Network, Software, Cost, Used, NodeMonth, Running            float64
	DepreciationMonth, DepreciationPV, TaxShield                                                             float64
}

// HandWritten computes out from in as the default model's formulas do, in
// the same order of operations, so that every value is planner's to the bit.
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
	out.PathFactor = pathFactor(in.PriceChange, 1+in.PriceChange, out.Monthly, 12, in.Months, out.Annuity)
	out.Rack = in.Rack / in.GPUs / in.Hours
	out.MaintenanceMonth = in.Capex * in.Maintenance / 12
	out.Maintenance = out.MaintenanceMonth / in.GPUs / in.Hours
	out.Staff = in.Staff / in.GPUs / in.Hours
	out.Network = in.Network / in.GPUs / in.Hours
	out.Software = in.Software / 12 / in.Hours
	out.Cost = out.Capital + out.Power + out.Rack + out.Maintenance + out.Staff + out.Network + out.Software
	out.Used = out.Cost / in.Util
	out.NodeMonth = out.Cost * in.GPUs * in.Hours
	out.Running = out.PowerMonth + in.Rack + out.MaintenanceMonth + in.Staff + in.Network + in.Software*in.GPUs/12
	out.DepreciationMonth = in.Capex * (1 - in.Residual) / in.Months
	out.DepreciationPV = depreciationPV(in, out)
	out.TaxShield = 0
	if in.TaxRate != 0 {
		out.TaxShield = in.TaxRate * out.DepreciationPV
	}
}

// pathFactor is a price's path over the term in today's money per dollar
// of this period's price: the annuity factor without a yearly change, else
// blocks of period months, each grow times the last, and the months left
// after the last whole block (power_path_factor with a period of 12,
// rent_path_factor with the offer's renewal).
func pathFactor(change, grow, monthly, period, months, annuity float64) float64 {
	if change == 0 {
		return annuity
	}
	whole := math.Floor(months / period)
	perBlock := period
	if monthly != 0 {
		perBlock = (1 - math.Pow(1+monthly, -period)) / monthly
	}
	ratio := grow / math.Pow(1+monthly, period)
	blocks := whole
	if grow != math.Pow(1+monthly, period) {
		blocks = (1 - math.Pow(ratio, whole)) / (1 - ratio)
	}
	rest := months - period*whole
	if monthly != 0 {
		rest = (1 - math.Pow(1+monthly, period*whole-months)) / monthly
	}
	return perBlock*blocks + math.Pow(ratio, whole)*rest
}

// depreciationPV is depreciation_pv: straight line, or a declining balance.
func depreciationPV(in *NodeInputs, out *NodeOutputs) float64 {
	if in.Depreciation == 0 {
		return out.DepreciationMonth * out.Annuity
	}
	d := in.Depreciation / 12
	return in.Capex * (1 - in.Residual) * (d*(1-math.Pow((1-d)/(1+out.Monthly), in.Months-1))/(out.Monthly+d) +
		math.Pow(1-d, in.Months-1)*out.Discount)
}

// OfferInputs are what one offer adds: its price a GPU-hour, the months
// between its price changes, and the rent's yearly change.
type OfferInputs struct {
	Price, Renewal, RentChange float64
}

// NPV is owning's net present value against renting the offer for the used
// hours (npv_saving), after HandWritten gave out.
func NPV(in *NodeInputs, out *NodeOutputs, o OfferInputs) float64 {
	rentUsed := o.Price * in.GPUs * in.Hours * in.Util
	cash := rentUsed - out.Running
	rentPath := pathFactor(o.RentChange, math.Pow(1+o.RentChange, o.Renewal/12), out.Monthly, o.Renewal, in.Months, out.Annuity)
	return -in.Capex + (1-in.TaxRate)*cash*out.Annuity +
		(1-in.TaxRate)*(rentUsed*(rentPath-out.Annuity)-out.PowerMonth*(out.PathFactor-out.Annuity)) +
		out.TaxShield + in.Residual*in.Capex*out.Discount
}

// DefaultInputs are SpecModel's values of the inputs HandWritten reads.
func DefaultInputs() NodeInputs {
	return NodeInputs{Capex: 285000, GPUs: 8, Months: 36, Residual: 0, Watts: 700, PUE: 1.3, Price: 0.12, Rack: 1000, Hours: 730, Util: 0.5}
}
