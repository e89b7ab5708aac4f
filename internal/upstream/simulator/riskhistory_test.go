package simulator

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// RiskHistory's count is the most recent N months of the calendar: a month
// without a score leaves a gap instead of reaching one month further back.
func TestRiskHistoryCountIsCalendarMonths(t *testing.T) {
	ds := testDataset()
	for i, sm := range ds.Businesses[0].Scores {
		if sm.Year == 2025 && sm.Month == 5 {
			ds.Businesses[0].Scores[i].Risk, ds.Businesses[0].Scores[i].AverageRisk = nil, nil
		}
	}
	srv := New(ds, Options{})
	ts := httptest.NewServer(srv)
	defer ts.Close()

	resp, err := http.PostForm(ts.URL+"/v1/Users/Login", url.Values{"Username": {"demo"}, "Password": {"demo"}})
	if err != nil {
		t.Fatal(err)
	}
	var login struct{ Data struct{ SessionKey string } }
	json.NewDecoder(resp.Body).Decode(&login)
	resp.Body.Close()

	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v1/Business/RiskHistory?id=1001&count=3", nil)
	req.Header.Set("Authorization", "Bearer "+login.Data.SessionKey)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Data []struct{ Year, Month int } }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Data) != 2 || out.Data[0].Month != 6 || out.Data[1].Month != 4 {
		t.Errorf("count=3 with May missing: %+v, want June and April only", out.Data)
	}
}
