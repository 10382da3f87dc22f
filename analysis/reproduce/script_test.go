package reproduce

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"benchlens/internal/shtest"
	"benchlens/internal/textsafe"
)

// hostile are values a stored recipe (a saved comparison's record: another program, a hand
// edit, an older benchlens) may hold in any field; each would run `touch ~/PWNED-i` if it
// reached the script unquoted or ended its comment.
func hostile(i int) []string {
	p := fmt.Sprintf("~/PWNED-%d", i)
	return []string{
		"v\ntouch " + p + "-nl",
		"v\rtouch " + p + "-cr\n",
		"$(touch " + p + "-subst)",
		"`touch " + p + "-tick`",
		"'; touch " + p + "-sq; '",
		"\"; touch " + p + "-dq #",
		"a && touch " + p + "-and",
		">" + p + "-redir",
		"x\u2028touch " + p + "-ls",
		"\x00touch " + p + "-nul",
		"\xff\ntouch " + p + "-utf8",
	}
}

// Every field of a stored recipe, hostile: the script parses under sh -n and, run with the
// tools stood in, creates nothing; the printable values reach the tools as one word each.
func TestScriptOfAHostileRecipe(t *testing.T) {
	for i, v := range hostile(0) {
		t.Run(fmt.Sprintf("%q", v), func(t *testing.T) {
			field := func(n int) string { return strings.ReplaceAll(hostile(n)[i], "PWNED", "PWNED-field") }
			cmd := func(base int, program ...string) Command {
				return Command{Tool: field(base), Env: []string{"VLLM_ATTENTION_BACKEND=" + field(base+1)},
					Args: append(program, field(base+3), "--model", field(base+4), field(base+5)), Runs: []int64{1}, Notes: []string{field(base + 6)}}
			}
			arm := func(base int) Arm {
				return Arm{Label: field(base),
					Server: []Command{cmd(base+10, "vllm", "serve"),
						{Tool: "x", Args: []string{"rm", "-rf", "~/PWNED-unknown-program"}, Runs: []int64{1}},
						{Tool: "x", Args: []string{"A=1", "touch", "~/PWNED-assignment"}, Runs: []int64{1}},
						{Tool: "x", Env: []string{field(base + 7)}, Args: []string{"vllm", "serve"}},
						{Tool: "x", Env: []string{field(base+8) + "=x"}, Args: []string{"vllm", "serve"}},
						{Tool: "x", Env: []string{"A;touch ~/PWNED-env=1"}, Args: []string{"vllm", "serve"}}},
					Benchmark: []Command{cmd(base+20, "python", "-m", "sglang.bench_serving"), {Tool: "x", Args: []string{Placeholder(field(base + 30))}}},
					Pins:      []Pin{{Name: field(base + 40), Value: field(base + 41)}, {Name: "driver", Value: field(base + 42), Recorded: true}},
					Warmup:    field(base + 50)}
			}
			r := Recipe{Baseline: arm(100), Candidate: arm(200)}
			script := "#!/bin/sh\n" + Comment(field(1)) + r.Script()
			calls := shtest.Run(t, script)
			if strings.Contains(script, "\nrm ") || strings.Contains(script, "\nA=1") {
				t.Errorf("a command of no known program is in the script:\n%s", script)
			}
			word := field // a printable value reaches the tool as it is, one word
			if !textsafe.Plain(field(0)) {
				word = func(n int) string { return "<value rejected, not plain text: " + strconv.Quote(field(n)) + ">" }
			}
			if n := strings.Count(calls, "\n"); n != 4 {
				t.Errorf("%d calls, want 4 (a server and a benchmark per arm):\n%q", n, calls)
			}
			for _, want := range []string{"vllm\x00serve\x00" + word(113) + "\x00--model\x00" + word(114) + "\x00" + word(115) + "\x00",
				"python\x00-m\x00sglang.bench_serving\x00" + word(123) + "\x00"} {
				if !strings.Contains(calls, want) {
					t.Errorf("no call %q among\n%q", want, calls)
				}
			}
		})
	}
}
