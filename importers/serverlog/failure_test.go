package serverlog

import (
	"testing"

	"benchlens/model"
)

// A server that never came up is failed with its lines; an exception a warning mentions, or one
// after the API server is up (a request's), is not.
func TestStartFailure(t *testing.T) {
	up := "INFO:     Application startup complete.\n"
	cases := []struct {
		name, log string
		failed    bool
	}{
		{"EngineCore", "(EngineCore_DP0 pid=1377) ERROR 12-10 15:31:21 [core.py:842] EngineCore failed to start.\n", true},
		{"V0 worker", "(VllmWorkerProcess pid=180) ERROR 03-19 08:09:03 multiproc_worker_utils.py:233] Exception in worker VllmWorkerProcess while processing method load_model.\n", true},
		{"load error", "ERROR 05-20 16:00:09 [engine.py:448] RuntimeError: Failed to infer device type\n", true},
		{"bare traceback tail", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB.\n", true},
		{"SGLang scheduler", "[2025-10-28 02:40:09 TP0] Scheduler hit an exception: Traceback (most recent call last):\n", true},
		{"a warning that quotes an error", "WARNING 05-20 16:00:09 [utils.py:12] ValueError: optional kernel unavailable, using the fallback\n", false},
		{"a request's error after start-up", up + "ERROR 05-20 16:10:09 [serving_chat.py:200] ValueError: prompt too long\n", false},
	}
	for _, c := range cases {
		ev, err := Parse("x.log", []byte(c.log))
		if err != nil {
			t.Fatal(err)
		}
		if got := len(ev.ServerFailure) > 0 && ev.Status == model.BackendFailed; got != c.failed {
			t.Errorf("%s: failed %v (status %s, lines %v), want %v", c.name, got, ev.Status, ev.ServerFailure, c.failed)
		}
	}
}
