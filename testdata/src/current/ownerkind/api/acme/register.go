// Package acme holds the group name of cert-manager's ACME API group
// (pkg/apis/acme/register.go at v0.13).
package acme

const GroupName = "acme.cert-manager.io"
