package simulator

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Error codes the stand-in answers with. The first group is named by
// CONTRACT-CHOICES; the rest are ours for cases it does not name.
const (
	CodeInvalidCredentials       = "InvalidCredentials"
	CodeSessionExpired           = "SessionExpired"
	CodeInvalidSessionKey        = "InvalidSessionKey"
	CodeRateLimitExceeded        = "RateLimitExceeded"
	CodeMissingIdentifier        = "MissingIdentifier"
	CodeInvalidParameter         = "InvalidParameter"
	CodeBusinessNotFound         = "BusinessNotFound"
	CodeTradeProviderNotSelected = "TradeProviderNotSelected"
	CodeFolderNotFound           = "FolderNotFound"
	CodeInvalidTradeProvider     = "InvalidTradeProvider"
	CodeInvalidLayout            = "InvalidLayout"
	CodeTwoFactorRequired        = "TwoFactorRequired"
	CodeInvalidTwoFactorKey      = "InvalidTwoFactorKey"
	CodeTwoFactorLocked          = "TwoFactorLocked"

	CodeMissingParameter = "MissingParameter"
	CodeInvalidFormat    = "InvalidFormat"
	CodeNotFound         = "NotFound"
	CodeMethodNotAllowed = "MethodNotAllowed"
	CodeInternalError    = "InternalError"
	CodeBadGateway       = "BadGateway"
	CodeUnavailable      = "ServiceUnavailable"
)

// apiError is a failed request: the status, the ErrorCode and the sentence
// that goes in Data.
type apiError struct {
	Status  int
	Code    string
	Message string
}

func (e *apiError) Error() string { return "simulator: " + e.Code + ": " + e.Message }

func errf(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

func badParam(name, format string, args ...any) *apiError {
	return errf(http.StatusBadRequest, CodeInvalidParameter, name+": "+format, args...)
}

// envelope is the wrapper of every answer except a download.
type envelope struct {
	Success   bool   `json:"Success"`
	Data      any    `json:"Data"`
	ErrorCode string `json:"ErrorCode"`
}

// stream is list Data produced item by item, for lists too big to build
// (the bulk portfolio). each calls yield per item until it returns false.
type stream struct {
	each func(yield func(item any) bool)
}

// wantsXML reports whether the caller asked for XML with type=xml; any value
// other than json or xml is refused so that a typo is not silently JSON.
func wantsXML(r *http.Request) (bool, *apiError) {
	t := r.URL.Query().Get("type")
	if t == "" && r.Method == http.MethodPost {
		t = r.PostFormValue("type")
	}
	switch strings.ToLower(t) {
	case "", "json":
		return false, nil
	case "xml":
		return true, nil
	}
	return false, badParam("type", "must be json or xml, not %q", t)
}

// writeData answers 200 with a successful envelope around data.
func writeData(w http.ResponseWriter, r *http.Request, data any) {
	writeEnvelope(w, r, http.StatusOK, envelope{Success: true, Data: data})
}

// writeError answers with a failed envelope whose Data is the error's sentence.
func writeError(w http.ResponseWriter, r *http.Request, e *apiError) {
	if e.Status == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "60")
	}
	writeEnvelope(w, r, e.Status, envelope{Success: false, Data: e.Message, ErrorCode: e.Code})
}

func writeEnvelope(w http.ResponseWriter, r *http.Request, status int, env envelope) {
	asXML, bad := wantsXML(r)
	if bad != nil {
		// A bad type parameter is answered in JSON, the default.
		asXML = false
		if env.Success {
			status, env = bad.Status, envelope{Data: bad.Message, ErrorCode: bad.Code}
		}
	}
	h := w.Header()
	if asXML {
		h.Set("Content-Type", "application/xml; charset=utf-8")
	} else {
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	bw := bufio.NewWriterSize(w, 32<<10)
	var err error
	if asXML {
		err = writeXMLEnvelope(bw, env)
	} else {
		err = writeJSONEnvelope(bw, env)
	}
	if err == nil {
		err = bw.Flush()
	}
	_ = err // the status is sent; a write error means the client went away
}

// writeJSONEnvelope writes the envelope; stream Data is written item by item.
func writeJSONEnvelope(bw *bufio.Writer, env envelope) error {
	st, ok := env.Data.(stream)
	if !ok {
		return json.NewEncoder(bw).Encode(env)
	}
	if _, err := bw.WriteString(`{"Success":true,"Data":[`); err != nil {
		return err
	}
	var err error
	first := true
	st.each(func(item any) bool {
		if !first {
			if err = bw.WriteByte(','); err != nil {
				return false
			}
		}
		first = false
		var b []byte
		if b, err = json.Marshal(item); err != nil {
			return false
		}
		_, err = bw.Write(b)
		return err == nil
	})
	if err != nil {
		return err
	}
	_, err = bw.WriteString("],\"ErrorCode\":\"\"}\n")
	return err
}
