package middleware

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
)

// The request log's one line per request names the request, its user and
// its outcome, and none of its secrets: not the service's session key
// (in the cookie), the cookie itself, the CSRF token or the secret it is
// derived from, a password, a code, a bearer token, or a token in the
// query string.
func TestRequestLogHoldsNoSecrets(t *testing.T) {
	const (
		serviceKey = "svc-key-7f3a9b"
		csrfSecret = "csrf-secret-51d0c2"
		password   = "pw-hunter2-e8b1"
		code       = "code-993311"
		queryToken = "qtok-4c2d7e"
		bearer     = "bearer-0a9f6d"
	)
	st, err := session.NewStore([]string{strings.Repeat("k", 32)}, false, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	memo, err := session.NewMemo(st, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	saved := httptest.NewRecorder()
	if err := st.Save(saved, httptest.NewRequest(http.MethodGet, "/", nil),
		session.Session{Key: serviceKey, User: "demo", SignedInAt: time.Now(), CSRF: csrfSecret}); err != nil {
		t.Fatal(err)
	}

	var out bytes.Buffer
	l := RequestLog{Log: slog.New(slog.NewJSONHandler(&out, nil)), InFlight: new(atomic.Int64),
		HandleError: func(c *echo.Context, err error) { _ = c.String(http.StatusUnprocessableEntity, "refused") }}
	e := echo.New()
	e.Use(l.Middleware, session.Load(memo, session.NewMemorySignOuts(time.Hour)))
	var formToken string
	e.POST("/settings/password", func(c *echo.Context) error {
		formToken = session.Token(c)
		_ = c.FormValue("password")
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "wrong password")
	})

	form := url.Values{"password": {password}, "code": {code}, "_csrf": {"form-token-placeholder"}}
	r := httptest.NewRequest(http.MethodPost, "/settings/password?token="+queryToken+"&code="+code, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Authorization", "Bearer "+bearer)
	for _, c := range saved.Result().Cookies() {
		r.AddCookie(c)
	}
	e.ServeHTTP(httptest.NewRecorder(), r)

	var line map[string]any
	if err := json.Unmarshal(out.Bytes(), &line); err != nil {
		t.Fatalf("not one JSON line: %v\n%s", err, out.String())
	}
	if line["path"] != "/settings/password" || line["method"] != "POST" || line["status"] != float64(422) || line["user"] != "demo" || line["request_id"] == "" {
		t.Errorf("the line does not name the request: %s", out.String())
	}
	if formToken == "" {
		t.Fatal("the session was not loaded: the test proves nothing")
	}
	secrets := []string{serviceKey, csrfSecret, formToken, password, code, queryToken, bearer, "token="}
	for _, c := range saved.Result().Cookies() {
		secrets = append(secrets, c.Value)
	}
	for _, s := range secrets {
		if strings.Contains(out.String(), s) {
			t.Errorf("the request log holds a secret %.12q…:\n%s", s, out.String())
		}
	}
}
