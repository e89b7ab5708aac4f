package simulator

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

var standardColumns = []string{"BusinessId", "BusinessName", "FolderId", "FolderName", "City", "State", "Country",
	"NAICSCode", "NAICSTitle", "Public", "RiskScore", "PayScore", "DBTScore", "ZScore"}

func TestDownloadCSV(t *testing.T) {
	h := newAPIHarness(t, Options{})
	r := h.get(h.login("demo"), "/v1/Portfolio/Download", nil)
	if r.status != 200 {
		t.Fatalf("status = %d: %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	disp, params, err := mime.ParseMediaType(r.header.Get("Content-Disposition"))
	if err != nil || disp != "attachment" || !strings.HasSuffix(params["filename"], ".csv") {
		t.Errorf("Content-Disposition = %q", r.header.Get("Content-Disposition"))
	}
	recs, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	if strings.Join(recs[0], ",") != strings.Join(standardColumns, ",") {
		t.Errorf("header = %v", recs[0])
	}
	if len(recs) != 7 {
		t.Fatalf("%d rows, want 6 memberships and a header", len(recs)-1)
	}
	byID := map[string][]string{}
	for _, rec := range recs[1:] {
		byID[rec[0]] = rec
	}
	if odd := byID["1008"]; odd[1] != "Odd <Chars> & \"Quotes\", Inc\nLine\x01" {
		t.Errorf("escaped name did not round-trip: %q", odd[1])
	}
	acme := byID["1001"] // its Pay score is missing, its Z-Score quarterly
	if acme[9] != "true" || acme[10] != "7" || acme[11] != "" || acme[12] != "3" || acme[13] != "2.56" {
		t.Errorf("1001 row = %q, want Public true, Risk 7, no Pay, DBT 3, Z 2.56", acme)
	}
}

func TestDownloadXMLAndJSON(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	r := h.get(key, "/v1/Portfolio/Download", url.Values{"format": {"xml"}, "FolderId": {"12"}})
	if r.status != 200 || r.header.Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Fatalf("XML: status %d, Content-Type %q", r.status, r.header.Get("Content-Type"))
	}
	var doc struct {
		XMLName    xml.Name `xml:"Portfolio"`
		Businesses []struct {
			BusinessId   int32
			BusinessName string
			FolderId     int
			PayScore     struct {
				Nil  string `xml:"nil,attr"`
				Text string `xml:",chardata"`
			}
		} `xml:"Business"`
	}
	if err := xml.Unmarshal(r.body, &doc); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, r.body)
	}
	if len(doc.Businesses) != 3 || doc.Businesses[0].FolderId != 12 {
		t.Fatalf("folder 12: %+v", doc.Businesses)
	}
	if doc.Businesses[0].PayScore.Nil != "true" {
		t.Errorf("1001's missing PayScore: %+v, want xsi:nil", doc.Businesses[0].PayScore)
	}
	if !strings.HasPrefix(doc.Businesses[2].BusinessName, "Odd <Chars> & \"Quotes\"") {
		t.Errorf("escaped name = %q", doc.Businesses[2].BusinessName)
	}

	r = h.get(key, "/v1/Portfolio/Download", url.Values{"format": {"Json"}, "Layout": {"scores"}})
	if r.status != 200 || r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("JSON: status %d, Content-Type %q", r.status, r.header.Get("Content-Type"))
	}
	var rows []map[string]any
	if err := json.Unmarshal(r.body, &rows); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if len(rows) != 6 || len(rows[0]) != 3+24 {
		t.Fatalf("Scores layout: %d rows of %d columns, want 6 of 27", len(rows), len(rows[0]))
	}
	first := rows[0]
	if v, ok := first["PayScore_2025-06"]; !ok || v != nil {
		t.Errorf("1001 PayScore_2025-06 = %v (present %v), want null", v, ok)
	}
	if first["ZScore_2025-06"] != 2.56 || first["ZScore_2024-07"] != nil {
		t.Errorf("1001 Z-Scores: 2025-06 %v, 2024-07 %v", first["ZScore_2025-06"], first["ZScore_2024-07"])
	}
	if _, ok := first["PayScore_2024-06"]; ok {
		t.Error("Scores layout spans more than 12 months")
	}
}

func TestDownloadErrors(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	cases := []struct {
		q      url.Values
		status int
		code   string
	}{
		{url.Values{"format": {"pdf"}}, 400, CodeInvalidFormat},
		{url.Values{"Layout": {"Fancy"}}, 400, CodeInvalidLayout},
		{url.Values{"FolderId": {"999"}}, 404, CodeFolderNotFound},
		{url.Values{"FolderId": {"x"}}, 400, CodeInvalidParameter},
	}
	for _, c := range cases {
		wantError(t, "download "+c.q.Encode(), h.get(key, "/v1/Portfolio/Download", c.q), c.status, c.code)
	}
	wantError(t, "download without key", h.get("", "/v1/Portfolio/Download", nil), 403, CodeInvalidSessionKey)
}

func TestDownloadFailAfterAbortsMidBody(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	h.postFaults(`{"download_fail_after": 100}`)
	req, _ := http.NewRequest(http.MethodGet, h.ts.URL+"/v1/Portfolio/Download", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := h.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	body, err := io.ReadAll(resp.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("reading the body: err = %v, want unexpected EOF", err)
	}
	if len(body) != 100 {
		t.Errorf("got %d bytes before the abort, want 100", len(body))
	}
	// Other operations are unaffected, and clearing the fault heals downloads.
	if r := h.get(key, "/v1/Portfolio/Folders", nil); r.status != 200 {
		t.Errorf("Folders: status = %d", r.status)
	}
	h.postFaults(`{"download_fail_after": 0}`)
	if r := h.get(key, "/v1/Portfolio/Download", nil); r.status != 200 || len(r.body) < 200 {
		t.Errorf("after clearing: status %d, %d bytes", r.status, len(r.body))
	}
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"plain", "q\"b\\", "ctl\x00\x1f\n\t", "ünï 中", "bad\xffutf8", "sep\u2028\u2029"} {
		var back string
		enc := appendJSONString(nil, s)
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Errorf("%q -> %s: %v", s, enc, err)
			continue
		}
		want := strings.ToValidUTF8(s, "\ufffd")
		if back != want {
			t.Errorf("%q -> %s -> %q", s, enc, back)
		}
	}
}
