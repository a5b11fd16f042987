package rbacmarkers

// controller-gen loads no _test.go file: a marker here is never read.

// +kubebuilder:rbac:groups=core,resources=replicationcontrollers,verbs=get // want `it is in a _test.go file, which controller-gen does not load, .*; move it to a file of the package's code`
