package tombstone

import (
	"context"

	"example.com/current/tombstone/queueutil"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/dynamiclister"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

var ruleGVR = schema.GroupVersionResource{Group: "networking.istio.io", Version: "v1", Resource: "destinationrules"}

// RuleControllerConfig and RuleController are argo-rollouts' Istio
// controller (v1.10.1, rollout/trafficrouting/istio/controller.go:
// NewIstioController, EnqueueDestinationRule (exported there) and
// syncDestinationRule): a
// dynamic informer, whose type does not say what it delivers, and a sync
// that reads the dynamic lister built on that informer's indexer and
// returns on a rule it no longer has. Not reported.
type RuleControllerConfig struct {
	RuleInformer  cache.SharedIndexInformer
	OtherInformer cache.SharedIndexInformer
}

type RuleController struct {
	RuleControllerConfig
	ruleQueue   workqueue.TypedRateLimitingInterface[string]
	RuleLister  dynamiclister.Lister
	OtherLister dynamiclister.Lister
}

func NewRuleController(cfg RuleControllerConfig) *RuleController {
	c := RuleController{
		RuleControllerConfig: cfg,
		ruleQueue:            workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		RuleLister:           dynamiclister.New(cfg.RuleInformer.GetIndexer(), ruleGVR),
		OtherLister:          dynamiclister.New(cfg.OtherInformer.GetIndexer(), ruleGVR),
	}
	c.RuleInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			c.enqueueRule(obj)
		},
		DeleteFunc: func(obj any) {
			c.enqueueRule(obj)
		},
	})
	return &c
}

func (c *RuleController) enqueueRule(obj any) {
	queueutil.EnqueueRateLimited(obj, c.ruleQueue)
}

func (c *RuleController) Run(ctx context.Context) {
	queueutil.RunWorker(ctx, c.ruleQueue, "destinationrule", c.syncRule)
}

func (c *RuleController) syncRule(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	rule, err := c.RuleLister.Namespace(namespace).Get(name)
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	_ = rule.GetAnnotations()
	return nil
}

// OtherRuleController registers on the other informer but syncs through
// the rule lister: a missing rule is not the deleted object.
type OtherRuleController struct {
	*RuleController
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *OtherRuleController) Register() {
	c.OtherInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			queueutil.Enqueue(obj, c.queue) // want `the deletion is dropped when the object is a cache.DeletedFinalStateUnknown tombstone`
		},
	})
}

func (c *OtherRuleController) Run(ctx context.Context) {
	queueutil.RunWorker(ctx, c.queue, "destinationrule", c.syncRule)
}
