package handlers

import "testing"

func TestSafeNext(t *testing.T) {
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
	}
	for in, want := range cases {
		if got := safePath(in); got != want {
			t.Errorf("safePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzSafeNext(f *testing.F) {
	for _, s := range []string{"/", "//x", "/\\x", "/%2F%2Fx", "http://x", "/a?b=c", "/%5c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := safePath(s)
		if got == "/" {
			return
		}
		if got != s || len(got) < 2 || got[0] != '/' || got[1] == '/' || got[1] == '\\' {
			t.Fatalf("safePath(%q) = %q: not a local path", s, got)
		}
	})
}
