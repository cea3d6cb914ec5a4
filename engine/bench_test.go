package engine_test

import (
	"testing"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/formulas"
)

var sink float64

// capexes are the values benchmarks cycle through, so nothing is constant.
var capexes = func() []float64 {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = 250000 + 70000*float64(i)/1024
	}
	return xs
}()

// The hand-written baseline (enginetest.HandWritten) is the default
// model's node-level formulas as plain Go, which every benchmark measures
// planner against in the same run.

// BenchmarkSingleScenario evaluates one scenario at a time: set capex, run
// every node-level formula, read the cost per GPU-hour.
func BenchmarkSingleScenario(b *testing.B) {
	p, err := engine.Build(enginetest.SpecModel())
	if err != nil {
		b.Fatal(err)
	}
	ev, err := p.NewEvaluator(domain.Scenario{Name: domain.Base}, "capex")
	if err != nil {
		b.Fatal(err)
	}
	capex, _ := p.Slot("capex")
	cost, _ := p.Slot("cost_per_gpu_hour")
	b.Run("planner", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			ev.Set(capex, capexes[i&1023])
			ev.Run()
			sink += ev.Get(cost)
		}
	})
	b.Run("baseline", func(b *testing.B) {
		b.ReportAllocs()
		in, out := enginetest.DefaultInputs(), enginetest.NodeOutputs{}
		for i := 0; i < b.N; i++ {
			in.Capex = capexes[i&1023]
			enginetest.HandWritten(&in, &out)
			sink += out.Cost
		}
	})
	b.Run("expr-vm", func(b *testing.B) {
		b.ReportAllocs()
		env := map[string]any{}
		for _, in := range enginetest.SpecModel().Inputs {
			if in.Value.IsText {
				env[in.Name] = in.Value.Text
			} else {
				env[in.Name] = in.Value.Num
			}
		}
		programs := exprPrograms(b, p, env)
		var machine vm.VM
		for i := 0; i < b.N; i++ {
			env["capex"] = capexes[i&1023]
			for _, pr := range programs {
				v, err := machine.Run(pr.program, env)
				if err != nil {
					b.Fatal(err)
				}
				env[pr.name] = v
			}
			sink += env["cost_per_gpu_hour"].(float64)
		}
	})
}

type namedProgram struct {
	name    string
	program *vm.Program
}

// exprPrograms compiles the node-level formulas with expr, in planner's
// order, over a map env: what running expr's own VM would cost.
func exprPrograms(b *testing.B, p *engine.Plan, env map[string]any) []namedProgram {
	types := formulas.Env{}
	for k, v := range env {
		if _, ok := v.(string); ok {
			types[k] = formulas.Text
		} else {
			types[k] = formulas.Number
		}
	}
	for _, f := range p.Formulas() {
		types[f.Name] = formulas.Number
	}
	types[domain.OfferPrice] = formulas.Number
	var out []namedProgram
	for _, name := range p.Order() {
		if p.PerOffer(name) {
			continue
		}
		f, _ := p.Formula(name)
		program, err := expr.Compile(f.Source, formulas.ExprOptions(types)...)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, namedProgram{name, program})
		env[name] = 0.0
	}
	return out
}

// BenchmarkSweep evaluates blocks of 1,024 scenarios in which capex and
// utilisation vary: the shape of a data table, a tornado or a Monte Carlo
// run. It reports ns per scenario.
func BenchmarkSweep(b *testing.B) {
	p, err := engine.Build(enginetest.SpecModel())
	if err != nil {
		b.Fatal(err)
	}
	const n = 1024
	utils := make([]float64, n)
	for i := range utils {
		utils[i] = 0.1 + 0.9*float64(i)/n
	}
	batch, err := p.NewBatch(domain.Scenario{Name: domain.Base}, []string{"capex", "utilization"}, n)
	if err != nil {
		b.Fatal(err)
	}
	copy(batch.Input(0), capexes)
	copy(batch.Input(1), utils)
	planner := func(i int) {
		batch.Run(n)
		used, _, _ := batch.Column("cost_per_used_hour")
		sink += used[i&(n-1)]
	}
	in, out := enginetest.DefaultInputs(), enginetest.NodeOutputs{}
	used := make([]float64, n)
	baseline := func(i int) {
		for j := 0; j < n; j++ {
			in.Capex, in.Util = capexes[j], utils[j]
			enginetest.HandWritten(&in, &out)
			used[j] = out.Used
		}
		sink += used[i&(n-1)]
	}
	for _, c := range []struct {
		name string
		run  func(int)
	}{{"planner", planner}, {"baseline", baseline}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.run(i)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/scenario")
		})
	}
	// ratio runs the two in turn, a hundred blocks each, each first every
	// other time, so that a busy machine's drift between sub-benchmarks
	// does not skew it.
	b.Run("ratio", func(b *testing.B) {
		var plannerTime, baselineTime time.Duration
		timed := func(run func(int), total *time.Duration, i int) {
			start := time.Now()
			for k := 0; k < 100; k++ {
				run(i + k)
			}
			*total += time.Since(start)
		}
		for i := 0; i < b.N; i++ {
			if i%2 == 0 {
				timed(planner, &plannerTime, i)
				timed(baseline, &baselineTime, i)
			} else {
				timed(baseline, &baselineTime, i)
				timed(planner, &plannerTime, i)
			}
		}
		b.ReportMetric(plannerTime.Seconds()/baselineTime.Seconds(), "planner/baseline")
	})
}
