package middleware

import (
	"net/url"
	"strings"
	"testing"
)

func TestSafePath(t *testing.T) {
	cases := map[string]string{
		"":                         "/",
		"/":                        "/",
		"/businesses/1001":         "/businesses/1001",
		"/businesses/1001?x=1#top": "/businesses/1001?x=1#top",
		"/suppliers/S%2D1001":      "/suppliers/S%2D1001",
		"//evil.example":           "/",
		"///evil.example":          "/",
		`/\evil.example`:           "/",
		`\/evil.example`:           "/",
		"/%2F%2Fevil.example":      "/",
		"/%2f%2fevil.example":      "/",
		"/%5Cevil.example":         "/",
		"http://evil.example":      "/",
		"HTTPS://evil.example":     "/",
		"javascript:alert(1)":      "/",
		"data:text/html,x":         "/",
		"evil.example":             "/",
		"/a\x00b":                  "/",
		"/a\nb":                    "/",
		"/login":                   "/",
		"/logout":                  "/",
		"/%zz":                     "/",
		"/%09/evil.example/":       "/",
		"/%0d%0aevil":              "/",
		"/%7F/evil":                "/",
	}
	for in, want := range cases {
		if got := SafePath(in); got != want {
			t.Errorf("SafePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzSafePath(f *testing.F) {
	for _, s := range []string{"/", "//x", "/\\x", "/%2F%2Fx", "http://x", "/a?b=c", "/%5c", "/%09/x", "/%0a/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := SafePath(s)
		if got == "/" {
			return
		}
		if got != s || len(got) < 2 || got[0] != '/' || got[1] == '/' || got[1] == '\\' {
			t.Fatalf("SafePath(%q) = %q: not a local path", s, got)
		}
		// As a browser reads it: decoded, tabs and line breaks dropped,
		// backslashes as slashes, resolved against the dashboard.
		decoded, err := url.PathUnescape(got)
		if err != nil {
			decoded = got
		}
		decoded = strings.NewReplacer("\t", "", "\n", "", "\r", "", `\`, "/").Replace(decoded)
		if strings.HasPrefix(decoded, "//") {
			t.Fatalf("SafePath(%q) = %q reads as %q, another host", s, got, decoded)
		}
		base, _ := url.Parse("https://dash.example/x")
		if ref, err := url.Parse(got); err == nil && base.ResolveReference(ref).Host != "dash.example" {
			t.Fatalf("SafePath(%q) = %q resolves to another host", s, got)
		}
	})
}
