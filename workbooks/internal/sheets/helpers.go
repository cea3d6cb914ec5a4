package sheets

import (
	"sort"
	"strconv"
	"strings"

	"planner/domain"
)

// UnitOf is the unit of the named input, or "".
func UnitOf(inputs []domain.Input, name string) string {
	for _, in := range inputs {
		if in.Name == name {
			return in.Unit
		}
	}
	return ""
}

// Settings writes "capex=300000; utilization=0.4", sorted by name, as the
// Goals sheet reads it.
func Settings(set map[string]domain.Value) string {
	var parts []string
	for name, v := range set {
		parts = append(parts, name+"="+strconv.FormatFloat(v.Num, 'g', -1, 64))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}
