package benchmarks

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"planner/domain"
)

// Given is what the command line says of the points a file holds: each
// field, when set, stands for what the file says or does not.
type Given struct {
	GPU, Model, Precision string
	Cards                 int
	Concurrency           float64
	RequestRate           float64
}

// Formats names the files Read reads, for messages.
const Formats = "the JSON that vllm bench serve --save-result writes, or a profile export of GenAI-Perf (profile_export_genai_perf.csv or .json) or AIPerf (profile_export_aiperf.csv or .json)"

// Read reads the measured points of the file called name, whose bytes are
// data, completed by given; an error names the file and what to do.
func Read(name string, data []byte, given Given) ([]domain.Benchmark, error) {
	points, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i := range points {
		points[i].Source = name
		if err := complete(&points[i], given); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return points, nil
}

// errUnknown is a file of none of the Formats.
var errUnknown = errors.New("is not a benchmark result planner reads; planner import bench reads " + Formats)

// parse tells the format by the file's first character and its fields.
func parse(data []byte) ([]domain.Benchmark, error) {
	text := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	switch {
	case len(text) == 0:
		return nil, errors.New("is empty; planner import bench reads " + Formats)
	case text[0] == '{':
		return parseJSON(text)
	case bytes.HasPrefix(bytes.ToLower(text), []byte("metric,")):
		return parseCSV(text)
	}
	return nil, errUnknown
}

// complete fills what the file does not say from given, and refuses a
// point that still lacks it, naming the flag that gives it.
func complete(b *domain.Benchmark, g Given) error {
	if g.GPU != "" {
		b.GPU = g.GPU
	}
	if g.Model != "" {
		b.Model = g.Model
	}
	if g.Precision != "" {
		b.Precision = g.Precision
	}
	if g.Cards > 0 {
		b.Cards = g.Cards
	}
	if g.Concurrency > 0 {
		b.Concurrency = g.Concurrency
	}
	if g.RequestRate > 0 {
		b.RequestRate = g.RequestRate
	}
	switch {
	case b.GPU == "":
		return errors.New("does not say the GPU it was measured on; give it with --gpu NAME, as the GPUs sheet names it")
	case b.Model == "":
		return errors.New("does not say the model it measured; give it with --model NAME, as the Models sheet names it")
	case b.Precision == "":
		return errors.New("does not say the precision of the model it measured; give it with --precision, such as --precision fp8")
	case b.Cards <= 0:
		return errors.New("does not say the cards per replica it was measured on; give them with --cards N")
	case b.Concurrency <= 0 && b.RequestRate <= 0:
		return errors.New("does not say the load it was measured at; give it with --concurrency N, or --request-rate R where the run offered a rate")
	case b.OutputTokens <= 0:
		return errors.New("gives no output tokens per second above zero; planner needs them to cost a replica")
	}
	return nil
}

// number reads a figure as a benchmark tool writes it: "1,274.63" too.
func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, false
	}
	return v, true
}

// toMS is the factor that turns a latency in unit into milliseconds; 0
// for a unit that is not a time.
func toMS(unit string) float64 {
	switch strings.ToLower(strings.TrimSpace(unit)) {
	case "ms", "":
		return 1
	case "ns":
		return 1e-6
	case "us", "µs":
		return 1e-3
	case "s", "sec":
		return 1000
	}
	return 0
}

// percentileKeys are how a tool names each of domain.Percentiles.
var percentileKeys = [3]string{"p50", "p90", "p99"}
