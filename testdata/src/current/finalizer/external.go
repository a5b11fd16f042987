package finalizer

import "context"

// Docker is a client of the Docker host a Container runs on.
type Docker interface {
	RemoveContainer(ctx context.Context, name string) error
	Close() error
}

// IdentityProvider is the API a User is kept in.
type IdentityProvider interface {
	DeleteUser(ctx context.Context, id string) error
}

// Forge is the Git forge a Webhook is registered with.
type Forge interface {
	DeleteWebhook(ctx context.Context, repo string, id int64) error
}

func newDocker(ctx context.Context, host string) (Docker, error) { return nil, nil }

func resolveForge(ctx context.Context, c *Container) (Forge, error) { return nil, nil }
