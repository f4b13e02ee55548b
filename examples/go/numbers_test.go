package numbers

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dipswitch "dipswitch.test/go"
	"dipswitch.test/go/dipswitchtest"
)

// the coverage gate comes from the environment (DIPSWITCH_FAIL_UNDER), set in CI alone
func TestMain(m *testing.M) { dipswitchtest.Main(m, dipswitchtest.MainOptions{}) }

func TestListingSurvivesA503(t *testing.T) {
	ctx := context.Background()
	box := dipswitchtest.NewSandbox(t)
	if _, err := box.Faults.Add(ctx, dipswitch.FaultRequest{
		Match:  dipswitch.FaultMatch{OperationID: dipswitch.Ptr("listNumbers")},
		Effect: dipswitch.FaultEffect{Status: dipswitch.Ptr(503)},
		Times:  dipswitch.Ptr(1),
	}); err != nil {
		t.Fatal(err)
	}
	numbers, err := (&Client{Base: box.URL, Key: box.Keys.Admin, Retries: 2}).Numbers()
	if err != nil || len(numbers) != 10 {
		t.Fatalf("numbers %v, %v", numbers, err)
	}
	if rules, _ := box.Faults.List(ctx); rules == nil || rules.Faults[0].Fired != 1 {
		t.Fatalf("the rule as listed: %+v", rules)
	}
	dipswitchtest.Verify(t, box.Client, dipswitch.VerifyRequestsMatch{
		OperationID: dipswitch.Ptr("listNumbers"), Status: dipswitch.Ptr(503),
	}, dipswitch.Exactly(1))
}

func TestTwoNumbersOrderedAndWaitedFor(t *testing.T) {
	ctx := context.Background()
	box := dipswitchtest.NewSandbox(t)
	client := &Client{Base: box.URL, Key: box.Keys.Admin}
	order, err := client.OrderTwo("312", "IL")
	if err != nil {
		t.Fatal(err)
	}
	done, err := client.WaitForOrder(order.ID, func() { _, _ = box.Clock.Advance(ctx, dipswitch.AdvanceRequest{By: dipswitch.Ptr("PT10M")}) })
	if err != nil || done.Status != "COMPLETED" {
		t.Fatalf("order %+v, %v", done, err)
	}
	dipswitchtest.Verify(t, box.Client, dipswitch.VerifyRequestsMatch{OperationID: dipswitch.Ptr("checkoutCart")}, dipswitch.Exactly(1))
}

func TestAnInboundSMSReachesOurWebhook(t *testing.T) {
	ctx := context.Background()
	box := dipswitchtest.NewSandbox(t)
	texts := make(chan string, 4)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var sms struct {
			Data struct{ Text string } `json:"data"`
		}
		_ = json.NewDecoder(r.Body).Decode(&sms)
		texts <- sms.Data.Text
	}))
	defer receiver.Close()
	// the server reaches this machine's loopback at box.ReceiverHost (127.0.0.1, or the container's way to it)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(receiver.URL, "http://"))
	client := &Client{Base: box.URL, Key: box.Keys.Admin}
	var sw struct{ Data struct{ ID string } }
	if err := client.call("POST", "/switches", map[string]any{"type": "switch", "data": map[string]any{
		"name": "webhook", "sms_enabled": true, "sms_protocol": "HTTP",
		"sms_data": "http://" + net.JoinHostPort(box.ReceiverHost, port) + "/sms",
	}}, &sw); err != nil {
		t.Fatal(err)
	}
	if err := client.call("PATCH", "/numbers/"+box.Numbers[0], map[string]any{"type": "did", "data": map[string]any{"switch_id": sw.Data.ID}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := box.Inbound.SMS(ctx, dipswitch.InboundSms{To: box.Numbers[0], From: "+14155550123", Text: "hello team"}); err != nil {
		t.Fatal(err)
	}
	dipswitchtest.WaitFor(t, box.Client, dipswitch.VerifyDeliveriesMatch{
		Kind: dipswitch.Ptr(dipswitch.DeliveryKindSMS), Outcome: dipswitch.Ptr(dipswitch.VerifyDeliveriesMatchOutcomeDelivered),
	}, 5*time.Second)
	if got := <-texts; got != "hello team" {
		t.Fatalf("the webhook got %q", got)
	}
	dipswitchtest.VerifyDeliveries(t, box.Client, dipswitch.VerifyDeliveriesMatch{
		Kind: dipswitch.Ptr(dipswitch.DeliveryKindSMS), Body: map[string]any{"data": map[string]any{"text": "hello team"}},
	}, dipswitch.Exactly(1))
}
