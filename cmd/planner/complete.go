package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"planner/domain"
	"planner/evaluate"
	"planner/sizing"
	"planner/workbooks"
)

// Shell completion of the names a workbook holds, read from the workbook
// the command line being completed names (for size: its workbook, else the
// built-in one). A workbook that cannot be read completes nothing, and
// says nothing: completion never fails loudly.

// namesOf lists one kind of name of a model; none of a nil one.
type namesOf func(m *domain.Model) []string

func scenarioNames(m *domain.Model) []string {
	names := []string{domain.Base}
	for _, sc := range m.Scenarios {
		names = append(names, sc.Name)
	}
	return names
}

func inputNames(m *domain.Model) (names []string) {
	for _, in := range m.Inputs {
		names = append(names, in.Name)
	}
	return names
}

// settableNames are the inputs --set can set: the workbook's but its
// currency, which every amount is in, and gpu_watts where the GPUs sheet
// gives it.
func settableNames(m *domain.Model) []string {
	names := slices.DeleteFunc(inputNames(m), func(n string) bool { return n == domain.Currency })
	if plan, err := evaluate.Build(*m); err == nil && !slices.Contains(names, domain.GPUWatts) {
		if _, ok := plan.Settable(domain.GPUWatts); ok {
			names = append(names, domain.GPUWatts)
		}
	}
	return names
}

// formulaNames are the formulas of the workbook with the built-in ones it
// gets, or of its sheet alone when they do not build.
func formulaNames(m *domain.Model) (names []string) {
	fs := m.Formulas
	if plan, err := evaluate.Build(*m); err == nil {
		fs = plan.Formulas()
	}
	for _, f := range fs {
		names = append(names, f.Name)
	}
	return names
}

func offerNames(m *domain.Model) (names []string) {
	for _, o := range m.Offers {
		names = append(names, o.Label())
	}
	return names
}

func gpuNames(m *domain.Model) (names []string) {
	for _, g := range m.GPUs {
		names = append(names, g.Name)
	}
	return names
}

func modelNames(m *domain.Model) (names []string) {
	for _, s := range m.Catalog {
		names = append(names, s.Name)
	}
	return names
}

// completeFlags registers each flag's completion.
func completeFlags(cmd *cobra.Command, funcs map[string]cobra.CompletionFunc) {
	for flag, f := range funcs {
		_ = cmd.RegisterFlagCompletionFunc(flag, f)
	}
}

// complete completes a flag's value with names of one kind.
func complete(kind namesOf) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return matching(kind, modelOf(cmd, args), "", "", toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeNamed completes NAME=VALUE: a name of one kind and "=".
func completeNamed(kind namesOf) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return matching(kind, modelOf(cmd, args), "", "=", toComplete), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// completeSet completes --set NAME=VALUE: an input's name, then the GPU,
// model or precision a text input of that kind names.
func completeSet(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	name, _, ok := strings.Cut(toComplete, "=")
	if !ok {
		return completeNamed(settableNames)(cmd, args, toComplete)
	}
	values := map[string]namesOf{domain.GPU: gpuNames, domain.ModelName: modelNames,
		domain.Precision: func(*domain.Model) []string { return sizing.Precisions() }}
	if kind := values[name]; kind != nil {
		return matching(kind, modelOf(cmd, args), name+"=", "", toComplete), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// matching are the names, between prefix and suffix, that begin with what
// has been typed.
func matching(kind namesOf, m *domain.Model, prefix, suffix, typed string) []string {
	if m == nil {
		return nil
	}
	var out []string
	for _, n := range kind(m) {
		if c := prefix + n + suffix; strings.HasPrefix(c, typed) {
			out = append(out, c)
		}
	}
	return out
}

// modelOf is the model of the workbook the command line names, or nil.
func modelOf(cmd *cobra.Command, args []string) *domain.Model {
	path := ""
	if len(args) > 0 {
		path = args[0]
	}
	if cmd.Name() == "size" {
		if f := cmd.Flags().Lookup("workbook"); path == "" && f != nil {
			path = f.Value.String()
		}
		if path == "" {
			m := workbooks.DefaultModel()
			return &m
		}
	}
	if path == "" {
		return nil
	}
	book, err := workbooks.Read(path)
	if err != nil {
		return nil
	}
	return &book.Model
}
