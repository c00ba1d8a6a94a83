package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/store/sqlite"
)

// Run the reference server in-process on the embedded store.
func ExampleNew() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "webinfra-example")
	defer os.RemoveAll(dir)
	st, err := sqlite.Open(ctx, filepath.Join(dir, "webinfra.db"))
	if err != nil {
		panic(err)
	}
	defer st.Close()
	f, _ := fetch.New(nil)
	srv, err := server.New(st, f, nil)
	if err != nil {
		panic(err)
	}
	defer srv.Close(ctx)
	ts := httptest.NewServer(srv)
	defer ts.Close()

	res, err := http.Post(ts.URL+"/v1/auth/signup", "application/json",
		strings.NewReader(`{"email":"ada@example.com","password":"a long password"}`))
	if err != nil {
		panic(err)
	}
	res.Body.Close()
	fmt.Println(res.Status, res.Header.Get("X-Ratelimit-Limit"))
	// Output: 200 OK 60
}
