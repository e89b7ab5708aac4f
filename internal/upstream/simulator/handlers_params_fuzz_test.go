package simulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// The fuzz tests drive the handler directly (no network) with whatever the
// fuzzer makes of identifiers, dates, rows and raw query strings. An answer
// must never be a 500 or a panic, and every envelope must decode.

var fuzzState struct {
	once sync.Once
	srv  *Server
	keys map[string]string
}

func fuzzServer(t testing.TB) (*Server, map[string]string) {
	fuzzState.once.Do(func() {
		clock := &simClock{t: time.Date(2025, 7, 15, 9, 0, 0, 0, time.UTC)}
		srv := New(testDataset(), Options{Now: clock.Now, Bulk: 50})
		keys := map[string]string{}
		for _, u := range []string{"demo", "trade", "bulk"} {
			key, _ := srv.newSession(u)
			keys[u] = key
		}
		fuzzState.srv, fuzzState.keys = srv, keys
	})
	return fuzzState.srv, fuzzState.keys
}

// fuzzGet answers GET path?rawQuery as user and checks the answer.
func fuzzGet(t *testing.T, user, path, rawQuery string, ok ...int) {
	srv, keys := fuzzServer(t)
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.URL.Path, req.URL.RawQuery = path, rawQuery
	req.Header.Set("Authorization", "Bearer "+keys[user])
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Fatalf("GET %s?%s: status %d: %s", path, rawQuery, rec.Code, rec.Body)
	}
	allowed := false
	for _, code := range ok {
		allowed = allowed || rec.Code == code
	}
	if !allowed {
		t.Fatalf("GET %s?%s: status %d, want one of %v: %s", path, rawQuery, rec.Code, ok, rec.Body)
	}
	if rec.Code == 200 && path == "/v1/Portfolio/Download" {
		return // a file, not an envelope
	}
	var env struct {
		Success   *bool
		ErrorCode *string
		Data      json.RawMessage
	}
	ct := rec.Header().Get("Content-Type")
	if strings.HasPrefix(ct, "application/xml") {
		if _, err := parseXML(rec.Body.Bytes()); err != nil {
			t.Fatalf("GET %s?%s: XML not well-formed: %v", path, rawQuery, err)
		}
		return
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Success == nil || env.ErrorCode == nil {
		t.Fatalf("GET %s?%s: not an envelope (%v): %s", path, rawQuery, err, rec.Body)
	}
	if *env.Success != (rec.Code == 200) {
		t.Fatalf("GET %s?%s: status %d with Success %v", path, rawQuery, rec.Code, *env.Success)
	}
}

func FuzzBusinessIdentifier(f *testing.F) {
	f.Add("1001", "", "", false)
	f.Add("", "C2-1002", "", true)
	f.Add("", "", "S-1001", false)
	f.Add("2147483648", "x", "y", false)
	f.Add("-0", "", "", true)
	f.Add("2000001", "", "", false)
	f.Fuzz(func(t *testing.T, id, customer, supplier string, trade bool) {
		q := url.Values{}
		for k, v := range map[string]string{"id": id, "CustomerId": customer, "SupplierId": supplier} {
			if v != "" {
				q.Set(k, v)
			}
		}
		user := "demo"
		if trade {
			user = "trade"
		}
		for _, path := range []string{"/v1/Business/Summary", "/v1/Business/LatestAnnualStatements", "/v1/Business/RiskHistory"} {
			fuzzGet(t, user, path, q.Encode(), 200, 400, 404)
		}
	})
}

func FuzzDates(f *testing.F) {
	f.Add("2025-01-01", "2025-06-30")
	f.Add("", "2024-02-29")
	f.Add("2025-02-30", "")
	f.Add("9999-12-31", "0001-01-01")
	f.Add("0000-01-01", "9999-12-31")
	f.Fuzz(func(t *testing.T, start, end string) {
		q := url.Values{"id": {"1001"}}
		if start != "" {
			q.Set("StartDate", start)
		}
		if end != "" {
			q.Set("EndDate", end)
		}
		fuzzGet(t, "demo", "/v1/Business/CreditScoreHistory", q.Encode(), 200, 400)
		q.Del("id")
		fuzzGet(t, "demo", "/v1/Portfolio/ZScoreHistory", q.Encode(), 200, 400)
	})
}

func FuzzRows(f *testing.F) {
	f.Add("1", "50", false)
	f.Add("3", "2", false)
	f.Add("40", "", true)
	f.Add("2147483647", "2147483647", true)
	f.Add("0", "-1", false)
	f.Fuzz(func(t *testing.T, startRow, endRow string, bulk bool) {
		q := url.Values{}
		if startRow != "" {
			q.Set("StartRow", startRow)
		}
		if endRow != "" {
			q.Set("EndRow", endRow)
		}
		user := "demo"
		if bulk {
			user = "bulk"
		}
		fuzzGet(t, user, "/v1/Portfolio/PayScoreHistory", q.Encode(), 200, 400)
	})
}

func FuzzRawQuery(f *testing.F) {
	f.Add("/v1/Business/Summary", "id=1001&type=xml")
	f.Add("/v1/Portfolio/Download", "format=json&Layout=Scores&FolderId=11")
	f.Add("/v1/Business/Search", "q=%zz&count=1e3")
	f.Add("/v1/Portfolio/Folders/11/News", "type=XML")
	f.Add("/v1/Business/LatestAnnualStatements", "id=1001&count=2&SortOrder=a&StandardYear=2023")
	f.Fuzz(func(t *testing.T, path, rawQuery string) {
		// Only the service's paths: the /_sim hooks answer plain JSON.
		if !strings.HasPrefix(path, "/v1/") {
			path = "/v1/" + strings.TrimPrefix(path, "/")
		}
		fuzzGet(t, "demo", path, rawQuery, 200, 400, 404, 405)
	})
}
