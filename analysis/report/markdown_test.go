package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestMarkdown(t *testing.T) {
	entries := testEntries(t)
	var buf bytes.Buffer
	if err := Markdown(&buf, entries); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, s := range []string{
		"## base vs fa-cand (comparison #1)",
		"**Verdict: offset** (analyst override of the proposed `established`: @ops: second look at the copies)",
		"**Verdict: zero**",
		"- bottleneck not in the stage `bottleneck_not_in_stage`: ",
		"| metric | baseline | candidate | delta | p |",
		"| tpot | 12",
		"- ✅ **conditions**: ",
		"- ⚠️ **stages**",
		"- ❌ **path**: ",
		"> " + injection,
		"Tags: decode, +1",
		"## base vs -fallback (comparison #4)",
		"- target backend not hit `target_not_hit`: ",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("markdown lacks %q", s)
		}
	}
	if n := strings.Count(out, "\n---\n"); n != len(entries)-1 {
		t.Errorf("%d separators", n)
	}
	// Every table row has the header's five cells.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 6 {
			t.Errorf("broken table row %q", line)
		}
	}
	if testing.Verbose() {
		t.Log("\n" + out)
	}
}
