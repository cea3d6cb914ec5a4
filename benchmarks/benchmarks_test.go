package benchmarks

import (
	"fmt"
	"strings"
	"testing"

	"planner/domain"
)

// vllmResult is a result as vllm bench serve --save-result writes it, with
// the default percentiles (p99, and the median).
func vllmResult(concurrency int, tokens, medianTTFT, p99TTFT, p99TPOT float64) string {
	return fmt.Sprintf(`{"date": "20261115-101500", "backend": "vllm", "model_id": "meta-llama/Llama-3.1-70B-Instruct",
 "tokenizer_id": "meta-llama/Llama-3.1-70B-Instruct", "num_prompts": 500, "request_rate": "inf", "burstiness": 1.0,
 "max_concurrency": %d, "duration": 120.5, "completed": 500, "total_input_tokens": 512000, "total_output_tokens": 128000,
 "request_throughput": 4.1, "request_goodput": null, "output_throughput": %g, "total_token_throughput": %g,
 "mean_ttft_ms": 100.0, "median_ttft_ms": %g, "std_ttft_ms": 20.0, "p99_ttft_ms": %g,
 "mean_tpot_ms": 20.0, "median_tpot_ms": 19.0, "std_tpot_ms": 2.0, "p99_tpot_ms": %g,
 "mean_itl_ms": 20.0, "median_itl_ms": 18.0, "std_itl_ms": 5.0, "p99_itl_ms": 40.0}`,
		concurrency, tokens, tokens*5, medianTTFT, p99TTFT, p99TPOT)
}

func TestVLLM(t *testing.T) {
	data := vllmResult(16, 1100.5, 150, 210, 15.5)
	got, err := Read("run.json", []byte(data), Given{GPU: "H100 SXM", Model: "Llama 3.1 70B", Precision: "FP8", Cards: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := domain.Benchmark{GPU: "H100 SXM", Model: "Llama 3.1 70B", Precision: "FP8", Cards: 2, Concurrency: 16, OutputTokens: 1100.5,
		TotalTokens: 5502.5, TTFT: domain.Latencies{150, 0, 210}, TPOT: domain.Latencies{19, 0, 15.5}, ITL: domain.Latencies{18, 0, 40},
		Source: "run.json", Date: "2026-11-15"}
	if len(got) != 1 || got[0].Key() != want.Key() || got[0].Source != want.Source {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// --append-result: one result a line; the model the file names stands
	// when --model is not given.
	lines := strings.ReplaceAll(vllmResult(1, 90, 40, 45, 11), "\n", "") + "\n" + strings.ReplaceAll(data, "\n", "") + "\n"
	got, err = Read("runs.json", []byte(lines), Given{GPU: "H100 SXM", Precision: "FP8", Cards: 2})
	if err != nil || len(got) != 2 || got[0].Concurrency != 1 || got[1].Concurrency != 16 || got[1].Model != "meta-llama/Llama-3.1-70B-Instruct" {
		t.Errorf("%+v %v", got, err)
	}
	// A run at a request rate, with no concurrency held, is measured
	// along its rate.
	rated := strings.Replace(strings.Replace(data, `"request_rate": "inf"`, `"request_rate": 4.0`, 1), `"max_concurrency": 16`, `"max_concurrency": null`, 1)
	got, err = Read("rate.json", []byte(rated), Given{GPU: "H100 SXM", Model: "m", Precision: "FP8", Cards: 2})
	if err != nil || got[0].Concurrency != 0 || got[0].RequestRate != 4 {
		t.Errorf("%+v %v", got, err)
	}
	// What --metadata put in the file stands for the flags.
	meta := strings.Replace(data, `"backend"`, `"gpu": "H200", "precision": "BF16", "tensor_parallel_size": "4", "backend"`, 1)
	got, err = Read("meta.json", []byte(meta), Given{Model: "Llama 3.1 70B"})
	if err != nil || got[0].GPU != "H200" || got[0].Precision != "BF16" || got[0].Cards != 4 {
		t.Errorf("%+v %v", got, err)
	}
}

// A GenAI-Perf export: the CSV's statistics (values with thousands
// separators), then its system metrics.
const genaiPerfCSV = `Metric,avg,min,max,p99,p95,p90,p75,p50,p25
Time To First Token (ms),"1,234.50",800.00,"2,000.00","1,950.00","1,900.00","1,800.00","1,500.00","1,200.00","1,000.00"
Inter Token Latency (ms),21.00,18.00,30.00,29.50,28.00,26.00,23.00,20.50,19.00
Request Latency (ms),"5,000.00","4,000.00","6,000.00","5,900.00","5,800.00","5,700.00","5,300.00","4,900.00","4,500.00"
Output Sequence Length,200.00,180.00,220.00,219.00,215.00,210.00,205.00,200.00,195.00
Input Sequence Length,550.00,550.00,550.00,550.00,550.00,550.00,550.00,550.00,550.00

Metric,Value
Output Token Throughput (per sec),"1,274.63"
Request Throughput (per sec),6.37
`

// An AIPerf export: its statistics in another order, its summary after.
const aiperfCSV = `Metric,avg,min,max,p1,p5,p10,p25,p50,p75,p90,p95,p99,std
Request Latency (ms),6550.36,4996.25,9383.37,5523.64,5641.18,5649.25,5678.54,5799.90,7314.96,8594.21,8980.84,9381.63,1171.14
Time to First Token (ms),1588.80,382.24,4121.09,403.48,547.97,641.77,659.03,787.54,2439.00,3695.10,4051.43,4119.33,1189.99
Inter Token Latency (ms),51.76,46.81,56.30,50.41,50.50,50.53,50.86,51.98,52.17,53.18,54.32,55.87,1.23

Metric,Value
Benchmark Duration (sec),15.20
Request Throughput (requests/sec),13.16
Output Token Throughput (tokens/sec),1274.63
`

func TestExportsCSV(t *testing.T) {
	given := Given{GPU: "H100 SXM", Model: "Llama 3.1 8B", Precision: "BF16", Cards: 1, Concurrency: 32}
	got, err := Read("profile_export_genai_perf.csv", []byte(genaiPerfCSV), given)
	if err != nil {
		t.Fatal(err)
	}
	if b := got[0]; b.OutputTokens != 1274.63 || b.Concurrency != 32 || b.TTFT != (domain.Latencies{1200, 1800, 1950}) || b.ITL != (domain.Latencies{20.5, 26, 29.5}) || b.TPOT != (domain.Latencies{}) {
		t.Errorf("GenAI-Perf: %+v", b)
	}
	got, err = Read("profile_export_aiperf.csv", []byte(aiperfCSV), given)
	if err != nil {
		t.Fatal(err)
	}
	if b := got[0]; b.OutputTokens != 1274.63 || b.TTFT != (domain.Latencies{787.54, 3695.10, 4119.33}) || b.ITL != (domain.Latencies{51.98, 53.18, 55.87}) {
		t.Errorf("AIPerf: %+v", b)
	}
	// The CSV says no load: without --concurrency it is refused.
	given.Concurrency = 0
	_, err = Read("profile_export_aiperf.csv", []byte(aiperfCSV), given)
	want := "profile_export_aiperf.csv: does not say the load it was measured at; give it with --concurrency N, or --request-rate R where the run offered a rate"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestExportsJSON(t *testing.T) {
	genaiPerf := `{"time_to_first_token": {"unit": "ms", "avg": 300.0, "p99": 900.0, "p90": 600.0, "p50": 250.0},
 "inter_token_latency": {"unit": "ms", "avg": 20.0, "p99": 35.0, "p90": 28.0, "p50": 19.0},
 "output_token_throughput": {"unit": "tokens/sec", "avg": 2048.5},
 "request_throughput": {"unit": "requests/sec", "avg": 9.5},
 "input_config": {"model": ["llama-3.1-8b"], "concurrency": 64, "request_rate": null, "streaming": true}}`
	got, err := Read("profile_export_genai_perf.json", []byte(genaiPerf), Given{GPU: "L40S", Precision: "FP8", Cards: 1})
	if err != nil {
		t.Fatal(err)
	}
	if b := got[0]; b.Model != "llama-3.1-8b" || b.Concurrency != 64 || b.OutputTokens != 2048.5 || b.TTFT != (domain.Latencies{250, 600, 900}) || b.ITL != (domain.Latencies{19, 28, 35}) {
		t.Errorf("GenAI-Perf: %+v", b)
	}
	aiperf := `{"request_throughput": {"unit": "requests/sec", "avg": 13.16},
 "time_to_first_token": {"unit": "ms", "avg": 1588.8, "p50": 787.54, "p90": 3695.1, "p99": 4119.33},
 "inter_token_latency": {"unit": "ms", "avg": 51.76, "p50": 51.98, "p90": 53.18, "p99": 55.87},
 "output_token_throughput": {"unit": "tokens/sec", "avg": 1274.63},
 "start_time": "2025-10-17T20:22:08.939332",
 "input_config": {"endpoint": {"model_names": ["openai/gpt-oss-20b"], "streaming": true}, "loadgen": {"concurrency": 100}}}`
	got, err = Read("profile_export_aiperf.json", []byte(aiperf), Given{GPU: "H100 SXM", Precision: "MXFP4", Cards: 1})
	if err != nil {
		t.Fatal(err)
	}
	if b := got[0]; b.Model != "openai/gpt-oss-20b" || b.Concurrency != 100 || b.Date != "2025-10-17" || b.TTFT[2] != 4119.33 || b.ITL[0] != 51.98 {
		t.Errorf("AIPerf: %+v", b)
	}
}

// A file of none of the formats is refused, naming what planner reads.
func TestUnknownFile(t *testing.T) {
	for name, data := range map[string]string{
		"notes.txt":   "concurrency 16: 1100 tokens/s\n",
		"other.json":  `{"throughput": 12}`,
		"sheet.csv":   "gpu,tokens\nH100,1100\n",
		"metrics.csv": "Metric,avg\nRequest Latency (ms),5\n",
	} {
		_, err := Read(name, []byte(data), Given{GPU: "H100 SXM", Model: "m", Precision: "FP8", Cards: 1, Concurrency: 1})
		want := name + ": is not a benchmark result planner reads; planner import bench reads " + Formats
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v\nwant %s", name, err, want)
		}
	}
	_, err := Read("run.json", []byte(vllmResult(16, 1100, 150, 210, 15.5)), Given{Model: "m", Precision: "FP8", Cards: 1})
	if want := "run.json: does not say the GPU it was measured on; give it with --gpu NAME, as the GPUs sheet names it"; err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
}
