package middleware

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PasswordLike reports whether a user name looks like a password rather
// than a name: it holds a digit and at least three of the four kinds of
// character (lower case, upper case, digit, symbol), the mix password
// rules ask for, and is not an e-mail address. Real names rarely mix
// that much; a name taken for a password is only logged redacted.
func PasswordLike(name string) bool {
	var lower, upper, digit, symbol bool
	for _, r := range name {
		switch {
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsDigit(r):
			digit = true
		default:
			symbol = true
		}
	}
	kinds := 0
	for _, k := range []bool{lower, upper, digit, symbol} {
		if k {
			kinds++
		}
	}
	return digit && kinds >= 3 && !emailLike(name)
}

// emailLike reports a name of the shape local@domain.tld.
func emailLike(name string) bool {
	at := strings.IndexByte(name, '@')
	if at <= 0 || strings.Count(name, "@") != 1 {
		return false
	}
	domain := name[at+1:]
	dot := strings.LastIndexByte(domain, '.')
	return dot > 0 && dot < len(domain)-2
}

// redactKey keys the tags of redacted names: the same name has the same
// tag in one process's log, so its lines can be followed, while the tag
// cannot be checked against a list of passwords without the key.
var redactKey = func() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}()

// RedactedName stands for a password-like name in the log: its length and
// a keyed tag, none of its characters.
func RedactedName(name string) string {
	m := hmac.New(sha256.New, redactKey)
	m.Write([]byte(strings.ToLower(name)))
	return fmt.Sprintf("(redacted, %d characters, #%s)", utf8.RuneCountInString(name), hex.EncodeToString(m.Sum(nil))[:8])
}
