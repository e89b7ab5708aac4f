package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"
)

// teamLedger is an aging ledger of n accounts as an ERP exports it, over
// the stand-in's regular businesses (so the team's accounts are linked and
// scored like a real team's), balances varying with the row.
func teamLedger(n int) []byte {
	var b bytes.Buffer
	b.WriteString("Customer No.,Name,Business Id,Total Due,Current,1-30,31-60,61-90,Over 90,Credit Limit,Terms\n")
	span := lastBusiness - firstBusiness + 1
	for i := range n {
		bal := float64((i*7919)%2_000_000 + 5000)
		cur := bal * 0.8
		fmt.Fprintf(&b, "C%06d,Customer %d Inc,%d,\"%.2f\",\"%.2f\",%.2f,%.2f,%.2f,%.2f,\"%.2f\",Net 30\n",
			i, i, firstBusiness+i%span, bal, cur, bal*0.1, bal*0.05, bal*0.03, bal-cur-bal*0.18, bal*1.2)
	}
	return b.Bytes()
}

// ledgerUpload is the import form's body with the file and its token, and
// the body's content type.
func ledgerUpload(csrf string, data []byte) ([]byte, string) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("_csrf", csrf)
	_ = w.WriteField("as_of", "2026-09-30")
	fw, _ := w.CreateFormFile("file", "aging.csv")
	_, _ = fw.Write(data)
	_ = w.Close()
	return body.Bytes(), w.FormDataContentType()
}

// postUpload sends a ledger file to the import form for its preview.
func (b *browser) postUpload(ctx context.Context, body []byte, contentType string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/accounts/import", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", contentType)
	return b.http.Do(req)
}

// importLedger imports data through the import page as an analyst does:
// the preview, then its confirm form as the preview filled it in.
func (b *browser) importLedger(ctx context.Context, data []byte) error {
	csrf, err := b.formToken(ctx, "/accounts/import", "/accounts/import")
	if err != nil {
		return err
	}
	body, ct := ledgerUpload(csrf, data)
	resp, err := b.postUpload(ctx, body, ct)
	if err != nil {
		return fmt.Errorf("loadtest: the ledger's preview: %w", err)
	}
	doc, err := goquery.NewDocumentFromReader(io.LimitReader(resp.Body, 32<<20))
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return fmt.Errorf("loadtest: the ledger's preview: status %d (%v), want 200", resp.StatusCode, err)
	}
	form := doc.Find("form.import-confirm").First()
	if form.Length() == 0 {
		return fmt.Errorf("loadtest: the ledger's preview has no confirm form: %.300s", strings.TrimSpace(doc.Find("main").Text()))
	}
	fields := url.Values{}
	form.Find("input[name]").Each(func(_ int, in *goquery.Selection) {
		typ, _ := in.Attr("type")
		if _, checked := in.Attr("checked"); typ == "radio" && !checked {
			return
		}
		name, _ := in.Attr("name")
		value, _ := in.Attr("value")
		fields.Add(name, value)
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/accounts/import/confirm", strings.NewReader(fields.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = b.http.Do(req)
	if err != nil {
		return fmt.Errorf("loadtest: the ledger's import: %w", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return fmt.Errorf("loadtest: the ledger's import: status %d, want 303", resp.StatusCode)
	}
	return nil
}
