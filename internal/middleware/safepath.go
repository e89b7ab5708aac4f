package middleware

import (
	"net/url"
	"strings"
)

// maxNextLen bounds a return path; longer ones are not links people share.
const maxNextLen = 2048

// SafePath returns raw if it is a path on this site, and "/" otherwise.
// Every redirect to a path that came from a request goes through it: the
// next page after sign-in and the page a Refresh returns to. It
// refuses anything a browser could read as another host: "//host",
// "/\host", schemes, encoded slashes or backslashes that decode into those,
// and control characters. Sign-in pages are refused too, to avoid loops.
func SafePath(raw string) string {
	if raw == "" || len(raw) > maxNextLen || !strings.HasPrefix(raw, "/") {
		return "/"
	}
	if strings.HasPrefix(raw, "//") || strings.ContainsRune(raw, '\\') {
		return "/"
	}
	if hasControl(raw) {
		return "/"
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "/"
	}
	decoded, err := url.PathUnescape(u.EscapedPath())
	if err != nil || strings.HasPrefix(decoded, "//") || strings.ContainsRune(decoded, '\\') || hasControl(decoded) {
		return "/"
	}
	if decoded == "/login" || decoded == "/logout" {
		return "/"
	}
	return raw
}

// hasControl reports a control character: browsers drop tabs and line
// breaks from URLs, so "/\t/host" would read as "//host".
func hasControl(s string) bool {
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			return true
		}
	}
	return false
}
