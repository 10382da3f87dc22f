package reproduce

import (
	"fmt"
	"strconv"
	"strings"
)

// Shell writes the command as one shell line: environment assignments first, every word
// quoted where the shell would otherwise read it (placeholders included, so a forgotten one
// fails loudly as an unknown value instead of redirecting).
func (c Command) Shell() string {
	words := make([]string, 0, len(c.Env)+len(c.Args))
	for _, e := range c.Env {
		name, val, _ := strings.Cut(e, "=")
		words = append(words, name+"="+Quote(val))
	}
	for _, a := range c.Args {
		words = append(words, Quote(a))
	}
	return strings.Join(words, " ")
}

// lines writes the command over several lines: the program and its positional words, then
// one flag and its value a line.
func (c Command) lines() string {
	i := 0
	for i < len(c.Args) && !strings.HasPrefix(c.Args[i], "--") {
		i++
	}
	var b strings.Builder
	b.WriteString(Command{Env: c.Env, Args: c.Args[:i]}.Shell())
	for i < len(c.Args) {
		b.WriteString(" \\\n    " + Quote(c.Args[i]))
		i++
		if i < len(c.Args) && !strings.HasPrefix(c.Args[i], "--") {
			b.WriteString(" " + Quote(c.Args[i]))
			i++
		}
	}
	return b.String()
}

// Quote quotes a word for a POSIX shell when it holds anything but plain characters.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	plain := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./:=,@%+", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Script writes the recipe as text to paste into a shell script: comments for the pins,
// the warm-up and every placeholder, then each arm's server and benchmark commands.
func (r Recipe) Script() string {
	var b strings.Builder
	b.WriteString("# Rerun recipe: the commands that re-create each arm's conditions, from what its files record.\n")
	b.WriteString("# Replace every '<…: not recorded>' placeholder before running: the files did not record that value.\n")
	for i, a := range []Arm{r.Baseline, r.Candidate} {
		fmt.Fprintf(&b, "\n# === %s: %s ===\n", [2]string{"baseline", "candidate"}[i], a.Label)
		a.script(&b)
	}
	return b.String()
}

func (a Arm) script(b *strings.Builder) {
	b.WriteString("# Pins no command sets; check each before running:\n")
	for _, p := range a.Pins {
		mark := "[ ]"
		if !p.Recorded {
			mark = "[?]"
		}
		fmt.Fprintf(b, "#   %s %s: %s\n", mark, p.Name, p.Value)
	}
	if a.Warmup != "" {
		fmt.Fprintf(b, "# Warm-up: %s.\n", a.Warmup)
	}
	for i, c := range a.Server {
		fmt.Fprintf(b, "\n# server %d/%d (%s), for runs %s; leave it running:\n", i+1, len(a.Server), c.Tool, runList(c.Runs))
		notes(b, c.Notes)
		b.WriteString(c.lines() + "\n")
	}
	for i, c := range a.Benchmark {
		fmt.Fprintf(b, "\n# benchmark %d/%d (%s), once per repeat (runs %s):\n", i+1, len(a.Benchmark), c.Tool, runList(c.Runs))
		notes(b, c.Notes)
		b.WriteString(c.lines() + "\n")
	}
}

func notes(b *strings.Builder, ns []string) {
	for _, n := range ns {
		fmt.Fprintf(b, "# note: %s\n", n)
	}
}

func runList(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}
