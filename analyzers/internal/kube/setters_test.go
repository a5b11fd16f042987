package kube_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/ctrllint/ctrllint/analyzers/internal/fixture"
	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// method returns the method name of path.typ (looked up on *typ too).
func method(t *testing.T, pkgs map[string]*types.Package, path, typ, name string) *types.Func {
	t.Helper()
	tn, ok := pkgs[path].Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		t.Fatalf("no type %s.%s", path, typ)
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkgs[path], name)
	if _, iface := tn.Type().Underlying().(*types.Interface); iface {
		obj, _, _ = types.LookupFieldOrMethod(tn.Type(), true, pkgs[path], name)
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		t.Fatalf("%s.%s has no method %s", path, typ, name)
	}
	return fn
}

// TestSetterTable: every entry of the setter table names a function or type
// of the libraries both fixture modules build (controller-runtime v0.25 and
// v0.18), and SetterOf says which argument and field each call changes —
// the same through every receiver (ObjectMeta, metav1.Object,
// client.Object, Unstructured).
func TestSetterTable(t *testing.T) {
	for _, module := range []string{"current", "legacy"} {
		t.Run(module, func(t *testing.T) {
			pkgs := fixture.Types(t, module, kube.MetaV1Pkg, kube.MetaPkg, kube.ControllerUtilPkg, kube.UnstructuredPkg,
				kube.SchemaPkg, kube.CRClientPkg)
			fn := func(path, name string) *types.Func {
				f, ok := pkgs[path].Scope().Lookup(name).(*types.Func)
				if !ok {
					t.Fatalf("%s.%s is not a function", path, name)
				}
				return f
			}
			for _, e := range kube.SetterFuncs() {
				if _, ok := kube.SetterOf(fn(e[0], e[1])); !ok {
					t.Errorf("SetterOf(%s.%s) = false", e[0], e[1])
				}
			}
			// The Set* methods of the metadata receivers set the ObjectMeta
			// field of their name, but for Unstructured's own (its type
			// and content): Field is what the name says.
			objectMeta := pkgs[kube.MetaV1Pkg].Scope().Lookup("ObjectMeta").Type().Underlying().(*types.Struct)
			hasField := func(name string) bool {
				for i := range objectMeta.NumFields() {
					if objectMeta.Field(i).Name() == name {
						return true
					}
				}
				return false
			}
			for _, e := range kube.MetaSetterReceivers() {
				tn, ok := pkgs[e[0]].Scope().Lookup(e[1]).(*types.TypeName)
				if !ok {
					t.Fatalf("%s.%s names no type", e[0], e[1])
				}
				mset := types.NewMethodSet(types.NewPointer(tn.Type()))
				if types.IsInterface(tn.Type()) {
					mset = types.NewMethodSet(tn.Type())
				}
				setters := 0
				for i := range mset.Len() {
					m := mset.At(i).Obj().(*types.Func)
					if !strings.HasPrefix(m.Name(), "Set") {
						continue
					}
					setters++
					s, ok := kube.SetterOf(m)
					field := strings.TrimPrefix(m.Name(), "Set")
					switch {
					case !ok:
						t.Errorf("SetterOf(%s) = false", m.FullName())
					case kube.NonMetaSetters()[m.Name()]:
						if s.Field != "" || hasField(field) {
							t.Errorf("%s: a setter of no metadata, but %+v (ObjectMeta field: %v)", m.FullName(), s, hasField(field))
						}
					case s.Field != field || !hasField(field):
						t.Errorf("SetterOf(%s) = %+v, want the ObjectMeta field %s (exists: %v)", m.FullName(), s, field, hasField(field))
					}
				}
				if setters < 10 {
					t.Errorf("%s.%s: only %d Set* methods", e[0], e[1], setters)
				}
			}
			for name := range kube.NonMetaSetters() {
				method(t, pkgs, kube.UnstructuredPkg, "Unstructured", name)
			}
			for _, tc := range []struct {
				f     *types.Func
				want  kube.Setter
				isSet bool
			}{
				{fn(kube.ControllerUtilPkg, "AddFinalizer"), kube.Setter{Arg: 0, Field: kube.FieldFinalizers}, true},
				{fn(kube.ControllerUtilPkg, "RemoveFinalizer"), kube.Setter{Arg: 0, Field: kube.FieldFinalizers}, true},
				{fn(kube.ControllerUtilPkg, "SetControllerReference"), kube.Setter{Arg: 1, Field: kube.FieldOwnerReferences}, true},
				{fn(kube.ControllerUtilPkg, "RemoveControllerReference"), kube.Setter{Arg: 1, Field: kube.FieldOwnerReferences}, true},
				{fn(kube.ControllerUtilPkg, "RemoveOwnerReference"), kube.Setter{Arg: 1, Field: kube.FieldOwnerReferences}, true},
				{fn(kube.MetaV1Pkg, "SetMetaDataLabel"), kube.Setter{Arg: 0, Field: kube.FieldLabels}, true},
				{fn(kube.MetaV1Pkg, "SetMetaDataAnnotation"), kube.Setter{Arg: 0, Field: kube.FieldAnnotations}, true},
				{fn(kube.MetaV1Pkg, "ResetObjectMetaForStatus"), kube.Setter{Arg: 0}, true},
				{fn(kube.MetaPkg, "SetStatusCondition"), kube.Setter{Arg: 0, Field: kube.FieldConditions}, true},
				{fn(kube.UnstructuredPkg, "SetNestedField"), kube.Setter{Arg: 0}, true},
				{method(t, pkgs, kube.MetaV1Pkg, "ObjectMeta", "SetLabels"), kube.Setter{Arg: 0, Field: kube.FieldLabels}, true},
				{method(t, pkgs, kube.MetaV1Pkg, "ObjectMeta", "SetResourceVersion"), kube.Setter{Arg: 0, Field: kube.FieldResourceVersion}, true},
				{method(t, pkgs, kube.MetaV1Pkg, "Object", "SetFinalizers"), kube.Setter{Arg: 0, Field: kube.FieldFinalizers}, true},
				{method(t, pkgs, kube.CRClientPkg, "Object", "SetOwnerReferences"), kube.Setter{Arg: 0, Field: kube.FieldOwnerReferences}, true},
				{method(t, pkgs, kube.UnstructuredPkg, "Unstructured", "SetAnnotations"), kube.Setter{Arg: 0, Field: kube.FieldAnnotations}, true},
				{method(t, pkgs, kube.UnstructuredPkg, "Unstructured", "SetKind"), kube.Setter{Arg: 0}, true},
				{method(t, pkgs, kube.UnstructuredPkg, "Unstructured", "SetUnstructuredContent"), kube.Setter{Arg: 0}, true},
				{method(t, pkgs, kube.MetaV1Pkg, "TypeMeta", "SetGroupVersionKind"), kube.Setter{Arg: 0}, true},
				{method(t, pkgs, kube.SchemaPkg, "ObjectKind", "SetGroupVersionKind"), kube.Setter{Arg: 0}, true},
				// Readers.
				{fn(kube.ControllerUtilPkg, "ContainsFinalizer"), kube.Setter{}, false},
				{fn(kube.MetaV1Pkg, "HasLabel"), kube.Setter{}, false},
				{fn(kube.MetaPkg, "FindStatusCondition"), kube.Setter{}, false},
				{fn(kube.UnstructuredPkg, "NestedString"), kube.Setter{}, false},
				{method(t, pkgs, kube.MetaV1Pkg, "ObjectMeta", "GetLabels"), kube.Setter{}, false},
				{method(t, pkgs, kube.CRClientPkg, "Object", "GetFinalizers"), kube.Setter{}, false},
			} {
				got, ok := kube.SetterOf(tc.f)
				if ok != tc.isSet || got != tc.want {
					t.Errorf("SetterOf(%s) = %+v, %v; want %+v, %v", tc.f.FullName(), got, ok, tc.want, tc.isSet)
				}
				if meta := tc.want.Field != "" && tc.want.Field != kube.FieldConditions; got.Meta() != meta {
					t.Errorf("SetterOf(%s).Meta() = %v", tc.f.FullName(), got.Meta())
				}
			}
		})
	}
	if _, ok := kube.SetterOf(nil); ok {
		t.Errorf("SetterOf(nil) is a setter")
	}
}
