package server

import (
	"context"
	"net/http"
	"strings"
)

// mounted is a handler served beside the API (the dashboard).
type mounted struct {
	prefix, rel, what string
	h                 http.Handler
}

// Mount serves h for prefix (e.g. "/dashboard") and every path below it,
// ahead of the API pipeline and outside the catalog: the OpenAPI document,
// the MCP tools and the usage log never see it, and h checks its own
// callers. GET / links to prefix as rel, described by what. Mount before
// the server takes requests.
func (s *Server) Mount(prefix, rel, what string, h http.Handler) {
	s.mounts = append(s.mounts, mounted{prefix: strings.TrimSuffix(prefix, "/"), rel: rel, what: what, h: h})
}

// mountFor is the mounted handler that serves path, or nil.
func (s *Server) mountFor(path string) http.Handler {
	for _, m := range s.mounts {
		if path == m.prefix || strings.HasPrefix(path, m.prefix+"/") {
			return m.h
		}
	}
	return nil
}

type consoleKey struct{}

// Console marks ctx as the context of a request that the dashboard makes
// in-process on behalf of a signed-in user, with that user's dashboard key.
// The pipeline serves it like any other call (authentication, scope, rate
// limit, validation, the same handlers), but writes no usage row and
// exports no span for it: the usage log is the account's API traffic, not
// its page views. Only code in this process can set it.
func Console(ctx context.Context) context.Context {
	return context.WithValue(ctx, consoleKey{}, true)
}

func isConsole(ctx context.Context) bool {
	v, _ := ctx.Value(consoleKey{}).(bool)
	return v
}
