package result

import (
	"fmt"
)

// shapeError reports a key whose value has the wrong type.
func shapeError(key, want string, got any) error {
	return fmt.Errorf("key %q: expected %s, found %s", key, want, describe(got))
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case map[string]any:
		return "an object"
	case []any, []float64, []int64:
		return "an array"
	default:
		return fmt.Sprintf("%T", x)
	}
}

// errf builds an error without a position; the caller adds the file and offset.
func errf(format string, args ...any) error { return fmt.Errorf(format, args...) }
