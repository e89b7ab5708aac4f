package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// healthcheck asks the running dashboard's /healthz on this machine and
// returns the exit code for a container health check, which has no shell or
// curl to do it.
func healthcheck(listenAddr string) int {
	if listenAddr == "" {
		listenAddr = "127.0.0.1:8080"
	}
	_, port, err := net.SplitHostPort(listenAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "healthcheck:", err)
		return 1
	}
	client := &http.Client{Timeout: 3 * time.Second}
	resp, err := client.Get("http://" + net.JoinHostPort("127.0.0.1", port) + "/healthz")
	if err != nil {
		fmt.Fprintln(os.Stderr, "healthcheck:", err)
		return 1
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, "healthcheck: status", resp.StatusCode)
		return 1
	}
	return 0
}
