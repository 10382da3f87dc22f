package result

import (
	"regexp"
	"testing"
)

// statKey is this regular expression, by hand.
var statKeyRE = regexp.MustCompile(`^(mean|median|std|min|max|p\d+(?:\.\d+)?)_(ttft|tpot|itl|e2el|e2e_latency|latency|client_queue_time|e2el_including_client_queue)_ms$`)

func TestStatKeyIsTheRegularExpression(t *testing.T) {
	keys := []string{"mean_ttft_ms", "median_tpot_ms", "std_itl_ms", "min_e2el_ms", "max_e2e_latency_ms",
		"p99_latency_ms", "p99.9_client_queue_time_ms", "p50_e2el_including_client_queue_ms", "p1_ttft_ms",
		"p_ttft_ms", "p.9_ttft_ms", "p9._ttft_ms", "p9.9.9_ttft_ms", "p9a_ttft_ms", "pp9_ttft_ms", "P99_ttft_ms",
		"mean_ttft", "mean_ttft_ms_", "mean__ttft_ms", "mean_ttft_s", "_ttft_ms", "mean_ms", "mean_", "mean",
		"", "_", "_ms", "ttfts", "mean_input_ms", "mean_e2el_including_ms", "mean_ttft_msx", "xmean_ttft_ms",
		"mean_TTFT_ms", "median_e2el_including_client_queue_ms", "p١_ttft_ms", "mean_ttft_ms\n", "mean_ttft_ms\x00"}
	for _, k := range keys {
		m := statKeyRE.FindStringSubmatch(k)
		stat, metric, ok := statKey(k)
		if ok != (m != nil) || (ok && (stat != m[1] || metric != m[2])) {
			t.Errorf("%q: statKey %q %q %v, the expression %q", k, stat, metric, ok, m)
		}
	}
}
