package ownership_test

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/ctrllint/ctrllint/runtime/ownership"
)

var deploymentGVK = appsv1.SchemeGroupVersion.WithKind("Deployment")

// The first owner becomes the child's controller; a second one is refused,
// as is an owner in another namespace.
func ExampleSetControllerReference() {
	web := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", UID: "uid-web"}}
	api := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "api", UID: "uid-api"}}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-guard"}}

	if err := ownership.SetControllerReference(web, sa, deploymentGVK); err != nil {
		fmt.Println(err)
		return
	}
	ref := metav1.GetControllerOf(sa)
	fmt.Printf("controller: %s %s, blocks owner deletion: %t\n", ref.Kind, ref.Name, *ref.BlockOwnerDeletion)

	fmt.Println(ownership.SetControllerReference(api, sa, deploymentGVK))

	elsewhere := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "web-guard"}}
	fmt.Println(ownership.SetControllerReference(web, elsewhere, deploymentGVK))
	// Output:
	// controller: Deployment web, blocks owner deletion: true
	// not setting default/api as controller of default/web-guard: it is controlled by Deployment web
	// not setting default/web as controller of kube-system/web-guard: owner references cannot cross namespaces
}

// The Pods a Deployment's selector matches, claimed: the orphan is adopted,
// the Pod that no longer matches is released, and another owner's Pod is
// left alone. Adopt and Release write through a (fake) clientset.
func ExampleClaimer() {
	web := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", UID: "uid-web"}}
	api := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "api", UID: "uid-api"}}
	pod := func(name, app string, controller *appsv1.Deployment) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": app}}}
		if controller != nil {
			p.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(controller, deploymentGVK)}
		}
		return p
	}
	pods := []*corev1.Pod{
		pod("web-1", "web", web),  // ours
		pod("web-2", "web", nil),  // an orphan that matches
		pod("web-3", "db", web),   // ours, relabelled
		pod("shared", "web", api), // another owner's
	}
	client := fake.NewClientset(pods[0], pods[1], pods[2], pods[3])
	podsAPI := client.CoreV1().Pods("default")

	claimer := &ownership.Claimer[*corev1.Pod]{
		Owner:    web,
		Selector: labels.SelectorFromSet(labels.Set{"app": "web"}),
		CanAdopt: func(ctx context.Context) error {
			// A live read, not the cache: a Deployment being deleted adopts nothing.
			fresh, err := client.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
			if err == nil && fresh.DeletionTimestamp != nil {
				err = fmt.Errorf("%s is being deleted", fresh.Name)
			}
			return err
		},
		Adopt: func(ctx context.Context, p *corev1.Pod) error {
			p = p.DeepCopy() // the objects may be the informer's: never write to them
			if err := ownership.SetControllerReference(web, p, deploymentGVK); err != nil {
				return err
			}
			_, err := podsAPI.Update(ctx, p, metav1.UpdateOptions{})
			return err
		},
		Release: func(ctx context.Context, p *corev1.Pod) error {
			p = p.DeepCopy()
			p.OwnerReferences = nil
			_, err := podsAPI.Update(ctx, p, metav1.UpdateOptions{})
			return err
		},
	}
	if _, err := client.AppsV1().Deployments("default").Create(context.Background(), web, metav1.CreateOptions{}); err != nil {
		fmt.Println(err)
		return
	}

	claimed, err := claimer.Claim(context.Background(), pods)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range claimed {
		fmt.Println("claimed:", p.Name)
	}
	for _, p := range pods {
		live, err := podsAPI.Get(context.Background(), p.Name, metav1.GetOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		controller := "none"
		if ref := metav1.GetControllerOf(live); ref != nil {
			controller = ref.Name
		}
		fmt.Printf("%s is controlled by %s\n", live.Name, controller)
	}
	// Output:
	// claimed: web-1
	// claimed: web-2
	// web-1 is controlled by web
	// web-2 is controlled by web
	// web-3 is controlled by none
	// shared is controlled by api
}

// A sync that creates two children expects to see them in its cache before
// it acts for their owner again; until then, Satisfied says to wait.
func ExampleExpectations() {
	expect := ownership.NewExpectations(5 * time.Minute)
	const owner = "default/web"

	fmt.Println("nothing expected, may act:", expect.Satisfied(owner))
	expect.Expect(owner, 2, 0) // about to create two children
	fmt.Println("after creating, may act:", expect.Satisfied(owner))
	expect.CreationObserved(owner) // the child informer's add handler, once per child
	fmt.Println("one seen, may act:", expect.Satisfied(owner))
	expect.CreationObserved(owner)
	fmt.Println("both seen, may act:", expect.Satisfied(owner))
	// Output:
	// nothing expected, may act: true
	// after creating, may act: false
	// one seen, may act: false
	// both seen, may act: true
}
