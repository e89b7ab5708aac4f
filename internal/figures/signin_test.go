package figures

import (
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"testing"
)

// SignIn posts the form's token with the credentials and succeeds only on
// a redirect away from the form.
func TestSignInThroughTheForm(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			http.SetCookie(w, &http.Cookie{Name: "csrf", Value: "tok"})
			w.Write([]byte(`<form method="post"><input type="hidden" name="_csrf" value="tok"></form>`))
			return
		}
		c, err := r.Cookie("csrf")
		if err != nil || c.Value != r.FormValue("_csrf") || r.FormValue("password") != "demo" {
			http.Redirect(w, r, "/login?failed=1", http.StatusSeeOther)
			return
		}
		http.Redirect(w, r, "/", http.StatusSeeOther)
	}))
	defer srv.Close()
	client := func() *http.Client {
		jar, _ := cookiejar.New(nil)
		return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if err := SignIn(t.Context(), client(), srv.URL, "demo", "demo"); err != nil {
		t.Fatalf("good credentials: %v", err)
	}
	if err := SignIn(t.Context(), client(), srv.URL, "demo", "wrong"); err == nil {
		t.Fatal("a redirect back to the form counted as signed in")
	}
}
