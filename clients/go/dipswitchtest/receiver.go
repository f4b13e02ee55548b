package dipswitchtest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Received is one request as it came: its method, path, headers and raw body.
type Received struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// Receiver is a webhook receiver for a test that only wants to see what was sent: an httptest server on
// 127.0.0.1, answering every request 200, closed with t.Cleanup.
type Receiver struct {
	server *httptest.Server
	mu     sync.Mutex
	got    []Received
}

// NewReceiver starts a receiver for the test.
func NewReceiver(t testing.TB) *Receiver {
	r := &Receiver{}
	r.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, Received{req.Method, req.URL.RequestURI(), req.Header.Clone(), body})
		r.mu.Unlock()
	}))
	t.Cleanup(r.server.Close)
	return r
}

// URL is the URL of path on this receiver as the server reaches it (host: the client's ReceiverHost).
func (r *Receiver) URL(host, path string) string {
	return "http://" + host + ":" + r.server.URL[strings.LastIndex(r.server.URL, ":")+1:] + path
}

// Received answers every request so far.
func (r *Receiver) Received() []Received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Received(nil), r.got...)
}

// WaitFor answers the first count requests, failing the test when they did not come within timeout.
func (r *Receiver) WaitFor(t testing.TB, count int, timeout time.Duration) []Received {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if got := r.Received(); len(got) >= count {
			return got[:count]
		} else if time.Now().After(deadline) {
			t.Fatalf("the receiver got %d of %d requests within %s", len(got), count, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
