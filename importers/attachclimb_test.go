package importers

import (
	"errors"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
)

// A log in a folder of no run climbs to the nearest folder with runs below it; it attaches
// there when those runs are one group (a run's logs/ beside its results/, a sweep's log above
// its points), and to no run, with its line, beside the runs of several folders (a lab's dated
// attempts, the failed ones holding only their server.log).
func TestALogClimbsOnlyToOneGroupOfRuns(t *testing.T) {
	result := `{"date": "20260426-200734", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2, "mean_ttft_ms": 10.0}`
	log := "INFO 04-26 19:16:21 [api_server.py:1090] vLLM API server version 0.11.0\n"
	for _, c := range []struct {
		name    string
		files   []string // results end in .json, the rest are logs
		attach  map[string][]string
		refused []string
	}{
		{"a run's logs beside its results", []string{"b/run1/results/a.json", "b/run1/results/c.json", "b/run1/logs/server.log"},
			map[string][]string{"b/run1/results/a.json": {"server.log"}, "b/run1/results/c.json": {"server.log"}}, nil},
		{"a sweep's log above its points", []string{"b/exp/c1/a.json", "b/exp/c4/a.json", "b/exp/server.log"},
			map[string][]string{"b/exp/c1/a.json": {"server.log"}, "b/exp/c4/a.json": {"server.log"}}, nil},
		{"beside its result, and a run below", []string{"b/a.json", "b/server.log", "b/c4/a.json", "b/c4/server.log"},
			map[string][]string{"b/a.json": {"server.log"}, "b/c4/a.json": {"server.log", "server.log"}}, nil},
		{"dated attempts", []string{"b/20260426-190650/server.log", "b/20260426-195024/a.json", "b/20260426-195024/bench.log",
			"b/20260426-222601/a.json"},
			map[string][]string{"b/20260426-195024/a.json": {"bench.log"}, "b/20260426-222601/a.json": nil},
			[]string{"b/20260426-190650/server.log"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var entries []Entry
			for _, f := range c.files {
				data := log
				if strings.HasSuffix(f, ".json") {
					data = result
				}
				entries = append(entries, Entry{Path: f, Data: []byte(data)})
			}
			items, errs := Assemble(entries)
			got := map[string][]string{}
			for _, it := range items {
				var names []string
				for _, a := range it.Attachments {
					names = append(names, path.Base(a.Name))
				}
				sort.Strings(names)
				got[it.Result.Name] = names
			}
			for name, want := range c.attach {
				if !slices.Equal(got[name], want) {
					t.Errorf("%s: attached %v, want %v", name, got[name], want)
				}
			}
			var refused []string
			for _, err := range errs {
				var skip *Skip
				if errors.As(err, &skip) && strings.Contains(skip.Why, "which run it belongs to is not known") {
					refused = append(refused, strings.SplitN(err.Error(), ":", 2)[0])
				} else {
					t.Errorf("unexpected: %v", err)
				}
			}
			if !slices.Equal(refused, c.refused) {
				t.Errorf("refused %v, want %v", refused, c.refused)
			}
		})
	}
}

// A file of no known format in such a folder (a lab's scripts/) is kept beside the runs,
// unread, as before: it lends the runs no evidence.
func TestAScriptStillClimbs(t *testing.T) {
	result := `{"date": "20260426-200734", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2, "mean_ttft_ms": 10.0}`
	items, errs := Assemble([]Entry{{Path: "b/x/a.json", Data: []byte(result)}, {Path: "b/y/a.json", Data: []byte(result)},
		{Path: "b/scripts/run-server.sh", Data: []byte("vllm serve m --port 8000\n")}})
	if len(items) != 2 || len(items[0].Attachments) != 1 || len(items[1].Attachments) != 1 {
		t.Fatalf("the script is not kept beside both runs: %d items", len(items))
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "kept beside the runs, unread") {
		t.Errorf("errs %v", errs)
	}
}

func TestListed(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"a", "b"}, "a, b"},
		{[]string{"a", "b", "c"}, "a, b, c"},
		{[]string{"a", "b", "c", "d", "e"}, "a, b, c and 2 more"},
	} {
		if got := listed(c.names, 3); got != c.want {
			t.Errorf("listed(%v) = %q, want %q", c.names, got, c.want)
		}
	}
}
