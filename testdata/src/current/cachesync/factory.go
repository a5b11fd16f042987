package cachesync

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"

	"example.com/current/cachesync/podcontroller"
)

// Main builds the controller, starts the factory and waits for it, then
// runs the controller: the order sample-controller's main uses. Silent.
func Main(ctx context.Context, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	c := NewController(factory.Apps().V1().Deployments())
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done()) // a map: its result need not be read
	c.Run(ctx, 2)
}

// LateController builds the controller after Start: the Deployment
// informer it asks for is never started.
func LateController(ctx context.Context, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	factory.Start(ctx.Done())
	c := NewController(factory.Apps().V1().Deployments()) // want `NewController requests the Deployment informer from the informer factory \(line \d+\) after its Start \(line \d+\): Start runs only the informers requested before it`
	c.Run(ctx, 2)
}

// LatePods hands a Pod informer handle to another package's constructor
// after Start.
func LatePods(ctx context.Context, factory informers.SharedInformerFactory) {
	factory.Start(ctx.Done())
	podcontroller.New(factory.Core().V1().Pods()) // want `the Pod informer handle is passed to New after the Start of factory \(line \d+\)`
}

// LateRequest asks for an informer directly after Start, and waits for it
// forever.
func LateRequest(ctx context.Context, factory informers.SharedInformerFactory) {
	factory.Start(ctx.Done())
	synced := factory.Core().V1().ConfigMaps().Informer().HasSynced // want `the ConfigMap informer is requested from factory after its Start \(line \d+\)`
	cache.WaitForCacheSync(ctx.Done(), synced)
}

// StartAgain requests an informer late and starts the factory again, as
// kube-controller-manager does for informers discovered later. Silent.
func StartAgain(ctx context.Context, factory informers.SharedInformerFactory) {
	factory.Start(ctx.Done())
	factory.Core().V1().Services().Informer()
	factory.Start(ctx.Done())
}

// ListerOfStarted asks for the lister of an informer requested before
// Start: the informer exists and runs. Silent.
func ListerOfStarted(ctx context.Context, factory informers.SharedInformerFactory) {
	factory.Core().V1().Secrets().Informer()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	lister := factory.Core().V1().Secrets().Lister()
	_ = lister
}

var widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

// LateDynamic asks a dynamic factory for an informer after its Start.
func LateDynamic(ctx context.Context, client dynamic.Interface) {
	factory := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	factory.Start(ctx.Done())
	factory.ForResource(widgets).Informer() // want `the widgets informer is requested from the informer factory after its Start`
}

var gadgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}

// MetadataBeforeStart is the right order for a metadata factory. Silent.
func MetadataBeforeStart(ctx context.Context, client metadata.Interface) {
	factory := metadatainformer.NewSharedInformerFactory(client, 0)
	informer := factory.ForResource(gadgets).Informer()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	_ = informer
}

// Manager keeps its factory in a field and adds informers in a method.
type Manager struct {
	factory informers.SharedInformerFactory
}

// Start starts the factory, then asks for more informers in a helper.
func (m *Manager) Start(ctx context.Context) {
	m.factory.Start(ctx.Done())
	m.watchEndpoints() // want `m.watchEndpoints requests the EndpointSlice informer from the factory in field factory \(line \d+\) after its Start \(line \d+\)`
}

func (m *Manager) watchEndpoints() {
	m.factory.Discovery().V1().EndpointSlices().Informer()
}

// StartInOrder asks first, then starts. Silent.
func (m *Manager) StartInOrder(ctx context.Context) {
	m.watchNodes()
	m.factory.Start(ctx.Done())
}

func (m *Manager) watchNodes() {
	m.factory.Core().V1().Nodes().Informer()
}

// HandedBefore hands the Namespace informer handle to another package's
// constructor before Start, then reads its lister after Start: the
// informer exists and runs. Silent.
func HandedBefore(ctx context.Context, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	podcontroller.NewNamespaces(factory.Core().V1().Namespaces())
	factory.Start(ctx.Done())
	_ = factory.Core().V1().Namespaces().Lister()
}

// SetUpBefore asks for the informer in a helper before Start. Silent.
func SetUpBefore(ctx context.Context, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	watchVolumes(factory)
	factory.Start(ctx.Done())
	_ = factory.Core().V1().PersistentVolumes().Lister()
}

func watchVolumes(factory informers.SharedInformerFactory) {
	factory.Core().V1().PersistentVolumes().Informer()
}

// RunsItself asks for an informer after Start and runs it itself. Silent.
func RunsItself(ctx context.Context, factory informers.SharedInformerFactory) {
	factory.Start(ctx.Done())
	informer := factory.Core().V1().LimitRanges().Informer()
	go informer.Run(ctx.Done())
	cache.WaitForCacheSync(ctx.Done(), informer.HasSynced)
}

// FactoryHandedBefore gives the factory itself to another package's
// constructor before Start; that constructor may have asked for any
// informer, so reading a lister after Start is not reported. Silent.
func FactoryHandedBefore(ctx context.Context, client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactory(client, 0)
	podcontroller.NewVolumes(factory)
	factory.Start(ctx.Done())
	_ = factory.Core().V1().ReplicationControllers().Lister()
}
