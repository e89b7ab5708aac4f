package handlers_test

import (
	"bufio"
	"bytes"
	"mime/multipart"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"creditdash/internal/apptest"
)

// rssPeakKB is the process's peak resident memory (VmHWM) in KiB, 0 where
// /proc does not tell.
func rssPeakKB() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// resetRSSPeak returns memory the heap no longer uses to the system and
// starts the peak again from the resident memory now.
func resetRSSPeak() uint64 {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	return rssPeakKB()
}

// BenchmarkTwoImports50k (issue 47.1): two analysts preview a 50,000-row
// CSV each at the same moment (the team's bound is two imports read at
// once) and the bench reports the heap's peak growth and the process's
// peak resident memory over the idle dashboard (nothing asserted; the
// target is 100 MB for any file).
func BenchmarkTwoImports50k(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	data := ledgerOf(benchAccounts, 1)
	type upload struct {
		u    *apptest.User
		tok  string
		body []byte
		ct   string
	}
	var ups []upload
	for _, name := range []string{"demo", "developer"} {
		u := app.SignIn(b, name)
		tok := u.Token("/accounts/import")
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		_ = w.WriteField("_csrf", tok)
		_ = w.WriteField("as_of", "2026-09-30")
		fw, _ := w.CreateFormFile("file", "aging.csv")
		_, _ = fw.Write(data)
		_ = w.Close()
		ups = append(ups, upload{u: u, tok: tok, body: body.Bytes(), ct: w.FormDataContentType()})
	}
	for b.Loop() {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		base, rss := m.HeapInuse, resetRSSPeak()
		stop := peakHeap()
		var wg sync.WaitGroup
		status := make([]int, len(ups))
		for i, up := range ups {
			wg.Go(func() {
				req, _ := http.NewRequest(http.MethodPost, app.URL+"/accounts/import", bytes.NewReader(up.body))
				req.Header.Set("Content-Type", up.ct)
				status[i] = up.u.Do(req).Status
			})
		}
		wg.Wait()
		peak := stop()
		for i, s := range status {
			if s != http.StatusOK {
				b.Fatalf("preview %d: status %d", i, s)
			}
		}
		b.ReportMetric(float64(peak-min(peak, base))/(1<<20), "MB-heap-peak-growth")
		if rss > 0 {
			b.ReportMetric(float64(rssPeakKB()-rss)/1024, "MB-RSS-peak-growth")
		}
	}
}
