package dipswitch

import "context"

// States moves records to states the clock alone does not reach.
type States struct{ c *Client }

func (s *States) post(ctx context.Context, op Operation, params Params, body any) (map[string]any, error) {
	var out map[string]any
	return out, s.c.Do(ctx, op, params, body, nil, &out)
}

// RaiseOverwrite raises an OSR overwrite request for one of the account's numbers.
func (s *States) RaiseOverwrite(ctx context.Context, r RaiseOverwrite) (map[string]any, error) {
	return s.post(ctx, OpSimRaiseOverwrite, nil, r)
}

// MoveOrder moves an order to a status its table allows.
func (s *States) MoveOrder(ctx context.Context, id string, move StatusMove) (map[string]any, error) {
	return s.post(ctx, OpSimMoveOrder, Params{"id": id}, move)
}

// MoveRequest moves a submitted request to a status its table allows.
func (s *States) MoveRequest(ctx context.Context, id string, move StatusMove) (map[string]any, error) {
	return s.post(ctx, OpSimMoveRequest, Params{"id": id}, move)
}

// AbortBulkDip ends an unfinished bulk dip task ABORTED.
func (s *States) AbortBulkDip(ctx context.Context, id string) (map[string]any, error) {
	return s.post(ctx, OpSimAbortBulkDip, Params{"id": id}, nil)
}

// ScheduleBulkDip holds a NEW bulk dip task SCHEDULED until a time.
func (s *States) ScheduleBulkDip(ctx context.Context, id, until string) (map[string]any, error) {
	return s.post(ctx, OpSimScheduleBulkDip, Params{"id": id}, ScheduleRequest{Until: until})
}

// SuspendUser suspends a user of the account.
func (s *States) SuspendUser(ctx context.Context, id string) (map[string]any, error) {
	return s.post(ctx, OpSimSuspendUser, Params{"id": id}, nil)
}

// ReinstateUser reinstates a suspended user.
func (s *States) ReinstateUser(ctx context.Context, id string) (map[string]any, error) {
	return s.post(ctx, OpSimReinstateUser, Params{"id": id}, nil)
}

// CreateGroup adds a shared resource group to the account.
func (s *States) CreateGroup(ctx context.Context, name string) (*Group, error) {
	var out Group
	return &out, s.c.Do(ctx, OpSimCreateGroup, nil, GroupRequest{Name: name}, nil, &out)
}
