// Package testhttp serves download tests on 127.0.0.1: a body served whole
// or cut short (an interrupted download), and an address nothing listens
// on (offline). The servers stop when the test ends.
package testhttp

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Serve starts a server on 127.0.0.1 that answers every GET with body, or
// with its first n bytes when 0 <= n < len(body) (declaring the full
// length, as an interrupted download does), and returns the URL of path on
// it.
func Serve(t testing.TB, body []byte, n int, path string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-gzip")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		if n >= 0 && n < len(body) {
			w.Write(body[:n])
			return // the server closes the connection short of Content-Length
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + path
}

// ClosedURL returns the URL of path on a 127.0.0.1 port nothing listens on.
func ClosedURL(t testing.TB, path string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + path
}
