package fleet

import (
	"fmt"
	"testing"
	"time"

	"planner/deploy"
)

// benchFleet is n deployments of one GPU on nodes of 8 cards at $9,554 a
// month, as a large workbook has them: cards per replica 1, 2, 4 or 8
// (what sizing gives) or, with anySize, any count from 1 to 8; one to
// three replicas; rented all month, on workdays or a hundred hours, at
// $2.69 to $5.97 a GPU-hour.
func benchFleet(n int, anySize bool) []deploy.Result {
	var ds []deploy.Result
	for i := range n {
		h := uint32(i)*2654435761 + 12345
		cards := 1 << (h % 4)
		if anySize {
			cards = 1 + int(h%8)
		}
		replicas := 1 + int(h>>8%3)
		hours := []float64{730, 264, 100}[h>>12%3]
		price := []float64{2.69, 3.99, 5.97}[h>>16%3]
		ds = append(ds, costed(fmt.Sprintf("deployment %d", i), cards, replicas, price*hours*float64(cards*replicas), 8, 9554.39))
	}
	return ds
}

// BenchmarkCheapestMix is the fleet of 100 and of 1,000 deployments (Of:
// grouping, packing and the cheapest mix with its curve), with sizes that
// divide each other and the node (the exact search) and with any size
// (past its bound, beyond a few hundred deployments). The 1,000's x-100
// is its time over the 100's in the same run: 10 is linear.
//
//	go test ./fleet -run '^$' -bench CheapestMix -count 5
func BenchmarkCheapestMix(b *testing.B) {
	for _, anySize := range []bool{false, true} {
		var per100 time.Duration
		for _, n := range []int{100, 1000} {
			name := fmt.Sprintf("sizes=dividing/deployments=%d", n)
			if anySize {
				name = fmt.Sprintf("sizes=any/deployments=%d", n)
			}
			ds := benchFleet(n, anySize)
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					Of(ds)
				}
				per := b.Elapsed() / time.Duration(b.N)
				if n == 100 {
					per100 = per
				} else if per100 > 0 {
					b.ReportMetric(float64(per)/float64(per100), "x-100")
				}
			})
		}
	}
}
