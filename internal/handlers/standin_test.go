package handlers_test

import (
	"encoding/json"
	"net/http"
)

// intercept is a layer in front of the stand-in service that answers
// path with h and passes every other call on: a service that lacks an
// operation, holds it, or answers it oddly.
func intercept(path string, h func(w http.ResponseWriter, r *http.Request, next http.Handler)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != path {
				next.ServeHTTP(w, r)
				return
			}
			h(w, r, next)
		})
	}
}

// serviceAnswer writes an answer in the service's envelope: data on a
// success, the code and data as the message otherwise.
func serviceAnswer(w http.ResponseWriter, status int, code string, data any) {
	b, err := json.Marshal(struct {
		Success   bool
		ErrorCode string `json:",omitempty"`
		Data      any
	}{Success: status == http.StatusOK && code == "", ErrorCode: code, Data: data})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
