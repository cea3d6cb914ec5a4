package sheets

import (
	"fmt"
	"testing"
)

// spliced puts its parts in as fmt.Sprintf puts strings in, a part that
// itself holds %s included.
func TestSplicedIsSprintf(t *testing.T) {
	for _, tc := range []struct {
		template string
		parts    []string
	}{
		{"IF(AND(%s=0,%s=0),%s,%s)", []string{"D5", "D6", "(D7*2)", "%s"}},
		{`IF(%s=1,"1 month",%s&" months")`, []string{"$D$9", "$D$9"}},
		{"%s%s", []string{"", "x"}},
		{"no parts", nil},
	} {
		args := make([]any, len(tc.parts))
		for i, p := range tc.parts {
			args[i] = p
		}
		if got, want := spliced(tc.template, tc.parts...), fmt.Sprintf(tc.template, args...); got != want {
			t.Errorf("spliced(%q, %q) = %q, want %q", tc.template, tc.parts, got, want)
		}
	}
}
