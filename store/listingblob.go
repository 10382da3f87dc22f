package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"benchlens/internal/par"
	"benchlens/model"
)

// A run's listing (the runs column of schema 12) holds the fields of its header, summary and
// recomputed columns that a listing shows (List), packed: numbers as their 8 bytes, texts
// with their length, so listing 100,000 runs reads a few hundred bytes a run and parses no
// JSON. It is made at import from the stored JSON itself (listingOf), so a run listed from
// its listing and one listed from its JSON are the same run; the migrations pack the
// listings of the runs stored before (fillListings). A run without one (its JSON damaged, or
// its header rewritten: reapply clears it) is listed from its JSON. A later benchlens that
// lists more fields bumps listingVersion in a migration that packs the listings again (an
// older benchlens never opens that schema), so a listing of another version is damage.
//
// Layout (version 3, schema 16; version 2 lacked the point, version 1 the phase): the
// version byte; tool, tool_version, era, date, model, precision, phase as texts; the 13
// numbers of listingNums as float64 bits; sampled and tool_warmup as JSON texts ("" for
// null); the load point of the point column (appendPoint, point.go); definitions and the two
// statistics maps as counts (0 for null, n+1 for n entries) of entries. A text is its uvarint
// length and its bytes.
const listingVersion = 3

// listingNums are the header's numbers a listing shows, in their stored order.
func listingNums(r *model.Run) [13]*model.Num {
	return [13]*model.Num{&r.NumPrompts, &r.Completed, &r.Failed, &r.Errored, &r.Incomplete, &r.Cancelled,
		&r.RequestRate, &r.MaxConcurrency, &r.DurationS, &r.RequestThroughput, &r.Goodput, &r.OutputThroughput,
		&r.TotalTokenThroughput}
}

// listingOf packs the listed fields of a run's stored JSON columns and its point.
func listingOf(header, summary, recomputed string, point []byte) ([]byte, error) {
	c := listedCols{header: header, summary: summary, rec: recomputed, point: point, manifest: "null"}
	r, err := c.decode(nil)
	if err != nil {
		return nil, err
	}
	return packListing(r), nil
}

// packListing writes the listed fields of r (as decode made them).
func packListing(r *model.Run) []byte {
	b := make([]byte, 0, 512)
	b = append(b, listingVersion)
	for _, s := range []string{r.Tool, r.ToolVersion, string(r.Era), r.Date, r.Model, r.Precision, r.Phase} {
		b = appendText(b, s)
	}
	for _, n := range listingNums(r) {
		b = appendNum(b, *n)
	}
	b = appendJSON(b, r.Sampled)
	b = appendJSON(b, r.ToolWarmup)
	b = appendPoint(b, r.Point)
	b = appendCount(b, r.Definitions == nil, len(r.Definitions))
	for _, k := range slices.Sorted(maps.Keys(r.Definitions)) {
		b = appendText(appendText(b, k), r.Definitions[k])
	}
	for _, m := range []map[string]model.Stats{r.Summary, r.Recomputed} {
		b = appendCount(b, m == nil, len(m))
		for _, metric := range slices.Sorted(maps.Keys(m)) {
			st := m[metric]
			b = appendText(b, metric)
			b = appendCount(b, st == nil, len(st))
			for _, k := range slices.Sorted(maps.Keys(st)) {
				b = binary.LittleEndian.AppendUint64(appendText(b, k), math.Float64bits(float64(st[k])))
			}
		}
	}
	return b
}

// appendJSON writes v as its JSON text, "" for nil.
func appendJSON[T any](b []byte, v *T) []byte {
	if v == nil {
		return appendText(b, "")
	}
	text, _ := json.Marshal(v) // plain structs: never fails
	return appendText(b, string(text))
}

func appendNum(b []byte, n model.Num) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(n)))
}

func appendText(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendCount(b []byte, null bool, n int) []byte {
	if null {
		return binary.AppendUvarint(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

var errListing = errors.New("damaged listing")

// listingReader reads a packed listing; the first error sticks.
type listingReader struct {
	b   []byte
	err error
	// texts interns the texts of a batch (tools, models, dates repeat over thousands of
	// runs): one string each, not one per run.
	texts   map[string]string
	defs    map[string]map[string]string // the definitions of a batch by their packed bytes
	points  []model.LoadPoint            // room for the next points read (point)
	brief   bool                         // stop before the definitions and statistics (ListOptions.Brief)
	medians bool                         // of the statistics, the medians only (ListOptions.Medians)
}

func (l *listingReader) uvarint() int {
	v, n := binary.Uvarint(l.b)
	if n <= 0 || v > uint64(len(l.b)) {
		l.err, l.b = errListing, nil
		return 0
	}
	l.b = l.b[n:]
	return int(v)
}

func (l *listingReader) bytes() []byte {
	n := l.uvarint()
	if n > len(l.b) {
		l.err, l.b = errListing, nil
		return nil
	}
	s := l.b[:n]
	l.b = l.b[n:]
	return s
}

func (l *listingReader) text() string {
	b := l.bytes()
	if s, ok := l.texts[string(b)]; ok {
		return s
	}
	s := string(b)
	if l.texts != nil && len(l.texts) < 4096 {
		l.texts[s] = s
	}
	return s
}

// readJSON reads what appendJSON wrote into *dst, leaving it nil for "".
func readJSON[T any](l *listingReader, dst **T) error {
	text := l.bytes()
	if len(text) == 0 {
		return nil
	}
	*dst = new(T)
	return json.Unmarshal(text, *dst)
}

func (l *listingReader) num() model.Num {
	if len(l.b) < 8 {
		l.err, l.b = errListing, nil
		return model.Unknown
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(l.b))
	l.b = l.b[8:]
	return model.Num(v)
}

// unpack fills the listed fields of r from its listing.
func (l *listingReader) unpack(listing []byte, r *model.Run) error {
	if len(listing) == 0 || listing[0] != listingVersion {
		return fmt.Errorf("%w: not of version %d", errListing, listingVersion)
	}
	l.b, l.err = listing[1:], nil
	for _, s := range []*string{&r.Tool, &r.ToolVersion, (*string)(&r.Era), &r.Date, &r.Model, &r.Precision, &r.Phase} {
		*s = l.text()
	}
	for _, n := range listingNums(r) {
		*n = l.num()
	}
	if err := readJSON(l, &r.Sampled); err != nil {
		return err
	}
	if err := readJSON(l, &r.ToolWarmup); err != nil {
		return err
	}
	r.Point = l.point()
	if l.brief {
		return l.err
	}
	r.Definitions = l.definitions()
	r.Summary = l.stats()
	r.Recomputed = l.stats()
	if l.err == nil && len(l.b) > 0 {
		l.err = fmt.Errorf("%w: %d bytes left over", errListing, len(l.b))
	}
	return l.err
}

// definitions reads the definitions, one map for the runs of a batch whose definitions are
// the same (a tool's texts repeat over every run it wrote): a listed run's maps are read,
// never written.
func (l *listingReader) definitions() map[string]string {
	start := l.b
	n := l.uvarint()
	if n == 0 || l.err != nil {
		return nil
	}
	defs := make(map[string]string, n-1)
	for range n - 1 {
		k := l.text()
		defs[k] = l.text()
	}
	if l.err != nil || l.defs == nil {
		return defs
	}
	packed := start[:len(start)-len(l.b)]
	if shared, ok := l.defs[string(packed)]; ok {
		return shared
	}
	if len(l.defs) < 64 {
		l.defs[string(packed)] = defs
	}
	return defs
}

func (l *listingReader) stats() map[string]model.Stats {
	n := l.uvarint()
	if n == 0 || l.err != nil {
		return nil
	}
	out := make(map[string]model.Stats, n-1)
	for range n - 1 {
		metric := l.text()
		k := l.uvarint()
		if k == 0 || l.err != nil {
			out[metric] = nil
			continue
		}
		if l.medians {
			out[metric] = l.medianStats(k - 1)
			continue
		}
		st := make(model.Stats, k-1)
		for range k - 1 {
			name := statName(l.bytes())
			st[name] = l.num()
		}
		out[metric] = st
	}
	return out
}

// medianStats reads n statistics of a metric, keeping the medians (ListOptions.Medians).
func (l *listingReader) medianStats(n int) model.Stats {
	st := make(model.Stats, 1)
	for range n {
		name := l.bytes()
		v := l.num()
		if isMedian(name) {
			st[statName(name)] = v
		}
	}
	return keptMedians(st, n > 0)
}

// fillListings packs the listing of every run that has none, a batch at a time (schema 12's
// migration). A run whose JSON does not decode keeps none: its listing reports the damage.
func fillListings(tx *txn) error {
	after := int64(math.MinInt64)
	for {
		rows, err := tx.Query(`SELECT id, header, summary, recomputed, point FROM runs WHERE listing IS NULL AND id > ? ORDER BY id LIMIT ?`, after, listBatch)
		if err != nil {
			return err
		}
		var cols []listedCols
		for rows.Next() {
			var c listedCols
			if err := rows.Scan(&c.id, &c.header, &c.summary, &c.rec, &c.point); err != nil {
				rows.Close()
				return err
			}
			cols = append(cols, c)
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return err
		}
		if len(cols) == 0 {
			return nil
		}
		after = cols[len(cols)-1].id
		listings := make([][]byte, len(cols))
		par.Each(len(cols), 256, func(_, i int) {
			listings[i], _ = listingOf(cols[i].header, cols[i].summary, cols[i].rec, cols[i].point)
		})
		for i, c := range cols {
			if listings[i] == nil {
				continue
			}
			if _, err := tx.Exec(`UPDATE runs SET listing = ? WHERE id = ?`, listings[i], c.id); err != nil {
				return err
			}
		}
	}
}

// briefLen is how much of a listing a brief listing decodes (ListOptions.Brief): up to its
// definitions. It is the whole listing where it cannot tell (another version, damage before
// there), so that unpack reports the listing as it would the whole one.
func briefLen(listing []byte) int {
	if len(listing) == 0 || listing[0] != listingVersion {
		return len(listing)
	}
	l := listingReader{b: listing[1:]}
	for range 7 { // the texts
		l.bytes()
	}
	for range listingNums(&model.Run{}) {
		l.num()
	}
	l.bytes() // sampled
	l.bytes() // tool_warmup
	l.skipPoint()
	if l.err != nil {
		return len(listing)
	}
	return len(listing) - len(l.b)
}
