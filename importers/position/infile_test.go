package position_test

import (
	"errors"
	"fmt"
	"testing"

	"benchlens/importers/jsonx"
	"benchlens/importers/position"
	"benchlens/importers/serverlog"
)

// InFile names the file exactly once and keeps a position the parser found.
func TestFileErrorNamesTheFileOnce(t *testing.T) {
	_, jsonErr := jsonx.NewDecoder([]byte("{\"a\": 1,\n \"b\": tru}")).Decode()
	_, logErr := serverlog.Parse("s.log", []byte("INFO ok\nbad\x00\n"))
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"jsonx error, no file", jsonErr, "r.json: line 2, byte 15: invalid literal, expected true"},
		{"jsonx error wrapped", fmt.Errorf("key b: %w", jsonErr), "r.json: line 2, byte 15: invalid literal, expected true"},
		{"parser named the file", logErr, "s.log: line 2: NUL byte: binary data, not a server log"},
		{"no position", errors.New("empty file"), "r.json: empty file"},
	}
	for _, tt := range tests {
		err := position.InFile("r.json", tt.err)
		var pe *position.Error
		if !errors.As(err, &pe) || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
