// Package benchmarks reads the result files of serving benchmarks into
// measured points of the Benchmarks sheet: the JSON that vllm bench serve
// --save-result writes (one run, or one a line with --append-result), and
// the profile exports of NVIDIA's GenAI-Perf and AIPerf, as CSV or JSON.
// What a file does not say (the GPU, the precision, the cards per replica,
// the load of an export that gives none) the command line gives.
//
// It reads bytes handed to it and must not import workbooks, excelize,
// cobra or os.
package benchmarks
