package upstream

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

// An answer's rows, and the rows inside its rows, have no spare capacity
// whichever reading decodes them; rows left in the reused scratch by a
// longer answer never show up in a shorter one.
func TestAnswerRowsHaveTheirExactLength(t *testing.T) {
	long := `{"Success":true,"Data":[` +
		`{"CategoryName":"Food","Accounts":3,"DBTIndex":7},{"CategoryName":"Fuel","DBTIndex":9},` +
		`{"CategoryName":"Rail"},{"CategoryName":"Ore"},{"CategoryName":"Salt"}]}`
	short := `{"Success":true,"Data":[{"Accounts":4},{"CategoryCode":"42"}]}`
	for _, raw := range []bool{false, true} {
		var first []PaymentSummaryRow
		if _, err := decodeAnswer("x", http.StatusOK, http.Header{}, []byte(long), &first, raw); err != nil {
			t.Fatal(err)
		}
		if len(first) != 5 || cap(first) != 5 || first[1].CategoryName != "Fuel" || first[1].DBTIndex != Some(9) {
			t.Fatalf("raw %v: rows %+v, cap %d", raw, first, cap(first))
		}
		var second []PaymentSummaryRow
		if _, err := decodeAnswer("x", http.StatusOK, http.Header{}, []byte(short), &second, raw); err != nil {
			t.Fatal(err)
		}
		want := []PaymentSummaryRow{{Accounts: 4}, {CategoryCode: "42"}}
		if !reflect.DeepEqual(second, want) || cap(second) != 2 {
			t.Fatalf("raw %v: rows %+v (cap %d), want %+v", raw, second, cap(second), want)
		}
		if first[1].CategoryName != "Fuel" {
			t.Fatalf("raw %v: the first answer's rows changed under the second: %+v", raw, first)
		}
	}

	var hist PortfolioScoreHistory
	body := `{"Success":true,"Data":{"Businesses":[` +
		`{"BusinessId":1,"Scores":[{"Year":2026,"Month":1,"Score":50},{"Year":2026,"Month":2,"Score":null},{"Year":2026,"Month":3,"Score":60}]},` +
		`{"BusinessId":2,"Scores":[]},{"BusinessId":3,"Scores":null},{"BusinessId":4}]}}`
	if _, err := decodeAnswer("x", http.StatusOK, http.Header{}, []byte(body), &hist, false); err != nil {
		t.Fatal(err)
	}
	b := hist.Businesses
	if len(b) != 4 || cap(b) != 4 || len(b[0].Scores) != 3 || cap(b[0].Scores) != 3 || b[0].Scores[1].Score.OK || b[0].Scores[2].Score != Some(60.0) {
		t.Fatalf("portfolio %+v", hist)
	}
	// An empty array stays empty, not absent; null and a missing member
	// are no rows, as for a plain slice.
	if b[1].Scores == nil || len(b[1].Scores) != 0 || b[2].Scores != nil || b[3].Scores != nil {
		t.Fatalf("empty %#v, null %#v, missing %#v", b[1].Scores, b[2].Scores, b[3].Scores)
	}
}

// A malformed row leaves what the rows were decoded into as it was, and
// is reported as malformed.
func TestMalformedRowsLeaveNothingBehind(t *testing.T) {
	var got []PaymentSummaryRow
	_, err := decodeAnswer("x", http.StatusOK, http.Header{}, []byte(`{"Success":true,"Data":[{"Accounts":1},{"Accounts":"two"}]}`), &got, false)
	if e, ok := err.(*Error); !ok || e.Kind != ErrMalformed {
		t.Fatalf("error %v, want ErrMalformed", err)
	}
	if got != nil {
		t.Fatalf("rows %+v after a malformed answer", got)
	}
	var rows Rows[MonthlyScore]
	if err := unmarshalAnswer([]byte(`[{"Year":"x"}]`), &rows); err == nil || rows != nil {
		t.Fatalf("rows %+v, error %v", rows, err)
	}
}

// Rows keep their JSON with encoding/json, which dated copies use.
func TestRowsKeepTheirJSON(t *testing.T) {
	in := PortfolioScoreHistory{TotalResults: 1, Businesses: Rows[PortfolioBusinessScores]{
		{BusinessID: 7, Scores: Rows[MonthlyScore]{{Year: 2026, Month: 5, Score: Some(41.5)}}}}}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"TotalResults":1,"ScoreType":"","Businesses":[{"BusinessId":7,"BusinessName":"","Scores":[{"Year":2026,"Month":5,"Score":41.5}]}]}`
	if string(data) != want {
		t.Fatalf("JSON %s\nwant %s", data, want)
	}
	var back PortfolioScoreHistory
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back, in) {
		t.Fatalf("read back %+v (%v), want %+v", back, err, in)
	}
}

// BenchmarkDecodePortfolio decodes a portfolio's score history: 100
// businesses of 24 months each, rows inside rows.
func BenchmarkDecodePortfolio(b *testing.B) {
	hist := PortfolioScoreHistory{TotalResults: 100, ScoreType: "Pay"}
	for i := range 100 {
		bs := PortfolioBusinessScores{BusinessID: int32(1000 + i), BusinessName: "Business of the portfolio"}
		for m := range 24 {
			bs.Scores = append(bs.Scores, MonthlyScore{Year: 2025 + m/12, Month: 1 + m%12, Score: Some(40 + float64(m))})
		}
		hist.Businesses = append(hist.Businesses, bs)
	}
	benchDecode(b, hist, func(out PortfolioScoreHistory) bool { return len(out.Businesses) == 100 })
}
