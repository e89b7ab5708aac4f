package upstream

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"
	"unsafe"
)

// Answers decode as encoding/json would decode them: member names in any
// case, the last of a repeated name, invalid UTF-8 replaced, unknown
// members ignored.
func TestDecodeAnswerReadsLikeEncodingJSON(t *testing.T) {
	for name, body := range map[string]string{
		"exact":     `{"Success":true,"Data":[{"CategoryName":"Food","Accounts":3,"DBTIndex":7}]}`,
		"any case":  `{"success":true,"data":[{"categoryname":"Food","ACCOUNTS":3,"dbtIndex":7}]}`,
		"repeated":  `{"Success":true,"Data":[{"CategoryName":"Fuel","CategoryName":"Food","Accounts":3,"DBTIndex":7}]}`,
		"bad utf-8": "{\"Success\":true,\"Data\":[{\"CategoryName\":\"Fo\xffod\",\"Accounts\":3,\"DBTIndex\":7}]}",
		"unknown":   `{"Success":true,"Extra":{"a":[1]},"Data":[{"CategoryName":"Food","Accounts":3,"DBTIndex":7,"New":1}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			var got []PaymentSummaryRow
			if _, err := decodeAnswer("x", http.StatusOK, http.Header{}, []byte(body), &got, false); err != nil {
				t.Fatal(err)
			}
			var env struct{ Data []PaymentSummaryRow }
			if err := json.Unmarshal([]byte(body), &env); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, env.Data) {
				t.Fatalf("decoded %+v\nencoding/json %+v", got, env.Data)
			}
		})
	}
}

// A success without Data, or with Data of the wrong shape, is malformed.
func TestDecodeAnswerMalformedData(t *testing.T) {
	for _, body := range []string{
		`{"Success":true}`,
		`{"Success":true,"Data":{"CategoryName":"Food"}}`,
		`{"Success":true,"Data":[{"Accounts":"three"}]}`,
		`{"Success":true,"Data":[`,
	} {
		var got []PaymentSummaryRow
		_, err := decodeAnswer("x", http.StatusOK, http.Header{}, []byte(body), &got, false)
		if e, ok := err.(*Error); !ok || e.Kind != ErrMalformed {
			t.Errorf("%s: error %v, want ErrMalformed", body, err)
		}
	}
}

// The envelope's Data is borrowed from the answer's own bytes, which the
// client owns until it has decoded them; were the decoder to hand over a
// slice of a buffer of its own, Data could change under the second decode.
func TestEnvelopeDataIsASliceOfTheAnswer(t *testing.T) {
	body := []byte(`{"Success":true,"Data":[1,2,3],"ErrorCode":""}`)
	var env envelope
	if err := unmarshalAnswer(body, &env); err != nil {
		t.Fatal(err)
	}
	start, end := uintptr(unsafe.Pointer(&body[0])), uintptr(unsafe.Pointer(&body[len(body)-1]))
	if len(env.Data) == 0 {
		t.Fatal("no Data")
	}
	if p := uintptr(unsafe.Pointer(&env.Data[0])); p < start || p > end {
		t.Fatal("Data is not a slice of the answer: borrowedJSON must copy")
	}
}

// BenchmarkDecodeAnswer decodes a supplier-category answer of the size the
// stand-in sends (some 50 kB), the largest a report page reads.
func BenchmarkDecodeAnswer(b *testing.B) {
	dbt := 7
	rows := make([]PaymentSummaryRow, 0, 130)
	for i := range cap(rows) {
		rows = append(rows, PaymentSummaryRow{
			CategoryName: fmt.Sprintf("Category %d of supplier industries", i%10), CategoryCode: fmt.Sprint(10 + i%10),
			MonthReported: fmt.Sprintf("2026-%02d", 1+i/10%12), Accounts: 21, DBTIndex: Some(dbt), AverageDBTIndex: Some(dbt),
			TotalDue: 1260154, CurrentAmount: 1028743, PastDue30Days: 130071, PastDue60Days: 44285, PastDue90Days: 22211,
			PastDueOver90Days: 26253, OtherAmount: 8591, CurrentAmountPercent: 81.64, PastDue30DaysPercent: 10.32,
			PastDue60DaysPercent: 3.51, PastDue90DaysPercent: 1.76, PastDueOver90DaysPercent: 2.08, OtherAmountPercent: 0.68,
		})
	}
	benchDecode(b, rows, func(out []PaymentSummaryRow) bool { return len(out) == len(rows) })
}

// benchDecode times decoding a success whose Data is data, as the client
// reads it; whole tells a complete decode.
func benchDecode[T any](b *testing.B, data T, whole func(T) bool) {
	body, err := json.Marshal(map[string]any{"Success": true, "Data": data})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var out T
		if _, err := decodeAnswer("x", http.StatusOK, http.Header{}, body, &out, false); err != nil || !whole(out) {
			b.Fatalf("decoded %v", err)
		}
	}
}

// A story dated with a US zone name is read at its offset, not as UTC.
func TestNewsDateZoneNames(t *testing.T) {
	for date, want := range map[string]string{
		"Tue, 10 Nov 2026 12:00:00 EST":   "2026-11-10T17:00:00Z",
		"Tue, 10 Nov 2026 12:00:00 PDT":   "2026-11-10T19:00:00Z",
		"Tue, 10 Nov 2026 12:00:00 GMT":   "2026-11-10T12:00:00Z",
		"Tue, 10 Nov 2026 12:00:00 -0500": "2026-11-10T17:00:00Z",
	} {
		got, ok := NewsItem{PubDate: date}.Published()
		if !ok || got.UTC().Format(time.RFC3339) != want {
			t.Errorf("%q read as %v, %v; want %s", date, got.UTC(), ok, want)
		}
	}
}
