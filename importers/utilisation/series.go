package utilisation

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"benchlens/model"
)

// notes collects warnings; odd rows are counted per reason rather than listed one by one.
type notes struct {
	msgs  []string
	skips map[string]*skipped
	order []string
}

type skipped struct {
	count int
	lines []int // the first few
}

func (n *notes) add(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !slices.Contains(n.msgs, msg) {
		n.msgs = append(n.msgs, msg)
	}
}

// skip records an odd row that was left out.
func (n *notes) skip(line int, why string) {
	if n.skips == nil {
		n.skips = map[string]*skipped{}
	}
	s := n.skips[why]
	if s == nil {
		s = &skipped{}
		n.skips[why] = s
		n.order = append(n.order, why)
	}
	s.count++
	if len(s.lines) < 5 {
		s.lines = append(s.lines, line)
	}
}

// firstSkip is the earliest skipped line and its reason, for an error when nothing parsed.
func (n *notes) firstSkip() (int, string) {
	line, why := 0, ""
	for _, w := range n.order {
		if l := n.skips[w].lines[0]; line == 0 || l < line {
			line, why = l, w
		}
	}
	return line, why
}

func (n *notes) list() []string {
	out := slices.Clone(n.msgs)
	for _, why := range n.order {
		s := n.skips[why]
		ls := make([]string, len(s.lines))
		for i, l := range s.lines {
			ls[i] = strconv.Itoa(l)
		}
		more := ""
		if s.count > len(s.lines) {
			more = ", …"
		}
		rows := "rows"
		if s.count == 1 {
			rows = "row"
		}
		out = append(out, fmt.Sprintf("skipped %d %s: %s (line %s%s)", s.count, rows, why, strings.Join(ls, ", "), more))
	}
	return out
}

// device is one device's timeline while it is being read.
type device struct {
	id, name string
	t        []float64
	busy     []float64
	mem      []float64
}

// builder gathers samples of all devices. Times are either absolute seconds (a clock the
// file prints, made relative to the file's first sample at the end) or tick counts (no
// clock: one tick per round of devices, times period seconds).
type builder struct {
	devs   map[string]*device
	order  []string
	period float64 // seconds per tick

	t0     float64
	haveT0 bool
	start  time.Time // wall time of the first sample, when the file dates it
	dated  bool

	tick int
	seen map[string]bool
}

func newBuilder() *builder {
	return &builder{devs: map[string]*device{}, period: 1, seen: map[string]bool{}}
}

// newTick starts a new round of samples (a new snapshot table) unless the current one is empty.
func (b *builder) newTick() {
	if len(b.seen) > 0 {
		b.tick++
		clear(b.seen)
	}
}

// tickTime is the time of id's next sample in tick mode: a device seen twice starts a new tick.
func (b *builder) tickTime(id string) float64 {
	if b.seen[id] {
		b.newTick()
	}
	b.seen[id] = true
	return float64(b.tick) * b.period
}

// add appends one sample. t is absolute seconds (or tick time); mem is NaN when absent.
func (b *builder) add(id, name string, t, busy, mem float64) {
	if !b.haveT0 {
		b.t0, b.haveT0 = t, true
	}
	d := b.devs[id]
	if d == nil {
		d = &device{id: id}
		b.devs[id] = d
		b.order = append(b.order, id)
	}
	if d.name == "" {
		d.name = name
	}
	d.t = append(d.t, math.Round((t-b.t0)*1e6)/1e6) // absolute seconds carry float noise below 1 µs
	d.busy = append(d.busy, busy)
	d.mem = append(d.mem, mem)
}

// dateFirst records the wall time of the file's first sample.
func (b *builder) dateFirst(t time.Time) {
	if !b.dated {
		b.start, b.dated = t, true
	}
}

func (b *builder) samples() int {
	n := 0
	for _, d := range b.devs {
		n += len(d.t)
	}
	return n
}

// result turns the gathered samples into evidence, devices in natural id order.
func (b *builder) result(tool string) *model.UtilEvidence {
	ids := slices.Clone(b.order)
	slices.SortStableFunc(ids, naturalCmp)
	ev := &model.UtilEvidence{Tool: tool, Devices: []model.DeviceSeries{}}
	for _, id := range ids {
		d := b.devs[id]
		s := model.DeviceSeries{ID: d.id, Name: d.name, T: d.t, Busy: d.busy}
		for _, m := range d.mem {
			if !math.IsNaN(m) {
				s.Memory = d.mem
				break
			}
		}
		if b.dated {
			s.Start = isoTime(b.start)
		}
		ev.Devices = append(ev.Devices, s)
	}
	return ev
}

func isoTime(t time.Time) string {
	return t.Format("2006-01-02T15:04:05.999")
}

// naturalCmp orders "2" before "10" and "0-1" before "0-10".
func naturalCmp(a, b string) int {
	for a != "" && b != "" {
		da, db := digitsPrefix(a), digitsPrefix(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := len(na) - len(nb); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digitsPrefix(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// clock turns times of day without a date into increasing seconds: a time more than 12 h
// before the previous one is taken as the next day (midnight rollover).
type clock struct {
	day, last float64
	have      bool
	rolled    int
}

func (c *clock) seconds(sod float64) float64 {
	s := sod + c.day
	if c.have && s < c.last-12*3600 {
		c.day += 86400
		s += 86400
		c.rolled++
	}
	c.last, c.have = s, true
	return s
}

// parseHMS reads HH:MM:SS[.fff] as seconds of the day.
func parseHMS(s string) (float64, bool) {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return 0, false
	}
	h, ok1 := atoi2(s[0:2])
	m, ok2 := atoi2(s[3:5])
	sec, ok3 := atoi2(s[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return 0, false
	}
	frac := 0.0
	if len(s) > 8 {
		if s[8] != '.' || len(s) == 9 {
			return 0, false
		}
		f, err := strconv.ParseFloat("0"+s[8:], 64)
		if err != nil {
			return 0, false
		}
		frac = f
	}
	return float64(h*3600+m*60+sec) + frac, true
}

// parseYMD reads YYYYMMDD (sep 0) or YYYY/MM/DD, YYYY-MM-DD.
func parseYMD(s string) (y, m, d int, ok bool) {
	var ys, ms, ds string
	switch {
	case len(s) == 8:
		ys, ms, ds = s[0:4], s[4:6], s[6:8]
	case len(s) == 10 && (s[4] == '/' || s[4] == '-') && s[7] == s[4]:
		ys, ms, ds = s[0:4], s[5:7], s[8:10]
	default:
		return 0, 0, 0, false
	}
	y, err := strconv.Atoi(ys)
	if err != nil || y < 1970 || ys[0] == '+' || ys[0] == '-' {
		return 0, 0, 0, false
	}
	m, ok1 := atoi2(ms)
	d, ok2 := atoi2(ds)
	if !ok1 || !ok2 || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

func atoi2(s string) (int, bool) {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), true
}

// wallTime combines a date and seconds of the day; unix is its seconds on a UTC scale (the
// file's local time zone is unknown and does not matter for differences).
func wallTime(y, m, d int, sod float64) (t time.Time, unix float64) {
	whole := math.Floor(sod)
	t = time.Date(y, time.Month(m), d, 0, 0, int(whole), int((sod-whole)*1e9+0.5), time.UTC)
	return t, float64(t.Unix()) + (sod - whole)
}

// value reads a cell: a number with an optional unit ("97 %", "95.12 W", "41.0°C",
// "1600Mhz"), or a missing marker ("-", "N/A", "[N/A]", "[Not Supported]") which gives NaN.
// ok is false for anything else.
func value(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if missing(s) {
		return math.NaN(), true
	}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		if s[i] != '.' {
			digits++
		}
		i++
	}
	if digits == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, false
	}
	for _, r := range strings.TrimSpace(s[i:]) {
		if r >= '0' && r <= '9' {
			return 0, false // "12 34": two numbers
		}
	}
	return v, true
}

func missing(s string) bool {
	switch strings.ToLower(s) {
	case "", "-", "n/a", "na", "nan", "unknown", "[n/a]", "[not supported]", "[unknown error]", "[gpu is lost]", "[insufficient permissions]":
		return true
	}
	return strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]")
}

// lines splits text into lines without the trailing CR, after a UTF-8 byte order mark.
func lines(data []byte) []string {
	text := strings.TrimPrefix(string(data), "\ufeff")
	ls := strings.Split(text, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, "\r")
	}
	if n := len(ls); n > 0 && ls[n-1] == "" {
		ls = ls[:n-1]
	}
	return ls
}

// setLastMem fills the memory value of id's latest sample (a tool printing it on its own line).
func (b *builder) setLastMem(id string, v float64) bool {
	d := b.devs[id]
	if d == nil || len(d.mem) == 0 {
		return false
	}
	d.mem[len(d.mem)-1] = v
	return true
}

// rename changes device ids (old → new); ids that would collide are left as they are.
func (b *builder) rename(f func(string) string) {
	next := map[string]*device{}
	for _, id := range b.order {
		n := f(id)
		if next[n] != nil {
			return
		}
		next[n] = b.devs[id]
	}
	for i, id := range b.order {
		n := f(id)
		b.devs[id].id = n
		b.order[i] = n
	}
	b.devs = next
}

// busyMem reads a row's busy and memory-busy cells (index -1: the tool has no such column),
// each times its scale to make a percentage; a missing value is NaN. ok is false when the busy
// cell is not a number at all.
func busyMem(cells []string, iBusy, iMem int, busyScale, memScale float64) (busy, mem float64, ok bool) {
	busy, mem = math.NaN(), math.NaN()
	if iBusy >= 0 {
		v, ok := value(cells[iBusy])
		if !ok {
			return busy, mem, false
		}
		busy = v * busyScale
	}
	if iMem >= 0 {
		if v, ok := value(cells[iMem]); ok {
			mem = v * memScale
		}
	}
	return busy, mem, true
}
