package listerbypass

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/util/workqueue"
)

var widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

// DynamicController watches widgets through a dynamic informer and reads
// them again through the dynamic client.
type DynamicController struct {
	dyn   dynamic.Interface
	queue workqueue.TypedInterface[string]
}

func NewDynamic(dyn dynamic.Interface, factory dynamicinformer.DynamicSharedInformerFactory) *DynamicController {
	factory.ForResource(widgets).Informer()
	return &DynamicController{dyn: dyn, queue: workqueue.NewTyped[string]()}
}

func (c *DynamicController) process(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	w, err := c.dyn.Resource(widgets).Namespace("default").Get(ctx, key, metav1.GetOptions{}) // want `dynamic client Get of var example.com/current/listerbypass.widgets goes to the API server`
	if err != nil {
		return true
	}
	_ = w
	// gadgets have no informer: silent.
	gadgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}
	_, _ = c.dyn.Resource(gadgets).List(ctx, metav1.ListOptions{})
	return true
}
