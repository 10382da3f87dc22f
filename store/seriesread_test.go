package store

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"benchlens/model"
)

// filledRun is a run with every field that the library stores set to a value of its own
// (reflection: a field added to model.Run later is set too), its statistics of a latency
// and of another metric.
func filledRun(t *testing.T) *model.Run {
	r := model.NewRun("vllm")
	v := reflect.ValueOf(r).Elem()
	n := 0
	var fill func(f reflect.Value)
	fill = func(f reflect.Value) {
		n++
		switch f.Kind() {
		case reflect.String:
			f.SetString(fmt.Sprint("text ", n, " <é>"))
		case reflect.Float64:
			f.SetFloat(float64(n) + 0.25)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(n))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
			fill(f.Elem())
		case reflect.Struct:
			for i := range f.NumField() {
				fill(f.Field(i))
			}
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
			fill(f.Index(0))
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
			key, val := reflect.New(f.Type().Key()).Elem(), reflect.New(f.Type().Elem()).Elem()
			fill(key)
			if f.Type().Elem().Kind() == reflect.Interface {
				val.Set(reflect.ValueOf(fmt.Sprint("value ", n)))
			} else {
				fill(val)
			}
			f.SetMapIndex(key, val)
		case reflect.Array:
			for i := range f.Len() {
				fill(f.Index(i))
			}
		default:
			t.Fatalf("filledRun: no value for a %s", f.Type())
		}
	}
	for i := range v.NumField() {
		switch name := v.Type().Field(i).Name; name {
		case "ID", "Requests", "Summary", "Recomputed", "Manifest":
		default:
			fill(v.Field(i))
		}
	}
	r.Label, r.Role, r.Phase = "nightly", model.RoleCandidate, ""
	r.Manifest = model.Manifest{"series": map[string]any{"name": "nightly"}, "workload": map[string]any{"dataset": "sharegpt"}}
	r.SetStat(model.TTFT, "median", 12.5)
	r.SetStat(model.TTFT, "p99", 30)
	r.SetStat("output_len", "mean", 256) // not a latency: a series does not read it
	r.Recomputed = map[string]model.Stats{model.TPOT: {"median": 4.5}, "input_len": {"mean": 1024}}
	return r
}

// A series' run is the run as stored (RunHeader) but for the statistics of other metrics than
// the latencies, which a listing leaves out: read from its packed listing or, for a run
// without one, from its JSON columns, on either engine.
func TestSeriesRunsAsFullyRead(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		full := filledRun(t)
		plain := sampleRun("sglang")
		plain.Label = "nightly"
		var ids []int64
		for i, r := range []*model.Run{full, plain, full, plain} {
			id, err := s.AddRun(NewRun{Run: r, Fingerprint: fmt.Sprint("run ", i), Files: []Attached{resultFile(fmt.Sprint("run ", i))}})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if _, err := s.db.Exec(`UPDATE runs SET listing = NULL WHERE id IN (?, ?)`, ids[2], ids[3]); err != nil {
			t.Fatal(err)
		}
		runs, err := s.SeriesRuns("nightly", func(model.Manifest) bool { return false })
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != len(ids) {
			t.Fatalf("%d runs, want %d", len(runs), len(ids))
		}
		for i, got := range runs {
			want, err := s.RunHeader(ids[i])
			if err != nil {
				t.Fatal(err)
			}
			for _, stats := range []map[string]model.Stats{want.Summary, want.Recomputed} {
				maps.DeleteFunc(stats, func(metric string, _ model.Stats) bool { return !slices.Contains(model.Latencies, metric) })
			}
			if g, w := asJSON(t, got), asJSON(t, want); g != w {
				t.Errorf("run %d (listing %v):\n got %s\nwant %s", ids[i], i < 2, g, w)
			}
			if !reflect.DeepEqual(got.Measured, want.Measured) {
				t.Errorf("run %d: measured %+v, want %+v", ids[i], got.Measured, want.Measured)
			}
		}
		if runs[0].Dataset == "" || len(runs[0].Metadata) == 0 || len(runs[0].Extra) == 0 || len(runs[0].Warnings) == 0 {
			t.Errorf("the filled run lost fields: %+v", runs[0])
		}
	})
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
