// This file is a controller-runtime reconciler shaped on the one kubebuilder
// scaffolds (with the finalizer of the kubebuilder book's "Using
// Finalizers"): it provisions a cloud load balancer for each Service of type
// LoadBalancer and deletes it, behind a finalizer, when the Service goes. Its
// bugs are deliberate: each is marked by a comment naming the analyzer that
// reports it.

package example

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// lbFinalizer keeps a Service until its load balancer is gone.
const lbFinalizer = "example.com/load-balancer"

// lbIDAnnotation records the provider's id of a Service's load balancer.
const lbIDAnnotation = "example.com/load-balancer-id"

// ErrProvisioning is what LoadBalancers.Ensure returns until the load
// balancer has an address.
var ErrProvisioning = errors.New("load balancer is being provisioned")

// LoadBalancers is the cloud provider's API.
type LoadBalancers interface {
	// Ensure creates or updates the load balancer of svc and returns its
	// id and address.
	Ensure(ctx context.Context, svc *corev1.Service) (id, ip string, err error)
	// Delete deletes the load balancer of svc; it is not an error if there
	// is none.
	Delete(ctx context.Context, svc *corev1.Service) error
}

// LoadBalancerReconciler reconciles Services of type LoadBalancer.
type LoadBalancerReconciler struct {
	client.Client
	Scheme *runtime.Scheme
	Cloud  LoadBalancers
}

// +kubebuilder:rbac:groups=core,resources=services,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=core,resources=services/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=core,resources=services/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get;list;watch;create;update;patch

// Reconcile moves a Service's load balancer towards the Service's spec.
func (r *LoadBalancerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)

	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil {
		// Deleted Services need nothing more: their finalizer has run.
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if svc.Spec.Type != corev1.ServiceTypeLoadBalancer {
		// A Service no longer of type LoadBalancer keeps no record of one.
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: svc.Name + "-load-balancer", Namespace: svc.Namespace}}
		return ctrl.Result{}, client.IgnoreNotFound(r.Delete(ctx, cm)) // rbacmarkers: no marker grants delete on configmaps
	}

	if !svc.DeletionTimestamp.IsZero() {
		if controllerutil.ContainsFinalizer(&svc, lbFinalizer) {
			if err := r.Cloud.Delete(ctx, &svc); err != nil {
				log.Error(err, "Deleting the load balancer")
			}
			controllerutil.RemoveFinalizer(&svc, lbFinalizer) // finalizer: removed although the delete failed
			if err := r.Update(ctx, &svc); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}

	if !controllerutil.ContainsFinalizer(&svc, lbFinalizer) {
		patch := client.MergeFrom(svc.DeepCopy()) // finalizerpatch: the merge patch sends the whole finalizers list, dropping one added meanwhile
		controllerutil.AddFinalizer(&svc, lbFinalizer)
		if err := r.Patch(ctx, &svc, patch); err != nil {
			return ctrl.Result{}, err
		}
	}

	id, ip, err := r.Cloud.Ensure(ctx, &svc)
	if errors.Is(err, ErrProvisioning) {
		log.V(1).Info("Waiting for the load balancer's address")
		return ctrl.Result{RequeueAfter: 10 * time.Second}, err // requeueerr: the error wins, the 10s are ignored
	}
	if err != nil {
		return ctrl.Result{}, err
	}

	if svc.Annotations[lbIDAnnotation] != id {
		patch := client.MergeFrom(&svc) // patchbase: the patch is {}, its base being the object changed below
		metav1.SetMetaDataAnnotation(&svc.ObjectMeta, lbIDAnnotation, id)
		if err := r.Patch(ctx, &svc, patch); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err := r.recordAddress(ctx, &svc, id, ip); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.claimReady(ctx, &svc, ip); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.setIngress(ctx, &svc, ip)
}

// recordAddress keeps the load balancer's id and address in a ConfigMap
// beside the Service, for the team's dashboards; the Service owns it, so
// that it goes when the Service goes.
func (r *LoadBalancerReconciler) recordAddress(ctx context.Context, svc *corev1.Service, id, ip string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: svc.Name + "-load-balancer", Namespace: svc.Namespace}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error { // cachescope: its Get through the manager's cache starts an informer of every ConfigMap of the cluster
		cm.Data = map[string]string{"id": id, "ip": ip}
		return controllerutil.SetControllerReference(svc, cm, r.Scheme) // unwatched: the ConfigMap is never watched, so one deleted by hand stays gone
	})
	return err
}

// setIngress publishes the load balancer's address in the Service's status.
func (r *LoadBalancerReconciler) setIngress(ctx context.Context, svc *corev1.Service, ip string) error {
	if len(svc.Status.LoadBalancer.Ingress) == 1 && svc.Status.LoadBalancer.Ingress[0].IP == ip {
		return nil
	}
	svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: ip}}
	return r.Update(ctx, svc) // statusupdate: Update ignores status, a subresource of Service
}

// SetupWithManager registers the reconciler with the manager.
func (r *LoadBalancerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&corev1.Service{}).
		Named("loadbalancer").
		Complete(r)
}

// Run builds the manager, with the options kubebuilder scaffolds, and runs
// the reconciler until ctx is done.
func Run(ctx context.Context, cfg *rest.Config, cloud LoadBalancers) error {
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{})
	if err != nil {
		return err
	}
	r := &LoadBalancerReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme(), Cloud: cloud}
	if err := r.SetupWithManager(mgr); err != nil {
		return err
	}
	return mgr.Start(ctx)
}
