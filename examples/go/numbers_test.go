package numbers

import (
	"context"
	"testing"

	dipswitch "dipswitch.test/go"
	"dipswitch.test/go/dipswitchtest"
)

// the coverage gate comes from the environment (DIPSWITCH_FAIL_UNDER), set in CI alone
func TestMain(m *testing.M) { dipswitchtest.Main(m, dipswitchtest.MainOptions{}) }

func TestListingSurvivesA503(t *testing.T) {
	ctx := context.Background()
	box := dipswitchtest.NewSandbox(t)
	rule, err := box.Faults.Add(ctx, dipswitch.FaultSpec{
		Match:  dipswitch.FaultMatch{OperationID: dipswitch.Ptr("listNumbers")},
		Effect: dipswitch.FaultEffect{Status: dipswitch.Ptr(503)},
		Times:  dipswitch.Times(1),
	})
	if err != nil {
		t.Fatal(err)
	}
	numbers, err := (&Client{Base: box.URL, Key: box.Keys.Admin, Retries: 2}).Numbers()
	if err != nil || len(numbers) != 10 {
		t.Fatalf("numbers %v, %v", numbers, err)
	}
	if fired, _ := rule.Fired(ctx); fired != 1 {
		t.Fatalf("fired %d", fired)
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
	done, err := client.WaitForOrder(order.ID, func() { _, _ = box.Clock.Advance(ctx, "PT10M") })
	if err != nil || done.Status != "COMPLETED" {
		t.Fatalf("order %+v, %v", done, err)
	}
	dipswitchtest.Verify(t, box.Client, dipswitch.VerifyRequestsMatch{OperationID: dipswitch.Ptr("checkoutCart")}, dipswitch.Exactly(1))
}
