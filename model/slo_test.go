package model

import (
	"strings"
	"testing"
)

func TestParseSLO(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{in: "ttft<=200,tpot<=30", want: "ttft<=200,tpot<=30"},
		{in: " tpot<=30 , ttft<=200 ", want: "ttft<=200,tpot<=30"},                  // Latencies order
		{in: "ttft:100 tpot:15 e2el:20000", want: "ttft<=100,tpot<=15,e2el<=20000"}, // vLLM's --goodput
		{in: "itl<=12.5ms", want: "itl<=12.5"},
		{in: "", want: ""},
		{in: "ttft<200", err: `"ttft<200" is not a limit`},
		{in: "latency<=100", err: `"latency<=100" is not a limit`},
		{in: "ttft<=-1", err: "positive number"},
		{in: "ttft<=abc", err: "positive number"},
		{in: "ttft<=1,ttft<=2", err: "limited twice"},
	} {
		got, err := ParseSLO(c.in)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseSLO(%q) error %v, want one saying %q", c.in, err, c.err)
			}
		case err != nil:
			t.Errorf("ParseSLO(%q): %v", c.in, err)
		case got.String() != c.want:
			t.Errorf("ParseSLO(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	a, _ := ParseSLO("tpot<=30,ttft<=200")
	if !a.Equal(SLO{{TTFT, 200}, {TPOT, 30}}) {
		t.Error("the same limits in another order should be equal")
	}
}
