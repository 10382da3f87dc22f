package serverlog

import (
	"encoding/json"
	"regexp"
	"strings"
)

// record is one line of a server log with its envelopes taken off.
type record struct {
	n     int    // 1-based line number in the original file
	text  string // the line without outer wrappers and colour codes (what the server wrote)
	tag   string // process tag "(EngineCore_DP0 pid=1)" or SGLang ranks "TP0"; "" untagged
	level string // DEBUG, INFO, WARNING, ERROR, CRITICAL; "" when the line has no logger prefix
	file  string // logger file field, "" when absent
	msg   string // the message
	sgl   bool   // the line carried an SGLang prefix
	json  bool   // the line was a JSON log record
}

var (
	reJournald = regexp.MustCompile(`^[A-Z][a-z]{2} {1,2}\d{1,2} \d\d:\d\d:\d\d \S+ \S+\[\d+\]: `)
	reISO      = regexp.MustCompile(`^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s*(?:\|\s*)?`)
	// reUserPrefix finds a vLLM record prefix after a user-defined VLLM_LOGGING_PREFIX.
	reUserPrefix = regexp.MustCompile(`(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{3})? \[?[^\s\]]+?:\d+\] `)
)

// reMDLink is a logger file field a Markdown renderer turned into a link when the log was pasted
// into an issue: "[cuda.py:227](http://cuda.py:227/)". The brackets the logger wrote around
// the field may stay beside the link: the ≤0.7 field's closing one ("INFO 02-13 15:54:31
// [cuda.py:227](http://cuda.py:227/)] Using XFormers backend.", a link made of "cuda.py:227]"),
// or both of the ≥0.8 field's ("[[cuda.py:227](http://cuda.py:227/)]").
var reMDLink = regexp.MustCompile(`\[?\[([^\[\]\s]{1,120}:\d+)\]\(https?://[^)\s]*\)\]?`)

// stripMarkdownLinks puts such a field back as the logger wrote it ("[cuda.py:227]").
func stripMarkdownLinks(s string) string {
	if !strings.Contains(s, "](http") {
		return s
	}
	return reMDLink.ReplaceAllString(s, "[$1]")
}

// stripANSI removes CSI escape sequences (colours, cursor moves) and OSC titles.
func stripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != 0x1b {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j // skip the final byte too
			continue
		}
		if i+1 < len(s) && s[i+1] == ']' {
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j
			continue
		}
		// a lone ESC: drop it
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isWord(c byte) bool {
	return c == '_' || isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// stripOuter removes one outer wrapper (docker-compose, journald, external timestamp,
// batch launcher). It reports whether it removed one.
func stripOuter(s string) (string, bool) {
	if len(s) < 4 {
		return s, false
	}
	c := s[0]
	// journald: "Mar 25 22:31:57 host vllm[123]: "
	if c >= 'A' && c <= 'Z' && s[3] == ' ' && s[1] >= 'a' && s[1] <= 'z' {
		if m := reJournald.FindStringIndex(s); m != nil {
			return s[m[1]:], true
		}
	}
	// external ISO timestamp, bare or bracketed with a T, fraction or zone (SGLang's own
	// "[YYYY-MM-DD HH:MM:SS] " prefix is handled by the caller).
	if isDigit(c) || (c == '[' && len(s) > 20 && isDigit(s[1]) && (s[11] == 'T' || (s[20] != ']' && s[20] != ' '))) {
		if len(s) > 19 && (s[4] == '-' || s[5] == '-') {
			if m := reISO.FindStringIndex(s); m != nil {
				return s[m[1]:], true
			}
		}
	}
	// docker-compose: "svc-1  | "
	if isWord(c) {
		i := 0
		for i < len(s) && i < 80 && (isWord(s[i]) || s[i] == '.' || s[i] == '-') {
			i++
		}
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j > i && j < len(s) && s[j] == '|' {
			j++
			if j < len(s) && s[j] == ' ' {
				j++
			}
			return s[j:], true
		}
		// batch launcher: "nid005113 out: "
		if i < len(s) && strings.HasPrefix(s[i:], " out: ") {
			return s[i+6:], true
		}
	}
	return s, false
}

// parseTag takes a process tag "(Name[ rank=N] pid=N[, ip=…])" off the line.
func parseTag(s string) (tag, rest string, ok bool) {
	if len(s) < 8 || s[0] != '(' || !((s[1] >= 'A' && s[1] <= 'Z') || (s[1] >= 'a' && s[1] <= 'z')) {
		return "", s, false
	}
	end := strings.IndexByte(s, ')')
	if end < 0 || end > 120 {
		return "", s, false
	}
	inner := s[1:end]
	if !strings.Contains(inner, "pid=") {
		return "", s, false
	}
	i := 0
	for i < len(inner) && isWord(inner[i]) {
		i++
	}
	if i == 0 || i >= len(inner) || inner[i] != ' ' {
		return "", s, false
	}
	rest = s[end+1:]
	if rest != "" && rest[0] == ' ' {
		rest = rest[1:]
	}
	return s[:end+1], rest, true
}

var levels = [...]string{"INFO ", "DEBUG ", "WARNING ", "ERROR ", "CRITICAL ", "WARN "}

// parseVLLMPrefix takes "LEVEL MM-DD HH:MM:SS[.mmm] [file.py:N] " (or the ≤0.7 form without
// the opening bracket) off the line.
func parseVLLMPrefix(s string) (level, file, msg string, ok bool) {
	var lv string
	for _, l := range levels {
		if strings.HasPrefix(s, l) {
			lv = l
			break
		}
	}
	if lv == "" {
		return "", "", "", false
	}
	p := s[len(lv):]
	// MM-DD HH:MM:SS
	if len(p) < 15 || !isDigit(p[0]) || !isDigit(p[1]) || p[2] != '-' || !isDigit(p[3]) || !isDigit(p[4]) || p[5] != ' ' ||
		!isDigit(p[6]) || !isDigit(p[7]) || p[8] != ':' || !isDigit(p[9]) || !isDigit(p[10]) || p[11] != ':' ||
		!isDigit(p[12]) || !isDigit(p[13]) {
		return "", "", "", false
	}
	p = p[14:]
	if len(p) >= 4 && p[0] == '.' && isDigit(p[1]) && isDigit(p[2]) && isDigit(p[3]) {
		p = p[4:]
	}
	if p == "" || p[0] != ' ' {
		return "", "", "", false
	}
	p = p[1:]
	if p != "" && p[0] == '[' {
		p = p[1:]
	}
	end := strings.Index(p, "] ")
	if end < 0 {
		if strings.HasSuffix(p, "]") {
			end = len(p) - 1
		} else {
			return "", "", "", false
		}
	}
	fi := p[:end]
	colon := strings.LastIndexByte(fi, ':')
	if colon <= 0 || colon == len(fi)-1 || strings.IndexByte(fi, ' ') >= 0 {
		return "", "", "", false
	}
	for k := colon + 1; k < len(fi); k++ {
		if !isDigit(fi[k]) {
			return "", "", "", false
		}
	}
	msg = ""
	if end+2 <= len(p) {
		msg = p[end+2:]
	}
	return strings.TrimSpace(lv), fi[:colon], msg, true
}

// parseSGLPrefix takes "[YYYY-MM-DD HH:MM:SS( TP0 …)?] (LEVEL file.py:N: )?" off the line.
func parseSGLPrefix(s string) (ranks, level, file, msg string, ok bool) {
	if len(s) < 22 || s[0] != '[' || s[5] != '-' || s[8] != '-' || s[11] != ' ' || s[14] != ':' || s[17] != ':' {
		return "", "", "", "", false
	}
	for _, k := range [...]int{1, 2, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 19} {
		if !isDigit(s[k]) {
			return "", "", "", "", false
		}
	}
	p := s[20:]
	if p[0] == ' ' {
		end := strings.IndexByte(p, ']')
		if end < 0 || end > 60 {
			return "", "", "", "", false
		}
		ranks = p[1:end]
		for _, f := range strings.Fields(ranks) {
			if len(f) < 3 || f[0] < 'A' || f[0] > 'Z' || f[1] < 'A' || f[1] > 'Z' || !isDigit(f[len(f)-1]) {
				return "", "", "", "", false
			}
		}
		p = p[end:]
	}
	if p == "" || p[0] != ']' {
		return "", "", "", "", false
	}
	p = p[1:]
	if p != "" && p[0] == ' ' {
		p = p[1:]
	}
	// newest: "LEVEL file.py:N: msg"
	if sp := strings.IndexByte(p, ' '); sp > 0 && sp < 10 {
		lv := p[:sp]
		if lv == "INFO" || lv == "DEBUG" || lv == "WARNING" || lv == "ERROR" || lv == "CRITICAL" {
			q := p[sp+1:]
			if c := strings.Index(q, ": "); c > 0 && strings.Contains(q[:c], ".py:") && strings.IndexByte(q[:c], ' ') < 0 {
				fi := q[:c]
				return ranks, lv, fi[:strings.LastIndexByte(fi, ':')], q[c+2:], true
			}
		}
	}
	return ranks, "", "", p, true
}

type jsonRecord struct {
	Level    string `json:"level"`
	Message  string `json:"message"`
	Msg      string `json:"msg"`
	FilePath string `json:"file_path"`
}

// parseJSON reads a JSON logging record; ok is false when the line is not one.
func parseJSON(s string) (level, file, msg string, ok bool) {
	if len(s) < 10 || s[0] != '{' || s[len(s)-1] != '}' || (!strings.Contains(s, `"message"`) && !strings.Contains(s, `"msg"`)) {
		return "", "", "", false
	}
	var r jsonRecord
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return "", "", "", false
	}
	m := r.Message
	if m == "" {
		m = r.Msg
	}
	return strings.ToUpper(r.Level), r.FilePath, m, true
}

// split parses one line into a record.
func split(n int, line string) record {
	s := stripANSI(line)
	s = stripMarkdownLinks(s)
	s = strings.TrimRight(s, " \t\r")
	for k := 0; k < 4; k++ {
		var ok bool
		if s, ok = stripOuter(s); !ok {
			break
		}
	}
	r := record{n: n, text: s}
	if lv, fi, msg, ok := parseJSON(s); ok {
		r.level, r.file, r.msg, r.json = lv, fi, strings.TrimRight(msg, " \r\n"), true
		return r
	}
	rest := s
	if tag, after, ok := parseTag(rest); ok {
		r.tag, rest = tag, after
	}
	if lv, fi, msg, ok := parseVLLMPrefix(rest); ok {
		r.level, r.file, r.msg = lv, fi, msg
		return r
	}
	if rest != "" && rest[0] == '[' {
		if ranks, lv, fi, msg, ok := parseSGLPrefix(rest); ok {
			// an external "[date time] " wrapper in front of a vLLM line
			inner := msg
			itag, iafter, tok := parseTag(inner)
			if tok {
				inner = iafter
			}
			if ilv, ifi, imsg, iok := parseVLLMPrefix(inner); iok {
				if tok {
					r.tag = itag
				}
				r.level, r.file, r.msg = ilv, ifi, imsg
				return r
			}
			if r.tag == "" {
				r.tag = ranks
			}
			r.level, r.file, r.msg, r.sgl = lv, fi, msg, true
			return r
		}
	}
	// a user VLLM_LOGGING_PREFIX before the level
	if strings.Contains(rest, ".py:") && strings.Contains(rest, "] ") {
		if m := reUserPrefix.FindStringIndex(rest); m != nil && m[0] < 80 {
			if lv, fi, msg, ok := parseVLLMPrefix(rest[m[0]:]); ok {
				r.level, r.file, r.msg = lv, fi, msg
				return r
			}
		}
	}
	r.msg = rest
	return r
}
