package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/labstack/echo/v5"
)

// The workspace deadline counts from the first read that asks for it, not
// from when the page took the context; every read of the page shares it,
// contexts a read derives from it end with it (and with the request:
// middleware.TestFirstReadDeadlineEndsWithTheRequest).
func TestWorkspaceDeadlineStartsAtTheFirstRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &Handler{gates: gates{wsDeadline: 1500 * time.Millisecond}}
		c := echo.NewContext(httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/", nil), httptest.NewRecorder())
		ws := h.wsCtx(c) // the page takes the context
		if h.wsCtx(c) != ws {
			t.Fatal("a second read of the same page got a context of its own")
		}

		time.Sleep(10 * time.Second) // answers kept in process: no read yet
		read, cancel := context.WithTimeout(ws, time.Hour)
		defer cancel()
		first := time.Now()
		if d, ok := read.Deadline(); !ok || !d.Equal(first.Add(1500*time.Millisecond)) {
			t.Fatalf("a read's deadline is %v (%v), want 1.5 s after the first read, %v", d, ok, first.Add(1500*time.Millisecond))
		}

		time.Sleep(time.Second)
		second, cancel2 := context.WithTimeout(ws, time.Hour)
		defer cancel2()
		if d, _ := second.Deadline(); !d.Equal(first.Add(1500 * time.Millisecond)) {
			t.Errorf("a later read's deadline is %v, want the first read's, %v", d, first.Add(1500*time.Millisecond))
		}
		<-read.Done()
		if !errors.Is(read.Err(), context.DeadlineExceeded) || time.Since(first) != 1500*time.Millisecond {
			t.Errorf("the read ended with %v after %v, want the deadline after 1.5 s", read.Err(), time.Since(first))
		}
		if !errors.Is(second.Err(), context.DeadlineExceeded) {
			t.Errorf("a later read: %v, want the shared deadline", second.Err())
		}
	})
}
