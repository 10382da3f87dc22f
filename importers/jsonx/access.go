package jsonx

import (
	"math"
	"strconv"
	"strings"
)

// Float reads a number the way Python tools write them: a JSON number, or a string holding
// one ("550" from llmperf's default=str, "inf" from vLLM's request_rate).
func Float(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case string:
		s := strings.TrimSpace(x)
		switch strings.ToLower(s) {
		case "inf", "infinity", "+inf":
			return math.Inf(1), true
		case "-inf", "-infinity":
			return math.Inf(-1), true
		case "nan":
			return math.NaN(), true
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	return 0, false
}

// Int reads an integral number (or a string holding one).
func Int(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
			return int64(x), true
		}
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return n, err == nil
	}
	return 0, false
}

// Floats reads an array of numbers; null elements become NaN.
func Floats(v any) ([]float64, bool) {
	switch x := v.(type) {
	case []float64:
		return x, true
	case []int64:
		out := make([]float64, len(x))
		for i, n := range x {
			out[i] = float64(n)
		}
		return out, true
	case []any:
		out := make([]float64, len(x))
		for i, e := range x {
			if e == nil {
				out[i] = math.NaN()
				continue
			}
			f, ok := Float(e)
			if !ok {
				return nil, false
			}
			out[i] = f
		}
		return out, true
	}
	return nil, false
}

// Strings reads an array of strings; null elements become "".
func Strings(v any) ([]string, bool) {
	x, ok := v.([]any)
	if !ok {
		if n, isNum := Floats(v); isNum && len(n) == 0 {
			return nil, true
		}
		return nil, false
	}
	out := make([]string, len(x))
	for i, e := range x {
		switch s := e.(type) {
		case string:
			out[i] = s
		case nil:
		default:
			return nil, false
		}
	}
	return out, true
}

// Object returns v as an object, or nil.
func Object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// Str returns v as a string, or "".
func Str(v any) string {
	s, _ := v.(string)
	return s
}

// Plain turns a decoded value into one encoding/json can write: NaN and infinities become the
// strings Python would print, so stored extras keep what the file said.
func Plain(v any) any {
	switch x := v.(type) {
	case float64:
		return plainFloat(x)
	case []float64:
		out := make([]any, len(x))
		for i, f := range x {
			out[i] = plainFloat(f)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Plain(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Plain(e)
		}
		return out
	}
	return v
}

func plainFloat(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}
