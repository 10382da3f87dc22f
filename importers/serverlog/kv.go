package serverlog

import (
	"strings"
)

// splitTop splits s at sep outside quotes and brackets ((), [], {}, and <…> reprs). It reports
// whether s ended inside a quote or an open bracket (a truncated or hard-wrapped tail).
func splitTop(s string, sep byte) (parts []string, open bool) {
	var stack []byte
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			switch c {
			case '\\':
				i++
			case quote:
				quote = 0
			}
			continue
		}
		switch c {
		case '\'', '"':
			// an apostrophe inside a bare word ("don't") is not a quote
			if c == '\'' && i > 0 && isWord(s[i-1]) && i+1 < len(s) && isWord(s[i+1]) {
				continue
			}
			quote = c
		case '(', '[', '{':
			stack = append(stack, c)
		case '<':
			if i+1 < len(s) && ((s[i+1] >= 'A' && s[i+1] <= 'Z') || (s[i+1] >= 'a' && s[i+1] <= 'z') || s[i+1] == '_') {
				stack = append(stack, c)
			}
		case ')', ']', '}', '>':
			if n := len(stack); n > 0 && stack[n-1] == opener(c) {
				stack = stack[:n-1]
			}
		default:
			if c == sep && len(stack) == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, s[start:])
	return parts, quote != 0 || len(stack) > 0
}

func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	case '}':
		return '{'
	}
	return '<'
}

// isTruncated reports whether a pasted line was cut ("…", "...").
func isTruncated(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasSuffix(t, "…") || strings.HasSuffix(t, "...")
}

// unquote strips one pair of matching outer quotes.
func unquote(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] && strings.IndexByte(v[1:len(v)-1], v[0]) < 0 {
		return v[1 : len(v)-1]
	}
	return v
}

// parseKV reads "k=v, k=v, …" (VllmConfig.__str__, argparse Namespace, dataclass repr). Values
// keep their repr text, outer quotes removed. It tolerates the 0.6.x missing comma
// ("chunked_prefill_enabled=False multi_step_stream_outputs=True") and drops a truncated last pair.
func parseKV(s string, into map[string]string) {
	s = strings.TrimSpace(s)
	parts, open := splitTop(s, ',')
	trunc := open || isTruncated(s)
	for i, p := range parts {
		if i == len(parts)-1 && trunc {
			break
		}
		for _, item := range splitMissingComma(p) {
			eq := strings.IndexByte(item, '=')
			if eq <= 0 {
				continue
			}
			k := strings.TrimSpace(item[:eq])
			if !isIdent(k) {
				continue
			}
			into[k] = unquote(trimUnmatched(item[eq+1:]))
		}
	}
}

// splitMissingComma splits "a=False b=True" (depth 0, outside quotes) into two items.
func splitMissingComma(p string) []string {
	var out []string
	var stack int
	var quote byte
	start := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if quote != 0 {
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '\'', '"':
			quote = c
		case '(', '[', '{', '<':
			stack++
		case ')', ']', '}', '>':
			if stack > 0 {
				stack--
			}
		case ' ':
			if stack == 0 && i > start && strings.IndexByte(p[start:i], '=') > 0 {
				j := i + 1
				for j < len(p) && isWord(p[j]) {
					j++
				}
				if j > i+1 && j < len(p) && p[j] == '=' && (j+1 >= len(p) || p[j+1] != '=') {
					out = append(out, p[start:i])
					start = i + 1
				}
			}
		}
	}
	return append(out, p[start:])
}

func isIdent(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !isWord(k[i]) && k[i] != '.' && k[i] != '-' {
			return false
		}
	}
	return true
}

// parseDict reads a Python dict repr "{'k': v, …}" into k → v text (outer quotes removed).
func parseDict(s string, into map[string]string) {
	s = strings.TrimSpace(s)
	trunc := isTruncated(s)
	s = strings.TrimPrefix(s, "{")
	if strings.HasSuffix(s, "}") {
		s = s[:len(s)-1]
	} else {
		trunc = true
	}
	parts, open := splitTop(s, ',')
	trunc = trunc || open
	for i, p := range parts {
		if i == len(parts)-1 && trunc {
			break
		}
		kv, _ := splitTop(p, ':')
		if len(kv) < 2 {
			continue
		}
		k := unquote(kv[0])
		if !isIdent(k) {
			continue
		}
		v := strings.TrimSpace(p[len(kv[0])+1:])
		into[k] = unquote(v)
	}
}

// trimUnmatched drops a closing bracket that has no opener in v (the ")" that ends the 0.6.x
// engine line).
func trimUnmatched(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || !strings.ContainsAny(v[len(v)-1:], ")]}") {
		return v
	}
	o := strings.Count(v, string(opener(v[len(v)-1])))
	c := strings.Count(v, v[len(v)-1:])
	if c > o {
		return strings.TrimSpace(v[:len(v)-1])
	}
	return v
}
