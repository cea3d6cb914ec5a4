package evaluate

import (
	"encoding/json"
	"slices"
	"testing"
)

// An output's statistics are one object keyed in the view's order, and
// read back in that order.
func TestQuantilesKeepTheirOrder(t *testing.T) {
	q := QuantilesJSON{{Key: "mean", Value: 2.5}, {Key: "p5", Value: 1}, {Key: "base_rank", Value: 0.25}}
	b, err := json.Marshal(q)
	if want := `{"mean":2.5,"p5":1,"base_rank":0.25}`; err != nil || string(b) != want {
		t.Fatalf("marshal = %s, %v; want %s", b, err, want)
	}
	var back QuantilesJSON
	if err := json.Unmarshal(b, &back); err != nil || !slices.Equal(back, q) {
		t.Fatalf("unmarshal = %v, %v; want %v", back, err, q)
	}
	if back.Of("p5") != 1 || back.Of("p95") == back.Of("p95") {
		t.Errorf("Of(p5) = %v, Of(p95) = %v; want 1 and NaN", back.Of("p5"), back.Of("p95"))
	}
}
