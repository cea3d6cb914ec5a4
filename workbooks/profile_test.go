package workbooks

import (
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// A busy hours profile is read as 24 shares, percentages too, and its sum
// is the hours per day beside it. The public 70B row is busy 12 h × 22
// days: half its replica in the 24 hours of the day is 12 hours.
func TestReadABusyHoursProfile(t *testing.T) {
	path := newPlan(t)
	editPlan(t, path, func(f *excelize.File) error {
		setDeployment(t, f, "busy hours profile", publicRow, strings.Repeat("0.25 ", 12)+strings.Repeat("75% ", 12))
		return nil
	})
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Concat(slices.Repeat([]float64{0.25}, 12), slices.Repeat([]float64{0.75}, 12))
	if d := b.Model.Deployments[publicRow-2]; !slices.Equal(d.Profile, want) || d.HoursPerMonth != 12*22 {
		t.Errorf("profile %v, %v h a month; want %v, 264 h", d.Profile, d.HoursPerMonth, want)
	}
}

// A profile that is not 24 shares from 0 to 1, is 0 every hour, or whose
// sum differs from the hours per day, is refused at its cell with what to
// type.
func TestBadBusyHoursProfiles(t *testing.T) {
	const name, how = "public 70B FP8 service, workdays", "type 24 shares of the replicas busy, one per hour of the day from midnight, each from 0 to 1 (or 0 % to 100 %), apart by spaces"
	for _, tt := range []struct {
		profile string
		edit    map[string]any // other cells of the row
		cell    string
		want    string
	}{
		{strings.Repeat("0.5 ", 23), nil, "Q3", "the busy hours profile has 23 values, not 24; " + how},
		{strings.Repeat("0.5 ", 23) + "1.5", nil, "Q3", `the busy hours profile's value for hour 23 is "1.5", not a share from 0 to 1; ` + how},
		{strings.Repeat("0.5, ", 23) + "busy", nil, "Q3", `the busy hours profile's value for hour 23 is "busy", not a share from 0 to 1; ` + how},
		{strings.Repeat("0 ", 24), nil, "Q3", "the busy hours profile is 0 every hour; " + how + ", or clear the cell"},
		{strings.Repeat("0.25 ", 24), nil, "G3", "the busy hours profile adds up to 6 hours a day, but hours per day is 12; type 6, or change the profile"},
		{strings.Repeat("0.5 ", 24), map[string]any{"hours per day": "", "days per month": "", "hours per month": 730}, "Q3",
			"a busy hours profile is hours of a day: give the usage as hours per day (12, the profile's sum) and days per month"},
	} {
		path := newPlan(t)
		editPlan(t, path, func(f *excelize.File) error {
			setDeployment(t, f, "busy hours profile", publicRow, tt.profile)
			for h, v := range tt.edit {
				setDeployment(t, f, h, publicRow, v)
			}
			return nil
		})
		_, err := Read(path)
		want := "Deployments!" + tt.cell + ": " + name + ": " + tt.want
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v\nwant %s", tt.profile, err, want)
		}
	}
}
