package main

import (
	"context"
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/ctrllint/ctrllint/runtime/eventhandler"
	"github.com/ctrllint/ctrllint/runtime/ownership"
	"github.com/ctrllint/ctrllint/runtime/workloop"
)

// Annotation opts a Deployment in, with the value "true".
const Annotation = "ctrllint.dev/guard"

// PDBName is the name of a Deployment's PodDisruptionBudget.
func PDBName(deployment string) string { return deployment + "-pdb" }

// ServiceAccountName is the name of a Deployment's ServiceAccount.
func ServiceAccountName(deployment string) string { return deployment + "-guard" }

var (
	deploymentGVK = appsv1.SchemeGroupVersion.WithKind("Deployment")
	deploymentGK  = schema.GroupKind{Group: appsv1.GroupName, Kind: "Deployment"}
)

// Controller reconciles annotated Deployments.
type Controller struct {
	client      kubernetes.Interface
	deployments appslisters.DeploymentLister
	pdbs        policylisters.PodDisruptionBudgetLister
	accounts    corelisters.ServiceAccountLister
	expect      *ownership.Expectations
	loop        *workloop.Controller[eventhandler.Key]
	err         error
}

// New wires the controller to the factory's informers; start the factory
// after New and before Run.
func New(client kubernetes.Interface, factory informers.SharedInformerFactory, opts ...workloop.Option[eventhandler.Key]) *Controller {
	deployments := factory.Apps().V1().Deployments()
	pdbs := factory.Policy().V1().PodDisruptionBudgets()
	accounts := factory.Core().V1().ServiceAccounts()
	c := &Controller{
		client:      client,
		deployments: deployments.Lister(),
		pdbs:        pdbs.Lister(),
		accounts:    accounts.Lister(),
		expect:      ownership.NewExpectations(expectationTTL),
	}
	c.loop, c.err = workloop.New("guard", c.sync, []cache.DoneChecker{
		deployments.Informer().HasSyncedChecker(), pdbs.Informer().HasSyncedChecker(), accounts.Informer().HasSyncedChecker(),
	}, opts...)
	if c.err != nil {
		return c
	}
	_, err1 := deployments.TypedInformer().AddTypedEventHandler(eventhandler.Enqueue[*appsv1.Deployment](c.loop.Enqueue))
	_, err2 := pdbs.TypedInformer().AddTypedEventHandler(childEvents[*policyv1.PodDisruptionBudget](c))
	_, err3 := accounts.TypedInformer().AddTypedEventHandler(childEvents[*corev1.ServiceAccount](c))
	c.err = errors.Join(err1, err2, err3)
	return c
}

// childEvents enqueues the owning Deployment of a changed child, and
// tells the expectations when a child it created shows up in the cache.
func childEvents[T eventhandler.Object](c *Controller) cache.TypedResourceEventHandlerFuncs[T] {
	h := eventhandler.EnqueueOwner[T](deploymentGK, c.loop.Enqueue)
	enqueue := h.AddFunc
	h.AddFunc = func(child T) {
		if owner, ok := eventhandler.OwnerKey(child, deploymentGK); ok {
			c.expect.CreationObserved(owner.String())
		}
		enqueue(child)
	}
	return h
}

// Run processes Deployments until ctx is cancelled.
func (c *Controller) Run(ctx context.Context, workers int) error {
	if c.err != nil {
		return c.err
	}
	return c.loop.Run(ctx, workers)
}

// sync makes one Deployment's children match its annotation. It reads only
// from listers, and writes through the client.
func (c *Controller) sync(ctx context.Context, key eventhandler.Key) error {
	d, err := c.deployments.Deployments(key.Namespace).Get(key.Name)
	switch {
	case apierrors.IsNotFound(err):
		c.expect.Forget(key.String()) // its children go with the garbage collector
		return nil
	case err != nil:
		return err
	case d.DeletionTimestamp != nil:
		return nil
	case d.Annotations[Annotation] != "true":
		return c.release(ctx, d)
	case !c.expect.Satisfied(key.String()):
		return nil // our last creations are not in the cache yet
	}

	var create []func(context.Context) error
	pdb, err := c.pdbs.PodDisruptionBudgets(d.Namespace).Get(PDBName(d.Name))
	switch {
	case apierrors.IsNotFound(err):
		create = append(create, func(ctx context.Context) error { return c.createPDB(ctx, d) })
	case err != nil:
		return err
	case !ownership.IsControlledBy(pdb, d):
		utilruntime.HandleErrorWithContext(ctx, nil, "PodDisruptionBudget exists and is not ours", "pdb", klogRef(pdb))
	}
	sa, err := c.accounts.ServiceAccounts(d.Namespace).Get(ServiceAccountName(d.Name))
	switch {
	case apierrors.IsNotFound(err):
		create = append(create, func(ctx context.Context) error { return c.createServiceAccount(ctx, d) })
	case err != nil:
		return err
	case !ownership.IsControlledBy(sa, d):
		utilruntime.HandleErrorWithContext(ctx, nil, "ServiceAccount exists and is not ours", "serviceaccount", klogRef(sa))
	}

	c.expect.Expect(key.String(), len(create), 0)
	var errs []error
	for _, f := range create {
		if err := f(ctx); err != nil && !apierrors.IsAlreadyExists(err) {
			c.expect.Lower(key.String(), 1, 0) // it will never be observed
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (c *Controller) createPDB(ctx context.Context, d *appsv1.Deployment) error {
	maxUnavailable := intstr.FromInt32(1)
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: PDBName(d.Name), Namespace: d.Namespace},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MaxUnavailable: &maxUnavailable,
			Selector:       d.Spec.Selector.DeepCopy(),
		},
	}
	if err := ownership.SetControllerReference(d, pdb, deploymentGVK); err != nil {
		return err
	}
	_, err := c.client.PolicyV1().PodDisruptionBudgets(d.Namespace).Create(ctx, pdb, metav1.CreateOptions{})
	return err
}

func (c *Controller) createServiceAccount(ctx context.Context, d *appsv1.Deployment) error {
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: ServiceAccountName(d.Name), Namespace: d.Namespace}}
	if err := ownership.SetControllerReference(d, sa, deploymentGVK); err != nil {
		return err
	}
	_, err := c.client.CoreV1().ServiceAccounts(d.Namespace).Create(ctx, sa, metav1.CreateOptions{})
	return err
}

// release deletes the children a Deployment controls once it opts out;
// the UID precondition makes sure a child re-created by someone else in
// the meantime is not deleted.
func (c *Controller) release(ctx context.Context, d *appsv1.Deployment) error {
	var errs []error
	if pdb, err := c.pdbs.PodDisruptionBudgets(d.Namespace).Get(PDBName(d.Name)); err == nil && ownership.IsControlledBy(pdb, d) {
		err := c.client.PolicyV1().PodDisruptionBudgets(d.Namespace).Delete(ctx, pdb.Name, deleteIf(pdb.UID))
		errs = append(errs, ignoreNotFound(err))
	}
	if sa, err := c.accounts.ServiceAccounts(d.Namespace).Get(ServiceAccountName(d.Name)); err == nil && ownership.IsControlledBy(sa, d) {
		err := c.client.CoreV1().ServiceAccounts(d.Namespace).Delete(ctx, sa.Name, deleteIf(sa.UID))
		errs = append(errs, ignoreNotFound(err))
	}
	return errors.Join(errs...)
}

func deleteIf(uid types.UID) metav1.DeleteOptions {
	return metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}}
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func klogRef(o metav1.Object) string { return fmt.Sprintf("%s/%s", o.GetNamespace(), o.GetName()) }
