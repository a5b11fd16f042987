// Package certmanager holds the group name of cert-manager's main API
// group, apart from its versions, as cert-manager v0.13 lays it out
// (pkg/apis/certmanager/register.go): a controller imports the version
// package only, and export data keeps no trace of this constant.
package certmanager

const GroupName = "cert-manager.io"
