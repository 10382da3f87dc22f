package jsonx

import "testing"

// Number and String read what Decode reads, and say where it stopped.
func TestNumberAndStringMatchDecode(t *testing.T) {
	for _, in := range []string{
		`0`, `-7`, `1700000000000.000`, `1704161511420306.491`, `9223372036854775807`,
		`9223372036854775808`, `-9223372036854775808`, `12345678901234567890123`, `1e5`, `2.5E-3`,
		`0123`, `NaN`, `Infinity`, `-Infinity`, `1.5, "x"`, `42}`,
		`"plain"`, `"caf\u00e9"`, `"tab\there"`, "\"bad \xff byte\"", `"ProfilerStep#3", 1`,
	} {
		d := NewDecoder([]byte(in))
		want, werr := d.Decode()
		var got any
		var size int
		var err error
		if in[0] == '"' {
			got, size, err = String([]byte(in))
		} else {
			var n int64
			var f float64
			var isInt bool
			n, f, isInt, size, err = Number([]byte(in))
			got = f
			if isInt {
				got = n
			}
		}
		if (err != nil) != (werr != nil) {
			t.Fatalf("%q: error %v, Decode's %v", in, err, werr)
		}
		if err != nil {
			continue
		}
		if g, w := got, want; g != w && !(g != g && w != w) { // NaN equals NaN here
			t.Errorf("%q: %#v, Decode gives %#v", in, g, w)
		}
		if size != d.Offset() {
			t.Errorf("%q: size %d, Decode stopped at %d", in, size, d.Offset())
		}
	}
}

// Malformed input is an error, as in Decode.
func TestNumberAndStringErrors(t *testing.T) {
	for _, in := range []string{``, `-`, `1.`, `1e`, `x`, `Nan`} {
		if _, _, _, _, err := Number([]byte(in)); err == nil {
			t.Errorf("Number(%q): no error", in)
		}
	}
	for _, in := range []string{``, `x`, `"open`, "\"ctl \x01\"", `"\q"`} {
		if _, _, err := String([]byte(in)); err == nil {
			t.Errorf("String(%q): no error", in)
		}
	}
}
