package browsertest

import (
	"regexp"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Paper is a sheet size Chromium prints on, in inches.
type Paper struct {
	Name          string
	Width, Height float64
}

// Papers are the two sizes a printed page must fit: A4 and US Letter.
var Papers = []Paper{{"A4", 8.27, 11.69}, {"Letter", 8.5, 11}}

// pageObject matches a page object of the PDFs Chromium writes (one per
// printed page; "/Type /Pages" is their tree and is not matched).
var pageObject = regexp.MustCompile(`/Type\s*/Page[^s]`)

// PDFPages is how many pages a PDF written by Chromium holds.
func PDFPages(pdf []byte) int { return len(pageObject.FindAllIndex(pdf, -1)) }

// PrintPages prints the current page to PDF on paper, the way the
// browser's print dialog does (backgrounds included, the stylesheet's
// @page margins), and returns the PDF and its page count.
func PrintPages(t *testing.T, b *Browser, paper Paper) ([]byte, int) {
	t.Helper()
	ctx := b.Context()
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{
		PrintBackground: new(true), PaperWidth: paper.Width, PaperHeight: paper.Height,
	})
	if err != nil {
		t.Fatalf("print to PDF on %s: %v", paper.Name, err)
	}
	return res.Data, PDFPages(res.Data)
}
