package position

import (
	"errors"
	"testing"
)

func TestErrorLeavesOutWhatIsUnknown(t *testing.T) {
	cause := errors.New("why")
	tests := []struct {
		err  Error
		want string
	}{
		{Error{File: "f", Line: 3, Offset: 17, Err: cause}, "f: line 3, byte 17: why"},
		{Error{File: "f", Line: 3, Offset: -1, Err: cause}, "f: line 3: why"},
		{Error{File: "f", Offset: 0, Err: cause}, "f: byte 0: why"},
		{Error{File: "f", Offset: -1, Err: cause}, "f: why"},
		{Error{Line: 1, Offset: 8, Err: cause}, "line 1, byte 8: why"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.err, got, tt.want)
		}
		if !errors.Is(&tt.err, cause) {
			t.Errorf("%+v does not unwrap to its cause", tt.err)
		}
	}
}
