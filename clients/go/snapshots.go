package dipswitch

import "context"

// Snapshots save and restore the state.
type Snapshots struct{ c *Client }

// Save saves the state under a name.
func (s *Snapshots) Save(ctx context.Context, name string) error {
	return s.c.Do(ctx, OpSimSaveSnapshot, nil, SnapshotRequest{Name: name}, nil, nil)
}

// Restore puts the state saved under name back.
func (s *Snapshots) Restore(ctx context.Context, name string) error {
	return s.c.Do(ctx, OpSimRestoreSnapshot, Params{"name": name}, nil, nil, nil)
}

// List answers the snapshots saved, with their sizes.
func (s *Snapshots) List(ctx context.Context) ([]SnapshotListSnapshotsItem, error) {
	var out SnapshotList
	return out.Snapshots, s.c.Do(ctx, OpSimListSnapshots, nil, nil, nil, &out)
}
