package engine

import (
	"container/heap"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"planner/diag"
	"planner/domain"
	"planner/formulas"
	"planner/units"
)

// Plan is a model that has been checked and compiled: every name resolved,
// formulas in dependency order, a numeric program ready to run. A Plan is
// immutable and safe for concurrent use.
type Plan struct {
	model    domain.Model
	checked  []*formulas.Checked // in model order
	formulas []formulas.Formula  // their formulas, as Formulas gives them
	index    map[string]int      // formula name -> position in model order
	order    []int               // formula positions in topological order
	deps     [][]int             // formula position -> formulas it references directly
	perOffer []bool              // formula position -> depends on offer_price
	prog     *program
	env      formulas.Env     // every name formulas may use, with its kind
	warnings diag.Diagnostics // what the model asks that planner does not do, and why
	needed   sync.Map         // strings.Join(needs, "\x00") -> *keptCode: the code a batch's needs keep
	// offerComputed is, with and without the offers run (offerDependent),
	// each slot the per-offer code computes from what is set per offer:
	// the same for every batch, made by the first.
	offerComputed [2]struct {
		once     sync.Once
		computed []bool
	}
}

// CycleError is a set of formulas that reference each other in a circle.
type CycleError struct {
	Members []formulas.Formula // in the order of the circle, starting with the smallest name
	Others  []formulas.Formula // the rest of the tangle: on other circles through the members
}

func (e *CycleError) Error() string {
	var b strings.Builder
	if first := e.Members[0].Origin; first.Sheet != "" && first.File != "" {
		b.WriteString(first.File + ": ")
	}
	b.WriteString("cycle: ")
	for _, f := range e.Members {
		fmt.Fprintf(&b, "%s (%s) -> ", f.Name, f.Origin.Where())
	}
	b.WriteString(e.Members[0].Name)
	b.WriteString(": a formula cannot depend on itself; break the circle")
	if len(e.Others) > 0 {
		var others []string
		for _, f := range e.Others {
			others = append(others, fmt.Sprintf("%s (%s)", f.Name, f.Origin.Where()))
		}
		b.WriteString("; also caught in it: " + diag.List(others))
	}
	return b.String()
}

// Place puts a cycle at its first member, for sorting.
func (e *CycleError) Place() diag.Origin { return e.Members[0].Origin }

// A Check looks over a part of the model that the evaluator does not read
// itself, such as its deployments, correlations or what-ifs: the package
// that owns the part provides it. It says what is wrong with the part, and
// what the part asks that planner does not do.
type Check func(*Plan) (problems, warnings diag.Diagnostics)

// Build checks every name and formula of m and compiles it, then runs the
// checks on the compiled plan. All problems, the engine's and the checks',
// are reported at once, as a diag.Diagnostics sorted by place; the checks'
// warnings join the engine's in Warnings.
func Build(m domain.Model, checks ...Check) (*Plan, error) {
	env, problems := environment(m)
	p := &Plan{model: m, index: map[string]int{}, env: env}
	checker := formulas.NewChecker(env)
	for i, f := range m.Formulas {
		p.index[f.Name] = i
		c, err := checker.Check(f)
		if err != nil {
			problems = append(problems, flatten(err)...)
		}
		p.checked = append(p.checked, c)
		p.formulas = append(p.formulas, f)
	}
	if len(problems) > 0 {
		return nil, problems.Err()
	}
	p.link()
	if cycles := p.cycles(); len(cycles) > 0 {
		return nil, cycles.Err()
	}
	p.order = p.topological()
	p.markPerOffer()
	if err := p.checkVerdictNames(); err != nil {
		return nil, err
	}
	p.prog = compile(p)
	found := slices.Concat(p.checkOffers(), p.checkSizing(), p.checkScenarios())
	var warnings diag.Diagnostics
	for _, check := range checks {
		ps, ws := check(p)
		found, warnings = append(found, ps...), append(warnings, ws...)
	}
	if err := found.Err(); err != nil {
		return nil, err
	}
	p.warnings = slices.Concat(warnings, p.model.WattsWarnings(), p.offerWarnings()).AsWarnings()
	return p, nil
}

// Warnings are what the model asks that planner does not do (a GPU's
// watts typed twice, an offer for a GPU the catalog lacks, and what the
// checks Build ran warn of, such as a correlation with an input held at its
// value), each at its cell, sorted by place.
func (p *Plan) Warnings() diag.Diagnostics {
	if err := p.warnings.Err(); err != nil {
		return err.(diag.Diagnostics)
	}
	return nil
}

// checkVerdictNames makes sure a model with offers can give a verdict:
// utilization must be a number for the whole node, and breakeven_utilization
// a formula evaluated per offer.
func (p *Plan) checkVerdictNames() error {
	if len(p.model.Offers) == 0 {
		return nil
	}
	var problems diag.Diagnostics
	if i, ok := p.index[domain.Utilization]; ok && p.perOffer[i] {
		f := p.checked[i].Formula
		problems = append(problems, &diag.Diagnostic{Origin: f.Origin, Name: f.Name,
			Msg: "depends on offer_price, but the verdict needs one utilisation for the whole node"})
	} else if _, isInput := p.model.Input(domain.Utilization); !ok && !isInput {
		problems = append(problems, &diag.Diagnostic{Origin: p.model.Where,
			Msg: "there is no input utilization; add an Assumptions row utilization | 0.5 | %, the share of hours the GPUs are busy"})
	}
	if i, ok := p.index[domain.Breakeven]; !ok || !p.perOffer[i] {
		at := p.model.Where
		if ok {
			at = p.checked[i].Origin
		}
		problems = append(problems, &diag.Diagnostic{Origin: at, Name: domain.Breakeven,
			Msg: "must be a formula that uses offer_price (such as cost_per_gpu_hour / offer_price), so that each offer gets its break-even"})
	}
	return problems.Err()
}

func flatten(err error) diag.Diagnostics {
	if l, ok := err.(diag.Diagnostics); ok {
		return l
	}
	return diag.Diagnostics{err}
}

// environment gives every input, offer_price and every formula a kind, and
// reports names defined twice or spelled so that no formula could use them.
func environment(m domain.Model) (formulas.Env, diag.Diagnostics) {
	env := formulas.Env{domain.OfferPrice: formulas.Number, domain.OfferRenewalMonths: formulas.Number}
	provided := map[string]string{domain.OfferPrice: "offer_price is set by planner for each cloud offer; choose another name",
		domain.OfferRenewalMonths: "offer_renewal_months is set by planner for each cloud offer; choose another name"}
	if m.SizingEnabled() {
		for _, name := range domain.SizingNames() {
			env[name] = formulas.Number
			provided[name] = name + " is set by planner from sizing the scenario's model; choose another name"
		}
	}
	if m.WattsFromCatalog() {
		env[domain.GPUWatts] = formulas.Number
		provided[domain.GPUWatts] = domain.GPUWatts + " is set by planner from the GPUs sheet's board watts of the scenario's GPU; choose another name"
	}
	where := map[string]diag.Origin{}
	var problems diag.Diagnostics
	define := func(name string, kind formulas.Kind, at diag.Origin) {
		if !formulas.ValidName(name) {
			problems = append(problems, &diag.Diagnostic{Origin: at, Msg: fmt.Sprintf(
				"%q cannot be a name: use a letter or _ followed by letters, digits and _, and no word or function of the formula language", name)})
			return
		}
		if msg, ok := provided[name]; ok {
			problems = append(problems, &diag.Diagnostic{Origin: at, Name: name, Msg: msg})
			return
		}
		if first, dup := where[name]; dup {
			problems = append(problems, &diag.Diagnostic{Origin: at, Name: name, Msg: "defined twice; it is also defined at " + first.Where()})
			return
		}
		where[name] = at
		env[name] = kind
	}
	for _, in := range m.Inputs {
		kind := formulas.Number
		if in.Value.IsText {
			kind = formulas.Text
		}
		define(in.Name, kind, in.Origin)
	}
	for _, f := range m.Formulas {
		define(f.Name, formulas.Number, f.Origin)
	}
	if len(m.Offers) > 0 {
		if in, ok := m.Input(domain.GPU); !ok {
			problems = append(problems, &diag.Diagnostic{Origin: m.Where, Msg: "there is no input gpu: add an Assumptions row gpu | H100 SXM | text, so planner knows which cloud offers to compare"})
		} else if !in.Value.IsText {
			problems = append(problems, &diag.Diagnostic{Origin: in.Origin, Name: domain.GPU, Msg: "must be text naming the node's GPU, such as H100 SXM; set its unit to text"})
		}
	}
	return env, problems
}

// link records, for every formula, the formulas it references.
func (p *Plan) link() {
	p.deps = make([][]int, len(p.checked))
	for i, c := range p.checked {
		for _, r := range c.Refs {
			if j, ok := p.index[r]; ok {
				p.deps[i] = append(p.deps[i], j)
			}
		}
	}
}

// cycles finds every circle of references (Tarjan's strongly connected
// components) and reports each with all its members in circle order.
func (p *Plan) cycles() diag.Diagnostics {
	n := len(p.checked)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var problems diag.Diagnostics
	counter := 0
	var connect func(v int)
	connect = func(v int) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range p.deps[v] {
			if index[w] < 0 {
				connect(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		member := map[int]bool{}
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			member[w] = true
			if w == v {
				break
			}
		}
		if len(member) > 1 || p.refersTo(v, v) {
			problems = append(problems, p.cycleError(member))
		}
	}
	for v := range p.checked {
		if index[v] < 0 {
			connect(v)
		}
	}
	return problems
}

func (p *Plan) refersTo(from, to int) bool {
	for _, d := range p.deps[from] {
		if d == to {
			return true
		}
	}
	return false
}

// cycleError reports one circle through the component and names its other
// members, sorted.
func (p *Plan) cycleError(member map[int]bool) *CycleError {
	e := &CycleError{Members: p.circle(member)}
	on := map[string]bool{}
	for _, f := range e.Members {
		on[f.Name] = true
	}
	for m := range member {
		if f := p.checked[m].Formula; !on[f.Name] {
			e.Others = append(e.Others, f)
		}
	}
	sort.Slice(e.Others, func(i, j int) bool { return e.Others[i].Name < e.Others[j].Name })
	return e
}

// circle walks one circle through the members of a strongly connected
// component, starting from the smallest name and always taking the smallest
// next member, so the message is the same on every run.
func (p *Plan) circle(member map[int]bool) []formulas.Formula {
	start := -1
	for m := range member {
		if start < 0 || p.checked[m].Name < p.checked[start].Name {
			start = m
		}
	}
	path := []int{start}
	seen := map[int]bool{start: true}
	var dfs func(v int) bool
	dfs = func(v int) bool {
		for _, w := range p.sortedDeps(v) {
			if w == start {
				return true
			}
			if member[w] && !seen[w] {
				seen[w] = true
				path = append(path, w)
				if dfs(w) {
					return true
				}
				path = path[:len(path)-1]
			}
		}
		return false
	}
	dfs(start)
	out := make([]formulas.Formula, len(path))
	for i, v := range path {
		out[i] = p.checked[v].Formula
	}
	return out
}

func (p *Plan) sortedDeps(v int) []int {
	ds := append([]int(nil), p.deps[v]...)
	sort.Slice(ds, func(i, j int) bool { return p.checked[ds[i]].Name < p.checked[ds[j]].Name })
	return ds
}

// topological orders formulas so that each comes after everything it
// references; among formulas that are ready together, the smaller name first
// (a heap keeps that cheap for thousands of formulas).
func (p *Plan) topological() []int {
	n := len(p.checked)
	waiting := make([]int, n)
	users := make([][]int, n)
	for v, ds := range p.deps {
		for _, d := range ds {
			waiting[v]++
			users[d] = append(users[d], v)
		}
	}
	ready := &byName{plan: p}
	for v := range waiting {
		if waiting[v] == 0 {
			heap.Push(ready, v)
		}
	}
	order := make([]int, 0, n)
	for ready.Len() > 0 {
		v := heap.Pop(ready).(int)
		order = append(order, v)
		for _, u := range users[v] {
			if waiting[u]--; waiting[u] == 0 {
				heap.Push(ready, u)
			}
		}
	}
	return order
}

// byName is a heap of formula positions, smallest name on top.
type byName struct {
	plan *Plan
	v    []int
}

func (h *byName) Len() int { return len(h.v) }
func (h *byName) Less(i, j int) bool {
	return h.plan.checked[h.v[i]].Name < h.plan.checked[h.v[j]].Name
}
func (h *byName) Swap(i, j int) { h.v[i], h.v[j] = h.v[j], h.v[i] }
func (h *byName) Push(x any)    { h.v = append(h.v, x.(int)) }
func (h *byName) Pop() any {
	x := h.v[len(h.v)-1]
	h.v = h.v[:len(h.v)-1]
	return x
}

// markPerOffer marks the formulas that depend on offer_price, directly or
// through another formula.
func (p *Plan) markPerOffer() {
	p.perOffer = make([]bool, len(p.checked))
	for _, v := range p.order {
		for _, r := range p.checked[v].Refs {
			if r == domain.OfferPrice || r == domain.OfferRenewalMonths {
				p.perOffer[v] = true
			}
		}
		for _, d := range p.deps[v] {
			if p.perOffer[d] {
				p.perOffer[v] = true
			}
		}
	}
}

// Model returns the model the plan was built from.
func (p *Plan) Model() domain.Model { return p.model }

// Currency is the currency the model's money is in; US dollars without a
// plan.
func (p *Plan) Currency() units.Currency {
	if p == nil {
		return units.USD
	}
	return p.model.Currency
}

// Env is every name the formulas may use, with its kind (number or text).
func (p *Plan) Env() formulas.Env { return p.env }

// Unit is the unit of the named formula, "" for an unknown name.
func (p *Plan) Unit(formula string) string {
	if i, ok := p.index[formula]; ok {
		return p.checked[i].Unit
	}
	return ""
}

// Formula returns the formula called name.
func (p *Plan) Formula(name string) (formulas.Formula, bool) {
	if i, ok := p.index[name]; ok {
		return p.checked[i].Formula, true
	}
	return formulas.Formula{}, false
}

// Checked returns the checked formulas in model order, with their syntax
// trees, for translation into other formula languages.
func (p *Plan) Checked() []*formulas.Checked { return p.checked }

// Formulas returns the formulas in model order: the plan's own, which
// callers only read (every scenario's run asks for them).
func (p *Plan) Formulas() []formulas.Formula { return p.formulas }

// Order returns the formula names in evaluation order.
func (p *Plan) Order() []string {
	out := make([]string, len(p.order))
	for i, v := range p.order {
		out[i] = p.checked[v].Name
	}
	return out
}

// PerOffer reports whether the formula called name is evaluated per offer.
func (p *Plan) PerOffer(name string) bool {
	i, ok := p.index[name]
	return ok && p.perOffer[i]
}

// Refs returns the names the formula called name references directly.
func (p *Plan) Refs(name string) []string {
	if i, ok := p.index[name]; ok {
		return p.checked[i].Refs
	}
	return nil
}

// DependsOn lists the formulas whose value depends on name (an input or a
// formula), directly or through other formulas, in formula order.
func (p *Plan) DependsOn(name string) []string {
	reached := map[string]bool{name: true}
	switch name {
	case domain.GPU, domain.ModelName, domain.Precision, domain.KVHeadroom, domain.GPUs: // sizing reads them
		for _, s := range domain.SizingNames() {
			reached[s] = true
		}
	}
	for _, i := range p.order { // a formula's references come before it
		for _, ref := range p.checked[i].Refs {
			if reached[ref] {
				reached[p.checked[i].Name] = true
				break
			}
		}
	}
	var out []string
	for _, c := range p.checked {
		if reached[c.Name] && c.Name != name {
			out = append(out, c.Name)
		}
	}
	return out
}
