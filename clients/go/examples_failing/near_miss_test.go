//go:build failing

// A verify that fails on purpose: what go test prints for a near miss (the project's suite runs it with
// -tags failing and reads it).
package examples_failing

import (
	"net/http"
	"strings"
	"testing"

	dipswitch "dipswitch.test/go"
	"dipswitch.test/go/dipswitchtest"
)

func TestMain(m *testing.M) { dipswitchtest.Main(m, dipswitchtest.MainOptions{}) }

func TestCheckoutWasCalled(t *testing.T) {
	box := dipswitchtest.NewSandbox(t)
	req, _ := http.NewRequest("POST", box.URL+"/api/v1/carts", strings.NewReader(`{"type":"cart","data":{"name":"launch"}}`))
	req.Header.Set("authorization", "Bearer "+box.Keys.Admin)
	req.Header.Set("content-type", "application/json")
	if _, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	dipswitchtest.Verify(t, box.Client, dipswitch.VerifyRequestsMatch{
		Method: dipswitch.Ptr("POST"), Path: dipswitch.Ptr("/api/v1/carts"),
		Body: map[string]any{"data": map[string]any{"name": "lunch"}},
	}, dipswitch.Exactly(1))
}
