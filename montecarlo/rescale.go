package montecarlo

// Models state one quantity in several units: the cost per GPU-hour and
// per node-month, the power bill per month and per GPU-hour. An output that
// is another output moved or stretched by constants orders its samples as
// that output does, and since rounding never reverses an order, its k-th
// smallest value is exactly the other's k-th smallest put through the same
// operations. Monte Carlo counts such an output once, through the other,
// and works out its percentiles, smallest and largest from the other's.
// The batch finds them (engine.Batch.Follows).

// rescaling is how an output follows another: the source output, which may
// itself follow a third, and the increasing function from its values to
// the output's.
type rescaling struct {
	source int // the output it follows
	apply  func(float64) float64
}
