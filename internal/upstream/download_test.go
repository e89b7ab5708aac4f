package upstream

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestDownloadStreamsAsItArrives(t *testing.T) {
	firstChunkRead := make(chan struct{})
	c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("format") != "XML" || q.Get("FolderId") != "3" || q.Get("Layout") != "Scores" {
			t.Errorf("query = %q", r.URL.RawQuery)
		}
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="portfolio.xml"`)
		io.WriteString(w, "<rows>")
		w.(http.Flusher).Flush()
		<-firstChunkRead // the rest only after the client has read the start
		io.WriteString(w, "</rows>")
	})
	d, err := c.As("k").Download(context.Background(), DownloadQuery{Format: "xml", FolderID: 3, Layout: "Scores"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Body.Close()
	if d.ContentType != "application/xml; charset=utf-8" || d.FileName != "portfolio.xml" {
		t.Errorf("download = %+v", d)
	}
	buf := make([]byte, 6)
	if _, err := io.ReadFull(d.Body, buf); err != nil || string(buf) != "<rows>" {
		t.Fatalf("first chunk %q, %v", buf, err)
	}
	close(firstChunkRead)
	rest, err := io.ReadAll(d.Body)
	if err != nil || string(rest) != "</rows>" {
		t.Errorf("rest %q, %v", rest, err)
	}
}

func TestDownloadErrorBeforeTheBodyIsTyped(t *testing.T) {
	c, _ := fakeService(t, answer(400, `{"Success":false,"Data":"Unknown layout.","ErrorCode":"InvalidLayout"}`))
	_, err := c.As("k").Download(context.Background(), DownloadQuery{Layout: "Nope"})
	var ue *Error
	if !errors.Is(err, ErrBadRequest) || !errors.As(err, &ue) || ue.Code != "InvalidLayout" {
		t.Errorf("err = %v", err)
	}
}

func TestDownloadRefusesBadQueriesWithoutARequest(t *testing.T) {
	c, n := fakeService(t, answer(200, "x"))
	for _, q := range []DownloadQuery{{Format: "pdf"}, {FolderID: -1}, {Layout: "a b"}, {Layout: "<x>"}} {
		if _, err := c.As("k").Download(context.Background(), q); !errors.Is(err, ErrBadRequest) {
			t.Errorf("Download(%+v): err = %v", q, err)
		}
	}
	if n.Load() != 0 {
		t.Errorf("%d requests sent", n.Load())
	}
}

func TestDownloadStalledMidwayIsCancelled(t *testing.T) {
	c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("row\n", 100))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // stalls until the client gives up
	})
	c.timeout = 200 * time.Millisecond
	d, err := c.As("k").Download(context.Background(), DownloadQuery{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Body.Close()
	start := time.Now()
	_, err = io.ReadAll(d.Body)
	if err == nil {
		t.Fatal("a stalled download ended without an error")
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the idle timeout did not fire")
	}
}
