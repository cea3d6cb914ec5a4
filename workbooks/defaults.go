package workbooks

import (
	"embed"
	"strconv"
	"strings"

	"planner/engine"
)

// The default workbook's assumptions and cloud offers: the article's figures
// (prices of 2026-10-10), as tab-separated text a reviewer can read.
//
//go:embed defaults/*.tsv
var defaultFiles embed.FS

// Defaults returns the inputs and offers planner init writes. A test proves
// the files parse; a broken default is a bug, so it panics.
func Defaults() ([]engine.Input, []engine.Offer) {
	var inputs []engine.Input
	for _, r := range tsv("defaults/assumptions.tsv") {
		in := engine.Input{Name: r[0], Unit: r[2], Notes: r[5]}
		if r[2] == "text" {
			in.Value = engine.Text(r[1])
		} else {
			in.Value = engine.Num(mustFloat(r[1]))
		}
		if r[3] != "" {
			in.Low, in.High, in.HasRange = mustFloat(r[3]), mustFloat(r[4]), true
		}
		inputs = append(inputs, in)
	}
	var offers []engine.Offer
	for _, r := range tsv("defaults/cloud.tsv") {
		offers = append(offers, engine.Offer{Provider: r[0], Name: r[1], GPU: r[2], Price: mustFloat(r[3]),
			AsOf: r[4], Source: r[5], Notes: r[6]})
	}
	return inputs, offers
}

// tsv reads a tab-separated file without its header line.
func tsv(name string) [][]string {
	data, err := defaultFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows
}

func mustFloat(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return v
}
