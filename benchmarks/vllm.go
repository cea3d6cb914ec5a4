package benchmarks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"planner/domain"
)

// parseJSON reads a vllm bench serve result, one or one a line, or a
// GenAI-Perf or AIPerf profile export.
func parseJSON(data []byte) ([]domain.Benchmark, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out []domain.Benchmark
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("is not JSON planner can read (%v); planner import bench reads %s", err, Formats)
		}
		var b domain.Benchmark
		switch {
		case has(doc, "output_throughput"):
			b, err = vllmPoint(doc)
		case has(doc, "output_token_throughput"):
			b, err = exportPoint(doc)
		default:
			return nil, errUnknown
		}
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func has(doc map[string]any, key string) bool { _, ok := doc[key]; return ok }

// figure is the number at key of doc, and whether there is one.
func figure(doc map[string]any, key string) (float64, bool) {
	switch v := doc[key].(type) {
	case json.Number:
		return number(v.String())
	case string:
		return number(v)
	}
	return 0, false
}

// vllmPoint is one vllm bench serve result: the model it served, the
// concurrency it held (max_concurrency) or the request rate it offered,
// the throughputs and the latencies at the percentiles it was asked for
// (--metric-percentiles; median for p50).
func vllmPoint(doc map[string]any) (domain.Benchmark, error) {
	var b domain.Benchmark
	b.Model, _ = doc["model_id"].(string)
	b.Concurrency, _ = figure(doc, "max_concurrency")
	b.RequestRate, _ = figure(doc, "request_rate") // "inf" reads as none
	b.OutputTokens, _ = figure(doc, "output_throughput")
	b.TotalTokens, _ = figure(doc, "total_token_throughput")
	for i, p := range percentileKeys {
		for name, l := range map[string]*domain.Latencies{"ttft": &b.TTFT, "tpot": &b.TPOT, "itl": &b.ITL} {
			v, ok := figure(doc, p+"_"+name+"_ms")
			if !ok && p == "p50" {
				v, _ = figure(doc, "median_"+name+"_ms")
			}
			l[i] = v
		}
	}
	if b.TTFT == (domain.Latencies{}) && b.TPOT == (domain.Latencies{}) && b.ITL == (domain.Latencies{}) {
		return b, errors.New("looks like a vllm bench serve result but gives no latency (median_ttft_ms, p99_ttft_ms, …); save the result of a run of vllm bench serve with --save-result")
	}
	b.Date = vllmDate(doc["date"])
	// What --metadata KEY=VALUE added to the result.
	b.GPU, _ = doc["gpu"].(string)
	b.Precision, _ = doc["precision"].(string)
	for _, key := range []string{"cards", "tensor_parallel_size", "tp"} {
		if s, ok := doc[key].(string); ok && b.Cards == 0 {
			b.Cards, _ = strconv.Atoi(strings.TrimSpace(s))
		}
	}
	return b, nil
}

// vllmDate is vllm's date of a run ("20250101-120000") as a day:
// "2025-01-01"; "" when it is not one.
func vllmDate(v any) string {
	s, _ := v.(string)
	if len(s) < 8 {
		return ""
	}
	for _, c := range s[:8] {
		if c < '0' || c > '9' {
			return ""
		}
	}
	return s[:4] + "-" + s[4:6] + "-" + s[6:8]
}

// exportPoint is a GenAI-Perf or AIPerf profile export: each metric an
// object of its unit and statistics, and the run's configuration
// (input_config) saying the model and the load.
func exportPoint(doc map[string]any) (domain.Benchmark, error) {
	var b domain.Benchmark
	stats := func(key string) (map[string]any, float64) {
		m, _ := doc[key].(map[string]any)
		unit, _ := m["unit"].(string)
		return m, toMS(unit)
	}
	tput, _ := stats("output_token_throughput")
	b.OutputTokens, _ = figure(tput, "avg")
	if tot, _ := stats("total_token_throughput"); tot != nil {
		b.TotalTokens, _ = figure(tot, "avg")
	}
	for name, l := range map[string]*domain.Latencies{"time_to_first_token": &b.TTFT, "inter_token_latency": &b.ITL} {
		m, scale := stats(name)
		if scale == 0 {
			return b, fmt.Errorf("gives %s in %v, which is not a time planner reads (ms, µs, ns or s)", name, m["unit"])
		}
		for i, p := range percentileKeys {
			v, _ := figure(m, p)
			l[i] = v * scale
		}
	}
	if s, ok := doc["start_time"].(string); ok && len(s) >= 10 {
		b.Date = s[:10]
	}
	cfg, _ := doc["input_config"].(map[string]any)
	b.Model = modelOf(cfg)
	b.Concurrency, b.RequestRate = loadOf(cfg)
	return b, nil
}

// modelOf is the model a run's configuration names: GenAI-Perf's model
// (a list or one), AIPerf's endpoint model_names.
func modelOf(cfg map[string]any) string {
	for _, v := range []any{cfg["model"], cfg["model_names"], sub(cfg, "endpoint")["model_names"]} {
		switch m := v.(type) {
		case string:
			return m
		case []any:
			if len(m) == 1 {
				s, _ := m[0].(string)
				return s
			}
		}
	}
	return ""
}

// loadOf is the concurrency and request rate a run's configuration holds:
// GenAI-Perf's at the top, AIPerf's under loadgen.
func loadOf(cfg map[string]any) (concurrency, rate float64) {
	for _, m := range []map[string]any{cfg, sub(cfg, "loadgen")} {
		if c, ok := figure(m, "concurrency"); ok && concurrency == 0 {
			concurrency = c
		}
		if r, ok := figure(m, "request_rate"); ok && rate == 0 {
			rate = r
		}
	}
	return concurrency, rate
}

func sub(m map[string]any, key string) map[string]any {
	s, _ := m[key].(map[string]any)
	return s
}
