package templates

import (
	"strings"
	"testing"
)

// text writes what { s } writes: the service's text escaped, never as markup.
func TestTextIsEscaped(t *testing.T) {
	var b strings.Builder
	if err := text(`<img src=x onerror="alert(1)"> & 'R&D'`).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	if want := `&lt;img src=x onerror=&#34;alert(1)&#34;&gt; &amp; &#39;R&amp;D&#39;`; b.String() != want {
		t.Errorf("text wrote %q, want %q", b.String(), want)
	}
}
