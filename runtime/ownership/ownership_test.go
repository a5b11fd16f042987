package ownership_test

import (
	"context"
	"errors"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/ctrllint/ctrllint/runtime/ownership"
)

var gvk = appsv1.SchemeGroupVersion.WithKind("Deployment")

func owner(ns, name, uid string) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: typesUID(uid)}}
}

func TestSetControllerReference(t *testing.T) {
	web := owner("ns", "web", "1")

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-config"}}
	if err := ownership.SetControllerReference(web, cm, gvk); err != nil {
		t.Fatal(err)
	}
	ref := metav1.GetControllerOf(cm)
	if ref == nil || ref.UID != "1" || !*ref.BlockOwnerDeletion {
		t.Fatalf("controller reference not set right: %+v", ref)
	}
	if err := ownership.SetControllerReference(web, cm, gvk); err != nil || len(cm.OwnerReferences) != 1 {
		t.Errorf("setting the same owner twice: %v, %d references", err, len(cm.OwnerReferences))
	}

	var refused *ownership.RefusedError
	for name, child := range map[string]metav1.Object{
		"controlled by another owner": cm,
		"another namespace":           &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "x"}},
		"cluster-scoped child":        &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "x"}},
	} {
		other := web
		if name == "controlled by another owner" {
			other = owner("ns", "api", "2")
		}
		before := len(child.GetOwnerReferences())
		err := ownership.SetControllerReference(other, child, gvk)
		if !errors.As(err, &refused) {
			t.Errorf("%s: got %v, want a refusal", name, err)
		}
		if len(child.GetOwnerReferences()) != before {
			t.Errorf("%s: the references changed despite the refusal", name)
		}
	}

	// A cluster-scoped owner may own a namespaced child.
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns", UID: "9"}}
	quota := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "q"}}
	if err := ownership.SetControllerReference(ns, quota, corev1.SchemeGroupVersion.WithKind("Namespace")); err != nil {
		t.Errorf("cluster-scoped owner of a namespaced child: %v", err)
	}
}

func TestClaimer(t *testing.T) {
	web := owner("ns", "web", "1")
	sel := labels.SelectorFromSet(labels.Set{"app": "web"})
	pod := func(name string, lbl string, ctrl *metav1.OwnerReference) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{"app": lbl}}}
		if ctrl != nil {
			p.OwnerReferences = []metav1.OwnerReference{*ctrl}
		}
		return p
	}
	ours := metav1.NewControllerRef(web, gvk)
	theirs := metav1.NewControllerRef(owner("ns", "api", "2"), gvk)
	var adopted, released []string
	checks := 0
	c := &ownership.Claimer[*corev1.Pod]{
		Owner:    web,
		Selector: sel,
		CanAdopt: func(context.Context) error { checks++; return nil },
		Adopt:    func(_ context.Context, p *corev1.Pod) error { adopted = append(adopted, p.Name); return nil },
		Release:  func(_ context.Context, p *corev1.Pod) error { released = append(released, p.Name); return nil },
	}
	claimed, err := c.Claim(context.Background(), []*corev1.Pod{
		pod("orphan-match", "web", nil),
		pod("orphan-other", "db", nil),
		pod("ours-match", "web", ours),
		pod("ours-stale", "db", ours),
		pod("theirs", "web", theirs),
		pod("orphan-match-2", "web", nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range claimed {
		names = append(names, p.Name)
	}
	if want := "[orphan-match ours-match orphan-match-2]"; fmtList(names) != want {
		t.Errorf("claimed %v, want %s", names, want)
	}
	if fmtList(adopted) != "[orphan-match orphan-match-2]" || fmtList(released) != "[ours-stale]" {
		t.Errorf("adopted %v, released %v", adopted, released)
	}
	if checks != 1 {
		t.Errorf("the owner was re-checked %d times, want once before the first adoption", checks)
	}

	// A dying owner (per the fresh re-check) adopts nothing.
	dying := &ownership.Claimer[*corev1.Pod]{
		Owner: web, Selector: sel,
		CanAdopt: func(context.Context) error { return errors.New("web is being deleted") },
		Adopt:    func(context.Context, *corev1.Pod) error { t.Error("adopted for a dying owner"); return nil },
		Release:  func(context.Context, *corev1.Pod) error { return nil },
	}
	if _, err := dying.Claim(context.Background(), []*corev1.Pod{pod("orphan", "web", nil)}); err == nil {
		t.Error("no error from a failed adoption check")
	}
}

func TestExpectations(t *testing.T) {
	e := ownership.NewExpectations(time.Hour)
	if !e.Satisfied("ns/web") {
		t.Fatal("nothing expected, yet not satisfied")
	}
	e.Expect("ns/web", 2, 0)
	e.CreationObserved("ns/web")
	if e.Satisfied("ns/web") {
		t.Fatal("satisfied after one of two creations")
	}
	e.Lower("ns/web", 1, 0) // the second create failed
	if !e.Satisfied("ns/web") {
		t.Fatal("not satisfied after the failed creation was taken back")
	}
	e.Expect("ns/web", 0, 1)
	e.DeletionObserved("ns/web")
	if !e.Satisfied("ns/web") {
		t.Fatal("not satisfied after the deletion was observed")
	}
	short := ownership.NewExpectations(time.Millisecond)
	short.Expect("ns/api", 1, 0)
	time.Sleep(5 * time.Millisecond)
	if !short.Satisfied("ns/api") {
		t.Error("an expired expectation still blocks the owner")
	}
	short.Forget("ns/api")
}

func fmtList(s []string) string {
	out := "["
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out + "]"
}

// TestIsControlledBy: only a controller reference with the owner's UID
// counts; a plain owner reference, or a controller reference to an earlier
// object of the same name (another UID), does not.
func TestIsControlledBy(t *testing.T) {
	web := owner("ns", "web", "1")
	earlier := owner("ns", "web", "0")
	controlled := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}}
	if err := ownership.SetControllerReference(web, controlled, gvk); err != nil {
		t.Fatal(err)
	}
	owned := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "b",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "1"}}}}
	orphan := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c"}}
	for _, tc := range []struct {
		what         string
		child, owner metav1.Object
		want         bool
	}{
		{"controlled by web", controlled, web, true},
		{"controlled by an earlier web", controlled, earlier, false},
		{"owned but not controlled", owned, web, false},
		{"an orphan", orphan, web, false},
	} {
		if got := ownership.IsControlledBy(tc.child, tc.owner); got != tc.want {
			t.Errorf("%s: IsControlledBy = %v, want %v", tc.what, got, tc.want)
		}
	}
}
