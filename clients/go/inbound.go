package dipswitch

import "context"

// Inbound is traffic arriving at the account's numbers.
type Inbound struct{ c *Client }

// SMS delivers an SMS from a handset to one of the account's numbers and answers its trace.
func (i *Inbound) SMS(ctx context.Context, m InboundSms) (*SmsResult, error) {
	var out SmsResult
	return &out, i.c.Do(ctx, OpSimInboundSms, nil, m, nil, &out)
}

// MMS delivers an MMS (MediaUrls required) and answers its trace.
func (i *Inbound) MMS(ctx context.Context, m InboundMms) (*SmsResult, error) {
	var out SmsResult
	return &out, i.c.Do(ctx, OpSimInboundMms, nil, m, nil, &out)
}

// Call places a call to one of the account's numbers and answers the routing decision.
func (i *Inbound) Call(ctx context.Context, m InboundCall) (*CallResult, error) {
	var out CallResult
	return &out, i.c.Do(ctx, OpSimInboundCall, nil, m, nil, &out)
}
