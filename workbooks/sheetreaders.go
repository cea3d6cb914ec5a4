package workbooks

import (
	"planner/domain"
	"planner/formulas"
	"planner/workbooks/internal/schema"
)

// sheetReader reads one input sheet, as its declaration names it, into
// the model, from a workbook (read) and from the default workbook's table
// of it (defaults, nil for a sheet init writes empty).
type sheetReader struct {
	sheet    schema.Sheet
	read     func(r *reader, m *domain.Model)
	defaults func(m *domain.Model)
}

// sheetReaders read the input sheets a workbook has, Assumptions first:
// scenarios, tables and goals are read against its inputs, the FX rates
// in its currency, FX before Cloud and APIs, whose prices it converts, and
// Benchmarks before Deployments, whose latency targets read its curves. The Formulas
// sheet gives the workbook's own formulas, which Read merges with the
// library; the default workbook's are the library.
var sheetReaders = []sheetReader{
	{schema.Assumptions, func(r *reader, m *domain.Model) { m.Inputs = r.assumptions(); m.Currency = r.currency(m.Inputs) },
		func(m *domain.Model) {
			m.Inputs = fromDefaults(schema.Assumptions, defaultInput)
			m.Currency = defaultCurrency(m.Inputs)
		}},
	{schema.FX, func(r *reader, m *domain.Model) { m.FX = r.fxRates(m.Currency) },
		func(m *domain.Model) { m.FX = fromDefaults(schema.FX, defaultFX) }},
	{schema.Cloud, func(r *reader, m *domain.Model) { m.Offers = r.offers(m) },
		func(m *domain.Model) { m.Offers = fromDefaults(schema.Cloud, defaultOffer) }},
	{schema.Scenarios, func(r *reader, m *domain.Model) { m.Scenarios = r.scenarios(m.Inputs) },
		func(m *domain.Model) { m.Scenarios = defaultScenarios(*m) }},
	{schema.GPUs, func(r *reader, m *domain.Model) { m.GPUs = r.gpus() },
		func(m *domain.Model) { m.GPUs = fromDefaults(schema.GPUs, defaultGPU) }},
	{schema.Models, func(r *reader, m *domain.Model) { m.Catalog = r.models() },
		func(m *domain.Model) { m.Catalog = fromDefaults(schema.Models, defaultModelSpec) }},
	{schema.Benchmarks, func(r *reader, m *domain.Model) { m.Benchmarks = r.benchmarks() }, nil},
	{schema.Deployments, func(r *reader, m *domain.Model) { m.Deployments = r.deployments(m) },
		func(m *domain.Model) { m.Deployments = fromDefaults(schema.Deployments, defaultDeployment) }},
	{schema.APIs, func(r *reader, m *domain.Model) { m.APIs = r.apis(m) }, nil},
	{schema.Correlations, func(r *reader, m *domain.Model) { m.Correlations = r.correlations() },
		func(m *domain.Model) { m.Correlations = fromDefaults(schema.Correlations, defaultCorrelation) }},
	{schema.Targets, func(r *reader, m *domain.Model) { m.Targets = r.targets() },
		func(m *domain.Model) { m.Targets = fromDefaults(schema.Targets, defaultTarget) }},
	{schema.Tables, func(r *reader, m *domain.Model) { m.Tables = r.tables(m.Inputs) },
		func(m *domain.Model) { m.Tables = fromDefaults(schema.Tables, defaultDataTable) }},
	{schema.Goals, func(r *reader, m *domain.Model) { m.Goals = r.goals(m.Inputs) },
		func(m *domain.Model) { m.Goals = fromDefaults(schema.Goals, defaultGoal) }},
	{schema.Formulas, func(r *reader, m *domain.Model) { m.Formulas = r.formulas() },
		func(m *domain.Model) { m.Formulas = formulas.Library() }},
}
