package upstream

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"testing"
)

// FuzzDecodeAnswer feeds any status and body to the envelope decoding: it
// must never panic, every failure must be a typed *Error naming the
// operation, and the one-pass reading must agree with the envelope read
// whole (with raw) in the error's kind and the rows decoded.
func FuzzDecodeAnswer(f *testing.F) {
	f.Add(200, []byte(`{"Success":true,"Data":[{"MonthReported":"2026-10","Accounts":3,"DBTIndex":null}]}`))
	f.Add(200, []byte(`{"Success":false,"Data":"nope","ErrorCode":"BusinessNotFound"}`))
	f.Add(200, []byte(`{"Success":true,"Data":{"a":1}}`))
	f.Add(403, []byte(`{"Success":false,"Data":"expired","ErrorCode":"SessionExpired"}`))
	f.Add(429, []byte(`{"Success":false}`))
	f.Add(500, []byte(`<html>`))
	f.Add(200, []byte(``))
	f.Add(200, []byte(`null`))
	f.Add(200, []byte(`{"Success":true}`))
	f.Add(200, []byte(`{"Data":[{"Accounts":1}],"Success":true,"Data":[]}`))
	f.Add(200, []byte(`{"Success":false,"Data":[{"Accounts":1}],"ErrorCode":"RateLimitExceeded"}`))
	f.Add(200, []byte(`{"Success":true,"Data":[{"Accounts":"x"}]}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 599 {
			return
		}
		var out, whole []PaymentSummaryRow
		_, err := decodeAnswer("Business/PaymentSummary/Monthly", status, http.Header{"Retry-After": {"60"}}, body, &out, false)
		_, errWhole := decodeAnswer("Business/PaymentSummary/Monthly", status, http.Header{"Retry-After": {"60"}}, body, &whole, true)
		if kindOf(err) != kindOf(errWhole) || (err == nil && !reflect.DeepEqual(out, whole)) {
			t.Fatalf("one pass: %v %+v\nwhole: %v %+v", err, out, errWhole, whole)
		}
		if err == nil {
			if status != http.StatusOK {
				t.Fatalf("status %d decoded as success", status)
			}
			return
		}
		var ue *Error
		if !errors.As(err, &ue) || ue.Kind == nil || ue.Op != "Business/PaymentSummary/Monthly" {
			t.Fatalf("error %v is not a typed *Error naming the operation", err)
		}
		_ = err.Error()
	})
}

func kindOf(err error) error {
	if e, ok := err.(*Error); ok {
		return e.Kind
	}
	return err
}

// FuzzDecodeLogin checks the two accepted shapes of the sign-in answer.
func FuzzDecodeLogin(f *testing.F) {
	f.Add([]byte(`{"SessionKey":"11/21/2026 09:15:02 abc"}`))
	f.Add([]byte(`"11/21/2026 09:15:02 abc"`))
	f.Add([]byte(`{"SessionKey":""}`))
	f.Add([]byte(`42`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		res, err := decodeLogin(raw)
		if err == nil && res.SessionKey == "" {
			t.Fatal("accepted an answer without a session key")
		}
	})
}

// FuzzDateTime checks that any JSON value decodes or fails cleanly, and that
// what decodes writes back to the same instant.
func FuzzDateTime(f *testing.F) {
	for _, s := range []string{`"2019-04-01T00:00:00"`, `"2019-04-01T00:00:00Z"`, `"2019-04-01T00:00:00+02:00"`, `null`, `""`, `"2019-04-01"`, `12`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var d DateTime
		if err := json.Unmarshal(raw, &d); err != nil {
			return
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var again DateTime
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatalf("round trip of %s: %v", raw, err)
		}
		// The service's layout has no zone and whole seconds: the wall clock
		// to the second is what must survive.
		const wall = "2006-01-02T15:04:05"
		if again.Format(wall) != d.Format(wall) {
			t.Fatalf("round trip of %s: %v != %v", raw, again, d)
		}
	})
}
