package textsafe

import "testing"

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"run.json", "run.json"},
		{"résultat.json", "résultat.json"},
		{"a\nimported 99 runs", `"a\nimported 99 runs"`},
		{"\x1b[31mred.json", `"\x1b[31mred.json"`},
		{"bad\xffname", `"bad\xffname"`},
		{"rtl\u202eredro.json", `"rtl\u202eredro.json"`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"lab-07 café", "lab-07 café"},
		{"550\ntouch ~/PWNED", `550\ntouch ~/PWNED`},
		{"a\r\x1b[2Kb\x00", `a\r\x1b[2Kb\x00`},
		{"x\u2028y\u202ez", `x\u2028y\u202ez`},
		{"bad\xffname", `bad\xffname`},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
