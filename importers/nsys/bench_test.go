package nsys

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"benchlens/importers/format"
)

// benchKernels makes an export of about 500 MB: 4.3 M kernels over 4 GPUs with their 4.3 M
// launch calls, 430 k copies and 43 k syncs, in the 3.13.2 schema of export-2024.5.
const benchKernels = 4_300_000

// bigExport builds the benchmark's export once, in the temporary folder, and reuses it.
func bigExport(b *testing.B) string {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("benchlens-nsysbench-%d.sqlite", benchKernels))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	script, err := os.ReadFile("testdata/export-2024.5/input.sql")
	if err != nil {
		b.Fatal(err)
	}
	// The schema and the small tables of the imitation, without its rows of device work.
	var keep []string
	for _, l := range strings.Split(string(script), "\n") {
		if strings.HasPrefix(l, "INSERT INTO CUPTI_") || strings.HasPrefix(l, "INSERT INTO NVTX_") {
			continue
		}
		keep = append(keep, l)
	}
	tmp := path + ".part"
	os.Remove(tmp)
	db, err := sql.Open("sqlite3", tmp+"?_journal_mode=OFF&_synchronous=OFF")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(strings.Join(keep, "\n")); err != nil {
		b.Fatal(err)
	}
	tx, _ := db.Begin()
	k, _ := tx.Prepare(`INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, 1, NULL, 7, ?, 1026872443797504, ?, ?, NULL, 1, 0, 128, 132, 1, 1, 128, 1, 1, 0, 0, 0, 0, ?, 0, NULL, 0)`)
	r, _ := tx.Prepare(`INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 0, 1026872443858711, ?, ?, 0, NULL)`)
	m, _ := tx.Prepare(`INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?, ?, ?, 1, NULL, 7, ?, 1026872443797504, 4096, ?, NULL, 1, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`)
	sy, _ := tx.Prepare(`INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 0, 1026872443858711, ?, 9999, 0, NULL)`)
	if _, err := tx.Exec(`INSERT INTO StringIds VALUES (9990, 'cudaLaunchKernel_v7000'), (9991, 'cudaMemcpyAsync_v3020'), (9999, 'cudaStreamSynchronize_v3020')`); err != nil {
		b.Fatal(err)
	}
	names := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	t := int64(1_000_000_000)
	for i := 0; i < benchKernels; i++ {
		corr := int64(i + 1)
		dev := int64(i % 4)
		if _, err := r.Exec(t, t+4000, corr, 9990); err != nil {
			b.Fatal(err)
		}
		d := int64(3000 + (i*7919)%40000)
		if _, err := k.Exec(t+8000, t+8000+d, dev, corr, names[i%len(names)]*2-1, names[i%len(names)]*2, i); err != nil {
			b.Fatal(err)
		}
		if i%10 == 0 {
			if _, err := m.Exec(t+1000, t+2500, dev, -corr, 1+(i/10)%2); err != nil {
				b.Fatal(err)
			}
		}
		if i%100 == 0 {
			if _, err := sy.Exec(t+5000, t+9000, int64(benchKernels)+corr); err != nil {
				b.Fatal(err)
			}
		}
		if dev == 3 {
			t += d + 2000
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	db.Close()
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// maxRSS is the process's peak resident set, in MB.
func maxRSS() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Maxrss) / 1024
}

// cpuSeconds is the process's user and system time so far: steadier than the wall time on a
// machine shared with other work.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkReadExport500MB reads a 500 MB export as an import does: the bundle reader maps the
// file, ReadExport copies it to a temporary file and queries it; rows are grouped and sorted
// by SQLite, so the heap holds the kernel names and the timeline's bins only.
func BenchmarkReadExport500MB(b *testing.B) {
	path := bigExport(b)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	info, _ := f.Stat()
	data, err := syscall.Mmap(int(f.Fd()), 0, int(info.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	defer syscall.Munmap(data)
	drop := func(upTo int) {
		_ = syscall.Madvise(data[:upTo/os.Getpagesize()*os.Getpagesize()], syscall.MADV_DONTNEED)
	}
	b.ReportMetric(float64(info.Size())/1e6, "MB")
	var ms runtime.MemStats
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for range b.N {
		start := time.Now()
		p, err := ReadExport(&format.File{Name: "big.sqlite", Data: data, Drop: drop})
		if err != nil {
			b.Fatal(err)
		}
		if p.Evidence.Trace.Kernels != benchKernels {
			b.Fatalf("%d kernels", p.Evidence.Trace.Kernels)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/read")
	}
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/read")
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/1e6, "heap-MB")
	b.ReportMetric(maxRSS(), "maxRSS-MB")
}
