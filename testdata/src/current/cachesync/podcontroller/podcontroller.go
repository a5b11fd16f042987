// Package podcontroller is a controller of another package than its
// caller's: it asks the Pod informer handle it is given for the informer.
package podcontroller

import (
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

type Controller struct {
	pods       corelisters.PodLister
	podsSynced cache.InformerSynced
}

func New(pods coreinformers.PodInformer) *Controller {
	return &Controller{pods: pods.Lister(), podsSynced: pods.Informer().HasSynced}
}

// Namespaces keeps a Namespace lister.
type Namespaces struct {
	namespaces corelisters.NamespaceLister
}

func NewNamespaces(namespaces coreinformers.NamespaceInformer) *Namespaces {
	return &Namespaces{namespaces: namespaces.Lister()}
}

// Volumes asks the factory it is given for the informers it needs.
type Volumes struct {
	volumes corelisters.PersistentVolumeLister
}

func NewVolumes(factory informers.SharedInformerFactory) *Volumes {
	return &Volumes{volumes: factory.Core().V1().PersistentVolumes().Lister()}
}
