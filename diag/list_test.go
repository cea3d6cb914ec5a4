package diag

import (
	"strings"
	"testing"
)

func TestListTellsNamesApart(t *testing.T) {
	tests := []struct {
		names   []string
		list    string
		listAnd string
	}{
		{nil, "", ""},
		{[]string{"base"}, "base", "base"},
		{[]string{"Results", "Sizing"}, "Results, Sizing", "Results and Sizing"},
		{[]string{"base", "H100 low", "H200 node"}, "base, H100 low, H200 node", "base, H100 low and H200 node"},
		{[]string{"H100 high", "H100 mid, 30 % residual", "H200 node"},
			"H100 high; H100 mid, 30 % residual; H200 node", "H100 high; H100 mid, 30 % residual; and H200 node"},
		{[]string{"RunPod H100 SXM, Community"}, "RunPod H100 SXM, Community", "RunPod H100 SXM, Community"},
		{[]string{"a; b", "c"}, "a; b, c", "a; b and c"},
		{[]string{"a; b", "c, d"}, `"a; b"; c, d`, `"a; b"; and c, d`},
		{[]string{`say "hi"; bye`, "x, y"}, `"say \"hi\"; bye"; x, y`, `"say \"hi\"; bye"; and x, y`},
	}
	for _, tt := range tests {
		if got := List(tt.names); got != tt.list {
			t.Errorf("List(%q) = %q, want %q", tt.names, got, tt.list)
		}
		if got := ListAnd(tt.names); got != tt.listAnd {
			t.Errorf("ListAnd(%q) = %q, want %q", tt.names, got, tt.listAnd)
		}
		if got, want := ListOr(tt.names), strings.Replace(tt.listAnd, " and ", " or ", 1); got != want {
			t.Errorf("ListOr(%q) = %q, want %q", tt.names, got, want)
		}
	}
}

// A quoted name keeps its characters: the printer, not List, makes them
// safe for a terminal.
func TestListQuotesOnlyQuotes(t *testing.T) {
	got := List([]string{"a\x1b]0;x\x07", `b\c`, "d, e"})
	if want := "\"a\x1b]0;x\x07\"; b\\c; d, e"; got != want {
		t.Errorf("List = %q, want %q", got, want)
	}
	got = List([]string{`x "y"; z`, "w, v"})
	if want := `"x \"y\"; z"; w, v`; got != want {
		t.Errorf("List = %q, want %q", got, want)
	}
}
