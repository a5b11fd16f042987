// This file is the sync half of the client-go controller in controller.go,
// shaped on sample-controller's syncHandler and newDeployment. Its bugs are
// deliberate: each is marked by a comment naming the analyzer that reports
// it.

package example

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
)

const (
	// fieldManager names this controller in the objects' managed fields.
	fieldManager = "service-exposer"
	// serviceAnnotation records a Deployment's Service on the Deployment.
	serviceAnnotation = "example.com/service"
	// indexName is the ConfigMap listing a namespace's exposed Services.
	indexName = "exposed-services"
)

// The role of the controller manager, which runs both controllers, is
// generated from the +kubebuilder:rbac markers of this package: these are
// the client-go controller's, reconciler.go's the reconciler's.
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;update
// +kubebuilder:rbac:groups=apps,resources=deployments/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=services,verbs=create
// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get;create;update

// controllerKind is the kind of the objects this controller owns things for.
var controllerKind = appsv1.SchemeGroupVersion.WithKind("Deployment")

// syncHandler compares a Deployment with its Service and converges the
// two: it creates the Service, records it on the Deployment and lists it
// in the namespace's index.
func (c *Controller) syncHandler(ctx context.Context, namespace, name string) error {
	logger := klog.LoggerWithValues(klog.FromContext(ctx), "deployment", klog.KRef(namespace, name))

	d, err := c.deploymentsLister.Deployments(namespace).Get(name)
	if errors.IsNotFound(err) {
		// Deleted: the garbage collector deletes its Service.
		logger.V(4).Info("Deployment is gone")
		return nil
	}
	if err != nil {
		return err
	}
	if d.Annotations[exposeAnnotation] != "true" {
		return nil
	}

	if d.Annotations[serviceAnnotation] != d.Name {
		d.Annotations[serviceAnnotation] = d.Name // cachemutation: changes the informer's copy, which every reader shares
		if _, err := c.kubeclientset.AppsV1().Deployments(namespace).Update(ctx, d, metav1.UpdateOptions{FieldManager: fieldManager}); err != nil {
			return err
		}
	}

	// Create the Service, or find the one an earlier sync created.
	svc, err := c.kubeclientset.CoreV1().Services(namespace).Create(ctx, newService(d), metav1.CreateOptions{FieldManager: fieldManager})
	if errors.IsAlreadyExists(err) {
		svc, err = c.kubeclientset.CoreV1().Services(namespace).Get(ctx, d.Name, metav1.GetOptions{}) // listerbypass: a GET per sync for what the lister holds
	}
	if err != nil {
		return err
	}
	if !metav1.IsControlledBy(svc, d) {
		return fmt.Errorf("service %s/%s exists and is not managed by Deployment %s", svc.Namespace, svc.Name, d.Name)
	}
	logger.V(4).Info("Service is in place", "service", klog.KObj(svc))
	return c.recordService(ctx, d)
}

// recordService lists the Service in the namespace's index, a ConfigMap
// that other tools read.
func (c *Controller) recordService(ctx context.Context, d *appsv1.Deployment) error {
	// A client of its own, so that the audit log says who wrote the index.
	config := rest.CopyConfig(c.config)
	config.UserAgent = "service-exposer/index"
	client, err := kubernetes.NewForConfig(config) // clientperreconcile: a new client, connections and rate limiter per sync
	if err != nil {
		return err
	}
	configMaps := client.CoreV1().ConfigMaps(d.Namespace)
	index, err := configMaps.Get(ctx, indexName, metav1.GetOptions{})
	if errors.IsNotFound(err) {
		_, err = configMaps.Create(ctx, newIndex(d), metav1.CreateOptions{FieldManager: fieldManager})
		return err
	}
	if err != nil {
		return err
	}
	if index.Data == nil {
		index.Data = map[string]string{}
	}
	index.Data[d.Name] = serviceHost(d)
	// Other Deployments' syncs write the index too.
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := configMaps.Update(ctx, index, metav1.UpdateOptions{FieldManager: fieldManager}) // conflictretry: each attempt resends the resourceVersion read above
		return err
	})
}

// newService makes the Service in front of a Deployment's pods, owned by
// the Deployment so that it goes when the Deployment goes.
func newService(d *appsv1.Deployment) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{
			Name:      d.Name,
			Namespace: d.Namespace,
			OwnerReferences: []metav1.OwnerReference{
				*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("ReplicaSet")), // ownerkind: copied from a ReplicaSet controller
			},
		},
		Spec: corev1.ServiceSpec{
			Selector: d.Spec.Selector.MatchLabels,
			Ports: []corev1.ServicePort{{
				Name:       "http",
				Port:       80,
				TargetPort: intstr.FromString("http"),
			}},
		},
	}
}

// newIndex makes a namespace's index of exposed Services.
func newIndex(d *appsv1.Deployment) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:      indexName,
			Namespace: d.Namespace,
			OwnerReferences: []metav1.OwnerReference{ // sharedowner: every exposed Deployment of the namespace owns the one index
				*metav1.NewControllerRef(d, controllerKind),
			},
		},
		Data: map[string]string{d.Name: serviceHost(d)},
	}
}

// serviceHost is the DNS name of a Deployment's Service.
func serviceHost(d *appsv1.Deployment) string {
	return d.Name + "." + d.Namespace + ".svc"
}
