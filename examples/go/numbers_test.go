package numbers

import (
	"context"
	"testing"

	dipswitch "dipswitch.test/go"
	"dipswitch.test/go/dipswitchtest"
)

func TestMain(m *testing.M) { dipswitchtest.Main(m, dipswitchtest.MainOptions{FailUnder: 10}) }

func TestListingSurvivesA503(t *testing.T) {
	ctx := context.Background()
	box := dipswitchtest.NewSandbox(t)
	rule, err := box.Faults.Add(ctx, dipswitch.FaultRequest{
		Match: map[string]any{"operation_id": "listNumbers"}, Effect: map[string]any{"status": 503}, Times: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	numbers, err := (&Client{Base: box.URL, Key: box.Keys.Admin, Retries: 2}).Numbers()
	if err != nil || len(numbers) != 10 {
		t.Fatalf("numbers %v, %v", numbers, err)
	}
	if fired, _ := rule.FiredNow(ctx); fired != 1 {
		t.Fatalf("fired %d", fired)
	}
	dipswitchtest.Verify(t, box.Client, dipswitch.Pattern{
		Match: map[string]any{"operation_id": "listNumbers", "status": 503}, Count: &dipswitch.Count{Exactly: dipswitch.N(1)},
	})
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
	dipswitchtest.Verify(t, box.Client, dipswitch.Pattern{
		Match: map[string]any{"operation_id": "checkoutCart"}, Count: &dipswitch.Count{Exactly: dipswitch.N(1)},
	})
}
