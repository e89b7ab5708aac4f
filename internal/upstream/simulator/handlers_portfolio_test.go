package simulator

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

type scoreHistory struct {
	TotalResults int
	ScoreType    string
	Businesses   []struct {
		BusinessId   int32
		BusinessName string
		Scores       []struct {
			Year, Month int
			Score       float64
		}
	}
}

func TestFoldersShape(t *testing.T) {
	h := newAPIHarness(t, Options{})
	var rows []map[string]any
	wantData(t, "folders", h.get(h.login("demo"), "/v1/Portfolio/Folders", nil), &rows)
	if len(rows) != 2 {
		t.Fatalf("%d folders, want 2", len(rows))
	}
	wantKeys(t, "Folder", rows[0], "FolderId", "UserId", "FolderName", "DateCreated", "DateUpdated")
	if rows[0]["FolderId"] != 11.0 || rows[0]["UserId"] != 1.0 || rows[0]["FolderName"] != "Watch list" {
		t.Errorf("first folder = %v", rows[0])
	}
}

func TestScoreHistories(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	get := func(path string, q url.Values) scoreHistory {
		t.Helper()
		var sh scoreHistory
		wantData(t, path+"?"+q.Encode(), h.get(key, path, q), &sh)
		return sh
	}
	pay := get("/v1/Portfolio/PayScoreHistory", url.Values{})
	if pay.TotalResults != 5 || pay.ScoreType != "PayScore" || len(pay.Businesses) != 5 {
		t.Fatalf("PayScoreHistory: total %d type %q rows %d, want 5 PayScore 5", pay.TotalResults, pay.ScoreType, len(pay.Businesses))
	}
	var names []string
	for _, b := range pay.Businesses {
		names = append(names, b.BusinessName)
	}
	if !slices.IsSorted(names) {
		t.Errorf("businesses not ordered by name: %q", names)
	}
	for _, b := range pay.Businesses {
		want := 0
		if b.BusinessId == 1002 || b.BusinessId == 1008 {
			want = 12 // the last 12 months, only businesses with a Pay score
		}
		if len(b.Scores) != want {
			t.Errorf("%d: %d pay scores, want %d", b.BusinessId, len(b.Scores), want)
		}
		if want > 0 && (b.Scores[0].Year != 2024 || b.Scores[0].Month != 7 || b.Scores[11].Month != 6) {
			t.Errorf("%d: months %v..%v, want 2024-07..2025-06", b.BusinessId, b.Scores[0], b.Scores[11])
		}
	}
	z := get("/v1/Portfolio/ZScoreHistory", url.Values{"StartDate": {"2025-01-01"}, "EndDate": {"2025-06-30"}})
	if z.ScoreType != "ZScore" {
		t.Errorf("ScoreType = %q", z.ScoreType)
	}
	for _, b := range z.Businesses {
		if b.BusinessId == 1001 && len(b.Scores) != 2 {
			t.Errorf("1001: %d quarterly Z-Scores in 2025-01..06, want 2 (months without one left out)", len(b.Scores))
		}
	}
	page := get("/v1/Portfolio/PayScoreHistory", url.Values{"StartRow": {"2"}, "EndRow": {"3"}})
	if page.TotalResults != 5 || len(page.Businesses) != 2 || page.Businesses[0].BusinessName != names[1] {
		t.Errorf("rows 2-3: total %d, %d rows", page.TotalResults, len(page.Businesses))
	}
	past := get("/v1/Portfolio/PayScoreHistory", url.Values{"StartRow": {"10"}, "EndRow": {"20"}})
	if past.TotalResults != 5 || len(past.Businesses) != 0 {
		t.Errorf("rows past the end: total %d, %d rows, want 5 and 0", past.TotalResults, len(past.Businesses))
	}
	var obj map[string]any
	wantData(t, "past the end", h.get(key, "/v1/Portfolio/PayScoreHistory", url.Values{"StartRow": {"10"}}), &obj)
	wantKeys(t, "PortfolioScoreHistory", obj, "TotalResults", "ScoreType", "Businesses")
	if bs, ok := obj["Businesses"].([]any); !ok || len(bs) != 0 {
		t.Errorf("past the end: Businesses = %v, want [] (not null)", obj["Businesses"])
	}
	for _, q := range []url.Values{
		{"StartRow": {"3"}, "EndRow": {"2"}}, {"StartRow": {"0"}}, {"EndRow": {"-4"}}, {"StartRow": {"x"}},
		{"StartRow": {"1"}, "EndRow": {"999999"}}, {"StartDate": {"2025-02-31"}},
		{"StartDate": {"2025-06-01"}, "EndDate": {"2025-01-01"}},
	} {
		for _, path := range []string{"/v1/Portfolio/PayScoreHistory", "/v1/Portfolio/ZScoreHistory"} {
			wantError(t, path+"?"+q.Encode(), h.get(key, path, q), 400, CodeInvalidParameter)
		}
	}
}

func TestPortfolioBusinesses(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	var rows []map[string]any
	wantData(t, "all", h.get(key, "/v1/Portfolio/Businesses", nil), &rows)
	if len(rows) != 6 {
		t.Fatalf("%d memberships, want 6", len(rows))
	}
	wantKeys(t, "PortfolioBusiness", rows[0], "BusinessId", "BusinessName", "FolderId")
	wantData(t, "folder 12", h.get(key, "/v1/Portfolio/Businesses", url.Values{"FolderId": {"12"}}), &rows)
	if len(rows) != 3 || rows[0]["FolderId"] != 12.0 {
		t.Errorf("folder 12: %v", rows)
	}
	wantError(t, "unknown folder", h.get(key, "/v1/Portfolio/Businesses", url.Values{"FolderId": {"21"}}), 404, CodeFolderNotFound)
	wantError(t, "bad folder", h.get(key, "/v1/Portfolio/Businesses", url.Values{"FolderId": {"x"}}), 400, CodeInvalidParameter)
}

type newsRow struct {
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	Link        string `json:"link"`
	Description string `json:"description"`
	PubDate     string `json:"pubDate"`
}

func newestFirst(t *testing.T, what string, items []newsRow) {
	t.Helper()
	for i := 1; i < len(items); i++ {
		a, err1 := time.Parse(time.RFC1123, items[i-1].PubDate)
		b, err2 := time.Parse(time.RFC1123, items[i].PubDate)
		if err1 != nil || err2 != nil || a.Before(b) {
			t.Errorf("%s: item %d (%s) before item %d (%s), want newest first", what, i-1, items[i-1].PubDate, i, items[i].PubDate)
		}
	}
}

func TestNews(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	var raw []map[string]any
	wantData(t, "folder news", h.get(key, "/v1/Portfolio/Folders/11/News", nil), &raw)
	wantKeys(t, "NewsItem", raw[0], "id", "title", "link", "description", "pubDate")
	var items []newsRow
	wantData(t, "folder news", h.get(key, "/v1/Portfolio/Folders/11/News", nil), &items)
	if len(items) != 5 {
		t.Errorf("folder 11: %d items, want 5 (1001's 3 and 1002's 2)", len(items))
	}
	newestFirst(t, "folder 11", items)
	wantError(t, "unknown folder", h.get(key, "/v1/Portfolio/Folders/999/News", nil), 404, CodeFolderNotFound)
	wantError(t, "other user's folder", h.get(key, "/v1/Portfolio/Folders/21/News", nil), 404, CodeFolderNotFound)
	wantError(t, "bad folder", h.get(key, "/v1/Portfolio/Folders/abc/News", nil), 400, CodeInvalidParameter)

	wantData(t, "industry news", h.get(key, "/v1/Industries/News", nil), &items)
	if len(items) != 20 || items[0].ID/100 != 4400 {
		t.Errorf("industry news: %d items from %d, want 20 from sector 44", len(items), items[0].ID)
	}
	newestFirst(t, "industry", items)
	wantData(t, "industry news, no sector news", h.get(h.login("ordinary"), "/v1/Industries/News", nil), &items)
	if len(items) != 0 {
		t.Errorf("ordinary (sector 33, no news): %d items", len(items))
	}
	wantData(t, "all news", h.get(key, "/v1/News", nil), &items)
	if len(items) != 5 {
		t.Errorf("portfolio news: %d items, want 5", len(items))
	}
	newestFirst(t, "portfolio", items)
}

func TestSearch(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	ids := func(q url.Values) []int32 {
		t.Helper()
		var rows []map[string]any
		wantData(t, "search "+q.Encode(), h.get(key, "/v1/Business/Search", q), &rows)
		var out []int32
		for _, r := range rows {
			wantKeys(t, "search hit", r, "BusinessId", "BusinessName", "City", "State")
			out = append(out, int32(r["BusinessId"].(float64)))
		}
		return out
	}
	if got := ids(url.Values{"q": {"ACME"}}); !slices.Equal(got, []int32{1001, 1003}) {
		t.Errorf("ACME: %v, want [1001 1003] (case-insensitive)", got)
	}
	if got := ids(url.Values{"q": {"e"}}); len(got) < 2 || got[0] != 1007 {
		t.Errorf("e: %v, want Empty Shell Co (a prefix match) first", got)
	}
	if got := ids(url.Values{"q": {"e"}, "count": {"1"}}); len(got) != 1 {
		t.Errorf("count=1: %v", got)
	}
	if got := ids(url.Values{"q": {"no such firm"}}); len(got) != 0 {
		t.Errorf("no match: %v", got)
	}
	wantError(t, "no q", h.get(key, "/v1/Business/Search", nil), 400, CodeMissingParameter)
	wantError(t, "bad count", h.get(key, "/v1/Business/Search", url.Values{"q": {"a"}, "count": {"x"}}), 400, CodeInvalidParameter)
}

func TestUnknownPathsAndMethods(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	wantError(t, "unknown /v1 path", h.get(key, "/v1/Business/Nope", nil), 404, CodeNotFound)
	wantError(t, "unknown path without key", h.get("", "/v1/Nope", nil), 404, CodeNotFound)
	wantError(t, "outside /v1", h.get(key, "/", nil), 404, CodeNotFound)
	wantError(t, "folder news, extra segment", h.get(key, "/v1/Portfolio/Folders/11/12/News", nil), 404, CodeNotFound)
	r := h.do(http.MethodPost, "/v1/Business/Officers", key, url.Values{"id": {"1001"}})
	wantError(t, "POST Officers", r, 405, CodeMethodNotAllowed)
	if r.header.Get("Allow") != "GET" {
		t.Errorf("Allow = %q, want GET", r.header.Get("Allow"))
	}
	wantError(t, "bad type", h.get(key, "/v1/Portfolio/Folders", url.Values{"type": {"yaml"}}), 400, CodeInvalidParameter)
}
