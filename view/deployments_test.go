package view

import (
	"math"
	"slices"
	"testing"

	"planner/deploy"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/units"
	"planner/wording"
)

func specDeployments(t *testing.T) (*Deployments, map[string]Deployment) {
	t.Helper()
	p, err := engine.Build(enginetest.FullModel(), deploy.Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	ds := DeploymentsOf(deploy.Cost(p, results), units.USD)
	byName := map[string]Deployment{}
	for _, d := range ds.All {
		byName[d.Name] = d
	}
	return ds, byName
}

// heads are the headings of the figures a rendering shows, in order.
func heads(figs []Figure, in Where) []string {
	var out []string
	for _, f := range figs {
		if f.In&in != 0 {
			out = append(out, f.Head)
		}
	}
	return out
}

func TestDeploymentFiguresInReadingOrder(t *testing.T) {
	ds, _ := specDeployments(t)
	if want := []string{"deployment", "cards", "usage", "offer", "rent/month", "own/month", "verdict"}; !slices.Equal(heads(ds.Figures, Terminal), want) {
		t.Errorf("deployments' columns %q, want %q", heads(ds.Figures, Terminal), want)
	}
	if want := []string{"deployment", "tokens/month", "rent/M", "own/M", "API/M", "API/month", "cheapest month"}; !slices.Equal(heads(ds.Figures, Tokens), want) {
		t.Errorf("tokens' columns %q, want %q", heads(ds.Figures, Tokens), want)
	}
	var labels []string
	for _, f := range ds.Figures {
		if f.In&Sheet != 0 {
			labels = append(labels, f.Label)
		}
	}
	if len(labels) != 25 || labels[0] != "deployment" || labels[15] != "verdict" || labels[23] != CheapestLabel || labels[24] != "in words" {
		t.Errorf("sheet columns %q: want 25, deployment first, verdict 16th, the cheapest, then the verdict in words last", labels)
	}
}

func TestDeploymentCells(t *testing.T) {
	ds, byName := specDeployments(t)
	d := byName["one H100 all month"]
	text := func(name string) string {
		for k, f := range ds.Figures {
			if f.Name == name {
				return f.Text(d.Cells[k])
			}
		}
		t.Fatalf("no figure %s", name)
		return ""
	}
	// One card at RunPod Community's $2.69 for 730 hours, against the
	// base H100 node's month: its capital over 36 months, power and
	// cooling at $0.12/kWh, and $1,000 of the rest.
	rent := 2.69 * 730
	own := 285000.0/36 + 8*700*1.3/1000*730*0.12 + 1000
	if c, _ := ds.Cell(d, RentPerMonth); !c.Number || math.Abs(c.Value-rent) > 1e-9 {
		t.Errorf("rent a month %+v, want %v", c, rent)
	}
	if c, _ := ds.Cell(d, OwnPerMonth); !c.Number || math.Abs(c.Value-own) > 1e-6 {
		t.Errorf("own a month %+v, want %v", c, own)
	}
	if c, _ := ds.Cell(d, OwnBusy); math.Abs(c.Value-1.0/8) > 1e-12 {
		t.Errorf("node busy %v, want one card of eight all month", c.Value)
	}
	for name, want := range map[string]string{
		ReplicasByCards: "1×1", RentPerMonth: "$1,963.70", OwnPerMonth: "$9,554.39", Verdict: wording.Rent,
		DeploymentOffer: "RunPod H100 SXM, Community", OwnNodes: "1", Words: d.Words,
	} {
		if got := text(name); got != want {
			t.Errorf("%s reads %q, want %q", name, got, want)
		}
	}
}

func TestDeploymentNotCosted(t *testing.T) {
	why := "not costed: the model does not fit"
	ds := DeploymentsOf([]deploy.Result{{Deployment: domain.Deployment{Name: "big", Model: "M", GPU: "G", Replicas: 2, Usage: "all month"}, Words: why}}, units.USD)
	d := ds.All[0]
	if d.Costed() {
		t.Fatal("a deployment without a phrase costed")
	}
	for k, f := range ds.Figures {
		c := d.Cells[k]
		switch f.Name {
		case DeploymentName, DeploymentModel, DeploymentGPU, Words:
			if c.Empty() {
				t.Errorf("%s empty: a row not costed still says what it is and why", f.Name)
			}
		case Verdict:
			if !c.Empty() || f.Text(c) != why {
				t.Errorf("verdict %+v: want empty, reading %q", c, why)
			}
		default:
			if !c.Empty() {
				t.Errorf("%s = %+v, want nothing for a row not costed", f.Name, c)
			}
		}
	}
}

func TestDeploymentWithoutOwnerAndWithAPI(t *testing.T) {
	api := &deploy.APISide{API: domain.API{Provider: "Together", Model: "Llama 70B"}, PerMillion: 0.88, PerMonth: 1234.5}
	r := deploy.Result{Deployment: domain.Deployment{Name: "chat", GPU: "L40S", Replicas: 3}, Cards: 2, RentPerMonth: 2000,
		Words: "nothing to compare", Phrase: wording.Phrase{{Text: "nothing to compare"}},
		Tokens: deploy.Tokens{PerSecond: 100, PerMonth: 1234567.6, PerMillionRent: 2000 / 1.2345676, API: api, Cheapest: deploy.CheapestAPI}}
	ds := DeploymentsOf([]deploy.Result{r}, units.USD)
	d := ds.All[0]
	text := map[string]string{}
	for k, f := range ds.Figures {
		text[f.Name] = f.Text(d.Cells[k])
	}
	for name, want := range map[string]string{
		ReplicasByCards: "3×2", Verdict: "nothing to compare: no scenario owns L40S nodes", OwnPerMonth: "", OwnPerMillion: "",
		TokensPerMonth: "1,234,568", APIText: "$0.88 Together Llama 70B", APIPerMonth: "$1,234.50", Cheapest: "api",
	} {
		if text[name] != want {
			t.Errorf("%s reads %q, want %q", name, text[name], want)
		}
	}
	if c, _ := ds.Cell(d, Verdict); !c.Empty() {
		t.Errorf("verdict %+v: the sheet and the JSON have none to show", c)
	}
}
