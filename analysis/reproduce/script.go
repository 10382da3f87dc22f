package reproduce

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"benchlens/internal/textsafe"
)

// The script is text a user runs, built from what files and manifests say, so every value
// reaches it through this file and nothing in a value can become a command: a comment line
// goes through Comment (a newline or control character is written as its escape, so the
// line stays one comment), a word through Quote (single-quoted, or rejected when it holds
// characters a reader cannot see), an assignment's name must be a shell name, and a
// command must start with a program of a known era (a stored recipe may hold anything).

// Shell writes the command as one shell line: environment assignments first, every word
// quoted where the shell would otherwise read it (placeholders included, so a forgotten one
// fails loudly as an unknown value instead of redirecting).
func (c Command) Shell() string {
	words := make([]string, 0, len(c.Env)+len(c.Args))
	for _, e := range c.Env {
		words = append(words, assignment(e))
	}
	if c.NUMA != "" {
		n := c.NUMA
		if !numaList.MatchString(n) {
			n = rejected("NUMA node list", n)
		}
		words = append(words, "numactl", Quote("--cpunodebind="+n), Quote("--membind="+n))
	}
	for i, a := range c.Args {
		if i == 0 && strings.Contains(a, "=") {
			words = append(words, singleQuote(a)) // else the shell reads it as one more assignment
			continue
		}
		words = append(words, Quote(a))
	}
	return strings.Join(words, " ")
}

// assignment writes NAME=VALUE with the value quoted; an entry whose name is not a shell
// name is rejected as a whole (a word that runs nothing: the command fails as not found).
func assignment(e string) string {
	name, val, ok := strings.Cut(e, "=")
	if !ok || !shellName(name) {
		return Quote(rejected("environment assignment", e))
	}
	return name + "=" + Quote(val)
}

// shellName reports a POSIX name: a letter or underscore, then letters, digits, underscores.
func shellName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// lines writes the command over several lines: the program and its positional words, then
// one flag and its value a line.
func (c Command) lines() string {
	i := 0
	for i < len(c.Args) && !strings.HasPrefix(c.Args[i], "--") {
		i++
	}
	var b strings.Builder
	b.WriteString(Command{Env: c.Env, NUMA: c.NUMA, Args: c.Args[:i]}.Shell())
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

// Quote quotes a word for a POSIX shell when it holds anything but plain characters. A word
// holding control characters, line separators, bidirectional controls or bytes that are not
// UTF-8 is rejected: it is replaced by a visible stand-in showing it escaped, since the
// script would otherwise read differently on screen from what it runs.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	if !textsafe.Plain(s) {
		return singleQuote(rejected("value", s))
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
	return singleQuote(s)
}

// singleQuote quotes s whole: inside single quotes a POSIX shell expands nothing, and a
// single quote in s closes the quotes, is escaped, and reopens them.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// numaList is a NUMA node list numactl takes: "0", "0,1", "0-3".
var numaList = regexp.MustCompile(`^[0-9]+([,-][0-9]+)*$`)

// rejected is the stand-in for a value the script does not carry, with the value escaped.
func rejected(what, s string) string {
	return "<" + what + " rejected, not plain text: " + strconv.Quote(s) + ">"
}

// Comment writes text as one comment line: whatever the text holds, it ends at the line's
// own newline and prints as it reads (control characters, line separators, bidirectional
// controls and bytes that are not UTF-8 are written as escapes).
func Comment(text string) string {
	return "# " + textsafe.Escape(text) + "\n"
}

func comment(b *strings.Builder, format string, args ...any) {
	b.WriteString(Comment(fmt.Sprintf(format, args...)))
}

// Script writes the recipe as text to paste into a shell script: comments for the pins,
// the warm-up and every placeholder, then each arm's server and benchmark commands.
func (r Recipe) Script() string {
	var b strings.Builder
	comment(&b, "Rerun recipe: the commands that re-create each arm's conditions, from what its files record.")
	comment(&b, "Replace every '<…: not recorded>' placeholder before running: the files did not record that value.")
	for i, a := range []Arm{r.Baseline, r.Candidate} {
		b.WriteString("\n")
		comment(&b, "=== %s: %s ===", [2]string{"baseline", "candidate"}[i], a.Label)
		a.script(&b)
	}
	return b.String()
}

func (a Arm) script(b *strings.Builder) {
	comment(b, "Pins no command sets; check each before running:")
	for _, p := range a.Pins {
		mark := "[ ]"
		if !p.Recorded {
			mark = "[?]"
		}
		if p.Source != "" {
			comment(b, "  %s %s: %s (from %s)", mark, p.Name, p.Value, p.Source)
			continue
		}
		comment(b, "  %s %s: %s", mark, p.Name, p.Value)
	}
	if a.Warmup != "" {
		comment(b, "Warm-up: %s.", a.Warmup)
	}
	for i, c := range a.Server {
		b.WriteString("\n")
		comment(b, "server %d/%d (%s), for runs %s; leave it running:", i+1, len(a.Server), c.Tool, runList(c.Runs))
		c.script(b)
	}
	for i, c := range a.Benchmark {
		b.WriteString("\n")
		shape := ""
		if c.Shape != "" {
			shape = ", " + c.Shape
		}
		if c.Warmup {
			comment(b, "benchmark %d/%d (%s)%s: the warm-up, once before the measured runs, its result discarded (run %s):", i+1, len(a.Benchmark), c.Tool, shape, runList(c.Runs))
		} else {
			comment(b, "benchmark %d/%d (%s)%s, once per repeat (runs %s):", i+1, len(a.Benchmark), c.Tool, shape, runList(c.Runs))
		}
		c.script(b)
	}
}

// script writes the command's notes and the command, or, when it is not one benchlens
// writes (a stored recipe edited by hand or by another program), the command as a comment
// that says so.
func (c Command) script(b *strings.Builder) {
	for _, n := range c.Notes {
		comment(b, "note: %s", n)
	}
	if why := c.foreign(); why != "" {
		comment(b, "rejected, %s: %s", why, c.Shell())
		return
	}
	b.WriteString(c.lines() + "\n")
}

// foreign says why the command is not one benchlens writes, or "".
func (c Command) foreign() string {
	for _, e := range c.Env {
		if name, _, ok := strings.Cut(e, "="); !ok || !shellName(name) {
			return "not an environment assignment"
		}
	}
	if !knownProgram(c.Args) {
		return "not a program benchlens writes"
	}
	if c.NUMA != "" && !numaList.MatchString(c.NUMA) {
		return "not a NUMA node list"
	}
	return ""
}

// knownProgram reports whether args start with the program of an era, or are a lone
// placeholder (a tool benchlens has no command for).
func knownProgram(args []string) bool {
	if len(args) == 1 && IsPlaceholder(args[0]) {
		return true
	}
	for _, e := range Eras {
		if len(args) >= len(e.Program) && slices.Equal(args[:len(e.Program)], e.Program) {
			return true
		}
	}
	return false
}

func runList(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}
