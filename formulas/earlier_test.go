package formulas

import (
	"slices"
	"testing"
)

// The built-in cost per GPU-hour of planner 0.1 read capital (capex, gpus,
// residual, the amortisation), power and rack; today's reads the cost of
// capital (through monthly_rate), maintenance, staff, the network and
// software licences too, in that order down the library, and with idle
// watts the power a month reads the idle watts and the utilisation.
func TestAddedInputsOfTheCostPerGPUHour(t *testing.T) {
	want := []string{"cost_of_capital", "gpu_idle_watts", "utilization", "maintenance_per_year", "staff_per_month", "network_per_month", "software_per_gpu_year"}
	if got := AddedInputs("cost_per_gpu_hour"); !slices.Equal(got, want) {
		t.Errorf("AddedInputs(cost_per_gpu_hour) = %v, want %v", got, want)
	}
	if got, want := AddedInputs("power_per_gpu_hour"), []string{"gpu_idle_watts", "utilization"}; !slices.Equal(got, want) {
		t.Errorf("AddedInputs(power_per_gpu_hour) = %v, want %v: the power came to read idle watts and no more", got, want)
	}
}

// Each version's formula is the first file's from it on that lists it, else
// the library's. In 0.1 base read x alone; extra, unchanged until after
// 0.2, read z; today base reads y too and extra w. So y came after 0.1, z
// was read by both, and w came after 0.2; the library reads w before z.
func TestAddedInputsFollowsTheReleasesInOrder(t *testing.T) {
	lib := []Formula{{Name: "total", Source: "base + extra"}, {Name: "base", Source: "x * y"}, {Name: "extra", Source: "w + z"}}
	rs := []release{
		{version: []int{0, 1}, formulas: []Formula{{Name: "base", Source: "x"}}},
		{version: []int{0, 2}, formulas: []Formula{{Name: "extra", Source: "z"}}},
	}
	if got, want := addedInputs("total", lib, rs), []string{"y", "w"}; !slices.Equal(got, want) {
		t.Errorf("addedInputs = %v, want %v", got, want)
	}
}

func TestVersionOfComparesNumbers(t *testing.T) {
	if a, b := versionOf("earlier/0.9.expr"), versionOf("earlier/0.10.expr"); slices.Compare(a, b) >= 0 {
		t.Errorf("version %v sorts after %v", a, b)
	}
}
