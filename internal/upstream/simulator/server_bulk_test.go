package simulator

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"testing"
)

// The bulk user's portfolio comes from the generator's BulkListing and
// GenerateBusiness, made on the fly.
func TestBulkPortfolio(t *testing.T) {
	const n = 3000
	h := newAPIHarness(t, Options{Bulk: n})
	key := h.login("bulk")

	var folders []map[string]any
	wantData(t, "folders", h.get(key, "/v1/Portfolio/Folders", nil), &folders)
	if len(folders) != 1 {
		t.Fatalf("bulk folders = %v, want one", folders)
	}
	folderID := strconv.Itoa(int(folders[0]["FolderId"].(float64)))

	var sh scoreHistory
	wantData(t, "pay page", h.get(key, "/v1/Portfolio/PayScoreHistory", url.Values{"StartRow": {"2991"}, "EndRow": {"3100"}}), &sh)
	if sh.TotalResults != n || len(sh.Businesses) != 10 {
		t.Fatalf("rows 2991-3100 of %d: total %d, %d rows", n, sh.TotalResults, len(sh.Businesses))
	}
	if sh.Businesses[0].BusinessId != BulkBusinessID(2990) {
		t.Errorf("row 2991 is %d, want %d", sh.Businesses[0].BusinessId, BulkBusinessID(2990))
	}
	for i := 1; i < len(sh.Businesses); i++ {
		if sh.Businesses[i-1].BusinessName > sh.Businesses[i].BusinessName {
			t.Errorf("bulk page not ordered by name at %d", i)
		}
	}

	var members []map[string]any
	wantData(t, "businesses", h.get(key, "/v1/Portfolio/Businesses", url.Values{"FolderId": {folderID}}), &members)
	if len(members) != n {
		t.Errorf("Portfolio/Businesses: %d, want %d", len(members), n)
	}

	var g struct{ BusinessId int32 }
	mid := strconv.Itoa(int(BulkBusinessID(1234)))
	wantData(t, "bulk id", h.get(key, "/v1/Business/IdentificationGroup", url.Values{"id": {mid}}), &g)
	if g.BusinessId != BulkBusinessID(1234) {
		t.Errorf("bulk id %s -> %d", mid, g.BusinessId)
	}
	// Any user may look one up; one past the end does not exist.
	if r := h.get(h.login("demo"), "/v1/Business/Summary", url.Values{"id": {mid}}); r.status != 200 {
		t.Errorf("demo looking up a bulk id: status = %d", r.status)
	}
	past := strconv.Itoa(int(BulkBusinessID(n)))
	wantError(t, "past the bulk", h.get(key, "/v1/Business/Summary", url.Values{"id": {past}}), 404, CodeBusinessNotFound)

	r := h.get(key, "/v1/Portfolio/Download", url.Values{"format": {"JSON"}})
	var rows []json.RawMessage
	if err := json.Unmarshal(r.body, &rows); err != nil || len(rows) != n {
		t.Errorf("bulk JSON download: %d rows, err %v", len(rows), err)
	}
	r = h.get(key, "/v1/Portfolio/Download", nil)
	lines := 0
	for sc := bufio.NewScanner(bytes.NewReader(r.body)); sc.Scan(); {
		lines++
	}
	if lines != n+1 {
		t.Errorf("bulk CSV download: %d lines, want %d", lines, n+1)
	}
	var news []newsRow
	wantData(t, "bulk news", h.get(key, "/v1/News", nil), &news)
	wantData(t, "bulk industry news", h.get(key, "/v1/Industries/News", nil), &news)
}

func TestNoBulkUserByDefault(t *testing.T) {
	h := newAPIHarness(t, Options{})
	r := h.do("POST", "/v1/Users/Login", "", url.Values{"Username": {"bulk"}, "Password": {"demo"}})
	wantError(t, "bulk without -bulk", r, 403, CodeInvalidCredentials)
}
