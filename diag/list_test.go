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
