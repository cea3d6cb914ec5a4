package workbooks

import (
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/sizing"
)

// modelsColumn is the Models column headed header, found by its header.
func modelsColumn(t *testing.T, f *excelize.File, header string) string {
	t.Helper()
	rows, err := f.GetRows("Models")
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range rows[0] {
		if h == header {
			col, _ := excelize.ColumnNumberToName(i + 1)
			return col
		}
	}
	t.Fatalf("Models has no column %q", header)
	return ""
}

// addModel types a model row under the default ones, each value under
// its header.
func addModel(t *testing.T, path string, cells map[string]any) string {
	t.Helper()
	var row string
	editPlan(t, path, func(f *excelize.File) error {
		rows, err := f.GetRows("Models")
		if err != nil {
			return err
		}
		row = strconv.Itoa(len(rows) + 1)
		for header, v := range cells {
			if err := f.SetCellValue("Models", modelsColumn(t, f, header)+row, v); err != nil {
				return err
			}
		}
		return nil
	})
	return row
}

// A model with multi-head latent attention is read with its layout, and
// its KV cache follows it: layers × (latent + rope dim) × KV bytes ×
// context × sequences.
func TestModelsReadsLatentAttention(t *testing.T) {
	path := newPlan(t)
	addModel(t, path, map[string]any{"name": "DeepSeek-V3 MLA", "total params B": 671, "active params B": 37, "precision": "FP8",
		"layers": 61, "max context": 32768, "sequences": 32, "attention": "multi-head latent", "latent dim": 512, "rope dim": 64})
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := b.Model.ModelSpec("DeepSeek-V3 MLA")
	if !ok || m.Arch == nil {
		t.Fatalf("the model or its architecture not read: %+v", m)
	}
	want := 61.0 * (512 + 64) * 1 * 32768 * 32
	if m.Arch.Attention != sizing.LatentMLA || m.Arch.KVBytesPerReplica() != want {
		t.Errorf("%q: %v KV bytes, want %v", m.Arch.Attention, m.Arch.KVBytesPerReplica(), want)
	}
}

// A sliding window on some layers is read, and caps their tokens.
func TestModelsReadsSlidingWindow(t *testing.T) {
	path := newPlan(t)
	addModel(t, path, map[string]any{"name": "windowed", "total params B": 27, "precision": "BF16", "layers": 62, "kv heads": 16,
		"head dim": 128, "max context": 131072, "sequences": 8, "attention": "sliding window", "window": 1024, "windowed layers": 52})
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := b.Model.ModelSpec("windowed")
	want := 2.0 * 16 * 128 * 2 * 8 * (10*131072 + 52*1024)
	if m.Arch == nil || m.Arch.KVBytesPerReplica() != want {
		t.Fatalf("KV bytes of %+v, want %v", m.Arch, want)
	}
}

// A layout's figures missing, a figure without its layout and a layout
// planner does not know are each refused at their cell, saying what to do.
func TestModelsRefusesAttentionSlips(t *testing.T) {
	base := map[string]any{"name": "slip", "total params B": 70, "precision": "FP8", "layers": 80, "kv heads": 8, "head dim": 128,
		"max context": 8192, "sequences": 4}
	tests := []struct {
		name  string
		extra map[string]any
		at    string
		want  string
	}{
		{"latent without rope", map[string]any{"attention": "MLA", "latent dim": 512}, "rope dim",
			"the architecture of multi-head latent attention needs all of layers, latent dim, rope dim, max context and sequences (or none of them and no attention, to use kv_headroom)"},
		{"window without its layout", map[string]any{"window": 4096}, "window",
			`the window counts only with the attention "sliding window"; set the attention column to "sliding window", or clear this cell`},
		{"unknown layout", map[string]any{"attention": "linear"}, "attention",
			`the attention "linear" is not known; pick one of grouped-query, multi-head latent or sliding window, or leave it empty for the plain formula (KV heads × head dim per layer)`},
	}
	for _, tt := range tests {
		path := newPlan(t)
		cells := map[string]any{}
		for k, v := range base {
			cells[k] = v
		}
		for k, v := range tt.extra {
			cells[k] = v
		}
		row := addModel(t, path, cells)
		_, err := Read(path)
		if err == nil {
			t.Errorf("%s: read without a problem", tt.name)
			continue
		}
		f, _ := excelize.OpenFile(path)
		cell := "Models!" + modelsColumn(t, f, tt.at) + row
		f.Close()
		if !strings.Contains(err.Error(), cell) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v\nwant at %s: %s", tt.name, err, cell, tt.want)
		}
	}
}
