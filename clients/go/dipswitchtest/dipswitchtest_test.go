package dipswitchtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	dipswitch "dipswitch.test/go"
	"dipswitch.test/go/dipswitchtest"
)

func TestMain(m *testing.M) {
	dipswitchtest.Main(m, dipswitchtest.MainOptions{FailUnder: dipswitchtest.Gate(1)})
}

func get(t *testing.T, box *dipswitch.Sandbox, path string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", box.URL+path, nil)
	req.Header.Set("authorization", "Bearer "+box.Keys.Admin)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestSandboxesInParallelNeverSeeEachOther(t *testing.T) {
	for i := 0; i < 4; i++ {
		t.Run("sandbox", func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			box := dipswitchtest.NewSandbox(t)
			rule, err := box.Faults.Add(ctx, dipswitch.FaultRequest{
				Match:  dipswitch.FaultMatch{OperationID: dipswitch.Ptr("listNumbers")},
				Effect: dipswitch.FaultEffect{Status: dipswitch.Ptr(503)},
				Times:  dipswitch.Ptr(1),
			})
			if err != nil {
				t.Fatal(err)
			}
			if a, b := get(t, box, "/api/v1/numbers"), get(t, box, "/api/v1/numbers"); a != 503 || b != 200 {
				t.Fatalf("statuses %d, %d", a, b)
			}
			if rules, err := box.Faults.List(ctx); err != nil || len(rules.Faults) != 1 || rules.Faults[0].ID != rule.ID || rules.Faults[0].Fired != 1 {
				t.Fatalf("the rule as listed: %+v, %v", rules, err)
			}
			dipswitchtest.Verify(t, box.Client, dipswitch.VerifyRequestsMatch{OperationID: dipswitch.Ptr("listNumbers")}, dipswitch.Exactly(2))
			if _, err := box.Reset(ctx, dipswitch.ResetRequest{}); err != nil {
				t.Fatal(err)
			}
			dipswitchtest.Verify(t, box.Client, dipswitch.VerifyRequestsMatch{Any: dipswitch.Ptr(true)}, dipswitch.Exactly(0))
		})
	}
}

func TestATypoIsRefusedAndAMissIsNamed(t *testing.T) {
	ctx := context.Background()
	box := dipswitchtest.NewSandbox(t)
	_, err := box.Requests.Verify(ctx, dipswitch.VerifyRequests{Match: dipswitch.VerifyRequestsMatch{OperationID: dipswitch.Ptr("listNumbrs")}})
	var refused *dipswitch.ControlError
	if !errors.As(err, &refused) || refused.Status != 422 || !strings.Contains(err.Error(), "`listNumbers`") {
		t.Fatalf("a typo: %v", err)
	}
	get(t, box, "/api/v1/carts")
	_, err = box.Requests.Verify(ctx, dipswitch.VerifyRequests{
		Match: dipswitch.VerifyRequestsMatch{OperationID: dipswitch.Ptr("listCarts"), Status: dipswitch.Ptr(201)},
		Count: dipswitch.Exactly(1),
	})
	var failed *dipswitch.VerificationError
	if !errors.As(err, &failed) || !strings.Contains(err.Error(), "status: expected 201, got 200") {
		t.Fatalf("a near miss: %v", err)
	}
}

// The one rule of every client: a count is the server's to judge (a *ControlError), none of it refused here;
// no Times is a rule that fires on every match (the contract's default).
func TestACountIsTheServersToJudge(t *testing.T) {
	ctx := context.Background()
	box := dipswitchtest.NewSandbox(t)
	spec := dipswitch.FaultRequest{Match: dipswitch.FaultMatch{OperationID: dipswitch.Ptr("listCarts")}, Effect: dipswitch.FaultEffect{Status: dipswitch.Ptr(503)}}
	var refused *dipswitch.ControlError
	spec.Times = dipswitch.Ptr(0)
	if _, err := box.Faults.Add(ctx, spec); !errors.As(err, &refused) || refused.Status != 422 {
		t.Fatalf("Times 0: %v", err)
	}
	spec.Times = nil
	rule, err := box.Faults.Add(ctx, spec)
	if err != nil || rule.Times != nil {
		t.Fatalf("no Times: %+v, %v", rule, err)
	}
	if a, b := get(t, box, "/api/v1/carts"), get(t, box, "/api/v1/carts"); a != 503 || b != 503 {
		t.Fatalf("statuses %d, %d", a, b)
	}
}

func TestADroppedCallIsJournaledAndVerified(t *testing.T) {
	ctx := context.Background()
	box := dipswitchtest.NewSandbox(t)
	if _, err := box.Faults.Add(ctx, dipswitch.FaultRequest{
		Match:  dipswitch.FaultMatch{OperationID: dipswitch.Ptr("listCarts")},
		Effect: dipswitch.FaultEffect{Drop: dipswitch.Ptr(true)},
		Times:  dipswitch.Ptr(1),
	}); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", box.URL+"/api/v1/carts", nil)
	req.Header.Set("authorization", "Bearer "+box.Keys.Admin)
	// on a connection of its own: Go's transport sends a GET again by itself when a reused connection drops it
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	if res, err := fresh.Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("the dropped call was answered %d", res.StatusCode)
	}
	// the client's retry
	if status := get(t, box, "/api/v1/carts"); status != 200 {
		t.Fatalf("the retry: %d", status)
	}
	dipswitchtest.Verify(t, box.Client, dipswitch.VerifyRequestsMatch{OperationID: dipswitch.Ptr("listCarts")}, dipswitch.Exactly(2))
}

func TestAnInboundSMSReachesTheTestsReceiverSigned(t *testing.T) {
	ctx := context.Background()
	receiver := dipswitchtest.NewReceiver(t)
	box := dipswitchtest.NewSandbox(t)
	post := func(method, path string, body any) map[string]any {
		data, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, box.URL+path, strings.NewReader(string(data)))
		req.Header.Set("authorization", "Bearer "+box.Keys.Admin)
		req.Header.Set("content-type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		return out
	}
	target := receiver.URL(box.ReceiverHost, "/sms")
	sw := post("POST", "/api/v1/switches", map[string]any{"type": "switch", "data": map[string]any{
		"name": "go", "sms_enabled": true, "sms_protocol": "HTTP", "sms_data": target,
		"sms_auth_method": "HMAC_SHA256", "sms_secret": "go secret",
	}})
	id := sw["data"].(map[string]any)["id"]
	post("PATCH", "/api/v1/numbers/"+box.Numbers[0], map[string]any{"type": "did", "data": map[string]any{"switch_id": id}})
	if _, err := box.Inbound.SMS(ctx, dipswitch.InboundSms{To: box.Numbers[0], From: "+14155550123", Text: "hello from go"}); err != nil {
		t.Fatal(err)
	}
	d := dipswitchtest.WaitFor(t, box.Client, dipswitch.VerifyDeliveriesMatch{
		Kind: dipswitch.Ptr(dipswitch.DeliveryKindSMS), Outcome: dipswitch.Ptr(dipswitch.VerifyDeliveriesMatchOutcomeDelivered),
	}, 5*time.Second)
	if d.Target != target {
		t.Fatalf("target %s", d.Target)
	}
	sms := receiver.WaitFor(t, 1, 5*time.Second)[0]
	if sms.Path != "/sms" || !dipswitch.VerifySignature(sms.Header.Get("authorization"), sms.Body, "go secret") {
		t.Fatalf("the receiver got %s, signed %q", sms.Path, sms.Header.Get("authorization"))
	}
	if dipswitch.VerifySignature(sms.Header.Get("authorization"), sms.Body, "another secret") {
		t.Fatal("another secret verified")
	}
}

func TestMainHandsTheRunOn(t *testing.T) {
	box := dipswitchtest.NewSandbox(t)
	if run := dipswitchtest.Server().Run; run == "" || box.Made.Run == nil || *box.Made.Run != run {
		t.Fatalf("the server's run %q, the sandbox's %v", run, box.Made.Run)
	}
}
