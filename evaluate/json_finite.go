package evaluate

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// NotFinite finds a number JSON cannot hold, NaN or an infinity, in doc,
// one of the documents built here: the path to it as JSON names its
// fields (scenarios[0].montecarlo.outputs["capex"].mean) and the value, or
// "" when there is none. Every document is built to hold none, with null
// and a reason where a figure has no number; this says where one slipped
// through, which encoding/json's "unsupported value: +Inf" does not.
func NotFinite(doc any) string {
	path, v, found := notFinite(reflect.ValueOf(doc), "")
	if !found {
		return ""
	}
	return fmt.Sprintf("%s is %v", strings.TrimPrefix(path, "."), v)
}

func notFinite(v reflect.Value, path string) (string, float64, bool) {
	if q, ok := asQuantiles(v); ok {
		for _, s := range q {
			if math.IsNaN(s.Value) || math.IsInf(s.Value, 0) {
				return path + "." + s.Key, s.Value, true
			}
		}
		return "", 0, false
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			return path, x, true
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return notFinite(v.Elem(), path)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p, x, ok := notFinite(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, x, ok
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		for _, k := range keys {
			if p, x, ok := notFinite(v.MapIndex(k), fmt.Sprintf("%s[%q]", path, fmt.Sprint(k))); ok {
				return p, x, ok
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if p, x, ok := notFinite(v.Field(i), path+"."+name); ok {
				return p, x, ok
			}
		}
	}
	return "", 0, false
}

// asQuantiles is v as an output's statistics, which JSON keys by their
// own names rather than by fields.
func asQuantiles(v reflect.Value) (QuantilesJSON, bool) {
	if !v.IsValid() || !v.CanInterface() {
		return nil, false
	}
	q, ok := v.Interface().(QuantilesJSON)
	return q, ok
}
