package workbooks

import (
	"planner/domain"
	"planner/workbooks/internal/schema"
)

// sheetReader reads one input sheet, as its declaration names it, into
// the model.
type sheetReader struct {
	sheet schema.Sheet
	read  func(r *reader, m *domain.Model)
}

// sheetReaders read the input sheets a workbook has, Assumptions first:
// scenarios, tables and goals are read against its inputs. The Formulas
// sheet gives the workbook's own formulas, which Read merges with the
// library.
var sheetReaders = []sheetReader{
	{schema.Assumptions, func(r *reader, m *domain.Model) { m.Inputs = r.assumptions() }},
	{schema.Cloud, func(r *reader, m *domain.Model) { m.Offers = r.offers() }},
	{schema.Scenarios, func(r *reader, m *domain.Model) { m.Scenarios = r.scenarios(m.Inputs) }},
	{schema.GPUs, func(r *reader, m *domain.Model) { m.GPUs = r.gpus() }},
	{schema.Models, func(r *reader, m *domain.Model) { m.Catalog = r.models() }},
	{schema.Deployments, func(r *reader, m *domain.Model) { m.Deployments = r.deployments() }},
	{schema.APIs, func(r *reader, m *domain.Model) { m.APIs = r.apis() }},
	{schema.Correlations, func(r *reader, m *domain.Model) { m.Correlations = r.correlations() }},
	{schema.Targets, func(r *reader, m *domain.Model) { m.Targets = r.targets() }},
	{schema.Tables, func(r *reader, m *domain.Model) { m.Tables = r.tables(m.Inputs) }},
	{schema.Goals, func(r *reader, m *domain.Model) { m.Goals = r.goals(m.Inputs) }},
	{schema.Formulas, func(r *reader, m *domain.Model) { m.Formulas = r.formulas() }},
}
