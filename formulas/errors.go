package formulas

import "planner/diag"

// Error is a problem with one formula or one name: a diagnostic.
type Error = diag.Diagnostic

// List is every problem found in one pass, sorted by place.
type List = diag.Diagnostics
