package storetest

import (
	"bytes"
	"encoding/binary"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Freezer passes connections through to a real server until frozen; then
// it forwards nothing more, in either direction, as a server that stopped
// answering (a paused process, a lost network) would. It counts what the
// frozen server sees clients do (Events), so a test can tell how many
// times a client waited on it without timing anything.
type Freezer struct {
	ln     net.Listener
	target string
	once   sync.Once
	frozen chan struct{}
	done   chan struct{}

	mu      sync.Mutex
	spare   string
	events  []Event
	changed chan struct{} // closed and replaced at each event
}

// Event is one thing a client did to the frozen server.
type Event int

const (
	// Wait is a client sending a request (a query, a ping, a new
	// connection's start-up) that the frozen server never answers.
	Wait Event = iota + 1
	// GiveUp is a client giving a wait up: PostgreSQL's cancel request
	// for a query, or closing a connection whose start-up was never
	// answered.
	GiveUp
)

// String names the event in a test's message.
func (e Event) String() string {
	switch e {
	case Wait:
		return "wait"
	case GiveUp:
		return "give up"
	}
	return "?"
}

// NewFreezer listens on a loopback port and forwards to target
// (host:port) until Freeze; it stops when the test ends.
func NewFreezer(t testing.TB, target string) *Freezer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &Freezer{ln: ln, target: target, frozen: make(chan struct{}), done: make(chan struct{}), changed: make(chan struct{})}
	t.Cleanup(func() {
		ln.Close()
		close(f.done) // lets the held connections go
	})
	go f.serve()
	return f
}

// Spare keeps connections whose start-up names the application app
// (PostgreSQL's application_name) answered after the freeze, so that a
// test counts only the others' waits. Call it before they connect.
func (f *Freezer) Spare(app string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.spare = app
}

// Through returns the database URL dbURL with its host replaced by the
// freezer's, so connections go through it.
func (f *Freezer) Through(t testing.TB, dbURL string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = f.Addr()
	return u.String()
}

// Addr is the freezer's host:port.
func (f *Freezer) Addr() string { return f.ln.Addr().String() }

// Freeze stops all forwarding, for good.
func (f *Freezer) Freeze() { f.once.Do(func() { close(f.frozen) }) }

// Events are what clients did to the frozen server, in the order seen.
func (f *Freezer) Events() []Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Event(nil), f.events...)
}

// Await waits until the events from the from'th on satisfy ok and returns
// them. It waits on the clients, not on a clock; only the test's own
// deadline, if it has one, ends a wait that never comes.
func (f *Freezer) Await(t testing.TB, from int, ok func([]Event) bool) []Event {
	t.Helper()
	var expire <-chan time.Time
	if d, has := deadlineOf(t); has {
		timer := time.NewTimer(time.Until(d) - 5*time.Second)
		defer timer.Stop()
		expire = timer.C
	}
	for {
		f.mu.Lock()
		evs, changed := append([]Event(nil), f.events[min(from, len(f.events)):]...), f.changed
		f.mu.Unlock()
		if ok(evs) {
			return evs
		}
		select {
		case <-changed:
		case <-expire:
			t.Fatalf("the frozen server's events %v never came to what the test waits for", evs)
		}
	}
}

// deadlineOf is the test's deadline (go test -timeout), if t knows it.
func deadlineOf(t testing.TB) (time.Time, bool) {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		return d.Deadline()
	}
	return time.Time{}, false
}

func (f *Freezer) record(e Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, e)
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *Freezer) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			s, err := net.Dial("tcp", f.target)
			if err != nil {
				return
			}
			defer s.Close()
			l := &link{f: f}
			go f.pipe(c, s, l, false)
			f.pipe(s, c, l, true)
		}()
	}
}

// link is what the freezer knows of one connection from what its client
// sent first.
type link struct {
	f       *Freezer
	seen    bool // the client's first message has been read
	cancel  bool // the connection carries a cancel request
	late    bool // the first message came after the freeze
	waiting bool
	spared  atomic.Bool // read by the server's side too
}

// PostgreSQL's codes for the messages a client opens a connection with.
const (
	cancelRequestCode = 80877102
	protocol3         = 3 << 16
)

// first reads the connection's first message: a cancel request, or a
// start-up naming the application.
func (l *link) first(msg []byte, frozen bool) {
	l.seen, l.late = true, frozen
	if len(msg) < 8 {
		return
	}
	code := binary.BigEndian.Uint32(msg[4:8])
	l.cancel = code == cancelRequestCode
	l.f.mu.Lock()
	spare := l.f.spare
	l.f.mu.Unlock()
	if code == protocol3 && spare != "" {
		params := bytes.Split(msg[8:], []byte{0})
		for i := 0; i+1 < len(params); i += 2 {
			if string(params[i]) == "application_name" && string(params[i+1]) == spare {
				l.spared.Store(true)
			}
		}
	}
}

// pipe copies src to dst until frozen; a frozen pipe holds what it read.
// On the client's side it records the client's waits and give-ups; the
// server's side only holds.
func (f *Freezer) pipe(dst net.Conn, src net.Conn, l *link, client bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			frozen := isClosed(f.frozen)
			if client && !l.seen {
				l.first(buf[:n], frozen)
			}
			switch {
			case !frozen || l.spared.Load():
			case !client:
				<-f.done // holds the bytes, as a paused server does
				return
			default:
				f.held(src, l)
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// held records the client's wait (or its cancel request, a give-up) and
// then reads on without forwarding, to see the client close a connection
// whose start-up never came back.
func (f *Freezer) held(client net.Conn, l *link) {
	switch {
	case l.cancel:
		f.record(GiveUp)
	case !l.waiting:
		l.waiting = true
		f.record(Wait)
	}
	go func() { <-f.done; client.Close() }()
	buf := make([]byte, 4<<10)
	for {
		if _, err := client.Read(buf); err != nil {
			break
		}
	}
	// A connection that was up before the freeze gives its query up with
	// a cancel request of its own; its close comes later and is no news.
	if l.late && !l.cancel && !isClosed(f.done) {
		f.record(GiveUp)
	}
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
