// Package numbers is a small client of the provider's /api/v1, as a client team writes one: list numbers,
// order two, wait for the order.
package numbers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Client calls /api/v1 with an API key, trying a 5xx again.
type Client struct {
	Base    string
	Key     string
	Retries int
}

func (c *Client) call(method, path string, body, out any) error {
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	for attempt := 0; ; attempt++ {
		req, _ := http.NewRequest(method, c.Base+"/api/v1"+path, bytes.NewReader(data))
		req.Header.Set("authorization", "Bearer "+c.Key)
		if body != nil {
			req.Header.Set("content-type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		if res.StatusCode >= 500 && attempt < c.Retries {
			res.Body.Close()
			time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
			continue
		}
		defer res.Body.Close()
		if res.StatusCode >= 300 {
			return fmt.Errorf("%s %s answered %d", method, path, res.StatusCode)
		}
		if out == nil {
			return nil
		}
		return json.NewDecoder(res.Body).Decode(out)
	}
}

// Numbers lists the account's numbers.
func (c *Client) Numbers() ([]string, error) {
	var page struct {
		Results []struct {
			Data struct{ Number string } `json:"data"`
		} `json:"results"`
	}
	if err := c.call("GET", "/numbers", nil, &page); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(page.Results))
	for _, r := range page.Results {
		out = append(out, r.Data.Number)
	}
	return out, nil
}

// Order is an order's id and status.
type Order struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// OrderTwo orders two new numbers in an area code: a cart, a request, a checkout.
func (c *Client) OrderTwo(npa, state string) (*Order, error) {
	var cart struct{ Data struct{ ID string } }
	if err := c.call("POST", "/carts", map[string]any{"type": "cart", "data": map[string]any{"name": fmt.Sprint("order ", time.Now().UnixNano())}}, &cart); err != nil {
		return nil, err
	}
	request := map[string]any{"type": "request", "data": map[string]any{"type": "NEW_NUMBERS", "data": map[string]any{
		"npa": npa, "state": state, "number_type": "TENDLC", "quantity": "2"}}}
	if err := c.call("POST", "/carts/"+cart.Data.ID+"/requests", request, nil); err != nil {
		return nil, err
	}
	var order struct{ Data Order }
	return &order.Data, c.call("POST", "/carts/"+cart.Data.ID+"/checkout", nil, &order)
}

// WaitForOrder polls the order until it ends; tick moves time on between polls (a test's clock).
func (c *Client) WaitForOrder(id string, tick func()) (*Order, error) {
	for i := 0; i < 50; i++ {
		var order struct{ Data Order }
		if err := c.call("GET", "/orders/"+id, nil, &order); err != nil {
			return nil, err
		}
		switch order.Data.Status {
		case "COMPLETED", "ERROR", "CANCELLED":
			return &order.Data, nil
		}
		tick()
	}
	return nil, fmt.Errorf("order %s did not end", id)
}
