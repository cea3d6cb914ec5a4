package benchmarks

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"strings"

	"planner/domain"
)

// parseCSV reads a GenAI-Perf or AIPerf CSV export: a table of each
// request metric's statistics (Metric,avg,min,max,p99,…), then after a
// blank line one of the run's figures (Metric,Value). It says neither the
// model nor the load; the command line gives them.
func parseCSV(data []byte) ([]domain.Benchmark, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("is not CSV planner can read (%v); planner import bench reads %s", err, Formats)
	}
	var b domain.Benchmark
	var header []string
	seen := false
	for _, row := range rows {
		if len(row) == 0 || strings.EqualFold(strings.TrimSpace(row[0]), "metric") {
			header = row
			continue
		}
		name, unit := metricName(row[0])
		col := func(stat string) (float64, bool) {
			for i, h := range header {
				if strings.EqualFold(strings.TrimSpace(h), stat) && i < len(row) {
					return number(row[i])
				}
			}
			return 0, false
		}
		switch name {
		case "time to first token", "inter token latency":
			scale := toMS(unit)
			if scale == 0 {
				return nil, fmt.Errorf("gives %s in %s, which is not a time planner reads (ms, µs, ns or s)", row[0], unit)
			}
			l := &b.TTFT
			if name == "inter token latency" {
				l = &b.ITL
			}
			for i, p := range percentileKeys {
				v, _ := col(p)
				l[i] = v * scale
			}
			seen = true
		case "output token throughput", "total token throughput":
			v, ok := col("value")
			if !ok {
				v, ok = col("avg")
			}
			if ok && name == "output token throughput" {
				b.OutputTokens = v
			} else if ok {
				b.TotalTokens = v
			}
		}
	}
	if !seen || b.OutputTokens == 0 {
		if !seen && b.OutputTokens == 0 {
			return nil, errUnknown
		}
		return nil, errors.New("looks like a GenAI-Perf or AIPerf export but lacks its time to first token, inter token latency or output token throughput; export the run's profile_export_genai_perf.csv or profile_export_aiperf.csv whole")
	}
	return []domain.Benchmark{b}, nil
}

// metricName is a CSV row's metric in lower case and its unit:
// "Time To First Token (ms)" -> "time to first token", "ms".
func metricName(s string) (name, unit string) {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "("); i > 0 && strings.HasSuffix(s, ")") {
		return strings.ToLower(strings.TrimSpace(s[:i])), strings.TrimSpace(s[i+1 : len(s)-1])
	}
	return strings.ToLower(s), ""
}
