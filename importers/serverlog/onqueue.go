package serverlog

import (
	"regexp"
	"strconv"

	"benchlens/model"
)

// The scheduler's periodic stats lines: how many requests run and wait (METHOD.md rule 14's
// server metrics, read for a waiting queue that grows under load).
var (
	// vLLM v1 "Engine 000: Avg prompt throughput: …, Running: 96 reqs, Waiting: 0 reqs, …";
	// v0 "Avg prompt throughput: …, Running: 32 reqs, Swapped: 0 reqs, Pending: 0 reqs, …".
	reVLLMQueue = regexp.MustCompile(`^(?:(Engine \d+): )?Avg prompt throughput: .*?Running: (\d+) reqs?,.*?(?:Waiting|Pending): (\d+) reqs?`)
	// SGLang "Decode batch. #running-req: 1, … #queue-req: 0" and "Prefill batch. … #running-req: 0, #queue-req: 0".
	reSGLQueue = regexp.MustCompile(`^(?:Decode|Prefill) batch\..*?#running-req: (\d+),.*?#queue-req: (\d+)`)
	reLogTime  = regexp.MustCompile(`(?:\d{4}-)?\d\d-\d\d[ T]\d\d:\d\d:\d\d`)
)

// onQueue reads a scheduler stats line into the log's queue samples.
func (p *parser) onQueue(r *record, m string) bool {
	s := model.QueueSample{Line: r.n, Time: reLogTime.FindString(r.text)}
	if sm := reVLLMQueue.FindStringSubmatch(m); sm != nil {
		s.Engine, s.Running, s.Waiting = sm[1], atoi(sm[2]), atoi(sm[3])
	} else if sm := reSGLQueue.FindStringSubmatch(m); sm != nil {
		s.Engine, s.Running, s.Waiting = r.tag, atoi(sm[1]), atoi(sm[2])
	} else {
		return false
	}
	p.ev.Queue = append(p.ev.Queue, s)
	return true
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
