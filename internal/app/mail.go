package app

import (
	"bytes"
	"context"

	"creditdash/internal/digest"
	"creditdash/internal/views"
	"creditdash/templates"
)

// digestMail words a digest (views) and renders its HTML part
// (templates); the digest service is handed it, so that it holds the
// digest's data and schedule and imports no page code.
func digestMail(c digest.Content, l digest.Links) (digest.Parts, error) {
	b := views.NewDigestBody(c, l.Public, l.Unsubscribe)
	var html bytes.Buffer
	err := templates.DigestMail(b).Render(context.Background(), &html)
	return digest.Parts{Subject: b.Subject(), Text: b.Text(), HTML: html.String()}, err
}

// verifyMail words and renders the mail that confirms a digest address.
func verifyMail(v digest.Verification) (digest.Parts, error) {
	m := views.NewVerifyMail(v)
	var html bytes.Buffer
	err := templates.VerifyMail(m).Render(context.Background(), &html)
	return digest.Parts{Subject: m.Subject(), Text: m.Text(), HTML: html.String()}, err
}
