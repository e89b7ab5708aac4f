package simulator

import (
	"encoding/json"
	"io"
	"net/http"
)

// maxHookBody bounds what POST /_sim/faults reads.
const maxHookBody = 64 << 10

// serveHook answers the stand-in's own test hooks under /_sim/. They are not
// part of the service: no session, no limits, no injected faults, JSON only.
// GET /_sim/otp?user=NAME answers {"code": "123456"}, the one-time code last
// sent to that user, so tests can finish a two-factor sign-in.
func (s *Server) serveHook(w http.ResponseWriter, r *http.Request) {
	switch r.Method + " " + r.URL.Path {
	case "GET /_sim/requests":
		writeHookJSON(w, http.StatusOK, s.Requests())
	case "GET /_sim/faults":
		writeHookJSON(w, http.StatusOK, s.Faults())
	case "POST /_sim/faults":
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxHookBody))
		if err != nil {
			writeError(w, r, badParam("body", "cannot read it: %v", err))
			return
		}
		f, err := s.patchFaults(body)
		if err != nil {
			writeError(w, r, errf(http.StatusBadRequest, CodeInvalidParameter, "%v", err))
			return
		}
		writeHookJSON(w, http.StatusOK, f)
	case "POST /_sim/reset":
		s.Reset()
		writeHookJSON(w, http.StatusOK, map[string]bool{"reset": true})
	case "GET /_sim/otp":
		user := r.URL.Query().Get("user")
		code, ok := s.LastCode(user)
		if !ok {
			writeError(w, r, errf(http.StatusNotFound, CodeNotFound, "no code has been sent to %q", user))
			return
		}
		writeHookJSON(w, http.StatusOK, map[string]string{"code": code})
	default:
		switch r.URL.Path {
		case "/_sim/requests", "/_sim/faults", "/_sim/reset", "/_sim/otp":
			writeError(w, r, errf(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
				"%s does not accept %s", r.URL.Path, r.Method))
		default:
			writeError(w, r, errf(http.StatusNotFound, CodeNotFound, "no hook at %s", r.URL.Path))
		}
	}
}

func writeHookJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
